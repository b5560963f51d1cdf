import { sql } from "kysely";
import { z } from "zod";
import { isSlug } from "~/utils/slug";
import type { Queryable } from "~/db/db.server";
import type { CategoryOption, HouseOption, ProductDetail, ProductSummary, ProductTier } from "./catalog.types";
import { PAGE_SIZE, searchWords, type ShopFilters } from "./shop-filters.logic";

export type { CategoryOption, HouseOption, ProductDetail, ProductSummary, ProductTier } from "./catalog.types";

type SummaryRow = {
  id: string;
  name: string;
  slug: string;
  price_cents: number;
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

/** One search word found in the name, the description (scent notes) or the inspired-by house or fragrance. */
function wordMatches(word: string) {
  const pattern = likeAnywhere(word);
  return sql<boolean>`(lower(p.name) like ${pattern} escape '\\' or lower(p.description) like ${pattern} escape '\\' or lower(coalesce(p.inspired_house, '') || ' ' || coalesce(p.inspired_fragrance, '')) like ${pattern} escape '\\')`;
}

/** 0 when every word is in the name (those come first), else 1. */
function nameRank(words: string[]) {
  const all = words.map((w) => sql`lower(p.name) like ${likeAnywhere(w)} escape '\\'`);
  return sql<number>`case when ${sql.join(all, sql` and `)} then 0 else 1 end`;
}

function filtered(db: Queryable, query: ShopQuery) {
  let qb = db.selectFrom("products as p");
  for (const word of searchWords(query.q)) qb = qb.where(wordMatches(word));
  if (query.house) qb = qb.where(sql<string>`lower(p.inspired_house)`, "=", query.house.toLowerCase());
  if (query.categoryId) qb = qb.where("p.category_id", "=", query.categoryId);
  if (query.maxPriceCents !== null) qb = qb.where("p.price_cents", "<=", query.maxPriceCents);
  return qb;
}

async function countAll(db: Queryable, q: ReturnType<typeof filtered>): Promise<number> {
  const row = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One page of the shop: products matching the filters newest first, how many match, how many the shop has.
 * A page past the end shows the last page. Indexes used: products_created_at_idx (order), products_category_created_idx
 * (category), products_price_idx (price); the name search scans names (cheap at 10 000 rows, see the report).
 */
export async function listShopProducts(db: Queryable, query: ShopQuery): Promise<ShopPage> {
  const hasFilter = Boolean(query.q || query.house || query.categoryId || query.maxPriceCents !== null);
  const total = await countAll(db, filtered(db, { ...query, q: "", house: "", categoryId: null, maxPriceCents: null }));
  const matching = hasFilter ? await countAll(db, filtered(db, query)) : total;
  const pageCount = Math.max(1, Math.ceil(matching / query.pageSize));
  const page = Math.min(Math.max(1, query.page), pageCount);
  const words = searchWords(query.q);
  if (matching === 0) return { products: [], matching, total, page, pageCount };
  if (words.length > 0) {
    // A search: name matches first, then newest first; the page's rows straight from the matching set.
    const rows = await filtered(db, query)
      .leftJoin("categories as c", "c.id", "p.category_id")
      .select(["p.id", "p.name", "p.slug", "p.price_cents", "p.images", "c.name as category_name", "c.slug as category_slug", "p.stock", "p.inspired_house", "p.inspired_fragrance"])
      .orderBy(nameRank(words))
      .orderBy("p.created_at", "desc")
      .orderBy("p.id", "desc")
      .limit(query.pageSize)
      .offset((page - 1) * query.pageSize)
      .execute();
    return { products: rows.map(toSummary), matching, total, page, pageCount };
  }
  // Deferred join: the offset walks only the (created_at, id) index, then 24 rows are read in full.
  const pageIds = filtered(db, query)
    .select("p.id")
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(query.pageSize)
    .offset((page - 1) * query.pageSize);
  const products = await summarySelect(db).where("p.id", "in", pageIds).orderBy("p.created_at", "desc").orderBy("p.id", "desc").execute();
  return { products: products.map(toSummary), matching, total, page, pageCount };
}

/**
 * The inspired-by houses among the products matching the other filters (search, category, price), by name: the shop's
 * house filter lists only houses that have matches.
 */
export async function listMatchingHouses(db: Queryable, query: Omit<ShopQuery, "page" | "pageSize">): Promise<HouseOption[]> {
  const rows = await filtered(db, { ...query, house: "", page: 1, pageSize: 1 })
    .where("p.inspired_house", "is not", null)
    .where(sql<string>`trim(p.inspired_house)`, "<>", "")
    .select((eb) => [eb.fn.min<string>("p.inspired_house").as("name"), eb.fn.countAll<number>().as("n")])
    .groupBy(sql`lower(p.inspired_house)`)
    .orderBy(sql`lower(p.inspired_house)`)
    .execute();
  return rows.map((r) => ({ name: r.name, count: Number(r.n) }));
}

// ---------------------------------------------------------------------------------------------------------------
// Product detail

/**
 * The product page's URL parameters (kept here so zod stays out of the storefront's browser bundle): only a slug
 * that slugify can make reaches the database; anything else is simply not found.
 */
export const productParams = z.object({ slug: z.string().max(200).refine(isSlug) });

/** A product by slug with its category's name and slug, or null. */
export async function getProductBySlug(db: Queryable, slug: string): Promise<ProductDetail | null> {
  // The card's columns (summarySelect) and what only the detail page shows.
  const row = await summarySelect(db)
    .select(["p.description", "p.meta_title", "p.meta_desc", "p.created_at"])
    .where("p.slug", "=", slug)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description ?? "",
    priceCents: Number(row.price_cents),
    images: imagesOf(row.images),
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    metaTitle: row.meta_title,
    metaDesc: row.meta_desc,
    createdAt: row.created_at,
    stock: row.stock === null ? null : Number(row.stock),
    inspiredHouse: row.inspired_house,
    inspiredFragrance: row.inspired_fragrance,
  };
}

/** The product's bulk price tiers by minimum quantity. */
export async function listProductTiers(db: Queryable, productId: string): Promise<ProductTier[]> {
  const rows = await db
    .selectFrom("product_tiers")
    .select(["id", "min_quantity", "max_quantity", "price_cents"])
    .where("product_id", "=", productId)
    .orderBy("min_quantity")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    minQuantity: Number(r.min_quantity),
    maxQuantity: r.max_quantity === null ? null : Number(r.max_quantity),
    priceCents: Number(r.price_cents),
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
      page: requested.page,
      pageSize,
    };
    [page, houses] = await Promise.all([listShopProducts(db, query), listMatchingHouses(db, query)]);
  } catch (error) {
    throw new ShopLoadError(`Failed to load products: ${SHOP_UNAVAILABLE}`, { cause: error });
  }
  // A house chosen in the URL that has no match keeps its place in the select (the list then says none match).
  if (requested.house && !houses.some((h) => h.name.toLowerCase() === requested.house.toLowerCase())) {
    houses = [...houses, { name: requested.house, count: 0 }];
  }
  return { ...page, categories, houses, category, filters: { ...requested, category: category?.slug ?? "", page: page.page } };
}
