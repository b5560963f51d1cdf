import { sql } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import { listSizes, syncSingleSize } from "~/modules/catalog/sizes.server";
import { containsInsensitive } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { TIER_MESSAGES } from "./tiers-admin.schema";
import { tierRangeLabel, tiersOverlap, type PriceTier } from "./tiers.logic";

/**
 * The owner's quantity pricing (SPEC §2 Pricing): each size's tiers (issue 33: a tier prices one size), added and
 * deleted one at a time.
 */
export const PRICING_PAGE_SIZE = 20;

export interface AdminTier extends PriceTier {
  id: string;
}

export interface PricingSize {
  id: string;
  /** '' for a product's only size of unstated size */
  label: string;
  priceCents: number;
  hidden: boolean;
  tiers: AdminTier[];
}

export interface PricingProduct {
  id: string;
  name: string;
  slug: string;
  /** the cheapest shown size's price */
  priceCents: number;
  /** every size, hidden ones too (their tiers still price old carts' lines if shown again), in the owner's order */
  sizes: PricingSize[];
}

/** Products by name (SPEC §7: id, name, price ordered by name), one page, each with its tiers by minimum quantity. */
export async function listPricing(db: Queryable, input: { q: string; page: number }): Promise<Page<PricingProduct> & { total: number }> {
  let query = db.selectFrom("products").select(["id", "name", "slug", "price_cents"]);
  if (input.q) query = query.where(containsInsensitive("name", input.q));
  const [page, total] = await Promise.all([
    // by name as the products_name_sort_idx index keeps them (lower(name), id; collate "C" on PostgreSQL): a page reads
    // its rows from the index instead of sorting the whole catalogue (issue 39 point 5)
    paginate(query.orderBy(isPostgres(db) ? sql`lower(name) collate "C"` : sql`lower(name)`).orderBy("id"), { page: input.page, pageSize: PRICING_PAGE_SIZE }),
    db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const ids = page.rows.map((r) => r.id);
  const [sizes, tiers] = await Promise.all([
    listSizes(db, ids, { includeHidden: true }),
    ids.length
      ? db.selectFrom("product_tiers").select(["id", "size_id", "min_quantity", "max_quantity", "price_cents"]).where("product_id", "in", ids).orderBy("min_quantity").orderBy("id").execute()
      : [],
  ]);
  return {
    ...page,
    total: Number(total.n),
    rows: page.rows.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      priceCents: Number(p.price_cents),
      sizes: sizes
        .filter((s) => s.productId === p.id)
        .map((s) => ({
          id: s.id,
          label: s.label,
          priceCents: s.priceCents,
          hidden: s.hidden,
          tiers: tiers
            .filter((t) => t.size_id === s.id)
            .map((t) => ({ id: t.id, minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity), priceCents: Number(t.price_cents) })),
        })),
    })),
  };
}

/**
 * Adds a tier to a size (none named: the product's first); a range that shares a quantity with another tier of that
 * size is refused and names that tier. Another size's tiers don't overlap it: each size is priced on its own.
 */
export async function addTier(db: Queryable, input: { productId: string; sizeId?: string | null; minQuantity: number; maxQuantity: number | null; price: number }): Promise<void> {
  const product = await db.selectFrom("products").select("id").where("id", "=", input.productId).executeTakeFirst();
  if (!product) throw new DomainError("That product no longer exists", 404);
  let sizes = await listSizes(db, [input.productId], { includeHidden: true });
  // a product written before it had sizes (a bulk load) gets its one size first
  if (sizes.length === 0) {
    await syncSingleSize(db, [input.productId]);
    sizes = await listSizes(db, [input.productId], { includeHidden: true });
  }
  const size = input.sizeId ? sizes.find((s) => s.id === input.sizeId) : sizes[0];
  if (!size) throw new DomainError(TIER_MESSAGES.sizeGone, 404, "sizeId");
  const existing = await db.selectFrom("product_tiers").select(["min_quantity", "max_quantity"]).where("size_id", "=", size.id).execute();
  for (const t of existing) {
    const other = { minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity) };
    if (tiersOverlap(other, input)) throw new DomainError(TIER_MESSAGES.overlap(tierRangeLabel(other), sizes.length > 1 ? size.label : undefined), 409, "minQuantity");
  }
  await db
    .insertInto("product_tiers")
    .values({ id: newId(), product_id: input.productId, size_id: size.id, min_quantity: input.minQuantity, max_quantity: input.maxQuantity, price_cents: input.price })
    .execute();
}

export async function deleteTier(db: Queryable, id: string): Promise<void> {
  const result = await db.deleteFrom("product_tiers").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError("That tier no longer exists", 404);
}
