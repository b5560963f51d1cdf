import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertCategory, insertManyProducts, insertProduct } from "../../tests/factories/catalog";
import { loader } from "./shop";

type ShopData = Awaited<ReturnType<typeof loader>>;
const load = async (query = "") => {
  const result = await callLoader(loader, `/shop${query}`);
  expect(statusOf(result)).toBe(200);
  return dataOf<ShopData>(result);
};
const names = (d: ShopData) => d.products.map((p) => p.name);

describe("shop with no products", () => {
  it("has nothing to show: the 'No Products Available' state (total 0)", async () => {
    const d = await load();
    expect(d.total).toBe(0);
    expect(d.matching).toBe(0);
    expect(d.products).toEqual([]);
    expect(d.pageCount).toBe(1);
  });
});

describe("shop filters", () => {
  let forHer: { id: string; slug: string; name: string };
  let forHim: { id: string; slug: string; name: string };
  beforeAll(async () => {
    const db = getDb();
    forHer = await insertCategory(db, { name: "For Her", slug: "for-her" });
    forHim = await insertCategory(db, { name: "For Him", slug: "for-him" });
    // created oldest → newest
    await insertProduct(db, { name: "Velvet Oud", slug: "velvet-oud", price_cents: 45000, category_id: forHim.id, images: ["/media/products/velvet-oud-1200.webp"] });
    await insertProduct(db, { name: "Rose Nocturne", slug: "rose-nocturne", price_cents: 29999, category_id: forHer.id });
    await insertProduct(db, { name: "OUD ROYALE", slug: "oud-royale", price_cents: 100000, category_id: forHim.id });
    await insertProduct(db, { name: "Amber Oudh Intense", slug: "amber-oudh", price_cents: 100001, category_id: forHer.id });
    await insertProduct(db, { name: "Citrus 100% Fresh", slug: "citrus-fresh", price_cents: 15000, category_id: null });
  });

  it("lists every product newest first with counts", async () => {
    const d = await load();
    expect(names(d)).toEqual(["Citrus 100% Fresh", "Amber Oudh Intense", "OUD ROYALE", "Rose Nocturne", "Velvet Oud"]);
    expect(d.matching).toBe(5);
    expect(d.total).toBe(5);
    expect(d.categories.map((c) => c.name)).toEqual(["For Her", "For Him"]);
    expect(d.category).toBeNull();
  });

  it("summaries carry price, first image (or null) and category", async () => {
    const d = await load("?q=velvet");
    expect(d.products[0]).toMatchObject({
      name: "Velvet Oud",
      slug: "velvet-oud",
      priceCents: 45000,
      image: "/media/products/velvet-oud-1200.webp",
      categoryName: "For Him",
      categorySlug: "for-him",
    });
    const citrus = (await load("?q=citrus")).products[0];
    expect(citrus.image).toBeNull();
    expect(citrus.categoryName).toBeNull();
  });

  it("searches names case-insensitively by substring", async () => {
    expect(names(await load("?q=oud"))).toEqual(["Amber Oudh Intense", "OUD ROYALE", "Velvet Oud"]);
    expect(names(await load("?q=OuD"))).toEqual(["Amber Oudh Intense", "OUD ROYALE", "Velvet Oud"]);
    expect(names(await load("?q=%20%20nocturne%20"))).toEqual(["Rose Nocturne"]);
  });

  it("treats % and _ in a search as plain text", async () => {
    expect(names(await load("?q=100%25"))).toEqual(["Citrus 100% Fresh"]);
    expect(names(await load("?q=%25"))).toEqual(["Citrus 100% Fresh"]);
    expect(names(await load("?q=_"))).toEqual([]);
  });

  it("filters by category slug and reports the category", async () => {
    const d = await load("?category=for-her");
    expect(names(d)).toEqual(["Amber Oudh Intense", "Rose Nocturne"]);
    expect(d.category).toMatchObject({ name: "For Her", slug: "for-her" });
    expect(d.filters.category).toBe("for-her");
    expect(d.matching).toBe(2);
    expect(d.total).toBe(5);
  });

  it("ignores an unknown category", async () => {
    const d = await load("?category=no-such-thing");
    expect(d.matching).toBe(5);
    expect(d.category).toBeNull();
    expect(d.filters.category).toBe("");
  });

  it("bounds the price inclusively, in whole rand", async () => {
    expect(names(await load("?maxPrice=450"))).toEqual(["Citrus 100% Fresh", "Rose Nocturne", "Velvet Oud"]);
    expect(names(await load("?maxPrice=449"))).toEqual(["Citrus 100% Fresh", "Rose Nocturne"]);
    // the slider's top is no bound: a form submitted without JavaScript sends maxPrice=1000, and nothing is hidden
    const top = await load("?maxPrice=1000");
    expect(top.matching).toBe(5);
    expect(top.filters.maxPrice).toBeNull();
    expect(names(await load("?maxPrice=0"))).toEqual([]);
  });

  it("ignores an invalid price bound", async () => {
    for (const bad of ["abc", "-5", "1001", "12.5"]) {
      const d = await load(`?maxPrice=${bad}`);
      expect(d.matching).toBe(5);
      expect(d.filters.maxPrice).toBeNull();
    }
  });

  it("combines filters", async () => {
    const d = await load("?q=oud&category=for-him&maxPrice=500");
    expect(names(d)).toEqual(["Velvet Oud"]);
    expect(d.matching).toBe(1);
    expect(d.total).toBe(5);
    expect(d.filters).toEqual({ q: "oud", category: "for-him", house: "", maxPrice: 500, sort: "newest", page: 1 });
  });

  it("filters that exclude everything: 'No products found matching your criteria.' (matching 0, total > 0)", async () => {
    const d = await load("?q=zzz&category=for-her");
    expect(d.products).toEqual([]);
    expect(d.matching).toBe(0);
    expect(d.total).toBe(5);
  });
});

