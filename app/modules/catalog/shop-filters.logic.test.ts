import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  clearFilters,
  EMPTY_FILTERS,
  isFilterActive,
  maxPriceCents,
  PAGE_LIMIT,
  pageInfo,
  pageWindow,
  parseMaxPrice,
  parseShopFilters,
  parseSort,
  priceLabel,
  SHOP_SORTS,
  sortKeys,
  sortLabel,
  serializeShopFilters,
  shopHref,
  searchWords,
  sliderValue,
  withFilter,
  type ShopFilters,
} from "./shop-filters.logic";

const f = (over: Partial<ShopFilters> = {}): ShopFilters => ({ ...EMPTY_FILTERS, ...over });

describe("parseShopFilters", () => {
  it("gives the empty filters for an empty query", () => {
    expect(parseShopFilters("")).toEqual({ q: "", category: "", house: "", maxPrice: null, sort: "newest", page: 1 });
  });

  it("reads every filter", () => {
    expect(parseShopFilters("q=oud&category=for-her&house=Dior&maxPrice=450&sort=price-desc&page=3")).toEqual({
      q: "oud",
      category: "for-her",
      house: "Dior",
      maxPrice: 450,
      sort: "price-desc",
      page: 3,
    });
  });

  it("accepts URLSearchParams and plain objects", () => {
    expect(parseShopFilters(new URLSearchParams({ q: "rose" })).q).toBe("rose");
    expect(parseShopFilters({ category: "for-him", q: undefined }).category).toBe("for-him");
  });

  describe("q", () => {
    it("is trimmed and inner whitespace collapsed", () => {
      expect(parseShopFilters({ q: "  velvet \t  oud  " }).q).toBe("velvet oud");
    });
    it("keeps its case (matching is case-insensitive on the server)", () => {
      expect(parseShopFilters({ q: "OUD Noir" }).q).toBe("OUD Noir");
    });
    it("is cut to 100 characters", () => {
      const q = parseShopFilters({ q: "a".repeat(150) }).q;
      expect(q).toHaveLength(100);
    });
    it("never cuts an emoji in half", () => {
      const q = parseShopFilters({ q: "🌹".repeat(120) }).q;
      expect(Array.from(q)).toHaveLength(100);
      expect(q).toBe("🌹".repeat(100));
    });
    it("whitespace only means no search", () => {
      expect(parseShopFilters({ q: "   " }).q).toBe("");
    });
    it("keeps LIKE wildcards as plain text (escaped by the query)", () => {
      expect(parseShopFilters({ q: "100%_" }).q).toBe("100%_");
    });
    it("uses the first of repeated values", () => {
      expect(parseShopFilters("q=first&q=second").q).toBe("first");
    });
  });

  describe("category", () => {
    it("accepts slugs and lower-cases them", () => {
      expect(parseShopFilters({ category: "For-Her" }).category).toBe("for-her");
      expect(parseShopFilters({ category: "unisex" }).category).toBe("unisex");
    });
    it.each(["for her", "../etc", "a--b", "-x", "x-", "<script>", "a".repeat(101)])("ignores %j", (value) => {
      expect(parseShopFilters({ category: value }).category).toBe("");
    });
  });

  describe("maxPrice", () => {
    it.each([
      ["0", 0],
      ["10", 10],
      ["455", 455],
      ["990", 990],
      [" 300 ", 300],
      ["0300", 300],
    ])("reads %j as %d", (raw, expected) => {
      expect(parseShopFilters({ maxPrice: raw }).maxPrice).toBe(expected);
    });
    it.each(["", "1000", "1001", "-10", "+10", "10.5", "1e3", "abc", "R300", "Infinity", "NaN", "99999999999"])("ignores %j", (raw) => {
      expect(parseShopFilters({ maxPrice: raw }).maxPrice).toBeNull();
    });
    it("is absent when the parameter is missing", () => {
      expect(parseMaxPrice(null)).toBeNull();
      expect(parseMaxPrice(undefined)).toBeNull();
    });
  });

  describe("page", () => {
    it.each([
      ["1", 1],
      ["2", 2],
      ["417", 417],
    ])("reads %j", (raw, expected) => {
      expect(parseShopFilters({ page: raw }).page).toBe(expected);
    });
    it.each(["0", "-1", "1.5", "x", "", "1e2"])("falls back to 1 for %j", (raw) => {
      expect(parseShopFilters({ page: raw }).page).toBe(1);
    });
    it("caps absurd page numbers", () => {
      expect(parseShopFilters({ page: "999999999" }).page).toBe(PAGE_LIMIT);
    });
  });
});

