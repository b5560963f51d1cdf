/**
 * Reward points counted in rand (issue 40, docs/decisions/062): the pure rules, browser-safe. A point is earned per
 * so many rand paid for goods (after every discount; not delivery, not gift cards sold, not what points paid), is
 * worth so many cents when spent, and counts as a discount on the order it is spent on (not a payment: the VAT is on
 * what the shopper pays, as for a coupon).
 */
import { z } from "zod";
import { formatRand } from "~/utils/money";

export interface RewardSettings {
  /** the programme is on: shoppers may join, earn and spend; off (the default), nothing of it shows */
  pointsOn: boolean;
  /** a point for every so many cents paid for goods (1 000: a point per R10) */
  earnCentsPerPoint: number;
  /** what a point is worth when spent (10: 10 cents) */
  pointValueCents: number;
  /** the fewest points an order may spend */
  minRedeemPoints: number;
  /** months a point lasts once it is available */
  pointsMonths: number;
}

export const DEFAULT_REWARD_SETTINGS: RewardSettings = {
  pointsOn: false,
  earnCentsPerPoint: 1000,
  pointValueCents: 10,
  minRedeemPoints: 100,
  pointsMonths: 12,
};

const whole = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/** The owner's form (Admin → Marketing → Rewards): rand in, cents stored. */
export const rewardSettingsSchema = z.object({
  pointsOn: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  // "10,50" as South Africans often write it, or "10.50"
  earnRand: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().replace(",", ".") : v),
    z.coerce
      .number({ error: "Rand per point must be a number" })
      .min(1, "Rand per point must be at least R1")
      .max(10_000, "Rand per point must be at most R10 000")
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "Rand per point takes at most two decimals"),
  ),
  pointValueCents: whole("A point's worth in cents", 1, 10_000),
  minRedeemPoints: whole("The fewest points to spend", 1, 1_000_000),
  pointsMonths: whole("Months a point lasts", 1, 120),
});

export function settingsFromForm(input: z.infer<typeof rewardSettingsSchema>): RewardSettings {
  return {
    pointsOn: input.pointsOn,
    earnCentsPerPoint: Math.round(input.earnRand * 100),
    pointValueCents: input.pointValueCents,
    minRedeemPoints: input.minRedeemPoints,
    pointsMonths: input.pointsMonths,
  };
}

/** Points an order earns on `baseCents` paid for goods, by the rule of the day (whole points, rounded down). */
export function pointsEarned(baseCents: number, earnCentsPerPoint: number): number {
  if (baseCents <= 0 || earnCentsPerPoint <= 0) return 0;
  return Math.floor(baseCents / earnCentsPerPoint);
}

/** What `points` are worth, in cents. */
export function pointsWorthCents(points: number, pointValueCents: number): number {
  return points * pointValueCents;
}

/**
 * The most points an order may spend: what the shopper has, no more than the goods left to pay after the other
 * discounts (`capCents`: points never pay delivery or a gift card sold, and leave the provider's minimum), and none
 * below the owner's minimum (0 then).
 */
export function maxRedeemablePoints(input: { available: number; capCents: number; pointValueCents: number; minRedeemPoints: number }): number {
  const byCap = Math.floor(Math.max(0, input.capCents) / input.pointValueCents);
  const most = Math.min(input.available, byCap);
  return most >= input.minRedeemPoints ? most : 0;
}

/** Why a wanted number of points can't be spent, in the shopper's words; null when it can. */
export function redeemRefusal(wanted: number, most: number, s: Pick<RewardSettings, "minRedeemPoints">): string | null {
  if (wanted <= 0) return null;
  if (!Number.isSafeInteger(wanted)) return "Points are spent in whole points.";
  if (most === 0) return `You can spend points from ${s.minRedeemPoints.toLocaleString("en-ZA")} points on an order's goods.`;
  if (wanted < s.minRedeemPoints) return `Spend at least ${s.minRedeemPoints.toLocaleString("en-ZA")} points, or none.`;
  if (wanted > most) return `You can spend at most ${most.toLocaleString("en-ZA")} points on this order.`;
  return null;
}

/**
 * The share of `total` that belongs to `part` of `whole`, cumulative: what is due after `partSoFar` (this refund
 * included) less what was already taken for the earlier ones. Rounded once on the running sum, so a whole order
 * returned in several refunds takes back exactly everything, and no refund takes a point twice.
 */
export function proportionalShare(total: number, whole: number, partSoFar: number, alreadyTaken: number): number {
  if (whole <= 0 || total <= 0) return 0;
  const due = Math.min(total, Math.round((total * Math.min(partSoFar, whole)) / whole));
  return Math.max(0, due - alreadyTaken);
}

/** "1 250 points (R125.00)". */
export function pointsWords(points: number, pointValueCents: number): string {
  return `${points.toLocaleString("en-ZA")} ${points === 1 ? "point" : "points"} (${formatRand(pointsWorthCents(points, pointValueCents))})`;
}

/** When a lot that became available at `from` expires: `months` later (the same day of the month, or the month's last). */
export function lotExpiry(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
