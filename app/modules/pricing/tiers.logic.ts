/**
 * Bulk (quantity) pricing, SPEC §9: the unit price for a quantity comes from the tier whose min_quantity is at or
 * below the quantity and whose max_quantity is at or above it (or empty = open-ended); otherwise the base price.
 * Pure and browser-safe; the server is the one that applies it to what is charged.
 */
export interface PriceTier {
  minQuantity: number;
  /** null: open-ended */
  maxQuantity: number | null;
  priceCents: number;
}

export function tierMatches(tier: PriceTier, quantity: number): boolean {
  return tier.minQuantity <= quantity && (tier.maxQuantity === null || tier.maxQuantity >= quantity);
}

/**
 * The tier that prices `quantity`, or null. Tiers are considered in ascending min_quantity (the order the shop lists
 * them); if an admin made two tiers overlap, the first of them wins, so the result never depends on insertion order.
 */
export function tierFor(tiers: readonly PriceTier[], quantity: number): PriceTier | null {
  const sorted = [...tiers].sort((a, b) => a.minQuantity - b.minQuantity || a.priceCents - b.priceCents);
  return sorted.find((t) => tierMatches(t, quantity)) ?? null;
}

/** The unit price in cents for a line of `quantity` of a product with these tiers. */
export function unitPriceFor(basePriceCents: number, tiers: readonly PriceTier[], quantity: number): number {
  return tierFor(tiers, quantity)?.priceCents ?? basePriceCents;
}

/** Do two quantity ranges share a quantity? (A missing max is open-ended.) */
export function tiersOverlap(a: Pick<PriceTier, "minQuantity" | "maxQuantity">, b: Pick<PriceTier, "minQuantity" | "maxQuantity">): boolean {
  const aMax = a.maxQuantity ?? Number.POSITIVE_INFINITY;
  const bMax = b.maxQuantity ?? Number.POSITIVE_INFINITY;
  return a.minQuantity <= bMax && b.minQuantity <= aMax;
}

/** The range as the owner reads it: '2–5', '6+' or '3'. */
export function tierRangeLabel(tier: Pick<PriceTier, "minQuantity" | "maxQuantity">): string {
  if (tier.maxQuantity === null) return `${tier.minQuantity}+`;
  return tier.maxQuantity === tier.minQuantity ? `${tier.minQuantity}` : `${tier.minQuantity}–${tier.maxQuantity}`;
}
