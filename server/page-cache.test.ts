import express from "express";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import type { PageAudience } from "~/context";
import { invalidatePageCache, isCacheableRequest, pageCache } from "./page-cache";

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

  it("renders once, then serves the copy with each response's own nonce", async () => {
    const { base, renders } = await start(page);
    const first = await fetch(`${base}/shop?q=rose`);
    const second = await fetch(`${base}/shop?q=rose`);
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    expect(await first.text()).toContain('nonce="fresh1"');
    const body = await second.text();
    expect(body).toContain('nonce="fresh2"');
    expect(body).not.toContain("fresh1");
    expect(renders()).toBe(1);
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
});