describe("shop pagination (24 a page)", () => {
  beforeAll(async () => {
    const db = getDb();
    await getDb().deleteFrom("products").execute();
    const cat = await insertCategory(db, { name: "Gift Sets", slug: "gift-sets" });
    // 50 products: "Item 0" oldest … "Item 49" newest; even ones in Gift Sets
    await insertManyProducts(db, 50, (i) => ({ name: `Item ${i}`, price_cents: (i + 1) * 1000, category_id: i % 2 === 0 ? cat.id : null }));
  });

  it("pages newest first, 24 a page", async () => {
    const p1 = await load();
    expect(p1.products).toHaveLength(24);
    expect(p1.products[0].name).toBe("Item 49");
    expect(p1.page).toBe(1);
    expect(p1.pageCount).toBe(3);
    const p2 = await load("?page=2");
    expect(p2.products[0].name).toBe("Item 25");
    const p3 = await load("?page=3");
    expect(names(p3)).toEqual(["Item 1", "Item 0"]);
    const all = [...names(p1), ...names(p2), ...names(p3)];
    expect(new Set(all).size).toBe(50);
  });

  it("a page past the end shows the last page", async () => {
    const d = await load("?page=99");
    expect(d.page).toBe(3);
    expect(d.filters.page).toBe(3);
    expect(names(d)).toEqual(["Item 1", "Item 0"]);
  });

  it("counts and pages within filters", async () => {
    const d = await load("?category=gift-sets&page=2");
    expect(d.matching).toBe(25);
    expect(d.total).toBe(50);
    expect(d.pageCount).toBe(2);
    expect(names(d)).toEqual(["Item 0"]);
    const cheap = await load("?maxPrice=100"); // R10, R20 … R100
    expect(cheap.matching).toBe(10);
    expect(cheap.pageCount).toBe(1);
  });
});

