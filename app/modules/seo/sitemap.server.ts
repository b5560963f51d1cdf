import type { Queryable } from "~/db/db.server";
import { downloadStream } from "~/utils/download-stream.server";
import { logger } from "~/utils/logger.server";
import { absoluteUrl } from "./seo";

/** Pages that crawlers may index besides products (SPEC §2): home, shop, the scent finder, terms, and the legal notices (decision 037). */
export const STATIC_SITEMAP_PATHS = ["/", "/shop", "/scent-finder", "/terms", "/privacy", "/seller"] as const;

/** Paths crawlers should leave alone: private, per-user or transactional pages. */
export const DISALLOWED_PATHS = ["/admin", "/cart", "/checkout", "/profile", "/auth", "/payment-status", "/order-confirmation", "/pay", "/api", "/webhooks"];

/** A sitemap file holds at most 50 000 URLs (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;
const PAGE_SIZE = 1_000;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

function urlEntry(loc: string, lastmod?: string | null): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ""}</url>\n`;
}

/** W3C datetime for <lastmod>: the stored ISO timestamp, normalised to UTC. */
export function lastmodOf(iso: string): string | null {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * sitemap.xml as a stream: the static pages, then every product, read in pages of 1 000 by id (keyset pagination),
 * so 10 000 or 40 000 products never sit in memory at once and the first bytes go out at once. A crawler that hangs
 * up stops the reading (downloadStream).
 */
export function sitemapStream(db: Queryable, baseUrl: string): ReadableStream<Uint8Array> {
  return downloadStream(() => sitemapChunks(db, baseUrl), { name: "sitemap" });
}

async function* sitemapChunks(db: Queryable, baseUrl: string): AsyncGenerator<string, void, undefined> {
  const newest = await db.selectFrom("products").select("created_at").orderBy("created_at", "desc").limit(1).executeTakeFirst();
  const newestMod = newest ? lastmodOf(newest.created_at) : null;
  let written = 0;
  let head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  for (const path of STATIC_SITEMAP_PATHS) {
    head += urlEntry(absoluteUrl(baseUrl, path), path === "/" || path === "/shop" ? newestMod : null);
    written++;
  }
  yield head;
  let lastId: string | null = null;
  for (;;) {
    let query = db.selectFrom("products").select(["id", "slug", "created_at"]).orderBy("id").limit(PAGE_SIZE);
    if (lastId !== null) query = query.where("id", ">", lastId);
    const rows = await query.execute();
    let chunk = "";
    for (const row of rows) {
      if (written >= SITEMAP_MAX_URLS) break;
      chunk += urlEntry(absoluteUrl(baseUrl, `/products/${encodeURIComponent(row.slug)}`), lastmodOf(row.created_at));
      written++;
    }
    yield chunk;
    lastId = rows.at(-1)?.id ?? lastId;
    if (written >= SITEMAP_MAX_URLS) {
      logger.warn({ max: SITEMAP_MAX_URLS }, "sitemap: URL limit reached; later products are left out");
      break;
    }
    if (rows.length < PAGE_SIZE) break;
  }
  yield "</urlset>\n";
}

export function robotsTxt(baseUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${absoluteUrl(baseUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
