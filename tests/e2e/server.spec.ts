import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./helpers/test";
import { freePort, startShop, waitForShop } from "./helpers/shop-server";

test.describe("HTTP server", () => {
  test("every HTML response carries strict security headers; a page of its own has a fresh script nonce", async ({ request }) => {
    const first = await request.get("/auth/login");
    const second = await request.get("/auth/login");
    const csp = first.headers()["content-security-policy"];
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const secondNonce = /'nonce-([^']+)'/.exec(second.headers()["content-security-policy"])?.[1];
    expect(secondNonce).not.toBe(nonce);
    expect(await second.text()).toContain(`nonce="${secondNonce}"`);
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src "));
    expect(scriptSrc).toBe(`script-src 'self' 'nonce-${nonce}'`);
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // HSTS only when the public URL is https; the test server is http.
    expect(first.headers()["strict-transport-security"]).toBeUndefined();
    // every inline script in the page carries the nonce of its response
    const html = await first.text();
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)([^>]*)>/g)];
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const [, attrs] of inlineScripts) expect(attrs).toContain(`nonce="${nonce}"`);
  });

  test("a cached storefront page allows exactly its own inline scripts, by hash", async ({ request }) => {
    await request.get("/shop");
    const cached = await request.get("/shop");
    expect(cached.headers()["x-page-cache"]).toBe("HIT");
    const csp = cached.headers()["content-security-policy"];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("nonce-");
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src "))!;
    const allowed = scriptSrc.split(" ").slice(2);
    expect(scriptSrc.startsWith("script-src 'self' ")).toBe(true);
    const html = await cached.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBeGreaterThan(0);
    const hashes = inline.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`);
    expect(new Set(allowed)).toEqual(new Set(hashes));
  });

  test("a cached page inlines only the rules it uses, looks exactly as with the whole stylesheet, and adds that before another page shows", async ({ page, browser }) => {
    // five pages loaded twice without scripts, every element's computed style read twice: 16–25 s in CI runs on the
    // 2-core machine, too close to the 30 s default
    test.slow();
    await page.goto("/shop");
    await page.goto("/shop");
    await expect(page.locator("style[data-href='app-css'][data-subset]")).toHaveCount(1);
    // hydrated and idle: the whole stylesheet is fetched ahead, but not applied (restyling the page would cost a phone)
    const prefetched = page.locator('link[rel="prefetch"][href^="/assets/app-"]');
    await expect(prefetched).toHaveCount(1);
    const href = (await prefetched.getAttribute("href"))!;
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
    // a client-side navigation adds it, so the next page (here a product) has every rule
    await page.locator('a[href^="/products/"]').first().click();
    await expect(page).toHaveURL(/\/products\//);
    await expect(page.locator(`link[rel="stylesheet"][href="${href}"]`)).toHaveCount(1);
    await page.waitForFunction((h) => [...document.styleSheets].some((sheet) => sheet.href?.endsWith(h) && sheet.cssRules.length > 0), href);

    // without scripts only the subset applies: every element's computed style is the same once the whole file is added
    const context = await browser.newContext({ reducedMotion: "reduce", viewport: { width: 412, height: 900 } });
    const bare = await context.newPage();
    await bare.route("**/assets/*.js", (route) => route.abort());
    for (const path of ["/", "/shop", "/products/amber-lantern", "/terms", "/scent-finder"]) {
      await bare.goto(path);
      await bare.goto(path); // the cached copy
      await expect(bare.locator("style[data-href='app-css'][data-subset]"), path).toHaveCount(1);
      await expect(bare.locator('link[rel="stylesheet"]'), path).toHaveCount(0);
      // Every image loaded (lazy ones too) and every font: getComputedStyle gives a laid-out element's width and height
      // as used, so an image or a font arriving between the two readings would change them (a CI run under load saw
      // five elements of the product page differ that way).
      await bare.evaluate(async () => {
        const images = [...document.images];
        for (const image of images) image.loading = "eager";
        const settled = (image: HTMLImageElement) =>
          new Promise((done) => {
            image.addEventListener("load", done, { once: true });
            image.addEventListener("error", done, { once: true });
          });
        await Promise.all(images.map((image) => (image.complete ? null : settled(image))));
        await document.fonts.ready;
      });
      // Each element's computed style is read in the page and kept there by element (not by position: a change to
      // the document between the two readings would otherwise compare one element with another), then read again
      // with the whole file added; only the differing elements come back, with up to four properties (subset → whole).
      await bare.evaluate(async () => {
        const look = (element: Element) => {
          const style = getComputedStyle(element);
          // Custom properties (Tailwind's --tw-* on every element) are not looked at themselves: what they feed is,
          // in the properties that use them. Reading them too was most of this test's time.
          return new Map([...style].filter((name) => !name.startsWith("--")).map((name) => [name, style.getPropertyValue(name)]));
        };
        await document.fonts.ready;
        // animations at their end (the 4-second "still loading" line), so the clock doesn't change a style
        for (const animation of document.getAnimations()) {
          try {
            animation.finish();
          } catch {
            // an endless one: reduced motion leaves none
          }
        }
        const elements = [...document.body.querySelectorAll("*")];
        Object.assign(window, { __look: look, __before: new Map(elements.map((element) => [element, look(element)])) });
      });
      await bare.addStyleTag({ url: href });
      const differing = await bare.evaluate(async () => {
        await document.fonts.ready;
        const { __look: look, __before: before } = window as unknown as {
          __look: (element: Element) => Map<string, string>;
          __before: Map<Element, Map<string, string>>;
        };
        // an element the page removed meanwhile has no style to compare
        return [...before].flatMap(([element, then]) => {
          if (!element.isConnected) return [];
          const now = look(element);
          const changed = [...now].filter(([name, value]) => then.get(name) !== value);
          if (changed.length === 0) return [];
          const tag = `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}">`;
          return [`${tag} ${changed.slice(0, 4).map(([name, value]) => `${name}: ${then.get(name)} → ${value}`).join(", ")}`];
        });
      });
      expect(differing, path).toEqual([]);
    }
    await context.close();
  });

  test("the page runs under its CSP without violations", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // cached pages (sealed, by hash; a product page streams its reviews in) and pages of their own (nonce)
    for (const path of ["/", "/shop", "/products/amber-lantern", "/auth/login", "/cart"]) {
      for (let i = 0; i < 2; i++) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
      }
      // hydrated: client navigation works
      await page.getByRole("link", { name: "Shop", exact: true }).first().click();
      await expect(page).toHaveURL(/\/shop/);
    }
    expect(violations).toEqual([]);
  });

  test("compresses HTML, sends scripts compressed at build time and caches hashed assets for a year", async ({ request }) => {
    const home = await request.get("/", { headers: { "accept-encoding": "gzip" } });
    expect(home.headers()["content-encoding"]).toBe("gzip");
    // React and React Router: the biggest script every page loads (vite.config.ts names its chunk)
    const asset = /\/assets\/framework-[^"]+\.js/.exec(await home.text())?.[0];
    expect(asset).toBeTruthy();
    const js = await request.get(asset!, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(js.status()).toBe(200);
    expect(js.headers()["cache-control"]).toContain("max-age=31536000");
    expect(js.headers()["cache-control"]).toContain("immutable");
    // compressed at build time (brotli 11), so it has a length, unlike a response compressed as it streams
    expect(js.headers()["content-encoding"]).toBe("br");
    expect(Number(js.headers()["content-length"])).toBeGreaterThan(0);
    expect(js.headers()["content-type"]).toContain("javascript");
  });

  test("the public files are served by name (an hour's cache); a page path never reaches the disk handler", async ({ request }) => {
    for (const [path, type] of [["/favicon.svg", "image/svg+xml"], ["/og-image.png", "image/png"], ["/images/placeholder.svg", "image/svg+xml"]]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      expect(res.headers()["content-type"]).toContain(type);
      expect(res.headers()["cache-control"]).toContain("max-age=3600");
    }
    expect((await request.get("/images/no-such-file.svg")).status()).toBe(404);
    expect((await request.get("/favicon.svg.bak")).status()).toBe(404);
  });

  test("/healthz checks the database", async ({ request }) => {
    const res = await request.get("/healthz");
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  test("a taken port stops the shop with a plain message instead of replacing workers for ever", async () => {
    // another server already holds the port (a second `npm start`, say)
    const other = createServer().listen(0);
    await once(other, "listening");
    const port = (other.address() as AddressInfo).port;
    const shop = startShop(port, { WEB_CONCURRENCY: "2" });
    try {
      expect(await shop.exited).toBe(1);
      expect(shop.output()).toContain(`cannot listen on port ${port}`);
      expect(shop.output()).toContain("a worker cannot listen: stopping the shop");
      expect(shop.output()).not.toContain("replacing it");
    } finally {
      shop.child.kill("SIGKILL");
      other.close();
    }
  });

  test("SIGTERM closes the server and the database, then exits cleanly", async () => {
    const port = await freePort();
    const shop = startShop(port);
    await expect.poll(shop.output, { timeout: 60_000 }).toContain("listening");
    // the start-up line names the address it really listens on
    expect(shop.output()).toContain(`Scentara is listening on http://localhost:${port}`);

    const served = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(served.status).toBe(200);
    shop.child.kill("SIGTERM");
    expect(await shop.exited).toBe(0);
    expect(shop.output()).toContain("stopped");
    expect(shop.output()).toContain("shutting down");
    // every log line is JSON
    for (const line of shop.output().trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });

  test("X-Forwarded-For decides the client address only behind TRUST_PROXY proxies", async () => {
    test.setTimeout(90_000);
    // Password-reset requests are limited to 10 an hour per client address: a forged header must not dodge that.
    async function resetsUntilRefused(trustProxy: string): Promise<number> {
      const port = await freePort();
      // one process (the rate limit is kept in the database, so a cluster's workers would count alike): a cluster of a
      // worker per core is three processes to start, per shop
      const shop = startShop(port, { TRUST_PROXY: trustProxy, LOG_LEVEL: "warn", WEB_CONCURRENCY: "1" });
      const { child } = shop;
      try {
        await waitForShop(shop, `http://127.0.0.1:${port}`, 60_000);
        for (let i = 1; i <= 12; i++) {
          const res = await fetch(`http://127.0.0.1:${port}/auth/forgot-password`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${port}`, "x-forwarded-for": `203.0.113.${i}` },
            body: `email=someone${i}%40example.co.za`,
            redirect: "manual",
          });
          if (res.status === 429) return i;
        }
        return 0;
      } finally {
        child.kill("SIGTERM");
      }
    }
    // the two shops start and are asked side by side (one after the other, their starts were most of the test)
    const [ignored, trusted] = await Promise.all([resetsUntilRefused("0"), resetsUntilRefused("1")]);
    expect(ignored).toBe(11); // the header is ignored: one address, refused after 10
    expect(trusted).toBe(0); // one trusted proxy: each forwarded address counts on its own
  });

  test("a body larger than its limit is refused with 413 before it is sent", async ({ baseURL }) => {
    const url = new URL("/auth/login", baseURL);
    // Declare 50 MB and send nothing: the answer must come from the headers alone.
    const started = performance.now();
    const answer = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(50 * 1024 * 1024), origin: baseURL } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
        },
      );
      req.on("error", reject);
      req.flushHeaders();
    });
    const ms = performance.now() - started;
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(ms).toBeLessThan(1000);
    console.log(`413 for a declared 50 MB body in ${ms.toFixed(1)} ms`);
  });

  test("a 2 MB form is refused with 413; a body without a length with 411", async ({ request, baseURL }) => {
    const big = await request.post("/auth/login", {
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL! },
      data: `email=a%40b.co&password=${"x".repeat(2 * 1024 * 1024)}`,
    });
    expect(big.status()).toBe(413);

    const url = new URL("/auth/login", baseURL);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked", origin: baseURL } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write("email=a%40b.co&");
      req.end();
    });
    expect(status).toBe(411);
  });

  test("non-form bodies get 4xx from actions, never 5xx", async ({ request, baseURL }) => {
    const origin = baseURL!;
    const bodies: Array<{ type?: string; data: string }> = [
      { type: "application/json", data: '{"email":"a@b.co","password":"x"}' },
      { type: "text/plain", data: "email=a@b.co" },
      { type: "application/xml", data: "<login><email>a@b.co</email></login>" },
      { data: "" },
      { type: "multipart/form-data; boundary=xyz", data: "--xyz\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nbroken" },
    ];
    for (const path of ["/auth/login", "/auth/register", "/?index", "/checkout", "/profile?index", "/profile/preferences", "/api/reviews", "/api/coupons/validate"]) {
      for (const body of bodies) {
        const res = await request.post(path, { headers: { origin, ...(body.type ? { "content-type": body.type } : {}) }, data: body.data, maxRedirects: 0 });
        expect(res.status(), `${path} with ${body.type ?? "no content type"}`).toBeGreaterThanOrEqual(300);
        expect(res.status(), `${path} with ${body.type ?? "no content type"}`).toBeLessThan(500);
      }
    }
  });

  test("a NUL byte in a query gets 400, not 500", async ({ request }) => {
    for (const path of ["/shop?q=%00", "/shop?category=%00", "/order-confirmation?id=%00", "/payment-status?orderId=%00&status=success", "/auth/login?redirect=%2F%00"]) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBeLessThan(500);
    }
    expect((await request.get("/shop?q=%00")).status()).toBe(400);
  });

  test("npm run dev serves every page (development server with hot reload)", async () => {
    test.setTimeout(90_000);
    const dir = mkdtempSync(join(tmpdir(), "scentara-dev-"));
    const port = 3800 + Math.floor(Math.random() * 200);
    const child = spawn("npm", ["run", "dev"], {
      // DATABASE_URL as a file: URI (docs/decisions/046): the database and the local session secret go in `dir`
      env: { ...process.env, PORT: String(port), DATABASE_URL: `file://${dir}/shop.db`, MEDIA_DIR: join(dir, "media"), LOG_LEVEL: "warn", NODE_ENV: "" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, { timeout: 60_000 })
        .toBe(200);
      for (const path of ["/", "/shop", "/terms", "/auth/login"]) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(res.status, `${path}: ${output.slice(-500)}`).toBe(200);
        expect(await res.text()).toContain("Scentara");
      }
      expect(existsSync(join(dir, "shop.db")) && existsSync(join(dir, ".auth-secret"))).toBe(true);
      expect(readdirSync(process.cwd()).filter((name) => name.startsWith("file:"))).toEqual([]);
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
  });
});
