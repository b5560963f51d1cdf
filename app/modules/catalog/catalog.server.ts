import { sql } from "kysely";
import { z } from "zod";
import { isSlug } from "~/utils/slug";
import { isPostgres, type Queryable } from "~/db/db.server";
import { carriesNote } from "~/modules/scent/scent-sql.server";
import type { CategoryOption, HouseOption, ProductDetail, ProductSummary, ProductTier } from "./catalog.types";
import { DEFAULT_SORT, PAGE_LIMIT, PAGE_SIZE, pageInfo, searchWords, sortKeys, type ShopFilters, type ShopSort } from "./shop-filters.logic";

export type { CategoryOption, HouseOption, ProductDetail, ProductSummary, ProductTier } from "./catalog.types";

type SummaryRow = {
  id: string;
  name: string;
  slug: string;
  price_cents: number;
  was_price_cents: number | null;
  max_price_cents: number | null;
  images: string[] | string;
  category_name: string | null;
  category_slug: string | null;
  stock: number | null;
  inspired_house: string | null;
  inspired_fragrance: string | null;
};

/** images is parsed by the SQLite plugin and by pg (jsonb); a text fallback keeps either shape safe. */
export function imagesOf(value: unknown): string[] {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.length > 0) : [];
}

export function toSummary(row: SummaryRow): ProductSummary {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    priceCents: Number(row.price_cents),
    wasPriceCents: row.was_price_cents === null ? null : Number(row.was_price_cents),
    maxPriceCents: row.max_price_cents === null || row.max_price_cents === undefined ? null : Number(row.max_price_cents),
    image: imagesOf(row.images)[0] ?? null,
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    stock: row.stock === null || row.stock === undefined ? null : Number(row.stock),
    inspiredHouse: row.inspired_house ?? null,
    inspiredFragrance: row.inspired_fragrance ?? null,
  };
}

export function summarySelect(db: Queryable) {
  return db
    .selectFrom("products as p")
    .leftJoin("categories as c", "c.id", "p.category_id")
    .select([
      "p.id",
      "p.name",
      "p.slug",
      "p.price_cents",
      "p.was_price_cents",
      "p.max_price_cents",
      "p.images",
      "c.name as category_name",
      "c.slug as category_slug",
      "p.stock",
      "p.inspired_house",
      "p.inspired_fragrance",
    ]);
}

/** The newest products first (home shows 12). */
export async function listNewestProducts(db: Queryable, limit = 12): Promise<ProductSummary[]> {
  const rows = await summarySelect(db)
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}

// ---------------------------------------------------------------------------------------------------------------
// Categories

/** All categories by name (the shop's category select and breadcrumbs). */
export async function listCategories(db: Queryable): Promise<CategoryOption[]> {
  return db.selectFrom("categories").select(["id", "name", "slug"]).orderBy("name").orderBy("slug").execute();
}

// ---------------------------------------------------------------------------------------------------------------
// Shop

export interface ShopQuery {
  /**
   * search: case-insensitive; every word must appear in the name, the description (which holds the scent notes) or
   * the inspired-by house or fragrance; name matches come first. '' = none
   */
  q: string;
  /** the inspired-by house, case-insensitive exact; '' = all houses */
  house?: string;
  /** category id to narrow to; null = all */
  categoryId: string | null;
  /** inclusive upper bound in cents; null = any price */
  maxPriceCents: number | null;
  /** a fragrance family ("woody"); absent or '' = all (issue 22) */
  family?: string;
  /** a note the scent carries (scent-sql.server carriesNote); absent or '' = any (issue 22) */
  note?: string;
  /** the order; absent = newest first (with a search: name matches first, then newest) */
  sort?: ShopSort;
  page: number;
  pageSize: number;
}

export interface ShopPage {
  products: ProductSummary[];
  /** products matching the filters (all pages) */
  matching: number;
  /** products in the shop, unfiltered */
  total: number;
  page: number;
  pageCount: number;
}

function likeAnywhere(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Case-insensitive LIKE of a lower-cased pattern on one column. SQLite's LIKE already ignores ASCII case (and its
 * lower() only folds ASCII, so the two mean the same), so it skips lower() on every row; PostgreSQL lower-cases the
 * column (measured faster than ILIKE).
 */
