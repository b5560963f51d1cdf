import type { Queryable } from "~/db/db.server";
import { syncSingleSize } from "~/modules/catalog/sizes.server";
import { containsInsensitive } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { TIER_MESSAGES } from "./tiers-admin.schema";
import { tierRangeLabel, tiersOverlap, type PriceTier } from "./tiers.logic";

/** The owner's quantity pricing (SPEC §2 Pricing): each product's tiers, added and deleted one at a time. */
export const PRICING_PAGE_SIZE = 20;

export interface AdminTier extends PriceTier {
  id: string;
}

export interface PricingProduct {
  id: string;
  name: string;
  slug: string;
  priceCents: number;
  tiers: AdminTier[];
}

/** Products by name (SPEC §7: id, name, price ordered by name), one page, each with its tiers by minimum quantity. */
export async function listPricing(db: Queryable, input: { q: string; page: number }): Promise<Page<PricingProduct> & { total: number }> {
  let query = db.selectFrom("products").select(["id", "name", "slug", "price_cents"]);
  if (input.q) query = query.where(containsInsensitive("name", input.q));
  const [page, total] = await Promise.all([
    paginate(query.orderBy("name").orderBy("id"), { page: input.page, pageSize: PRICING_PAGE_SIZE }),
    db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const ids = page.rows.map((r) => r.id);
  const tiers = ids.length
    ? await db.selectFrom("product_tiers").select(["id", "product_id", "min_quantity", "max_quantity", "price_cents"]).where("product_id", "in", ids).orderBy("min_quantity").orderBy("id").execute()
    : [];
  return {
    ...page,
    total: Number(total.n),
    rows: page.rows.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      priceCents: Number(p.price_cents),
      tiers: tiers
        .filter((t) => t.product_id === p.id)
        .map((t) => ({ id: t.id, minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity), priceCents: Number(t.price_cents) })),
    })),
  };
}

/** Adds a tier; a range that shares a quantity with another tier of the product is refused and names that tier. */
export async function addTier(db: Queryable, input: { productId: string; minQuantity: number; maxQuantity: number | null; price: number }): Promise<void> {
  const product = await db.selectFrom("products").select("id").where("id", "=", input.productId).executeTakeFirst();
  if (!product) throw new DomainError("That product no longer exists", 404);
  const existing = await db.selectFrom("product_tiers").select(["min_quantity", "max_quantity"]).where("product_id", "=", input.productId).execute();
  for (const t of existing) {
    const other = { minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity) };
    if (tiersOverlap(other, input)) throw new DomainError(TIER_MESSAGES.overlap(tierRangeLabel(other)), 409, "minQuantity");
  }
  await db
    .insertInto("product_tiers")
    .values({ id: newId(), product_id: input.productId, min_quantity: input.minQuantity, max_quantity: input.maxQuantity, price_cents: input.price })
    .execute();
  // No size named: the tier prices the product's first size (docs/decisions/049).
  await syncSingleSize(db, [input.productId]);
}

export async function deleteTier(db: Queryable, id: string): Promise<void> {
  const result = await db.deleteFrom("product_tiers").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError("That tier no longer exists", 404);
}
