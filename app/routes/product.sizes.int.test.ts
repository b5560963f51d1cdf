import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { listNewestProducts, listShopProducts } from "~/modules/catalog/catalog.server";
import { pricedFrom } from "~/modules/catalog/sizes.logic";
import { addSize, insertProduct, insertTier, updateProduct, type ProductRow } from "../../tests/factories/catalog";
import { callLoader, dataOf } from "../../tests/setup/route";
import { loader } from "./product";

/** The product page of a scent sold in sizes (issue 33): what the shopper is offered and what crawlers read. */
describe("product page with sizes", () => {
  let rose: ProductRow;
  let large: Awaited<ReturnType<typeof addSize>>;
  let plain: ProductRow;

  beforeAll(async () => {
    const db = getDb();
    // 50 ml (the product's own first size) at R450, 100 ml at R750 with its own SKU, stock and tier; a retired 30 ml
    rose = await insertProduct(db, { name: "Velvet Rose Sizes", size_ml: 50, price_cents: 45000, stock: 8 });
    large = await addSize(db, rose.id, { label: "100 ml", size_ml: 100, price_cents: 75000, was_price_cents: 85000, sku: "VR-100", stock: 2 });
    await addSize(db, rose.id, { label: "30 ml", size_ml: 30, price_cents: 29000, hidden: 1 });
    await insertTier(db, rose.id, { min_quantity: 6, price_cents: 40000 });
    await insertTier(db, rose.id, { size_id: large.id, min_quantity: 3, price_cents: 70000 });
    plain = await insertProduct(db, { name: "Plain One Size", size_ml: 50, price_cents: 39900 });
    await updateProduct(db, plain.id, { stock: 0 });
  });

  const page = async (slug: string, query = "") => dataOf(await callLoader(loader, `/products/${slug}${query}`, { params: { slug } }));

  it("offers the visible sizes in the owner's order, the first chosen when the URL names none", async () => {
    const data = await page(rose.slug);
    expect(data.sizes.map((s: { label: string }) => s.label)).toEqual(["50 ml", "100 ml"]);
    expect(data.chosen).toBe("50ml");
    expect(data.sizes[1]).toMatchObject({ code: "100ml", priceCents: 75000, wasPriceCents: 85000, stock: 2, sku: "VR-100" });
    // each tier names the size it prices: the page shows the chosen size's own
    expect(data.tiers.map((t: { sizeId: string; minQuantity: number }) => [t.sizeId, t.minQuantity])).toEqual(
      expect.arrayContaining([
        [rose.id, 6],
        [large.id, 3],
      ]),
    );
  });

  it("opens the size a shared link names, however it is typed; an unknown or retired size opens the first", async () => {
    expect((await page(rose.slug, "?size=100ml")).chosen).toBe("100ml");
    expect((await page(rose.slug, "?size=100%20ML")).chosen).toBe("100ml");
    expect((await page(rose.slug, "?size=30ml")).chosen).toBe("50ml");
    expect((await page(rose.slug, "?size=magnum")).chosen).toBe("50ml");
    expect((await page(rose.slug, "?size=")).chosen).toBe("50ml");
  });

  it("gives crawlers one offer per visible size, each with its price, SKU, stock and link", async () => {
    const { jsonLd } = await page(rose.slug, "?size=100ml");
    expect(jsonLd.offers).toEqual([
      expect.objectContaining({
        "@type": "Offer",
        name: "50 ml",
        price: "450.00",
        priceCurrency: "ZAR",
        sku: `${rose.slug}-50ml`,
        availability: "https://schema.org/InStock",
        url: `http://localhost:3000/products/${rose.slug}?size=50ml`,
      }),
      expect.objectContaining({ name: "100 ml", price: "750.00", sku: "VR-100", url: `http://localhost:3000/products/${rose.slug}?size=100ml` }),
    ]);
    expect(JSON.stringify(jsonLd)).not.toContain("290.00");
  });

  it("keeps a one-size product as before: one size, one Offer for the product", async () => {
    const data = await page(plain.slug);
    expect(data.sizes).toHaveLength(1);
    expect(data.chosen).toBe("50ml");
    expect(data.jsonLd.offers).toMatchObject({ "@type": "Offer", price: "399.00", availability: "https://schema.org/OutOfStock", url: `http://localhost:3000/products/${plain.slug}` });
  });

  it("sends the description as its prose and notes, with the meta text made on the server", async () => {
    const data = await page(rose.slug);
    expect(data.product.description).toBeUndefined();
    expect(data.paragraphs).toEqual(["A fragrance called Velvet Rose Sizes."]);
    expect(data.seo.description).toBe("A fragrance called Velvet Rose Sizes.");
  });

  it("lists the product from its cheapest size, and cards say 'from'", async () => {
    const db = getDb();
    const [card] = (await listNewestProducts(db, 50)).filter((p) => p.id === rose.id);
    expect(card).toMatchObject({ priceCents: 45000, wasPriceCents: null, maxPriceCents: 75000, stock: 10 });
    expect(pricedFrom(card!.priceCents, card!.maxPriceCents)).toBe(true);
    const [one] = (await listNewestProducts(db, 50)).filter((p) => p.id === plain.id);
    expect(pricedFrom(one!.priceCents, one!.maxPriceCents)).toBe(false);
  });

  it("sorts and filters the shop by the cheapest visible size", async () => {
    const db = getDb();
    const between = await insertProduct(db, { name: "Between Sizes", price_cents: 60000 });
    const ids = [rose.id, between.id];
    const shop = async (query: { sort?: "price-asc" | "price-desc"; maxPriceCents?: number | null }) =>
      (await listShopProducts(db, { q: "", categoryId: null, maxPriceCents: query.maxPriceCents ?? null, sort: query.sort, page: 1, pageSize: 100 })).products
        .map((p) => p.id)
        .filter((id) => ids.includes(id));
    // R450 (its 50 ml) comes before R600, though its 100 ml costs R750
    expect(await shop({ sort: "price-asc" })).toEqual([rose.id, between.id]);
    expect(await shop({ sort: "price-desc" })).toEqual([between.id, rose.id]);
    // up to R500: the rose is in (its 50 ml); the retired 30 ml at R290 never counts
    expect(await shop({ maxPriceCents: 50000 })).toEqual([rose.id]);
    expect(await shop({ maxPriceCents: 44999 })).toEqual([]);
  });
});