describe("serializeShopFilters / shopHref", () => {
  it("leaves defaults out", () => {
    expect(serializeShopFilters(EMPTY_FILTERS).toString()).toBe("");
    expect(shopHref(EMPTY_FILTERS)).toBe("/shop");
  });
  it("writes filters in a stable order", () => {
    expect(shopHref(f({ page: 2, sort: "price-asc", maxPrice: 500, category: "for-her", q: "oud", house: "Yves Saint Laurent" }))).toBe(
      "/shop?q=oud&category=for-her&house=Yves+Saint+Laurent&maxPrice=500&sort=price-asc&page=2",
    );
  });
  it("keeps a price bound of 0; the slider's top (1000) is no bound at all", () => {
    expect(shopHref(f({ maxPrice: 0 }))).toBe("/shop?maxPrice=0");
    expect(shopHref(f({ maxPrice: 1000 }))).toBe("/shop");
  });
  it("encodes search text", () => {
    expect(shopHref(f({ q: "oud & rose" }))).toBe("/shop?q=oud+%26+rose");
  });
  it("drops invalid values rather than writing them", () => {
    expect(shopHref({ q: "  ", category: "Not A Slug", maxPrice: 5000, page: 0 })).toBe("/shop");
  });
  it("round-trips any valid filters", () => {
    const filters = fc.record({
      q: fc.string({ maxLength: 120 }),
      category: fc.constantFrom("", "for-her", "for-him", "unisex", "gift-sets"),
      house: fc.constantFrom("", "Dior", "Maison Francis Kurkdjian", "Yves Saint Laurent"),
      maxPrice: fc.option(fc.integer({ min: 0, max: 990 }), { nil: null }),
      sort: fc.constantFrom(...SHOP_SORTS),
      page: fc.integer({ min: 1, max: 500 }),
    });
    fc.assert(
      fc.property(filters, (input) => {
        const once = parseShopFilters(serializeShopFilters(input));
        // parsing normalises; serialising the result again changes nothing
        expect(parseShopFilters(serializeShopFilters(once))).toEqual(once);
        expect(once.category).toBe(input.category);
        expect(once.house).toBe(input.house);
        expect(once.maxPrice).toBe(input.maxPrice);
        expect(once.page).toBe(input.page);
        expect(once.sort).toBe(input.sort);
        expect(once.q.length).toBeLessThanOrEqual(100);
      }),
    );
  });
  it("parsing anything never throws and always gives valid filters", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("q", "category", "maxPrice", "sort", "page", "x"), fc.string()), (raw) => {
        const out = parseShopFilters(raw);
        expect(SHOP_SORTS).toContain(out.sort);
        expect(out.page).toBeGreaterThanOrEqual(1);
        expect(out.maxPrice === null || (out.maxPrice >= 0 && out.maxPrice < 1000)).toBe(true);
        expect(out.q).toBe(out.q.trim());
      }),
    );
  });
});

