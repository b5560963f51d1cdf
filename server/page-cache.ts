import { createHash, randomBytes } from "node:crypto";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { PageAudience } from "~/context";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { compress, preferredEncoding, type Encoding } from "./content-encoding";
import { pageScriptClasses, withPageStylesheet } from "./page-css";
import { withInlinedLcpImage, type ImageRead } from "./page-lcp-image";

/** A page whose largest image wasn't read in time is kept this long, so a rendering with the image soon replaces it. */
export const LATE_IMAGE_PAGE_TTL_MS = 1000;

/**
 * A short-lived cache of storefront pages, one copy per audience: visitors, customers, admins (the in-process
 * equivalent of a CDN's micro-cache, keyed by role; docs/decisions/008 and 023). Home, shop, product and terms pages
 * differ between two signed-in shoppers only in personal islands (the account menu's e-mail, the review form), which
 * the browser fetches for itself; rendering one costs the server ~10 ms of CPU, serving a copy well under 1 ms.
 *
 * Rules that keep it safe:
 * - only GET, only the storefront paths below, only 200 responses without Set-Cookie;
 * - never a personal link: a product page opened from a review request e-mail (`?review=<signed token>`), or asked
 *   for with its review form (`?write-review`, the way in without JavaScript), is for the
 *   one customer the token names (the loader checks it against the session), so it is always rendered for its own
 *   request, never taken from or stored in a copy shared by an audience (see PERSONAL_QUERY_PARAMS);
 * - the audience is decided by the server from the session (audienceOf), and the shared copy is rendered from a
 *   request that carries no cookie at all, with the audience in the router context: loaders decide by role alone and
 *   have no session to read, so nothing personal can reach a copy that others are served;
 * - a copy is sealed once: it is rendered with a random placeholder nonce, then every inline script and style that
 *   carries that placeholder (React Router's and React's own; nothing injected into the page could know it) is
 *   allowed by its SHA-256 hash in the response's CSP instead of a nonce. The bytes are then the same for everyone,
 *   so they are compressed once (brotli and gzip, on the thread pool) instead of on every response — compressing a
 *   77 KB shop page was most of a cached page's CPU;
 * - entries live a few seconds (PAGE_CACHE_TTL_SECONDS; 0 turns it off) and the cache holds a bounded number of them;
 *   concurrent misses for one URL and audience share a single render;
 * - displayed prices can be those seconds stale, money can't: the cart, checkout and payment always reprice from the
 *   database. Admin changes and new reviews raise storefrontChanged() (app/utils/storefront-changes.server.ts), which
 *   empties it.
 */

const CACHEABLE_PATH = /^\/(?:|_root\.data|shop|shop\.data|terms|terms\.data|privacy|privacy\.data|seller|seller\.data|scent-finder|scent-finder\.data|products\/[a-z0-9-]{1,200}(?:\.data)?)$/;

interface Entry {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** CSP sources ('sha256-…') of the page's own inline scripts and styles */
  scriptHashes: string[];
  styleHashes: string[];
  /** the body compressed, made on first demand */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
  /** the same, once made: what the early hit path sends (it never waits) */
  ready: Partial<Record<Encoding, Buffer>>;
  /**
   * The response headers of the copy's first serving (security headers included, the CSP already with the copy's
   * hashes) without the per-response ones (PER_RESPONSE): the early hit path sends them again as they were.
   */
  replay?: string[];
  expires: number;
}

/**
 * One page for one audience and URL. A page whose largest image can travel inside it (page-lcp-image.ts) is sealed
 * twice: `phone`, with the image inlined, for requests that say they come from a phone; `plain`, as rendered (the
 * image linked, with its preload), for everyone else: a desktop picks its larger rendition by URL, so the inlined one
 * would be ~7-10 KB downloaded for nothing.
 */
interface Copy {
  plain: Entry;
  phone?: Entry;
}

/**
 * The client hint Chromium sends on every request to a secure context (localhost included), "?1" on a phone or
 * under Lighthouse's mobile emulation; a low-entropy hint, so no Accept-CH is needed. Browsers that send no hints
 * (Safari, Firefox) get the plain page: the image by URL, as before it was inlined.
 */
const PHONE_HINT = "Sec-CH-UA-Mobile";

export function isPhoneRequest(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  return req.headers["sec-ch-ua-mobile"] === "?1";
}

function variantFor(copy: Copy, req: ExpressRequest): Entry {
  return copy.phone && isPhoneRequest(req) ? copy.phone : copy.plain;
}

/** Headers that belong to one response, never replayed from another. */
const PER_RESPONSE = new Set(["x-request-id", "x-page-cache", "content-encoding", "content-length", "date", "set-cookie", "connection", "keep-alive", "transfer-encoding"]);

/**
 * A rendered page made the same for everyone: the inline scripts and styles carrying the render's placeholder nonce
 * are listed by hash, and the placeholder attributes are dropped.
 */
