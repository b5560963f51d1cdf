import { randomBytes } from "node:crypto";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { PageAudience } from "~/context";
import { onStorefrontChange } from "~/utils/storefront-changes.server";

/**
 * A short-lived cache of storefront pages, one copy per audience: visitors, customers, admins (the in-process
 * equivalent of a CDN's micro-cache, keyed by role; docs/decisions/008 and 023). Home, shop, product and terms pages
 * differ between two signed-in shoppers only in personal islands (the account menu's e-mail, the review form), which
 * the browser fetches for itself; rendering one costs the server ~10 ms of CPU, serving a copy well under 1 ms.
 *
 * Rules that keep it safe:
 * - only GET, only the storefront paths below, only 200 responses without Set-Cookie;
 * - the audience is decided by the server from the session (audienceOf), and the shared copy is rendered from a
 *   request that carries no cookie at all, with the audience in the router context: loaders decide by role alone and
 *   have no session to read, so nothing personal can reach a copy that others are served;
 * - every response still gets its own CSP nonce: a page is rendered with a random placeholder nonce, and each time it
 *   is served the placeholder is replaced by that response's fresh nonce (set by securityHeaders);
 * - entries live a few seconds (PAGE_CACHE_TTL_SECONDS; 0 turns it off) and the cache holds a bounded number of them;
 *   concurrent misses for one URL and audience share a single render;
 * - displayed prices can be those seconds stale, money can't: the cart, checkout and payment always reprice from the
 *   database. Admin changes and new reviews raise storefrontChanged() (app/utils/storefront-changes.server.ts), which
 *   empties it.
 */

const CACHEABLE_PATH = /^\/(?:|_root\.data|shop|shop\.data|terms|terms\.data|products\/[a-z0-9-]{1,200}(?:\.data)?)$/;

interface Entry {
  status: number;
  headers: [string, string][];
  body: string;
  placeholder: string;
  expires: number;
}

export interface PageCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** Who is asking, decided on the server (the session's role); null: don't use the cache, render as usual. */
  audienceOf: (req: ExpressRequest) => Promise<PageAudience | null>;
  /** Renders the (cookie-less) request for the audience with the given nonce (React Router's handler). */
  render: (request: Request, nonce: string, audience: PageAudience, req: ExpressRequest, res: ExpressResponse) => Promise<Response>;
  now?: () => number;
}

const caches = new Set<Map<string, Entry>>();

/** Drops every cached page. Admin use cases don't call it: they raise storefrontChanged(), which lands here. */
export function invalidatePageCache() {
  for (const cache of caches) cache.clear();
}
onStorefrontChange(invalidatePageCache);

export function isCacheableRequest(method: string, path: string): boolean {
  return method === "GET" && CACHEABLE_PATH.test(path);
}

export function pageCache(options: PageCacheOptions) {
  const maxEntries = options.maxEntries ?? 500;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Entry | null>>();
  caches.add(cache);

  async function renderEntry(request: Request, audience: PageAudience, req: ExpressRequest, res: ExpressResponse): Promise<Entry | null> {
    const placeholder = `pc${randomBytes(18).toString("base64url")}`;
    const response = await options.render(request, placeholder, audience, req, res);
    if (response.status !== 200 || response.headers.has("set-cookie") || !response.body) {
      await response.body?.cancel();
      return null;
    }
    const body = await response.text();
    const headers = [...response.headers.entries()].filter(([k]) => k !== "content-length");
    // Browsers and any shared cache in front must keep one person's copy from another: the page depends on the
    // session cookie, and a signed-in copy (it says "Account", maybe "Admin") is for that browser only.
    headers.push(["vary", "Cookie"]);
    if (audience !== "visitor") headers.push(["cache-control", "private, no-cache"]);
    return { status: response.status, headers, body, placeholder, expires: now() + options.ttlMs };
  }

  function send(res: ExpressResponse, entry: Entry, state: "HIT" | "MISS") {
    res.status(entry.status);
    for (const [k, v] of entry.headers) res.append(k, v);
    res.setHeader("X-Page-Cache", state);
    res.end(entry.body.replaceAll(entry.placeholder, res.locals.nonce));
  }

  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (options.ttlMs <= 0 || !isCacheableRequest(req.method, req.path)) return next();
    try {
      const audience = await options.audienceOf(req);
      if (!audience) return next();
      const key = `${audience} ${req.originalUrl.slice(0, 500)}`;
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return send(res, hit, "HIT");
      if (hit) cache.delete(key);

      let pending = inflight.get(key);
      if (!pending) {
        // Deliberately without the cookie: the copy is for the whole audience, so there is no session to read.
        const request = new Request(new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`), {
          method: "GET",
          headers: { accept: req.get("accept") ?? "*/*", "user-agent": req.get("user-agent") ?? "" },
        });
        pending = renderEntry(request, audience, req, res).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      const entry = await pending;
      if (!entry) return next(); // not cacheable after all (404, redirect, cookie): render it the normal way
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!); // oldest first
      cache.set(key, entry);
      send(res, entry, "MISS");
    } catch (error) {
      next(error);
    }
  };
}
