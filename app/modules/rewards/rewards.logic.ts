/**
 * Reward points counted in rand (issue 40, docs/decisions/062): the pure rules, browser-safe. A point is earned per
 * so many rand paid for goods (after every discount; not delivery, not gift cards sold, not what points paid), is
 * worth so many cents when spent, and counts as a discount on the order it is spent on (not a payment: the VAT is on
 * what the shopper pays, as for a coupon).
 */
import { z } from "zod";
import type { RewardEntryKind } from "~/db/schema";
import { formatRand, formatWholeRand } from "~/utils/money";

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
  /** "give R50, get R50" (docs/decisions/063): off by default; needs points on (the referrer's reward is points) */
  referralsOn: boolean;
  /** the friend's reward on their first paid order */
  friendRewardCents: number;
  /** the referrer's reward, as points worth this much, once the friend's order is past its return window */
  referrerRewardCents: number;
  /** the friend's first order must come to at least this much in goods (before the reward) */
  referralMinOrderCents: number;
  /** rewards one referrer may earn in 7 days */
  referralsPerWeek: number;
  /** new friends from one internet address in 7 days */
  friendsPerAddressPerWeek: number;
}

export const DEFAULT_REWARD_SETTINGS: RewardSettings = {
  pointsOn: false,
  earnCentsPerPoint: 1000,
  pointValueCents: 10,
  minRedeemPoints: 100,
  pointsMonths: 12,
  referralsOn: false,
  friendRewardCents: 5000,
  referrerRewardCents: 5000,
  referralMinOrderCents: 30_000,
  referralsPerWeek: 5,
  friendsPerAddressPerWeek: 3,
};

const whole = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/** A limit in whole rand as the messages write it ("R10 000"). */
const randWords = (rand: number) => formatWholeRand(rand * 100);

/**
 * An amount in rand as South Africans type it ("50", "50.00", "50,00"), at most two decimals. `notAmount`: the words
 * when it isn't a number at all.
 */
const rand = (label: string, min: number, max: number, notAmount = `${label} must be an amount in rand`) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim().replace(",", ".") : v),
    z.coerce
      .number({ error: notAmount })
      .min(min, `${label} must be at least ${randWords(min)}`)
      .max(max, `${label} must be at most ${randWords(max)}`)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${label} takes at most two decimals`),
  );

/** The owner's form (Admin → Marketing → Rewards): rand in, cents stored. */
export const rewardSettingsSchema = z.object({
  pointsOn: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  earnRand: rand("Rand per point", 1, 10_000, "Rand per point must be a number"),
  pointValueCents: whole("A point's worth in cents", 1, 10_000),
  minRedeemPoints: whole("The fewest points to spend", 1, 1_000_000),
  pointsMonths: whole("Months a point lasts", 1, 120),
  referralsOn: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  friendRewardRand: rand("The friend's reward", 0, 10_000),
  referrerRewardRand: rand("The referrer's reward", 0, 10_000),
  referralMinOrderRand: rand("The friend's first order", 0, 100_000),
  referralsPerWeek: whole("Rewards a week per referrer", 1, 1000),
  friendsPerAddressPerWeek: whole("New friends a week from one address", 1, 1000),
});

export function settingsFromForm(input: z.infer<typeof rewardSettingsSchema>): RewardSettings {
  return {
    pointsOn: input.pointsOn,
    earnCentsPerPoint: Math.round(input.earnRand * 100),
    pointValueCents: input.pointValueCents,
    minRedeemPoints: input.minRedeemPoints,
    pointsMonths: input.pointsMonths,
    referralsOn: input.referralsOn,
    friendRewardCents: Math.round(input.friendRewardRand * 100),
    referrerRewardCents: Math.round(input.referrerRewardRand * 100),
    referralMinOrderCents: Math.round(input.referralMinOrderRand * 100),
    referralsPerWeek: input.referralsPerWeek,
    friendsPerAddressPerWeek: input.friendsPerAddressPerWeek,
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

/** What a member's points did since they joined, kept on their account (migration 0059): Admin → Rewards sums them. */
export const REWARD_TOTALS = ["earned_total", "made_available_total", "spent_total", "given_back_total", "reversed_total", "expired_total", "added_by_hand_total", "removed_by_hand_total"] as const;
export type RewardTotal = (typeof REWARD_TOTALS)[number];

/**
 * What one ledger entry adds to its member's totals, from the change it made to the three balances. A credit
 * (released, given back, an addition by hand) pays what is owed first, so its points are the available change less
 * the owed one. Kinds that move no total (none today) add nothing.
 */
export function totalsOfEntry(kind: RewardEntryKind, delta: { available: number; pending: number; owed: number }): Partial<Record<RewardTotal, number>> {
  const { available: a, pending: p, owed: o } = delta;
  switch (kind) {
    case "earned":
      return { earned_total: p };
    case "available":
      return { made_available_total: -p };
    case "redeemed":
      return { spent_total: -a };
    case "released":
      // points back from an order that closed unpaid: they were never spent after all
      return { spent_total: o - a };
    case "given_back":
      return { given_back_total: a - o };
    case "reversed":
      // from pending, from available, and what was already spent (now owed)
      return { reversed_total: o - p - a };
    case "expired":
      return { expired_total: -a };
    case "adjusted":
      return a - o >= 0 ? { added_by_hand_total: a - o } : { removed_by_hand_total: o - a };
  }
}
