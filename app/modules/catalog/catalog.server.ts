import { z } from "zod";
import { isSlug } from "~/utils/slug";
import { containsInsensitive, type Queryable } from "~/db/db.server";
import type { CategoryOption, ProductDetail, ProductSummary, ProductTier } from "./catalog.types";
import { PAGE_SIZE, type ShopFilters } from "./shop-filters.logic";

export type { CategoryOption, ProductDetail, ProductSummary, ProductTier } from "./catalog.types";

type SummaryRow = {
  id: string;
  name: string;
  slug: string;
  price_cents: number;
  images: string[] | string;
  category_name: string | null;
  category_slug: string | null;
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
  /** search by name: case-insensitive substring; '' = none */
  q: string;
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

function filtered(db: Queryable, query: ShopQuery) {
  let qb = db.selectFrom("products as p");
  if (query.q) qb = qb.where(containsInsensitive("p.name", query.q));
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
  const hasFilter = Boolean(query.q || query.categoryId || query.maxPriceCents !== null);
  const total = await countAll(db, filtered(db, { ...query, q: "", categoryId: null, maxPriceCents: null }));
  const matching = hasFilter ? await countAll(db, filtered(db, query)) : total;
  const pageCount = Math.max(1, Math.ceil(matching / query.pageSize));
  const page = Math.min(Math.max(1, query.page), pageCount);
  // Deferred join: the offset walks only the (created_at, id) index, then 24 rows are read in full.
  const pageIds = filtered(db, query)
    .select("p.id")
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(query.pageSize)
    .offset((page - 1) * query.pageSize);
  const products =
    matching === 0
      ? []
      : await summarySelect(db).where("p.id", "in", pageIds).orderBy("p.created_at", "desc").orderBy("p.id", "desc").execute();
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
  try {
    page = await listShopProducts(db, {
      q: requested.q,
      categoryId: category?.id ?? null,
      maxPriceCents: requested.maxPrice === null ? null : requested.maxPrice * 100,
      page: requested.page,
      pageSize,
    });
  } catch (error) {
    throw new ShopLoadError(`Failed to load products: ${SHOP_UNAVAILABLE}`, { cause: error });
  }
  return { ...page, categories, category, filters: { ...requested, category: category?.slug ?? "", page: page.page } };
}
