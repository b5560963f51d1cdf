import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { insertManyProducts, insertProduct } from "../../tests/factories/catalog";
import { callLoader } from "../../tests/setup/route";
import { loader as robotsLoader } from "./robots[.]txt";
import { loader as sitemapLoader } from "./sitemap[.]xml";

const base = () => env().PUBLIC_BASE_URL.replace(/\/+$/, "");

beforeEach(async () => {
  await getDb().deleteFrom("products").execute();
});

async function sitemap() {
  const res = (await callLoader(sitemapLoader, "/sitemap.xml")) as Response;
  expect(res.status).toBe(200);
  return { res, xml: await res.text() };
}

describe("sitemap.xml", () => {
  it("lists home, shop, the scent finder, terms, the legal notices and each product URL with its created_at as lastmod", async () => {
    const db = getDb();
    const a = await insertProduct(db, { name: "Velvet Oud", slug: "velvet-oud", created_at: "2025-03-01T10:00:00.000Z" });
    const b = await insertProduct(db, { name: "Amber & Rose", slug: "amber-rose", created_at: "2025-04-02T12:30:00.000Z" });
    const { res, xml } = await sitemap();
    expect(res.headers.get("content-type")).toContain("application/xml");
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
    for (const path of ["/", "/shop", "/scent-finder", "/terms", "/privacy", "/seller"]) expect(xml).toContain(`<loc>${base()}${path}</loc>`);
    expect(xml).toContain(`<url><loc>${base()}/products/${a.slug}</loc><lastmod>2025-03-01T10:00:00Z</lastmod></url>`);
    expect(xml).toContain(`<url><loc>${base()}/products/${b.slug}</loc><lastmod>2025-04-02T12:30:00Z</lastmod></url>`);
    expect(xml.match(/<url>/g)).toHaveLength(8);
    // nothing private
    expect(xml).not.toMatch(/\/(admin|cart|checkout|profile|auth)/);
  });

  it("is well-formed for an empty catalogue", async () => {
    const { xml } = await sitemap();
    expect(xml.match(/<url>/g)).toHaveLength(6);
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
  });

  it("includes every product of a large catalogue (read in pages), each once", async () => {
    await insertManyProducts(getDb(), 2_345);
    const { xml } = await sitemap();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toHaveLength(2_351);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.filter((l) => l.includes("/products/"))).toHaveLength(2_345);
  });
});

describe("robots.txt", () => {
  it("allows crawling, keeps private pages out and points to the sitemap", async () => {
    const res = (await callLoader(robotsLoader, "/robots.txt")) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const text = await res.text();
    expect(text).toContain("User-agent: *");
    expect(text).toContain("Allow: /");
    for (const path of ["/admin", "/cart", "/checkout", "/profile", "/auth", "/payment-status", "/order-confirmation"]) {
      expect(text).toContain(`Disallow: ${path}\n`);
    }
    expect(text).not.toMatch(/Disallow: \/(shop|products|terms)?\n/);
    expect(text).toContain(`Sitemap: ${base()}/sitemap.xml`);
  });
});
