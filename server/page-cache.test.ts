import express from "express";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { invalidatePageCache, isCacheableRequest, pageCache } from "./page-cache";

describe("which requests may be served from the page cache", () => {
  it.each([
    ["GET", "/", undefined, true],
    ["GET", "/shop", undefined, true],
    ["GET", "/shop.data", undefined, true],
    ["GET", "/products/velvet-oud", "theme=dark", true],
    ["GET", "/products/velvet-oud", "scentara.session_token=abc.def", false],
    ["GET", "/shop", "a=1; __Secure-scentara.session_token=abc", false],
    ["POST", "/", undefined, false],
    ["GET", "/cart", undefined, false],
    ["GET", "/checkout", undefined, false],
    ["GET", "/profile", undefined, false],
    ["GET", "/admin", undefined, false],
    ["GET", "/payment-status", undefined, false],
    ["GET", "/products/a/b", undefined, false],
  ])("%s %s (cookie %s) → %s", (method, path, cookie, expected) => {
    expect(isCacheableRequest(method, path, cookie)).toBe(expected);
  });
});

describe("page cache", () => {
  let server: ReturnType<express.Express["listen"]> | undefined;
  afterEach(() => {
    server?.close();
    invalidatePageCache();
  });

  async function start(render: (nonce: string) => Response | Promise<Response>, ttlMs = 60_000) {
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
        render: async (_request, nonce) => {
          renders++;
          return render(nonce);
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

  it("never caches for signed-in shoppers, errors or responses that set cookies", async () => {
    const { base, renders } = await start(() => new Response("nope", { status: 404 }));
    expect((await fetch(`${base}/products/missing`)).status).toBe(299);
    const signedIn = await fetch(`${base}/shop`, { headers: { cookie: "scentara.session_token=x" } });
    expect(await signedIn.text()).toBe("rendered without cache");
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
