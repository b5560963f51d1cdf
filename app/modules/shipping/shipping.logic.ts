/**
 * Shipping cost, SPEC §9: with zones, the chosen zone's rule whose min_total..max_total range contains the total
 * (a missing max is unbounded) gives the rate; if none matches, the zone's base rate; if that is absent, the fixed
 * fallback of R70. Free at or above the free-delivery threshold (on the total after discount).
 *
 * A rule's range is inclusive at both ends, in cents: min 0 / max 29 999 covers R0.00 to R299.99, and the next rule
 * starts at 30 000. Two rules of one zone overlap when some total falls in both; the admin refuses that
 * (findOverlappingRule), so a total matches at most one rule.
 *
 * A zone may list the provinces it serves (a province belongs to at most one zone): at checkout the zone that serves
 * the shopper's province is preselected, else the first zone (preselectZone).
 * Pure and browser-safe.
 */
import { SA_PROVINCES } from "~/utils/sa-address";
import { formatRand } from "~/utils/money";

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
  /** the South African provinces this zone serves (none listed: it is only ever chosen by hand, or as the first) */
  provinces?: readonly string[];
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

/** Provinces in the order the checkout lists them (SA_PROVINCES); anything else last. */
export function sortProvinces(provinces: readonly string[]): string[] {
  const order = (p: string) => {
    const i = (SA_PROVINCES as readonly string[]).indexOf(p);
    return i === -1 ? SA_PROVINCES.length : i;
  };
  return [...provinces].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
}

/**
 * The zone preselected for a shopper: the one that serves their province; when none does (or no province is chosen
 * yet), the first zone (SPEC §2 Checkout); null without zones.
 */
export function preselectZone<Z extends { id: string; provinces?: readonly string[] }>(zones: readonly Z[], province?: string | null): Z | null {
  if (province) {
    const serving = zones.find((z) => z.provinces?.includes(province));
    if (serving) return serving;
  }
  return zones[0] ?? null;
}

/**
 * The zone an order ships with: the one the shopper chose if it exists (even when it doesn't list their province:
 * docs/decisions/018), else the one preselected for their province, else the first.
 */
export function zoneForOrder<Z extends { id: string; provinces?: readonly string[] }>(zones: readonly Z[], zoneId?: string | null, province?: string | null): Z | null {
  const chosen = zoneId ? zones.find((z) => z.id === zoneId) : undefined;
  return chosen ?? preselectZone(zones, province);
}

/**
 * The zones a door delivery priced by zones offers a shopper in `province` (docs/decisions/045): the zone that lists the
 * province first (it is preselected), then the zones that list no province at all (the spec's plain zones, which
 * serve anywhere), in the given order (by name). Zones listing only other provinces are left out. No province yet, or
 * none of these: empty (the spec's no-zone fallback, R70, applies).
 */
export function zonesServing<Z extends { provinces?: readonly string[] }>(zones: readonly Z[], province: string | null | undefined): Z[] {
  if (!province) return [];
  const listing = zones.filter((z) => z.provinces?.includes(province));
  const anywhere = zones.filter((z) => !z.provinces?.length);
  return [...listing, ...anywhere];
}

/** Do two rules' ranges share a total? (Both ends inclusive; a missing max is unbounded.) */
export function rulesOverlap(a: Pick<ShippingRule, "minTotalCents" | "maxTotalCents">, b: Pick<ShippingRule, "minTotalCents" | "maxTotalCents">): boolean {
  const aMax = a.maxTotalCents ?? Number.POSITIVE_INFINITY;
  const bMax = b.maxTotalCents ?? Number.POSITIVE_INFINITY;
  return a.minTotalCents <= bMax && b.minTotalCents <= aMax;
}

/**
 * The first of a zone's rules (in ascending min total) that shares a total with `candidate`, or null. `exceptId`
 * leaves out the rule being edited.
 */
export function findOverlappingRule<R extends Pick<ShippingRule, "minTotalCents" | "maxTotalCents"> & { id?: string }>(
  rules: readonly R[],
  candidate: Pick<ShippingRule, "minTotalCents" | "maxTotalCents">,
  exceptId?: string,
): R | null {
  const sorted = [...rules].sort((a, b) => a.minTotalCents - b.minTotalCents);
  return sorted.find((r) => (exceptId === undefined || r.id !== exceptId) && rulesOverlap(r, candidate)) ?? null;
}

/** A rule's range as the owner reads it: 'R0.00 – R299.99', 'R600.00 and more'. */
export function ruleRangeLabel(rule: Pick<ShippingRule, "minTotalCents" | "maxTotalCents">): string {
  if (rule.maxTotalCents === null) return `${formatRand(rule.minTotalCents)} and more`;
  return `${formatRand(rule.minTotalCents)} – ${formatRand(rule.maxTotalCents)}`;
}

/** The free-delivery promise in one wording for the home page, product pages, footer and terms. */
export function freeDeliveryText(thresholdCents: number): string {
  return thresholdCents > 0 ? `Free delivery on orders of ${formatRand(thresholdCents)} or more` : "Free delivery on every order";
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