describe("isFilterActive / clearFilters / withFilter", () => {
  it("no filter is active on the plain shop", () => {
    expect(isFilterActive(EMPTY_FILTERS)).toBe(false);
  });
  it("the page number alone is not a filter", () => {
    expect(isFilterActive(f({ page: 4 }))).toBe(false);
  });
  it.each<[string, Partial<ShopFilters>]>([
    ["search", { q: "oud" }],
    ["category", { category: "for-her" }],
    ["house", { house: "Chanel" }],
    ["price", { maxPrice: 500 }],
    ["price of 990", { maxPrice: 990 }],
    ["price of 0", { maxPrice: 0 }],
  ])("%s makes a filter active", (_, over) => {
    expect(isFilterActive(f(over))).toBe(true);
  });
  it("clearFilters removes every filter and goes to page 1", () => {
    expect(clearFilters()).toEqual({ q: "", category: "", house: "", maxPrice: null, sort: "newest", page: 1 });
    expect(isFilterActive(clearFilters())).toBe(false);
    expect(shopHref(clearFilters())).toBe("/shop");
  });
  it("clearFilters gives a fresh object each time", () => {
    const a = clearFilters();
    a.q = "changed";
    expect(clearFilters().q).toBe("");
  });
  it("changing a filter resets the page; changing the page keeps the filters", () => {
    const start = f({ q: "oud", page: 3 });
    expect(withFilter(start, { category: "for-her" })).toEqual(f({ q: "oud", category: "for-her", page: 1 }));
    expect(withFilter(start, { page: 4 })).toEqual(f({ q: "oud", page: 4 }));
  });
});

describe("price helpers", () => {
  it("the bound is inclusive whole rand, in cents", () => {
    expect(maxPriceCents(f({ maxPrice: 450 }))).toBe(45000);
    expect(maxPriceCents(f({ maxPrice: 0 }))).toBe(0);
    expect(maxPriceCents(EMPTY_FILTERS)).toBeNull();
  });
  it("the slider sits at the top without a bound", () => {
    expect(sliderValue(EMPTY_FILTERS)).toBe(1000);
    expect(sliderValue(f({ maxPrice: 250 }))).toBe(250);
  });
  it("labels the bound 'Up to R{n}'", () => {
    expect(priceLabel(250)).toBe("Up to R250");
    expect(priceLabel(990)).toBe("Up to R990");
    expect(priceLabel(1000)).toBe("Any price");
    expect(priceLabel(0)).toBe("Up to R0");
    expect(priceLabel(null)).toBe("Any price");
  });
});

describe("pageInfo", () => {
  it("one page for few results", () => {
    expect(pageInfo(1, 5)).toEqual({ page: 1, pageCount: 1, from: 1, to: 5 });
  });
  it("no results: page 1 of 1, nothing shown", () => {
    expect(pageInfo(3, 0)).toEqual({ page: 1, pageCount: 1, from: 0, to: 0 });
  });
  it("24 a page", () => {
    expect(pageInfo(2, 50)).toEqual({ page: 2, pageCount: 3, from: 25, to: 48 });
    expect(pageInfo(3, 50)).toEqual({ page: 3, pageCount: 3, from: 49, to: 50 });
    expect(pageInfo(1, 24)).toEqual({ page: 1, pageCount: 1, from: 1, to: 24 });
    expect(pageInfo(2, 25)).toEqual({ page: 2, pageCount: 2, from: 25, to: 25 });
  });
  it("a page past the end shows the last page", () => {
    expect(pageInfo(99, 50)).toEqual({ page: 3, pageCount: 3, from: 49, to: 50 });
  });
});

describe("pageWindow", () => {
  it("lists every page when there are few", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
  });
  it("elides long runs", () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, null, 10]);
    expect(pageWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageWindow(10, 10)).toEqual([1, null, 9, 10]);
  });
  it("shows a single missing page instead of '…'", () => {
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4, 5, null, 10]);
  });
  it("always includes first, current and last, increasing, without duplicates", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), (a, b) => {
        const pageCount = Math.max(a, b);
        const page = Math.min(a, b);
        const w = pageWindow(page, pageCount);
        const nums = w.filter((x): x is number => x !== null);
        expect(nums).toContain(1);
        expect(nums).toContain(page);
        expect(nums).toContain(pageCount);
        for (let i = 1; i < nums.length; i++) expect(nums[i]).toBeGreaterThan(nums[i - 1]);
        expect(w.length).toBeLessThanOrEqual(7);
      }),
    );
  });
});

