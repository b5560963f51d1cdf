import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

test.describe("HTTP server", () => {
  test("every HTML response carries strict security headers and a fresh script nonce", async ({ request }) => {
    const first = await request.get("/");
    const second = await request.get("/");
    const csp = first.headers()["content-security-policy"];
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    // the second visitor gets the cached page, still with a nonce of its own in the header and in the HTML
    expect(second.headers()["x-page-cache"]).toBe("HIT");
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

  test("the page runs under its CSP without violations", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });

  test("compresses HTML and caches hashed assets for a year", async ({ request }) => {
    const home = await request.get("/", { headers: { "accept-encoding": "gzip" } });
    expect(home.headers()["content-encoding"]).toBe("gzip");
    const asset = /\/assets\/[^"]+\.js/.exec(await home.text())?.[0];
    expect(asset).toBeTruthy();
    const js = await request.get(asset!);
    expect(js.status()).toBe(200);
    expect(js.headers()["cache-control"]).toContain("max-age=31536000");
    expect(js.headers()["cache-control"]).toContain("immutable");
  });

  test("/healthz checks the database", async ({ request }) => {
    const res = await request.get("/healthz");
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  test("SIGTERM closes the server and the database, then exits cleanly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scentara-shutdown-"));
    const port = 3300 + Math.floor(Math.random() * 500);
    const child = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATABASE_URL: join(dir, "shop.db"),
        MEDIA_DIR: join(dir, "media"),
        SEED_DEMO: "false",
        AUTH_SECRET: "shutdown-test-secret-shutdown-test-secret",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    await expect.poll(() => output, { timeout: 20_000 }).toContain("listening");

    const served = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(served.status).toBe(200);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(output).toContain("stopped");
    expect(output).toContain("shutting down");
    // every log line is JSON
    for (const line of output.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });
});
