/**
 * Shipping cost, SPEC §9: with zones, the chosen zone's rule whose min_total..max_total range contains the total
 * (a missing max is unbounded) gives the rate; if none matches, the zone's base rate; if that is absent, the fixed
 * fallback of R70. Free at or above the free-delivery threshold (on the total after discount).
 * Pure and browser-safe.
 */
export const FALLBACK_SHIPPING_CENTS = 7000;
export const DEFAULT_FREE_DELIVERY_THRESHOLD_CENTS = 59900;

export interface ShippingRule {
  minTotalCents: number;
  /** null: unbounded */
  maxTotalCents: number | null;
  rateCents: number;
}

export interface ShippingZone {
  id: string;
  name: string;
  /** null when the zone has none (then the R70 fallback applies) */
  baseRateCents: number | null;
  rules: ShippingRule[];
}

export function ruleMatches(rule: ShippingRule, totalCents: number): boolean {
  return rule.minTotalCents <= totalCents && (rule.maxTotalCents === null || totalCents <= rule.maxTotalCents);
}

/** The rate of a zone for a total, before the free-delivery threshold. No zone: the R70 fallback. */
export function zoneRateFor(zone: ShippingZone | null | undefined, totalCents: number): number {
  if (!zone) return FALLBACK_SHIPPING_CENTS;
  // Rules in ascending min_total (as the admin lists them): with overlapping rules the first wins.
  const rules = [...zone.rules].sort((a, b) => a.minTotalCents - b.minTotalCents || a.rateCents - b.rateCents);
  const rule = rules.find((r) => ruleMatches(r, totalCents));
  if (rule) return rule.rateCents;
  return zone.baseRateCents ?? FALLBACK_SHIPPING_CENTS;
}

/** The zone a shopper gets: the one they chose if it exists, else the first (zones are listed by name). */
export function chooseZone<Z extends { id: string }>(zones: readonly Z[], zoneId?: string | null): Z | null {
  if (zoneId) {
    const chosen = zones.find((z) => z.id === zoneId);
    if (chosen) return chosen;
  }
  return zones[0] ?? null;
}

/** What delivery costs for a total after discount: 0 at or above the threshold, otherwise the zone's rate. */
export function shippingCostFor(args: {
  zone: ShippingZone | null | undefined;
  totalAfterDiscountCents: number;
  freeThresholdCents: number;
}): number {
  if (args.totalAfterDiscountCents >= args.freeThresholdCents) return 0;
  return zoneRateFor(args.zone, args.totalAfterDiscountCents);
}

/** 'Spend R X more for free delivery': how much more, or 0 when delivery is already free. */
export function freeDeliveryRemaining(totalAfterDiscountCents: number, freeThresholdCents: number): number {
  return Math.max(0, freeThresholdCents - totalAfterDiscountCents);
}
