/**
 * The shop at 10 000 products (issue 12): the page a search shows is the one a plain reading of the rules gives —
 * every word somewhere, name matches first, then the chosen order, id as the last tiebreak — and the houses and counts
 * agree; and it comes back quickly. The times are printed (median of several runs) so a change can be compared.
 */
import { performance } from "node:perf_hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";
import { seedLargeCatalogue } from "~/modules/demo/seed.server";
import { sql } from "kysely";
import { queryShop, searchIndexMissing, wordMatches, type ShopQuery } from "./catalog.server";
import { PAGE_SIZE, searchWords, sortKeys } from "./shop-filters.logic";

const PRODUCTS = 10_000;

type Row = { id: string; name: string; description: string; price_cents: number; created_at: string; category_id: string | null; inspired_house: string | null; inspired_fragrance: string | null };
let rows: Row[] = [];

beforeAll(async () => {
  const db = getDb();
  await seedLargeCatalogue(db, { products: PRODUCTS, orders: 0, users: 1 });
  rows = (await db
    .selectFrom("products")
    .select(["id", "name", "description", "price_cents", "created_at", "category_id", "inspired_house", "inspired_fragrance"])
    .execute()) as Row[];
}, 120_000);

/** The rules, read plainly, over every product in memory. */
function reference(query: ShopQuery) {
  const words = searchWords(query.q);
  const has = (text: string | null, w: string) => (text ?? "").toLowerCase().includes(w);
  const matches = rows.filter(
    (r) =>
      words.every((w) => has(r.name, w) || has(r.description, w) || has(r.inspired_house, w) || has(r.inspired_fragrance, w)) &&
      (query.categoryId === null || r.category_id === query.categoryId) &&
      (query.maxPriceCents === null || Number(r.price_cents) <= query.maxPriceCents),
  );
  const house = (query.house ?? "").toLowerCase();
  const wanted = house ? matches.filter((r) => (r.inspired_house ?? "").toLowerCase() === house) : matches;
  const rank = (r: Row) => (words.length > 0 && words.every((w) => has(r.name, w)) ? 0 : 1);
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  const key = { rank, created_at: (r: Row) => r.created_at, price_cents: (r: Row) => Number(r.price_cents), name: (r: Row) => r.name.toLowerCase(), id: (r: Row) => r.id };
  const keys = sortKeys(query.sort ?? "newest", words.length > 0);
  wanted.sort((a, b) => {
    for (const [k, dir] of keys) {
      const c = cmp(key[k](a), key[k](b));
      if (c !== 0) return dir === "asc" ? c : -c;
    }
    return 0;
  });
  const pageCount = Math.max(1, Math.ceil(wanted.length / query.pageSize));
  const page = Math.min(Math.max(1, query.page), pageCount);
  const houseCounts = new Map<string, number>();
  for (const r of matches) if (r.inspired_house) houseCounts.set(r.inspired_house.toLowerCase(), (houseCounts.get(r.inspired_house.toLowerCase()) ?? 0) + 1);
  return {
    ids: wanted.slice((page - 1) * query.pageSize, page * query.pageSize).map((r) => r.id),
    matching: wanted.length,
    page,
    pageCount,
    houses: [...houseCounts.entries()].sort(([a], [b]) => cmp(a, b)),
  };
}

const base: ShopQuery = { q: "", house: "", categoryId: null, maxPriceCents: null, page: 1, pageSize: PAGE_SIZE };
const cases: Array<[string, Partial<ShopQuery>]> = [
  ["no filter", {}],
  ["search 'amber' (names and notes)", { q: "amber" }],
  ["search 'amber' page 3", { q: "amber", page: 3 }],
  ["search 'amber' past the end", { q: "amber", page: 999 }],
  ["search 'rose oud'", { q: "rose oud" }],
  ["search 'bergamot' under R500", { q: "bergamot", maxPriceCents: 50_000 }],
  ["search 'vanilla' + house Dior", { q: "vanilla", house: "dior" }],
  ["search with no match", { q: "zzzz-nothing" }],
  ["price low to high", { sort: "price-asc" }],
  ["price high to low, page 5", { sort: "price-desc", page: 5 }],
  ["name A to Z, page 2", { sort: "name", page: 2 }],
  ["search 'amber', price low to high", { q: "amber", sort: "price-asc" }],
  ["search 'amber', high to low, page 2", { q: "amber", sort: "price-desc", page: 2 }],
  ["search 'oud', name A to Z", { q: "oud", sort: "name" }],
];

async function median(run: () => Promise<unknown>, times = 7): Promise<number> {
  await run(); // warm the statement cache
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)];
}

describe(`queryShop at ${PRODUCTS} products`, () => {
  it.each(cases)("%s: the same page, counts and houses as the rules read plainly", async (_label, change) => {
    const query = { ...base, ...change };
    const expected = reference(query);
    const { page, houses } = await queryShop(getDb(), query);
    expect(page.products.map((p) => p.id)).toEqual(expected.ids);
    expect({ matching: page.matching, page: page.page, pageCount: page.pageCount, total: page.total }).toEqual({
      matching: expected.matching,
      page: expected.page,
      pageCount: expected.pageCount,
      total: PRODUCTS,
    });
    expect(houses.map((h) => [h.name.toLowerCase(), h.count])).toEqual(expected.houses);
  });

  it("answers every case quickly (times printed, median of 7)", async () => {
    const db = getDb();
    const report: string[] = [];
    for (const [label, change] of cases) {
      const ms = await median(() => queryShop(db, { ...base, ...change }));
      report.push(`${label.padEnd(36)} ${ms.toFixed(1).padStart(7)} ms`);
      expect(ms, label).toBeLessThan(250);
    }
    console.log(`queryShop, ${isPostgres(db) ? "PostgreSQL" : "SQLite"}, ${PRODUCTS} products:\n${report.join("\n")}`);
  });
});

describe("search words", () => {
  it(`are found through the trigram index on PostgreSQL (migration 0018); SQLite reads the table (${isPostgres(getDb()) ? "PostgreSQL" : "SQLite"} here)`, async () => {
    const db = getDb();
    const pg = isPostgres(db);
    const plan = pg
      ? (await sql<{ "QUERY PLAN": string }>`explain select p.id from products as p where ${wordMatches(true, "sauvage")}`.execute(db)).rows.map((r) => r["QUERY PLAN"])
      : (await sql<{ detail: string }>`explain query plan select p.id from products as p where ${wordMatches(false, "sauvage")}`.execute(db)).rows.map((r) => r.detail);
    // PostgreSQL: the query's text is the index's very expression, and the statistics let the planner choose it
    if (pg) expect(plan.join("\n")).toContain("products_search_trgm_idx");
    else expect(plan.join("\n")).toMatch(/SCAN p\b/);
  });

  it("a missing index is noticed at start (PostgreSQL); SQLite needs none", async () => {
    const db = getDb();
    expect(await searchIndexMissing(db)).toBe(false);
    if (!isPostgres(db)) return;
    // as on a database where pg_trgm could not be created: the index dropped, then put back by the rollback
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`drop index products_search_trgm_idx`.execute(trx);
        expect(await searchIndexMissing(trx)).toBe(true);
        throw new Error("roll back");
      })
      .catch((error: Error) => expect(error.message).toBe("roll back"));
    expect(await searchIndexMissing(db)).toBe(false);
  });
});
