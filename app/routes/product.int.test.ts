import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertCategory, insertProduct, insertReview, insertReviewer, insertTier } from "../../tests/factories/catalog";
import { loader } from "./product";

const load = (slug: string) => callLoader(loader, `/products/${slug}`, { params: { slug } });

let productId = "";
let quietId = "";
beforeAll(async () => {
  const db = getDb();
  const cat = await insertCategory(db, { name: "For Her", slug: "for-her" });
  const p = await insertProduct(db, {
    name: "Rose Nocturne",
    slug: "rose-nocturne",
    description: "Velvet rose.\nTop notes: lychee",
    price_cents: 39900,
    images: ["/media/products/rose-1200.webp", "/media/products/rose-2-1200.webp"],
    category_id: cat.id,
    meta_title: "Rose Nocturne Perfume",
  });
  productId = p.id;
  quietId = (await insertProduct(db, { name: "Quiet Musk", slug: "quiet-musk", category_id: null })).id;
  // inserted out of order: the loader orders by min quantity
  await insertTier(db, p.id, { min_quantity: 10, max_quantity: null, price_cents: 29900 });
  await insertTier(db, p.id, { min_quantity: 3, max_quantity: 9, price_cents: 34900 });
  await insertTier(db, quietId, { min_quantity: 2, max_quantity: 4, price_cents: 1000 });

  const thandi = await insertReviewer(db, "thandi.m@example.co.za");
  await insertReview(db, p.id, { user_id: thandi.id, rating: 5, comment: "Gorgeous.", created_at: "2025-03-01T09:00:00.000Z" });
  await insertReview(db, p.id, { rating: 4, comment: "Lovely but soft.", created_at: "2025-03-02T09:00:00.000Z" });
  // a reviewer whose e-mail has no prefix shows as Anonymous
  const odd = await insertReviewer(db, "@nowhere");
  await insertReview(db, p.id, { user_id: odd.id, rating: 4, comment: "Ok.", created_at: "2025-03-03T09:00:00.000Z" });
});

describe("product loader", () => {
  it("finds the product by slug with its category, images and meta", async () => {
    const result = await load("rose-nocturne");
    expect(statusOf(result)).toBe(200);
    const d = await dataOf(result);
    expect(d.product).toMatchObject({
      id: productId,
      name: "Rose Nocturne",
      slug: "rose-nocturne",
      priceCents: 39900,
      images: ["/media/products/rose-1200.webp", "/media/products/rose-2-1200.webp"],
      categoryName: "For Her",
      categorySlug: "for-her",
      metaTitle: "Rose Nocturne Perfume",
      metaDesc: null,
    });
  });

  it("brings only this product's tiers, by minimum quantity", async () => {
    const d = await dataOf(await load("rose-nocturne"));
    expect(d.tiers.map((t: any) => [t.minQuantity, t.maxQuantity, t.priceCents])).toEqual([
      [3, 9, 34900],
      [10, null, 29900],
    ]);
  });

  it("reads the reviews into the page (they show without JavaScript): newest first, e-mail prefix or Anonymous, count and average (1 dp)", async () => {
    const d = await dataOf(await load("rose-nocturne"));
    expect(d.reviews).not.toBeInstanceOf(Promise);
    const reviews = d.reviews;
    expect(reviews.count).toBe(3);
    expect(reviews.average).toBe(4.3); // 13 / 3 = 4.33…
    expect(reviews.reviews.map((r: any) => [r.author, r.rating, r.comment])).toEqual([
      ["Anonymous", 4, "Ok."],
      [expect.stringMatching(/^reviewer\d+$/), 4, "Lovely but soft."],
      ["thandi.m", 5, "Gorgeous."],
    ]);
    // never the whole e-mail address
    expect(JSON.stringify(reviews)).not.toContain("@");
  });

  it("a product without reviews: count 0, no average", async () => {
    const d = await dataOf(await load("quiet-musk"));
    expect(await d.reviews).toEqual({ count: 0, average: null, reviews: [] });
    expect(d.product.categoryName).toBeNull();
  });

  it("an unknown slug is 'Product not found' with status 404", async () => {
    const result = await load("no-such-perfume").catch((e) => e);
    expect(statusOf(result)).toBe(404);
    expect((result as any).data).toEqual({ message: "Product not found" });
  });

  it("slug matching is exact", async () => {
    expect(statusOf(await load("Rose-Nocturne").catch((e) => e))).toBe(404);
    expect(statusOf(await load("rose").catch((e) => e))).toBe(404);
  });
});