describe("searchWords", () => {
  it("splits a search into distinct lower-case words, longest first", () => {
    expect(searchWords("  Dior   SAUVAGE dior ")).toEqual(["sauvage", "dior"]);
    expect(searchWords("")).toEqual([]);
  });
  it("counts at most 6 words", () => {
    expect(searchWords("a b c d e f g h")).toHaveLength(6);
  });
});

describe("sort (issue 13)", () => {
  it.each([
    ["price-asc", "price-asc"],
    ["price-desc", "price-desc"],
    ["name", "name"],
    ["newest", "newest"],
    [" price-asc ", "price-asc"],
    // anything else is the default, never an error
    ["PRICE-ASC", "newest"],
    ["price", "newest"],
    ["price-asc;drop table products", "newest"],
    ["", "newest"],
  ])("sort=%j reads as %s", (raw, sort) => {
    expect(parseShopFilters({ sort: raw }).sort).toBe(sort);
  });
  it("an absent or repeated sort: absent is the default, the first of several counts", () => {
    expect(parseSort(null)).toBe("newest");
    expect(parseShopFilters("sort=name&sort=price-desc").sort).toBe("name");
  });
  it("the default is left out of the URL; the others are written", () => {
    expect(shopHref(f({ sort: "newest" }))).toBe("/shop");
    expect(shopHref(f({ sort: "price-desc", category: "for-him" }))).toBe("/shop?category=for-him&sort=price-desc");
    expect(shopHref(f({ sort: "name", page: 3 }))).toBe("/shop?sort=name&page=3");
  });
  it("pagination keeps the sort; changing the sort goes back to page 1", () => {
    const sorted = f({ sort: "price-asc", q: "oud", page: 1 });
    expect(shopHref(withFilter(sorted, { page: 2 }))).toBe("/shop?q=oud&sort=price-asc&page=2");
    expect(withFilter(f({ sort: "price-asc", page: 4 }), { sort: "name" })).toEqual(f({ sort: "name", page: 1 }));
  });
  it("the sort is not a filter: no Clear All Filters for it, and clearing the filters keeps it", () => {
    expect(isFilterActive(f({ sort: "price-desc" }))).toBe(false);
    expect(activeFilterCount(f({ sort: "price-desc" }))).toBe(0);
    expect(clearFilters("price-desc")).toEqual(f({ sort: "price-desc" }));
    expect(shopHref(clearFilters("name"))).toBe("/shop?sort=name");
  });
  it("counts the active filters for the phone's 'Filter and sort' control", () => {
    expect(activeFilterCount(EMPTY_FILTERS)).toBe(0);
    expect(activeFilterCount(f({ q: "oud", maxPrice: 0 }))).toBe(2);
    expect(activeFilterCount(f({ q: "oud", category: "for-her", house: "Dior", maxPrice: 500, page: 3 }))).toBe(4);
  });
  it("labels: the default reads 'Newest', or 'Best match' while searching", () => {
    expect(sortLabel("newest", "")).toBe("Newest");
    expect(sortLabel("newest", "  oud ")).toBe("Best match");
    expect(sortLabel("newest", "   ")).toBe("Newest");
    expect(sortLabel("price-asc", "oud")).toBe("Price: low to high");
    expect(sortLabel("name", "")).toBe("Name: A to Z");
  });
  it("every order ends on the id, so equal prices, names or dates keep one order across pages", () => {
    for (const sort of SHOP_SORTS) for (const searching of [false, true]) expect(sortKeys(sort, searching).at(-1)![0]).toBe("id");
  });
  it("name matches lead only the default order of a search; a chosen sort is followed strictly", () => {
    expect(sortKeys("newest", true)).toEqual([["rank", "asc"], ["created_at", "desc"], ["id", "desc"]]);
    expect(sortKeys("newest", false)).toEqual([["created_at", "desc"], ["id", "desc"]]);
    expect(sortKeys("price-asc", true)).toEqual([["price_cents", "asc"], ["created_at", "desc"], ["id", "desc"]]);
    expect(sortKeys("price-desc", true)).toEqual([["price_cents", "desc"], ["created_at", "desc"], ["id", "desc"]]);
    expect(sortKeys("name", true)).toEqual([["name", "asc"], ["id", "asc"]]);
  });
});
