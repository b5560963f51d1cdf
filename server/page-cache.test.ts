import { createHash } from "node:crypto";
import { get as httpGet } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import type { PageAudience } from "~/context";
import { invalidatePageCache, isCacheableRequest, LATE_IMAGE_PAGE_TTL_MS, pageCache } from "./page-cache";

describe("which requests may be served from the page cache", () => {
  it.each([
    ["GET", "/", true],
    ["GET", "/shop", true],
    ["GET", "/shop.data", true],
    ["GET", "/products/velvet-oud", true],
    ["GET", "/terms", true],
    ["POST", "/", false],
    ["GET", "/cart", false],
    ["GET", "/checkout", false],
    ["GET", "/profile", false],
    ["GET", "/admin", false],
    ["GET", "/api/me", false],
    ["GET", "/payment-status", false],
    ["GET", "/products/a/b", false],
  ])("%s %s → %s", (method, path, expected) => {
    expect(isCacheableRequest(method, path)).toBe(expected);
  });

  // A review request link names one customer: never a shared copy, however the parameter is spelled.
  it.each([
    ["/products/velvet-oud", "", true],
    ["/products/velvet-oud", "?", true],
    ["/shop", "q=review&sort=new", true],
    ["/shop", "reviews=1", true],
    // a product page opened in a size (issue 33): the same for everyone, a copy of its own
    ["/products/velvet-oud", "size=100ml", true],
    ["/products/velvet-oud.data", "size=100ml&_routes=routes%2Fproduct", true],
    ["/products/velvet-oud", "review=abc.def", false],
    ["/products/velvet-oud", "?review=abc.def", false],
    ["/products/velvet-oud.data", "review=abc.def&_routes=routes%2Fproduct", false],
    ["/products/velvet-oud", "utm_source=mail&review=", false],
    ["/products/velvet-oud", "%72eview=abc.def", false],
    // the shopper's own review form, the way in without JavaScript
    ["/products/velvet-oud", "write-review", false],
    ["/products/velvet-oud", "?write-review=", false],
  ])("GET %s?%s → %s", (path, query, expected) => {
    expect(isCacheableRequest("GET", path, query)).toBe(expected);
  });
});

