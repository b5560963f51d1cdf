import type { Queryable } from "~/db/db.server";
import { formatRand } from "~/utils/money";
import { listPricing } from "./tiers-admin.server";
import { tierRangeLabel } from "./tiers.logic";

/** Admin → Pricing (app/routes/admin.pricing.tsx): a page of products, each size with its tiers, prices in words. */
export async function pricingPage(db: Queryable, input: Parameters<typeof listPricing>[1]) {
  const list = await listPricing(db, input);
  return {
    ...list,
    rows: list.rows.map((p) => ({
      ...p,
      price: formatRand(p.priceCents),
      sizes: p.sizes.map((s) => ({ ...s, price: formatRand(s.priceCents), tiers: s.tiers.map((t) => ({ ...t, range: tierRangeLabel(t), price: formatRand(t.priceCents) })) })),
    })),
  };
}

export type PricingRow = Awaited<ReturnType<typeof pricingPage>>["rows"][number];