export function sealPage(html: string, placeholder: string): { body: string; scriptHashes: string[]; styleHashes: string[] } {
  const scriptHashes = new Set<string>();
  const styleHashes = new Set<string>();
  const element = new RegExp(`<(script|style)\\b[^>]*\\snonce="${placeholder}"[^>]*>([\\s\\S]*?)</\\1>`, "g");
  for (const [, tag, content] of html.matchAll(element)) {
    (tag === "script" ? scriptHashes : styleHashes).add(`'sha256-${createHash("sha256").update(content!, "utf8").digest("base64")}'`);
  }
  return { body: html.replaceAll(` nonce="${placeholder}"`, ""), scriptHashes: [...scriptHashes], styleHashes: [...styleHashes] };
}

/** The response's CSP with its nonce replaced by the sealed page's hashes (script-src and style-src). */
export function cspWithHashes(csp: string, nonce: string, scriptHashes: string[], styleHashes: string[]): string {
  return csp
    .split("; ")
    .map((directive) => {
      const hashes = directive.startsWith("script-src ") ? scriptHashes : directive.startsWith("style-src ") ? styleHashes : null;
      if (!hashes) return directive;
      return directive
        .split(" ")
        .flatMap((token) => (token === `'nonce-${nonce}'` ? hashes : [token]))
        .join(" ");
    })
    .join("; ");
}

export interface PageCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** Who is asking, decided on the server (the session's role); null: don't use the cache, render as usual. */
  audienceOf: (req: ExpressRequest) => Promise<PageAudience | null>;
  /** Renders the (cookie-less) request for the audience with the given nonce (React Router's handler). */
  render: (request: Request, nonce: string, audience: PageAudience, req: ExpressRequest, res: ExpressResponse) => Promise<Response>;
  now?: () => number;
  /** The client build, whose scripts a page loads: their classes are kept in the page's inlined stylesheet. */
  clientDir?: string;
  /** Reads a stored image by its URL: the page's largest image travels inside it when small (page-lcp-image.ts). */
  readImage?: ImageRead;
}

/** A render under way, and the cache generation it started in. */
interface Pending {
  entry: Promise<Copy | null>;
  generation: number;
}

const caches = new Set<{ pages: Map<string, Copy>; inflight: Map<string, Pending> }>();
/** Bumped by every invalidation: a render that started before one must not be stored after it (it may be stale). */
let generation = 0;

/** Drops every cached page. Admin use cases don't call it: they raise storefrontChanged(), which lands here. */
export function invalidatePageCache() {
  generation++;
  for (const { pages, inflight } of caches) {
    pages.clear();
    inflight.clear(); // later requests render afresh instead of joining a render of the old data
  }
}
onStorefrontChange(invalidatePageCache);

/**
 * Query parameters that make a storefront URL personal. A shared copy is rendered without the session, so it could
 * only ignore them (breaking the link) — and the URL, token included, would be a key of the shared cache.
 */
const PERSONAL_QUERY_PARAMS = ["review", "write-review"];

/** `query`: the URL's query string (with or without its '?'), read as the router reads it (percent-decoded names). */
export function isCacheableRequest(method: string, path: string, query = ""): boolean {
  if (method !== "GET" || !CACHEABLE_PATH.test(path)) return false;
  if (!query || query === "?") return true;
  const params = new URLSearchParams(query);
  return !PERSONAL_QUERY_PARAMS.some((name) => params.has(name));
}

function queryOf(originalUrl: string): string {
  const at = originalUrl.indexOf("?");
  return at < 0 ? "" : originalUrl.slice(at + 1);
}