describe("search beyond names and the inspired-by house filter (issue 13)", () => {
  beforeAll(async () => {
    const db = getDb();
    // created oldest → newest; names don't say 'chanel' or 'sauvage'
    await insertProduct(db, { name: "Harbour Blue", slug: "harbour-blue", description: "Crisp and salty.\n\nTop notes: bergamot, sea salt.", inspired_house: "Chanel", inspired_fragrance: "Bleu de Chanel" });
    await insertProduct(db, { name: "Desert Ambroxan", slug: "desert-ambroxan", description: "Fresh spice.\n\nTop notes: Sichuan pepper, bergamot.", inspired_house: "Dior", inspired_fragrance: "Sauvage" });
    await insertProduct(db, { name: "Camellia Powder", slug: "camellia-powder", description: "Aldehydes and iris.", inspired_house: "chanel", inspired_fragrance: "N°5" });
    await insertProduct(db, { name: "Bergamot Bright", slug: "bergamot-bright", description: "Zesty citrus.", inspired_house: "Tom Ford", inspired_fragrance: "Neroli Portofino" });
    await insertProduct(db, { name: "Plain Musk", slug: "plain-musk", description: "Skin musk, with a touch of bergamot in the notes." });
  });

  it("'chanel' and 'sauvage' find products by their inspired-by house or fragrance", async () => {
    expect(names(await load("?q=chanel")).sort()).toEqual(["Camellia Powder", "Harbour Blue"]);
    expect(names(await load("?q=SAUVAGE"))).toEqual(["Desert Ambroxan"]);
    expect(names(await load("?q=dior+sauvage"))).toEqual(["Desert Ambroxan"]);
  });

  it("finds scent notes in the description, and lists name matches first (then newest first)", async () => {
    const d = await load("?q=bergamot");
    // 'Bergamot Bright' by name first; then the description/notes matches, newest first
    expect(names(d)).toEqual(["Bergamot Bright", "Plain Musk", "Desert Ambroxan", "Harbour Blue"]);
    expect(d.matching).toBe(4);
  });

  it("every word must match somewhere", async () => {
    expect(names(await load("?q=bergamot+salt"))).toEqual(["Harbour Blue"]);
    expect(names(await load("?q=bergamot+nothing-like-it"))).toEqual([]);
  });

  it("filters by house (any case), in the URL, with the other filters; lists only houses that have matches", async () => {
    const d = await load("?house=CHANEL");
    expect(names(d).sort()).toEqual(["Camellia Powder", "Harbour Blue"]);
    // the select shows it chosen: the filter takes the list's own spelling of the house
    const chanel = d.houses.find((h) => h.name.toLowerCase() === "chanel")!;
    expect(d.filters.house).toBe(chanel.name);
    expect(d.houses.filter((h) => h.name.toLowerCase() === "chanel")).toHaveLength(1);
    const all = await load();
    const houses = all.houses.map((h) => h.name.toLowerCase());
    expect(houses).toEqual(["chanel", "dior", "tom ford"]);
    expect(all.houses.find((h) => h.name.toLowerCase() === "chanel")!.count).toBe(2);
    // the houses follow the search: 'bergamot' matches Chanel, Dior and Tom Ford products, 'aldehydes' only Chanel
    expect((await load("?q=aldehydes")).houses).toEqual([{ name: expect.stringMatching(/^chanel$/i), count: 1 }]);
    expect(names(await load("?q=bergamot&house=Dior"))).toEqual(["Desert Ambroxan"]);
    // a house with no match keeps its place in the select, with 0
    const none = await load("?q=aldehydes&house=Dior");
    expect(none.matching).toBe(0);
    expect(none.houses).toContainEqual({ name: "Dior", count: 0 });
  });
});

