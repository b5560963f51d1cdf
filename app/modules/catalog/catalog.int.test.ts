import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { insertCategory, insertManyProducts, insertProduct } from "../../../tests/factories/catalog";
import { listCategories, listNewestProducts, listShopProducts } from "./catalog.server";

describe("listNewestProducts (home)", () => {
  it("returns the newest first, limited, as card summaries", async () => {
    const db = getDb();
    const cat = await insertCategory(db, { name: "Unisex", slug: "unisex" });
    await insertManyProducts(db, 15, (i) => ({ name: `Scent ${i}`, category_id: i === 14 ? cat.id : null, images: i === 14 ? ["/a-1200.webp", "/b-1200.webp"] : [] }));
    const list = await listNewestProducts(db, 12);
    expect(list).toHaveLength(12);
    expect(list[0]).toEqual({
      id: expect.any(String),
      name: "Scent 14",
      slug: expect.any(String),
      priceCents: expect.any(Number),
      wasPriceCents: null,
      maxPriceCents: expect.any(Number),
      image: "/a-1200.webp",
      categoryName: "Unisex",
      categorySlug: "unisex",
      stock: null,
      inspiredHouse: null,
      inspiredFragrance: null,
    });
    expect(list[0].maxPriceCents).toBe(list[0].priceCents); // one size: the card says no "from"
    expect(list[1].image).toBeNull();
    expect(list.map((p) => p.name).slice(0, 3)).toEqual(["Scent 14", "Scent 13", "Scent 12"]);
  });

  it("breaks equal timestamps deterministically", async () => {
    const db = getDb();
    const at = "2030-01-01T00:00:00.000Z";
    await insertProduct(db, { id: "tie-a", name: "Tie A", created_at: at });
    await insertProduct(db, { id: "tie-b", name: "Tie B", created_at: at });
    const [first, second] = await listNewestProducts(db, 2);
    expect([first.id, second.id]).toEqual(["tie-b", "tie-a"]);
  });
});

describe("listCategories", () => {
  it("orders by name", async () => {
    const db = getDb();
    await insertCategory(db, { name: "Gift Sets", slug: "gift-sets" });
    await insertCategory(db, { name: "For Him", slug: "for-him" });
    const names = (await listCategories(db)).map((c) => c.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("For Him");
  });
});

describe("listShopProducts", () => {
  it("an empty page beyond the results still reports counts", async () => {
    const res = await listShopProducts(getDb(), { q: "definitely-not-there", categoryId: null, maxPriceCents: null, page: 3, pageSize: 24 });
    expect(res).toMatchObject({ products: [], matching: 0, page: 1, pageCount: 1 });
    expect(res.total).toBeGreaterThan(0);
  });
});