describe("page cache", () => {
  let server: ReturnType<express.Express["listen"]> | undefined;
  afterEach(() => {
    server?.close();
    invalidatePageCache();
  });

  /** The test's sessions: the cookie names the role (the real server reads it from the session store). */
  const audienceOf = async (req: express.Request): Promise<PageAudience | null> => {
    const cookie = req.get("cookie") ?? "";
    if (cookie.includes("broken")) return null;
    return cookie.includes("admin") ? "admin" : cookie.includes("customer") ? "customer" : "visitor";
  };

  async function start(render: (nonce: string, audience: PageAudience, request: Request) => Response | Promise<Response>, ttlMs = 60_000) {
    let renders = 0;
    let n = 0;
    const app = express();
    app.use((_req, res, next) => {
      res.locals.nonce = `fresh${++n}`;
      res.setHeader("Content-Security-Policy", `default-src 'self'; script-src 'self' 'nonce-${res.locals.nonce}'; style-src 'self' 'nonce-${res.locals.nonce}'`);
      next();
    });
    app.use(
      pageCache({
        ttlMs,
        audienceOf,
        render: async (request, nonce, audience) => {
          renders++;
          return render(nonce, audience, request);
        },
      }),
    );
    app.use((_req, res) => {
      res.status(299).send("rendered without cache");
    });
    server = app.listen(0);
    await new Promise((r) => server!.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, renders: () => renders };
  }

  const page = (nonce: string) =>
    new Response(`<script nonce="${nonce}">boot()</script><p>${nonce.length}</p>`, { headers: { "content-type": "text/html" } });

  it("renders once, then serves the sealed copy: its own scripts and styles allowed by hash, nothing else", async () => {
    const { base, renders } = await start(
      (nonce) =>
        new Response(`<style nonce="${nonce}">p{color:red}</style><script nonce="${nonce}">boot()</script><script>injected()</script><p>page</p>`, {
          headers: { "content-type": "text/html" },
        }),
    );
    const first = await fetch(`${base}/shop?q=rose`);
    const second = await fetch(`${base}/shop?q=rose`);
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    expect(renders()).toBe(1);
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    for (const response of [first, second]) {
      const csp = response.headers.get("content-security-policy")!;
      // the placeholder-nonce'd script and style by hash; the script without it (as an injected one would be) not
      expect(csp).toBe(`default-src 'self'; script-src 'self' ${sha("boot()")}; style-src 'self' ${sha("p{color:red}")}`);
      expect(csp).not.toContain(sha("injected()"));
      expect(csp).not.toContain("nonce-");
    }
    const body = await second.text();
    expect(body).toBe(`<style>p{color:red}</style><script>boot()</script><script>injected()</script><p>page</p>`);
    expect(await first.text()).toBe(body);
  });

  it("compresses a copy once and serves the encoding each browser accepts", async () => {
    const html = `<p>${"Amber, oud and vetiver. ".repeat(400)}</p>`;
    const { base } = await start(() => new Response(html, { headers: { "content-type": "text/html" } }));
    const raw = (encoding: string) =>
      new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
        httpGet(`${base}/terms`, { headers: { "accept-encoding": encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const br = await raw("gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(brotliDecompressSync(br.bytes).toString()).toBe(html);
    expect(br.bytes.length).toBeLessThan(html.length / 10);
    const gz = await raw("gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.bytes).toString()).toBe(html);
    const plain = await raw("identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.bytes.toString()).toBe(html);
  });

  it("renders a review request link for its own request, for every audience, and keeps no copy of it", async () => {
    const { base, renders } = await start((nonce) => page(nonce));
    for (const cookie of [undefined, "customer", "admin"]) {
      const response = await fetch(`${base}/products/velvet-oud?review=abc.def`, { headers: cookie ? { cookie } : {} });
      expect(response.status).toBe(299); // the app's own render (the test's fallback), not a shared copy
      expect(response.headers.get("x-page-cache")).toBeNull();
    }
    expect(renders()).toBe(0);
    // the plain product page is still shared
    expect((await fetch(`${base}/products/velvet-oud`)).headers.get("x-page-cache")).toBe("MISS");
  });

  it("keeps different URLs apart and shares one render between concurrent misses", async () => {
    const { base, renders } = await start(async (nonce) => {
      await new Promise((r) => setTimeout(r, 50));
      return page(nonce);
    });
    await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/shop`)));
    await fetch(`${base}/shop?category=for-her`);
    expect(renders()).toBe(2);
  });

  it("keeps a copy per size of a product page: one size's price is never served for another", async () => {
    // the render shows the size the URL names, as the product page does
    const { base, renders } = await start((_nonce, _audience, request) => new Response(`<p>${new URL(request.url).searchParams.get("size") ?? "first"}</p>`, { headers: { "content-type": "text/html" } }));
    const body = async (query: string) => {
      const res = await fetch(`${base}/products/velvet-oud${query}`);
      return `${await res.text()} ${res.headers.get("x-page-cache")}`;
    };
    expect(await body("?size=50ml")).toBe("<p>50ml</p> MISS");
    expect(await body("?size=100ml")).toBe("<p>100ml</p> MISS");
    expect(await body("")).toBe("<p>first</p> MISS");
    expect(await body("?size=50ml")).toBe("<p>50ml</p> HIT");
    expect(await body("?size=100ml")).toBe("<p>100ml</p> HIT");
    expect(renders()).toBe(3);
  });

  it("keeps one copy per audience, rendered from a request without the shopper's cookie", async () => {
    const seen: string[] = [];
    const { base, renders } = await start((nonce, audience, request) => {
      seen.push(request.headers.get("cookie") ?? "no cookie");
      return new Response(`<p>${audience}</p>`, { headers: { "content-type": "text/html" } });
    });
    const get = (cookie?: string) => fetch(`${base}/shop`, { headers: cookie ? { cookie } : {} });
    const bodies = [];
    for (const cookie of [undefined, "s=customer-lerato", "s=customer-thabo", "s=admin-ayesha", undefined]) {
      const response = await get(cookie);
      bodies.push([await response.text(), response.headers.get("x-page-cache"), response.headers.get("cache-control")]);
    }
    expect(bodies).toEqual([
      ["<p>visitor</p>", "MISS", null],
      ["<p>customer</p>", "MISS", "private, no-cache"],
      ["<p>customer</p>", "HIT", "private, no-cache"],
      ["<p>admin</p>", "MISS", "private, no-cache"],
      ["<p>visitor</p>", "HIT", null],
    ]);
    expect(renders()).toBe(3);
    expect(seen).toEqual(["no cookie", "no cookie", "no cookie"]);
    expect((await get()).headers.get("vary")).toMatch(/cookie/i);
  });

  it("never caches when the audience can't be told, for errors or for responses that set cookies", async () => {
    const { base, renders } = await start(() => new Response("nope", { status: 404 }));
    expect((await fetch(`${base}/products/missing`)).status).toBe(299);
    const unknown = await fetch(`${base}/shop`, { headers: { cookie: "s=broken" } });
    expect(await unknown.text()).toBe("rendered without cache");
    expect(renders()).toBe(1);

    const withCookie = await start(() => new Response("x", { headers: { "set-cookie": "a=b" } }));
    await fetch(`${withCookie.base}/`);
    await fetch(`${withCookie.base}/`);
    expect(withCookie.renders()).toBe(2);
  });

  it("keeps no copy of a redirect (a renamed size's old ?size=), nor of the data request's: each reaches the app again", async () => {
    // React Router answers a data request's redirect with 202, a document's with the loader's 301
    const { base, renders } = await start((_nonce, _audience, request) =>
      new URL(request.url).pathname.endsWith(".data")
        ? new Response("redirect", { status: 202 })
        : new Response(null, { status: 301, headers: { location: "/products/velvet-oud?size=50mledp" } }),
    );
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${base}/products/velvet-oud?size=50ml`, { redirect: "manual" })).status).toBe(299);
      expect((await fetch(`${base}/products/velvet-oud.data?size=50ml&_routes=routes%2Fproduct`)).status).toBe(299);
    }
    expect(renders()).toBe(4);
  });

  it("expires entries after the TTL and can be invalidated", async () => {
    const { base, renders } = await start(page, 1);
    await fetch(`${base}/`);
    await new Promise((r) => setTimeout(r, 5));
    await fetch(`${base}/`);
    expect(renders()).toBe(2);

    const long = await start(page);
    await fetch(`${long.base}/terms`);
    invalidatePageCache();
    await fetch(`${long.base}/terms`);
    expect(long.renders()).toBe(2);
  });

  it("doesn't keep a page whose render started before a storefront change", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let renderStarted!: () => void;
    const firstRenderStarted = new Promise<void>((r) => (renderStarted = r));
    let version = "old price";
    const { base, renders } = await start(async () => {
      const seen = version; // what the loaders read when the render started
      if (renders() === 1) {
        renderStarted();
        await gate;
      }
      return new Response(`<p>${seen}</p>`, { headers: { "content-type": "text/html" } });
    });
    const during = fetch(`${base}/products/amber-lantern`);
    await firstRenderStarted;
    version = "new price";
    storefrontChanged("price changed");
    release();
    expect(await (await during).text()).toBe("<p>old price</p>");
    const after = await fetch(`${base}/products/amber-lantern`);
    expect(after.headers.get("x-page-cache")).toBe("MISS");
    expect(await after.text()).toBe("<p>new price</p>");
    expect(renders()).toBe(2);
  });

  it("is emptied when an admin change tells the storefront (storefrontChanged)", async () => {
    const { base, renders } = await start(page);
    await fetch(`${base}/products/amber-lantern`);
    await fetch(`${base}/products/amber-lantern`);
    expect(renders()).toBe(1);
    storefrontChanged("price changed");
    const after = await fetch(`${base}/products/amber-lantern`);
    expect(after.headers.get("x-page-cache")).toBe("MISS");
    expect(renders()).toBe(2);
  });

  it("serves a fresh copy from the early hit path with its first serving's headers, and leaves the rest to the full path", async () => {
    let headerRuns = 0;
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("X-Request-Id", `id-${Math.random()}`);
      next();
    });
    const cache = pageCache({
      ttlMs: 60_000,
      audienceOf,
      render: async (_request, nonce) =>
        new Response(`<style data-href="app-css" nonce="${nonce}">.used{color:red}.unused{color:blue}</style><p class="used">${"Amber. ".repeat(300)}</p>`, {
          headers: { "content-type": "text/html" },
        }),
    });
    app.use(cache.hits);
    app.use((_req, res, next) => {
      headerRuns++;
      res.locals.nonce = `fresh${headerRuns}`;
      res.setHeader("Content-Security-Policy", `style-src 'self' 'nonce-${res.locals.nonce}'`);
      res.setHeader("X-Frame-Options", "DENY");
      next();
    });
    app.use(cache);
    server = app.listen(0);
    await new Promise((r) => server!.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (headers: Record<string, string> = {}) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        httpGet(`${base}/terms`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const browser = { "accept-encoding": "gzip, deflate, br, zstd" };

    const first = await get(browser); // the miss, through every middleware
    expect(first.headers["x-page-cache"]).toBe("MISS");
    const runsAfterMiss = headerRuns;
    const second = await get(browser);
    const plain = await get();
    expect([second.headers["x-page-cache"], plain.headers["x-page-cache"]]).toEqual(["HIT", "HIT"]);
    expect(headerRuns).toBe(runsAfterMiss); // no nonce made, no header middleware run
    // the same headers as the first serving, but its own request id
    for (const name of ["content-security-policy", "x-frame-options", "vary", "content-type", "content-encoding"]) expect(second.headers[name]).toEqual(first.headers[name]);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(second.headers["content-security-policy"]).toMatch(/^style-src 'self' 'sha256-[^']+'$/);
    const html = brotliDecompressSync(second.body).toString();
    expect(html).toBe(brotliDecompressSync(first.body).toString());
    expect(plain.body.toString()).toBe(html);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    // only the rules the page uses travel inline, and the browser is told it has a subset
    expect(html).toContain(`<style data-href="app-css" data-subset="">.used{color:red}</style>`);

    // what the early path doesn't answer goes through the whole chain (and is still served from the copy)
    for (const headers of [{ "accept-encoding": "deflate" }, { "content-length": "0" }] as Record<string, string>[]) {
      const before = headerRuns;
      const response = await get(headers);
      expect(headerRuns).toBe(before + 1);
      expect(response.headers["x-page-cache"]).toBe("HIT");
    }
  });

  it("a page built while its image was still being read is kept only briefly, then built again with the image inside", async () => {
    const photo = Buffer.from("RIFF-late-photo-400");
    const url = "/media/products/late-0a1b-400.webp";
    let clock = 1_000_000;
    let imageArrived = false;
    let renders = 0;
    const app = express();
    const cache = pageCache({
      ttlMs: 60_000,
      now: () => clock,
      audienceOf,
      // undefined: not read yet (keptImageReader gave up waiting); then the bytes
      readImage: async () => (imageArrived ? photo : undefined),
      render: async () => {
        renders++;
        return new Response(`<main><img src="${url}" srcSet="${url} 400w" data-inline-on-phone="${url}" alt=""/></main>`, { headers: { "content-type": "text/html" } });
      },
    });
    app.use(cache);
    server = app.listen(0);
    await new Promise((r) => server!.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const phoneGet = async () => {
      const response = await fetch(`${base}/shop`, { headers: { "sec-ch-ua-mobile": "?1", "accept-encoding": "identity" } });
      return { state: response.headers.get("x-page-cache"), html: await response.text() };
    };
    const first = await phoneGet();
    expect(first.state).toBe("MISS");
    expect(first.html).not.toContain("data:image");
    imageArrived = true;
    // within the short life of that copy: still it
    clock += LATE_IMAGE_PAGE_TTL_MS - 1;
    expect((await phoneGet()).state).toBe("HIT");
    // then the next request builds the page again, now with the image inside, and keeps it the usual time
    clock += 2;
    const again = await phoneGet();
    expect(again.state).toBe("MISS");
    expect(again.html).toContain(`data:image/webp;base64,${photo.toString("base64")}`);
    clock += 30_000;
    expect((await phoneGet()).state).toBe("HIT");
    expect(renders).toBe(2);
  });

  it("gives a phone the page with its largest image inside and everyone else the page that links to it, from one render", async () => {
    const photo = Buffer.from("RIFF-amber-lantern-800");
    const url = "/media/products/amber-lantern-0a1b-800.webp";
    let renders = 0;
    let headerRuns = 0;
    const app = express();
    const cache = pageCache({
      ttlMs: 60_000,
      audienceOf,
      readImage: async (asked) => (asked === url ? photo : null),
      render: async (request, nonce) => {
        renders++;
        const marked = new URL(request.url).pathname !== "/terms";
        return new Response(
          `<head><link rel="preload" as="image" fetchPriority="high" imageSrcSet="${url} 800w, /media/products/amber-lantern-0a1b-1200.webp 1200w"/></head>` +
            `<script nonce="${nonce}">boot()</script><main><h1>Version ${renders}</h1>` +
            `<img src="${url}" srcSet="${url} 800w, /media/products/amber-lantern-0a1b-1200.webp 1200w" fetchPriority="high"${marked ? ` data-inline-on-phone="${url}"` : ""} alt="Amber Lantern"/></main>`,
          { headers: { "content-type": "text/html" } },
        );
      },
    });
    app.use(cache.hits);
    app.use((_req, res, next) => {
      headerRuns++;
      res.locals.nonce = `fresh${headerRuns}`;
      res.setHeader("Content-Security-Policy", `script-src 'self' 'nonce-${res.locals.nonce}'`);
      next();
    });
    app.use(cache);
    server = app.listen(0);
    await new Promise((r) => server!.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<{ state: string; vary: string; html: string }>((resolve, reject) => {
        httpGet(`${base}${path}`, { headers: { "accept-encoding": "gzip, deflate, br, zstd", ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const body = Buffer.concat(chunks);
            const html = res.headers["content-encoding"] === "br" ? brotliDecompressSync(body).toString() : body.toString();
            resolve({ state: String(res.headers["x-page-cache"]), vary: String(res.headers.vary), html });
          });
        }).on("error", reject);
      });
    const phone = { "sec-ch-ua-mobile": "?1", "sec-ch-ua-platform": '"Android"' };
    const desktop = { "sec-ch-ua-mobile": "?0" };
    const inlined = `data:image/webp;base64,${photo.toString("base64")}`;
    const expectPhone = (html: string) => {
      expect(html).toContain(`<img src="${inlined}" srcSet="${inlined} 800w, /media/products/amber-lantern-0a1b-1200.webp 1200w"`);
      expect(html).not.toContain(`rel="preload" as="image"`);
    };
    const expectLinked = (html: string) => {
      expect(html).not.toContain("data:image");
      expect(html).toContain(`<img src="${url}" srcSet="${url} 800w`);
      expect(html).toContain(`fetchPriority="high"`);
      expect(html).toContain(`<link rel="preload" as="image"`);
    };

    const first = await get("/products/amber-lantern", phone);
    expect(first.state).toBe("MISS");
    expectPhone(first.html);
    for (const headers of [desktop, {}]) {
      const other = await get("/products/amber-lantern", headers); // no hint at all: a bench, Safari, Firefox
      expect(other.state).toBe("HIT");
      expectLinked(other.html);
    }
    expect(renders).toBe(1); // rendered once, sealed twice

    // Both variants from the early hit path too, each to its own kind of browser
    const runs = headerRuns;
    const [phoneHit, desktopHit, plainHit] = await Promise.all([get("/products/amber-lantern", phone), get("/products/amber-lantern", desktop), get("/products/amber-lantern", {})]);
    expect(headerRuns).toBe(runs);
    expect([phoneHit.state, desktopHit.state, plainHit.state]).toEqual(["HIT", "HIT", "HIT"]);
    expectPhone(phoneHit.html);
    expectLinked(desktopHit.html);
    expectLinked(plainHit.html);
    // a cache in front keys both on the hint; a page without a marked image has one variant and says so
    for (const response of [first, phoneHit, desktopHit]) expect(response.vary).toMatch(/\bAccept-Encoding, Sec-CH-UA-Mobile\b/);
    const terms = await get("/terms", phone);
    expectLinked(terms.html);
    expect(terms.vary).toMatch(/\bAccept-Encoding\b/);
    expect(terms.vary).not.toMatch(/Sec-CH-UA-Mobile/i);

    // a storefront change empties both variants: each kind of browser gets the new page, still from one render
    storefrontChanged("product photo changed");
    const desktopAfter = await get("/products/amber-lantern", desktop);
    const phoneAfter = await get("/products/amber-lantern", phone);
    expect(desktopAfter.html).toContain("<h1>Version 3</h1>");
    expect(phoneAfter.html).toContain("<h1>Version 3</h1>");
    expectLinked(desktopAfter.html);
    expectPhone(phoneAfter.html);
    expect(renders).toBe(3);
  });
});