describe("sort (issue 13): in the URL, with the filters and pages, one fixed order for equal prices and names", () => {
  let floral: { id: string; slug: string; name: string };
  const at = "2030-06-01T00:00:00.000Z";
  beforeAll(async () => {
    const db = getDb();
    await db.deleteFrom("products").execute();
    floral = await insertCategory(db, { name: "Florals", slug: "florals" });
    // created oldest → newest
    await insertProduct(db, { name: "banana Leaf", slug: "banana-leaf", price_cents: 30000, description: "Green and rose-tinted." });
    await insertProduct(db, { name: "Cherry Rose", slug: "cherry-rose", price_cents: 55000, category_id: floral.id });
    await insertProduct(db, { name: "Apple Blossom", slug: "apple-blossom", price_cents: 12000, category_id: floral.id });
    await insertProduct(db, { name: "Rose Absolute", slug: "rose-absolute", price_cents: 90000, category_id: floral.id });
    await insertProduct(db, { name: "damask Musk", slug: "damask-musk", price_cents: 20000, description: "A rose heart.", category_id: floral.id });
    // 30 products with one price and one timestamp: only the id tells them apart
    await insertManyProducts(db, 30, (i) => ({ name: `Twin ${i % 3}`, price_cents: 45000, created_at: at }));
  });

  const prices = (d: ShopData) => d.products.map((p) => p.priceCents);
  const ids = (d: ShopData) => d.products.map((p) => p.id);

  it("price low to high and high to low follow the price a shopper sees, over every page", async () => {
    const [p1, p2] = [await load("?sort=price-asc"), await load("?sort=price-asc&page=2")];
    const up = [...prices(p1), ...prices(p2)];
    expect(up).toHaveLength(35);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    expect(names(p1).slice(0, 3)).toEqual(["Apple Blossom", "damask Musk", "banana Leaf"]);
    expect(p1.filters.sort).toBe("price-asc");
    const down = [...prices(await load("?sort=price-desc")), ...prices(await load("?sort=price-desc&page=2"))];
    expect(down).toEqual([...up].reverse());
    expect(names(await load("?sort=price-desc"))[0]).toBe("Rose Absolute");
  });

  it("name A to Z ignores case", async () => {
    const d = await load("?sort=name&category=florals");
    expect(names(d)).toEqual(["Apple Blossom", "Cherry Rose", "damask Musk", "Rose Absolute"]);
    expect(names(await load("?sort=name")).slice(0, 3)).toEqual(["Apple Blossom", "banana Leaf", "Cherry Rose"]);
  });

  it("an unknown sort is the default order (newest first), not an error", async () => {
    const newest = await load();
    for (const bad of ["cheapest", "PRICE-ASC", "price-asc'--", ""]) {
      const d = await load(`?sort=${encodeURIComponent(bad)}`);
      expect(ids(d)).toEqual(ids(newest));
      expect(d.filters.sort).toBe("newest");
    }
  });

  it.each(["newest", "price-asc", "price-desc", "name"])("%s: products that tie are in one fixed order, never repeated or skipped across pages", async (sort) => {
    // the 30 twins tie on price and date (and on name in threes); pages of 24 split them
    const p1 = await load(`?sort=${sort}`);
    const p2 = await load(`?sort=${sort}&page=2`);
    const seen = [...ids(p1), ...ids(p2)];
    expect(seen).toHaveLength(35);
    expect(new Set(seen).size).toBe(35);
    expect(ids(await load(`?sort=${sort}&page=2`))).toEqual(ids(p2));
    // the same with a search that finds only the twins, in one statement on the search path
    const s1 = await load(`?q=twin&sort=${sort}`);
    const s2 = await load(`?q=twin&sort=${sort}&page=2`);
    expect(s1.matching).toBe(30);
    const twins = [...ids(s1), ...ids(s2)];
    expect(new Set(twins).size).toBe(30);
    expect(ids(await load(`?q=twin&sort=${sort}`))).toEqual(ids(s1));
  });

  it("combines with search, category, price and pages; a page past the end is the last page in that order", async () => {
    // 'rose' is in three names and two descriptions; a chosen sort is followed strictly (no name-first)
    const byPrice = await load("?q=rose&sort=price-asc");
    expect(names(byPrice)).toEqual(["damask Musk", "banana Leaf", "Cherry Rose", "Rose Absolute"]);
    // the default order of a search lists name matches first, then newest
    expect(names(await load("?q=rose"))).toEqual(["Rose Absolute", "Cherry Rose", "damask Musk", "banana Leaf"]);
    expect(names(await load("?q=rose&category=florals&maxPrice=600&sort=price-desc"))).toEqual(["Cherry Rose", "damask Musk"]);
    const last = await load("?sort=price-desc&page=9");
    expect(last.page).toBe(2);
    expect(last.filters).toMatchObject({ sort: "price-desc", page: 2 });
    expect(prices(last).at(-1)).toBe(12000);
    const lastSearch = await load("?q=twin&sort=name&page=9");
    expect(lastSearch.page).toBe(2);
    expect(lastSearch.products).toHaveLength(6);
  });
});
