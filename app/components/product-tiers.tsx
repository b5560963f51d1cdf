import type { ProductTier } from "~/modules/catalog/catalog.types";
import { tierRangeLabel } from "~/modules/catalog/product.logic";
import { formatRand } from "~/utils/money";

/**
 * Bulk pricing: quantity ranges ('3–5', '10+') and the price per unit. When the first tier starts above 1, a first
 * row shows the base price for the quantities below it. Nothing when the product has no tiers.
 */
export function ProductTiers({ tiers, basePriceCents, productName }: { tiers: ProductTier[]; basePriceCents: number; productName: string }) {
  if (tiers.length === 0) return null;
  return (
    <section aria-labelledby="tiers-heading" className="mt-8 border border-line bg-white/50 p-5">
      <h2 id="tiers-heading" className="filter-label font-sans">
        Bulk pricing
      </h2>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Price per unit by quantity for {productName}</caption>
        <thead>
          <tr className="border-b border-line text-left text-xs uppercase tracking-[0.14em] text-muted">
            <th scope="col" className="py-2 font-medium">
              Quantity
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Price per unit
            </th>
          </tr>
        </thead>
        <tbody>
          {tiers[0].minQuantity > 1 ? (
            <tr className="border-b border-line/60 text-ink-soft">
              <td className="py-2.5 tabular-nums">{tierRangeLabel({ minQuantity: 1, maxQuantity: tiers[0].minQuantity - 1 })}</td>
              <td className="py-2.5 text-right tabular-nums">{formatRand(basePriceCents)}</td>
            </tr>
          ) : null}
          {tiers.map((t) => (
            <tr key={t.id} className="border-b border-line/60 last:border-0">
              <td className="py-2.5 tabular-nums">{tierRangeLabel(t)}</td>
              <td className="py-2.5 text-right font-medium tabular-nums">{formatRand(t.priceCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