function likeCI(pg: boolean, column: "p.name" | "p.description" | "p.inspired_house" | "p.inspired_fragrance", pattern: string) {
  return pg ? sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'` : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/**
 * PostgreSQL: the name, the inspired-by house and fragrance and the description joined by spaces, lower-cased; the
 * very expression of the trigram index products_search_trgm_idx (migration 0018), so `like '%word%'` is answered from
 * the index. A search word never holds a space, so it cannot match across the joins.
 */
const searchText = sql`lower(p.name || ' ' || coalesce(p.inspired_house, '') || ' ' || coalesce(p.inspired_fragrance, '') || ' ' || p.description)`;

/** One search word found in the name, the description (scent notes) or the inspired-by house or fragrance. */
export function wordMatches(pg: boolean, word: string) {
  const pattern = likeAnywhere(word);
  if (pg) return sql<boolean>`${searchText} like ${pattern} escape '\\'`;
  // SQLite: each column on its own (no index could serve '%word%' anyway)
  const columns = ["p.name", "p.inspired_house", "p.inspired_fragrance", "p.description"] as const;
  return sql<boolean>`(${sql.join(columns.map((c) => likeCI(false, c, pattern)), sql` or `)})`;
}

/**
 * PostgreSQL without the search index (migration 0018 skips it where the role may not create pg_trgm): search still
 * works but reads the whole table. Checked at start, so the owner hears of it. Always false on SQLite.
 */
export async function searchIndexMissing(db: Queryable): Promise<boolean> {
  if (!isPostgres(db)) return false;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_indexes where indexname = 'products_search_trgm_idx'`.execute(db);
  return rows[0]!.n === 0;
}

/** 0 when every word is in the name (those come first), else 1. */
function nameRank(pg: boolean, words: string[]) {
  const all = words.map((w) => likeCI(pg, "p.name", likeAnywhere(w)));
  return sql<number>`case when ${sql.join(all, sql` and `)} then 0 else 1 end`;
}

function filtered(db: Queryable, query: ShopQuery) {
  let qb = db.selectFrom("products as p");
  const pg = isPostgres(db);
  for (const word of searchWords(query.q)) qb = qb.where(wordMatches(pg, word));
  if (query.house) qb = qb.where(sql<string>`lower(p.inspired_house)`, "=", query.house.toLowerCase());
  if (query.categoryId) qb = qb.where("p.category_id", "=", query.categoryId);
  if (query.maxPriceCents !== null) qb = qb.where("p.price_cents", "<=", query.maxPriceCents);
  if (query.family) qb = qb.where("p.scent_family", "=", query.family);
  if (query.note) qb = qb.where(carriesNote(query.note));
  return qb;
}

async function countAll(db: Queryable, q: ReturnType<typeof filtered>): Promise<number> {
  const row = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The ORDER BY of a sort over the columns of `table` (the products, or the search's matches), as SQL. 'name' compares
 * lower-cased names byte by byte on both databases (PostgreSQL's collation would otherwise order differently from
 * SQLite's), then the id.
 */
function orderBySql(pg: boolean, table: "p" | "f" | "r", sort: ShopSort, searching: boolean) {
  return sql.join(
    sortKeys(sort, searching).map(([key, dir]) => {
      const column = sql.ref(`${table}.${key}`);
      const expr = key === "name" ? (pg ? sql`lower(${column}) collate "C"` : sql`lower(${column})`) : column;
      return dir === "desc" ? sql`${expr} desc` : sql`${expr} asc`;
    }),
    sql`, `,
  );
}

type SearchRow = { kind: "h" | "c" | "t" | "p"; house: string | null; n: number | string | null; id: string | null; pos: number | string | null };

/**
 * One page of the shop with the house filter's options. Without a search: products matching the filters in the chosen
 * order through the indexes (products_created_at_idx for newest first, products_category_created_idx,
 * products_price_idx, the lower(inspired_house) index), and one grouped count for the houses. With a search: ONE
 * statement scans the text once into a materialized set of matches (id, the order's columns, name match, house) and
 * returns from it, in SQL, the houses with their counts, the number of matches, the shop's total and the ids of the
 * page's products with their places (a page past the end is the last page), so only the page's rows reach the
 * server; then its 24 cards are read by id. Orders: shop-filters.logic sortKeys (docs/decisions/024).
 */
export async function queryShop(db: Queryable, query: ShopQuery): Promise<{ page: ShopPage; houses: HouseOption[] }> {
  const words = searchWords(query.q);
  if (words.length === 0) {
    const [page, houseRows] = await Promise.all([
      listShopProducts(db, query),
      filtered(db, { ...query, house: "" })
        .where("p.inspired_house", "is not", null)
        .select((eb) => ["p.inspired_house", eb.fn.countAll<number>().as("n")])
        .groupBy("p.inspired_house")
        .execute(),
    ]);
    return { page, houses: houseFacet(houseRows.map((r) => ({ house: r.inspired_house, n: Number(r.n) }))) };
  }

  const pg = isPostgres(db);
  const sort = query.sort ?? DEFAULT_SORT;
  const size = Math.max(1, Math.trunc(query.pageSize));
  const requested = Math.min(Math.max(1, Math.trunc(query.page)), PAGE_LIMIT);
  const matches = filtered(db, { ...query, house: "" })
    .select(["p.id", "p.created_at", "p.price_cents", "p.name", "p.inspired_house", nameRank(pg, words).as("rank")]);
  const house = query.house?.toLowerCase() ?? "";
  const least = pg ? sql`least` : sql`min`;
  const greatest = pg ? sql`greatest` : sql`max`;
  // The page: the requested one, or the last when it is past the end. Integer literals (both are integers made here),
  // so the division is an integer one on both databases (SQLite binds numbers as reals).
  const [pageLit, sizeLit] = [sql.lit(requested), sql.lit(size)];
  const offset = sql`(select (${least}(${pageLit}, ${greatest}(1, (k.n + ${sizeLit} - 1) / ${sizeLit})) - 1) * ${sizeLit} from k)`;
  // (a query builder inside sql`` is written in parentheses)
  const { rows } = await sql<SearchRow>`
    with m as materialized ${matches},
    f as (select * from m${house ? sql` where lower(m.inspired_house) = ${house}` : sql``}),
    k as (select count(*) as n from f)
    select 'h' as kind, m.inspired_house as house, count(*) as n, cast(null as text) as id, cast(null as bigint) as pos
      from m where m.inspired_house is not null group by m.inspired_house
    union all select 'c', null, k.n, null, null from k
    union all select 't', null, (select count(*) from products), null, null
    union all select 'p', null, null, r.id, row_number() over (order by ${orderBySql(pg, "r", sort, true)})
      from (select * from f order by ${orderBySql(pg, "f", sort, true)} limit ${sizeLit} offset ${offset}) as r
  `.execute(db);
  const houses = houseFacet(rows.filter((r) => r.kind === "h").map((r) => ({ house: r.house, n: Number(r.n) })));
  const matching = Number(rows.find((r) => r.kind === "c")?.n ?? 0);
  const total = Number(rows.find((r) => r.kind === "t")?.n ?? 0);
  const { page, pageCount } = pageInfo(requested, matching, size);
  const ids = rows
    .filter((r) => r.kind === "p" && r.id !== null)
    .sort((a, b) => Number(a.pos) - Number(b.pos))
    .map((r) => r.id as string);
  const cards = ids.length ? await summarySelect(db).where("p.id", "in", ids).execute() : [];
  const byId = new Map(cards.map((c) => [c.id, c]));
  const products = ids.flatMap((id) => byId.get(id) ?? []).map(toSummary);
  return { page: { products, matching, total, page, pageCount }, houses };
}

/** Houses with their product counts, case variants merged ('Chanel' and 'chanel' are one house), by name. */
export function houseFacet(rows: Array<{ house: string | null; n: number }>): HouseOption[] {
  const byKey = new Map<string, HouseOption>();
  for (const { house, n } of rows) {
    const name = house?.trim();
    if (!name) continue;
    const key = name.toLowerCase();
    const seen = byKey.get(key);
    if (seen) {
      seen.count += n;
      if (name < seen.name) seen.name = name;
    } else byKey.set(key, { name, count: n });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, h]) => h);
}

/**
 * One page of the shop: products matching the filters, how many match, how many the shop has, in the chosen order
 * (newest first by default; with a search, name matches first). (The shop page uses queryShop, which also gives the
 * houses.)
 */
export async function listShopProducts(db: Queryable, query: ShopQuery): Promise<ShopPage> {
  const words = searchWords(query.q);
  if (words.length > 0) return (await queryShop(db, query)).page;
  const hasFilter = Boolean(query.house || query.categoryId || query.maxPriceCents !== null || query.family || query.note);
  const total = await countAll(db, filtered(db, { ...query, q: "", house: "", categoryId: null, maxPriceCents: null, family: "", note: "" }));
  const matching = hasFilter ? await countAll(db, filtered(db, query)) : total;
  const pageCount = Math.max(1, Math.ceil(matching / query.pageSize));
  const page = Math.min(Math.max(1, query.page), pageCount);
  if (matching === 0) return { products: [], matching, total, page, pageCount };
  // Deferred join: the offset walks only the order's index where there is one (created_at, id for newest first), then
  // 24 rows are read in full.
  const order = orderBySql(isPostgres(db), "p", query.sort ?? DEFAULT_SORT, false);
  const pageIds = filtered(db, query)
    .select("p.id")
    .orderBy(sql`${order}`)
    .limit(query.pageSize)
    .offset((page - 1) * query.pageSize);
  const products = await summarySelect(db).where("p.id", "in", pageIds).orderBy(sql`${order}`).execute();
  return { products: products.map(toSummary), matching, total, page, pageCount };
}

// ---------------------------------------------------------------------------------------------------------------
// Product detail

/**
 * The product page's URL parameters (kept here so zod stays out of the storefront's browser bundle): only a slug
 * that slugify can make reaches the database; anything else is simply not found.
 */
export const productParams = z.object({ slug: z.string().max(200).refine(isSlug) });

/** A product by slug with its category's name and slug, or null. */
/**
 * The current slug of the product a former slug leads to (the owner changed it: migration 0048's triggers keep the old
 * ones), or null. Read only when a slug names no product, so a product page's usual request costs nothing more.
 */
export async function currentSlugOf(db: Queryable, formerSlug: string): Promise<string | null> {
  const row = await db
    .selectFrom("product_former_slugs as f")
    .innerJoin("products as p", "p.id", "f.product_id")
    .select("p.slug")
    .where("f.slug", "=", formerSlug)
    .executeTakeFirst();
  return row?.slug ?? null;
}

export async function getProductBySlug(db: Queryable, slug: string): Promise<ProductDetail | null> {
  // The card's columns (summarySelect) and what only the detail page shows.
  const row = await summarySelect(db)
    .select(["p.description", "p.meta_title", "p.meta_desc", "p.created_at", "p.size_ml"])
    .where("p.slug", "=", slug)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description ?? "",
    priceCents: Number(row.price_cents),
    wasPriceCents: row.was_price_cents === null ? null : Number(row.was_price_cents),
    images: imagesOf(row.images),
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    metaTitle: row.meta_title,
    metaDesc: row.meta_desc,
    createdAt: row.created_at,
    stock: row.stock === null ? null : Number(row.stock),
    inspiredHouse: row.inspired_house,
    inspiredFragrance: row.inspired_fragrance,
    sizeMl: row.size_ml === null ? null : Number(row.size_ml),
  };
}

/** The product's bulk price tiers by minimum quantity, each naming the size it prices. */
export async function listProductTiers(db: Queryable, productId: string): Promise<ProductTier[]> {
  const rows = await db
    .selectFrom("product_tiers")
    .select(["id", "size_id", "min_quantity", "max_quantity", "price_cents"])
    .where("product_id", "=", productId)
    .orderBy("min_quantity")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    minQuantity: Number(r.min_quantity),
    maxQuantity: r.max_quantity === null ? null : Number(r.max_quantity),
    priceCents: Number(r.price_cents),
    sizeId: r.size_id,
  }));
}


// ---------------------------------------------------------------------------------------------------------------
// The shop page as one use case, with the spec's load-failure messages (SPEC §8)

/** What the shop shows when the database fails; the cause is logged, never shown (it may name tables or hosts). */
export const SHOP_UNAVAILABLE = "The catalogue is temporarily unavailable";

export class ShopLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ShopLoadError";
  }
}

export interface ShopData extends ShopPage {
  categories: CategoryOption[];
  /** the inspired-by houses with matches for the other filters (the house filter's options) */
  houses: HouseOption[];
  /** the category filter in effect (an unknown slug is ignored) */
  category: CategoryOption | null;
  /** the filters as applied: unknown category dropped, page clamped */
  filters: ShopFilters;
}

export async function loadShopPage(db: Queryable, requested: ShopFilters, pageSize = PAGE_SIZE): Promise<ShopData> {
  let categories: CategoryOption[];
  try {
    categories = await listCategories(db);
  } catch (error) {
    throw new ShopLoadError(`Failed to load categories: ${SHOP_UNAVAILABLE}`, { cause: error });
  }
  const category = categories.find((c) => c.slug === requested.category) ?? null;
  let page: ShopPage;
  let houses: HouseOption[];
  try {
    const query = {
      q: requested.q,
      house: requested.house,
      categoryId: category?.id ?? null,
      maxPriceCents: requested.maxPrice === null ? null : requested.maxPrice * 100,
      sort: requested.sort,
      page: requested.page,
      pageSize,
      family: requested.family ?? "",
      note: requested.note ?? "",
    };
    ({ page, houses } = await queryShop(db, query));
  } catch (error) {
    throw new ShopLoadError(`Failed to load products: ${SHOP_UNAVAILABLE}`, { cause: error });
  }
  // The URL's house in any case ("?house=CHANEL") becomes the list's own spelling, so the select shows it chosen. A
  // house with no match keeps its place in the select (the list then says none match).
  const listed = houses.find((h) => h.name.toLowerCase() === requested.house.toLowerCase());
  if (requested.house && !listed) houses = [...houses, { name: requested.house, count: 0 }];
  const house = requested.house && listed ? listed.name : requested.house;
  return { ...page, categories, houses, category, filters: { ...requested, house, category: category?.slug ?? "", page: page.page } };
}