export function pageCache(options: PageCacheOptions) {
  const maxEntries = options.maxEntries ?? 500;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Copy>();
  const inflight = new Map<string, Pending>();
  caches.add({ pages: cache, inflight });

  /**
   * Renders the page once and seals it: as rendered (linked image), and, when the page has a marked image small
   * enough to travel inside it, a second time with that image inlined, for phones (see Copy).
   */
  async function renderCopy(request: Request, audience: PageAudience, req: ExpressRequest, res: ExpressResponse): Promise<Copy | null> {
    const placeholder = `pc${randomBytes(18).toString("base64url")}`;
    const response = await options.render(request, placeholder, audience, req, res);
    if (response.status !== 200 || response.headers.has("set-cookie") || !response.body) {
      await response.body?.cancel();
      return null;
    }
    // Only the rules this page's markup and scripts can use travel inline; the rest comes before another page shows.
    const rendered = await response.text();
    const html = withPageStylesheet(rendered, options.clientDir ? pageScriptClasses(rendered, options.clientDir) : []);
    let imageLate = false;
    const readImage = options.readImage;
    const inlined = readImage
      ? await withInlinedLcpImage(html, async (url) => {
          const bytes = await readImage(url);
          if (bytes === undefined) imageLate = true;
          return bytes;
        })
      : html;
    const twoVariants = inlined !== html;
    const headers = [...response.headers.entries()].filter(([k]) => k !== "content-length");
    // Browsers and any shared cache in front must keep one person's copy from another: the page depends on the
    // session cookie, and a signed-in copy (it says "Account", maybe "Admin") is for that browser only.
    headers.push(["vary", "Cookie"]);
    if (audience !== "visitor") headers.push(["cache-control", "private, no-cache"]);
    // A shared cache in front must not hand a phone's copy (image inside) to a desktop, nor the other way round.
    headers.push(["vary", twoVariants ? `Accept-Encoding, ${PHONE_HINT}` : "Accept-Encoding"]);
    const seal = (page: string): Entry => {
      const { body, scriptHashes, styleHashes } = sealPage(page, placeholder);
      const ttl = imageLate ? Math.min(options.ttlMs, LATE_IMAGE_PAGE_TTL_MS) : options.ttlMs;
      return { status: response.status, headers, body: Buffer.from(body), scriptHashes, styleHashes, encoded: {}, ready: {}, expires: now() + ttl };
    };
    const plain = seal(html);
    return twoVariants ? { plain, phone: seal(inlined) } : { plain };
  }

  /** The copy's body in the encoding this browser prefers; compressed once per copy (brotli 9 / gzip 9), on demand. */
  function encode(entry: Entry, encoding: Encoding) {
    return (entry.encoded[encoding] ??= compress(encoding, entry.body).then((body) => (entry.ready[encoding] = body)));
  }

  async function send(req: ExpressRequest, res: ExpressResponse, entry: Entry, state: "HIT" | "MISS") {
    const encoding = preferredEncoding(req);
    const body = encoding ? await encode(entry, encoding) : entry.body;
    res.status(entry.status);
    for (const [k, v] of entry.headers) res.append(k, v);
    const csp = res.getHeader("content-security-policy");
    if (typeof csp === "string") res.setHeader("Content-Security-Policy", cspWithHashes(csp, res.locals.nonce, entry.scriptHashes, entry.styleHashes));
    entry.replay ??= Object.entries(res.getHeaders()).flatMap(([name, value]) =>
      PER_RESPONSE.has(name) || value === undefined ? [] : [name, Array.isArray(value) ? value.join(", ") : String(value)],
    );
    res.setHeader("X-Page-Cache", state);
    // Already encoded: the compression middleware leaves it alone.
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }

  /**
   * The early hit path, mounted before the security headers and compression: a fresh copy, in an encoding already
   * made, for a request the full path would serve from the same copy. Its headers are the copy's first serving's
   * (replay) and its own request id; none of the per-response work (a nonce nobody uses, a CSP built and rewritten,
   * compression's checks, every later middleware) is done again. Anything else goes on, unchanged, to the full path.
   */
  const hits = async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    // A body (a GET may declare one) is for the body limits further on to answer.
    if (options.ttlMs <= 0 || req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return next();
    if (!isCacheableRequest(req.method, req.path, queryOf(req.originalUrl))) return next();
    try {
      const audience = await options.audienceOf(req);
      res.locals.pageAudience = audience; // the full path needn't ask again
      if (!audience) return next();
      const copy = cache.get(`${audience} ${req.originalUrl.slice(0, 500)}`);
      const entry = copy && variantFor(copy, req);
      if (!entry?.replay || entry.expires <= now()) return next();
      const encoding = preferredEncoding(req);
      // No encoding of ours is accepted but the browser named some (deflate): compression answers it on the full path.
      if (!encoding && req.headers["accept-encoding"] && !/^\s*(?:identity\s*)?$/i.test(req.headers["accept-encoding"])) return next();
      const body = encoding ? entry.ready[encoding] : entry.body;
      if (!body) return next();
      const headers = [...entry.replay, "X-Page-Cache", "HIT", "Content-Length", String(body.length)];
      if (encoding) headers.push("Content-Encoding", encoding);
      res.writeHead(entry.status, headers); // added to those already set (the request id)
      res.end(body);
    } catch (error) {
      next(error);
    }
  };

  const full = async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (options.ttlMs <= 0 || !isCacheableRequest(req.method, req.path, queryOf(req.originalUrl))) return next();
    try {
      const audience: PageAudience | null = res.locals.pageAudience !== undefined ? res.locals.pageAudience : await options.audienceOf(req);
      if (!audience) return next();
      const key = `${audience} ${req.originalUrl.slice(0, 500)}`;
      const hit = cache.get(key);
      if (hit && hit.plain.expires > now()) return await send(req, res, variantFor(hit, req), "HIT");
      if (hit) cache.delete(key);

      let pending = inflight.get(key);
      if (!pending) {
        // Deliberately without the cookie: the copy is for the whole audience, so there is no session to read.
        const request = new Request(new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`), {
          method: "GET",
          headers: { accept: req.get("accept") ?? "*/*", "user-agent": req.get("user-agent") ?? "" },
        });
        const started: Pending = {
          generation,
          entry: renderCopy(request, audience, req, res).finally(() => {
            if (inflight.get(key) === started) inflight.delete(key);
          }),
        };
        pending = started;
        inflight.set(key, pending);
      }
      const copy = await pending.entry;
      if (!copy) return next(); // not cacheable after all (404, redirect, cookie): render it the normal way
      // Served to those who asked before the change, but not kept if the storefront changed while it rendered.
      if (pending.generation === generation) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!); // oldest first
        cache.set(key, copy);
      }
      await send(req, res, variantFor(copy, req), "MISS");
    } catch (error) {
      next(error);
    }
  };
  return Object.assign(full, { hits });
}
