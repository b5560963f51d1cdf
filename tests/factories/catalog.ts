/**
 * Small catalogue factories for integration tests (and the 10 000-product measurement).
 * Every insert returns the row as written; overrides win over the defaults.
 */
import type { Queryable } from "~/db/db.server";
import { newId } from "~/utils/ids";
import { refreshProductSummaries, syncSingleSize } from "~/modules/catalog/sizes.server";
import { sizeCode } from "~/modules/catalog/sizes.logic";
import { slugify } from "~/utils/slug";

let seq = 0;
function next() {
  seq += 1;
  return seq;
}

/** Distinct, increasing timestamps so "newest first" is deterministic. */
let clock = Date.parse("2025-01-01T00:00:00.000Z");
export function nextTimestamp(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export interface CategoryRow {
  id: string;
  name: string;
  slug: string;
  created_at: string;
}

export async function insertCategory(db: Queryable, overrides: Partial<CategoryRow> = {}): Promise<CategoryRow> {
  const n = next();
  const name = overrides.name ?? `Category ${n}`;
  const row: CategoryRow = {
    id: newId(),
    name,
    slug: overrides.slug ?? `${slugify(name)}-${n}`,
    created_at: nextTimestamp(),
    ...overrides,
  };
  await db.insertInto("categories").values(row).execute();
  return row;
}

export interface ProductRow {
  id: string;
  name: string;
  slug: string;
  description: string;
  price_cents: number;
  images: string[];
  category_id: string | null;
  meta_title: string | null;
  meta_desc: string | null;
  created_at: string;
  /** null or absent: stock not tracked */
  stock?: number | null;
  inspired_house?: string | null;
  inspired_fragrance?: string | null;
  size_ml?: number | null;
}

export async function insertProduct(db: Queryable, overrides: Partial<ProductRow> = {}): Promise<ProductRow> {
  const n = next();
  const name = overrides.name ?? `Product ${n}`;
  const row: ProductRow = {
    id: newId(),
    name,
    slug: overrides.slug ?? `${slugify(name)}-${n}`,
    description: `A fragrance called ${name}.`,
    price_cents: 34999,
    images: [],
    category_id: null,
    meta_title: null,
    meta_desc: null,
    created_at: nextTimestamp(),
    ...overrides,
  };
  await db
    .insertInto("products")
    .values({ ...row, images: JSON.stringify(row.images) })
    .execute();
  // Its one size, with the product's id (as the sizes migration gives every product).
  await syncSingleSize(db, [row.id]);
  return row;
}

/**
 * Changes a one-size product's columns as the admin form does: its size follows (price, was price, SKU, stock,
 * weight, millilitres: docs/decisions/049).
 */
export async function updateProduct(db: Queryable, id: string, set: Partial<Omit<ProductRow, "id" | "images">> & { was_price_cents?: number | null; weight_grams?: number | null; sku?: string | null }): Promise<void> {
  await db.updateTable("products").set(set).where("id", "=", id).execute();
  await syncSingleSize(db, [id]);
}

/** Many products in one go (batched inserts), for size tests and measurements. */
export async function insertManyProducts(
  db: Queryable,
  count: number,
  make: (i: number) => Partial<ProductRow> = () => ({}),
): Promise<void> {
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    const values = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const o = make(i);
      const name = o.name ?? `Product ${i}`;
      values.push({
        id: newId(),
        name,
        slug: o.slug ?? `${slugify(name)}-${i}-${next()}`,
        description: o.description ?? "",
        price_cents: o.price_cents ?? 10000 + ((i * 7919) % 90000),
        images: JSON.stringify(o.images ?? []),
        category_id: o.category_id ?? null,
        meta_title: null,
        meta_desc: null,
        created_at: o.created_at ?? nextTimestamp(),
      });
    }
    await db.insertInto("products").values(values).execute();
    await syncSingleSize(db, values.map((v) => v.id));
  }
}

export interface SizeInsert {
  id: string;
  label: string;
  code: string;
  size_ml: number | null;
  price_cents: number;
  was_price_cents: number | null;
  sku: string | null;
  stock: number | null;
  weight_grams: number | null;
  position: number;
  hidden: number;
}

/**
 * Adds a size to a product (its first size is the one insertProduct made, with the product's id), then rewrites the
 * product's summary of its sizes as every size change does (docs/decisions/049).
 */
export async function addSize(db: Queryable, productId: string, overrides: Partial<SizeInsert> & Pick<SizeInsert, "label" | "price_cents">): Promise<SizeInsert> {
  const row: SizeInsert = {
    id: newId(),
    code: sizeCode(overrides.label),
    size_ml: null,
    was_price_cents: null,
    sku: null,
    stock: null,
    weight_grams: null,
    position: next(),
    hidden: 0,
    ...overrides,
  };
  await db.insertInto("product_sizes").values({ ...row, product_id: productId, created_at: nextTimestamp() }).execute();
  await refreshProductSummaries(db, [productId]);
  return row;
}

export interface TierRow {
  id: string;
  product_id: string;
  /** the size it prices: the product's one size (its id is the product's) unless given */
  size_id: string;
  min_quantity: number;
  max_quantity: number | null;
  price_cents: number;
}

export async function insertTier(
  db: Queryable,
  productId: string,
  overrides: Partial<Omit<TierRow, "product_id">> = {},
): Promise<TierRow> {
  const row: TierRow = {
    id: newId(),
    product_id: productId,
    size_id: productId,
    min_quantity: 5,
    max_quantity: null,
    price_cents: 29999,
    ...overrides,
  };
  await db.insertInto("product_tiers").values(row).execute();
  return row;
}

/** A bare user row (reviews need an author). Accounts tests have their own, richer factories. */
export async function insertReviewer(db: Queryable, email = `reviewer${next()}@example.com`) {
  const id = newId();
  const now = nextTimestamp();
  await db
    .insertInto("users")
    .values({ id, email, name: email.split("@")[0], email_verified: false, image: null, is_admin: false, email_notifications: true, email_marketing: false, created_at: now, updated_at: now })
    .execute();
  return { id, email };
}

export interface ReviewRow {
  id: string;
  product_id: string;
  user_id: string;
  rating: number;
  comment: string;
  created_at: string;
}

export async function insertReview(
  db: Queryable,
  productId: string,
  overrides: Partial<Omit<ReviewRow, "product_id">> = {},
): Promise<ReviewRow> {
  const userId = overrides.user_id ?? (await insertReviewer(db)).id;
  const row: ReviewRow = {
    id: newId(),
    product_id: productId,
    rating: 5,
    comment: "Lovely.",
    created_at: nextTimestamp(),
    ...overrides,
    user_id: userId,
  };
  await db.insertInto("reviews").values(row).execute();
  return row;
}
