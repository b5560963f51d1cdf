/**
 * The shopper's side of the rewards programme (issue 40, docs/decisions/062): what /rewards and /profile/rewards show,
 * shaped for the page (the rules in the owner's numbers, balances in rand, the history in words), joining and leaving
 * in one transaction each, and the footer's flag for the root loader.
 */
import type { Queryable } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import type { RewardEntryKind } from "~/db/schema";
import { formatDateZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand, formatWholeRand as rand } from "~/utils/money";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { balancesOf } from "./reward-ledger.server";
import { shareText, whatsappShareUrl } from "./referrals.logic";
import { referralCodeOf, referralsOfReferrer } from "./referrals.server";
import { pointsEarned, pointsWorthCents, pointsWords, type RewardSettings } from "./rewards.logic";
import { joinRewards, joinWording, leaveRewards, loadRewardSettings, membershipOf, pointsExpiringSoon, rewardHistory, type RewardHistoryEntry } from "./rewards.server";

/**
 * Whether the footer links /rewards: the programme is on. The root loader asks on every page it renders, so the answer
 * is kept in this process until the storefront changes (the owner's save raises storefrontChanged, here or in another
 * process through the change feed); the same for every visitor, so cached pages stay shared copies.
 */
let kept: Promise<boolean> | null = null;
onStorefrontChange(() => {
  kept = null;
});

export function rewardsOffered(db: Queryable): Promise<boolean> {
  kept ??= loadRewardSettings(db)
    .then((s) => s.pointsOn)
    .catch((error: unknown) => {
      kept = null; // asked again next time
      logger.error({ err: error }, "rewards: could not tell whether the programme is on; the footer link is left out");
      return false;
    });
  return kept;
}


/** What one point is worth, in words: "10 cents", "1 cent", "R1". */
function worthWords(cents: number): string {
  return cents < 100 ? `${cents} ${cents === 1 ? "cent" : "cents"}` : rand(cents);
}

export interface RewardRules {
  earnPer: string;
  pointWorth: string;
  minRedeem: string;
  months: number;
  returnWindowDays: number;
  example: { spend: string; points: string };
  /** give and get (docs/decisions/063), while it is on */
  referrals: { friendReward: string; yourReward: string; minOrder: string } | null;
  /** the rules in the shopper's words, in order (/rewards and the terms page show them) */
  items: Array<{ title: string; text: string }>;
}

/** The programme's rules in the owner's current numbers. */
export function rewardRules(s: RewardSettings): RewardRules {
  const spend = s.earnCentsPerPoint * 50;
  const numbers = {
    earnPer: rand(s.earnCentsPerPoint),
    pointWorth: worthWords(s.pointValueCents),
    minRedeem: pointsWords(s.minRedeemPoints, s.pointValueCents),
    months: s.pointsMonths,
    returnWindowDays: env().RETURN_WINDOW_DAYS,
    example: { spend: rand(spend), points: pointsWords(pointsEarned(spend, s.earnCentsPerPoint), s.pointValueCents) },
    referrals: s.referralsOn
      ? { friendReward: rand(s.friendRewardCents), yourReward: pointsWords(Math.floor(s.referrerRewardCents / s.pointValueCents), s.pointValueCents), minOrder: rand(s.referralMinOrderCents) }
      : null,
  };
  return { ...numbers, items: ruleItems(numbers) };
}

function ruleItems(rules: Omit<RewardRules, "items">): Array<{ title: string; text: string }> {
  return [
    {
      title: "Earn on what you pay for goods",
      text: `A point for every ${rules.earnPer} you pay for goods, after any discount. Delivery, gift cards and what you pay with points earn none. Spend ${rules.example.spend} on goods and earn ${rules.example.points}.`,
    },
    { title: "Spend them at checkout", text: `Each point is worth ${rules.pointWorth} off your goods. Spend from ${rules.minRedeem} on an order, as many as you choose, beside a coupon or a gift card.` },
    {
      title: "Pending, then yours",
      text: `Points are pending until the return window of their order has ended (${rules.returnWindowDays} days after delivery). Then they are yours to spend, and last ${rules.months} months.`,
    },
    {
      title: "Refunds",
      text: "A refund takes back the points its refunded goods earned. If those points were already spent, your next points pay them back first. Points spent on a refunded order are given back.",
    },
    ...(rules.referrals
      ? [
          {
            title: "Give and get",
            text: `Share your link from your profile. A friend who is new to us gets ${rules.referrals.friendReward} off their first order of ${rules.referrals.minOrder} or more; you get ${rules.referrals.yourReward} once their order is past its return window. We never ask for your friend's details: you share the link yourself. Rewards are refused when a shopper refers themselves, the friend has ordered before, or the order goes to your telephone or address; and a refund of that order inside its return window cancels both.`,
          },
        ]
      : []),
    { title: "The fine print", text: "Points have no cash value: they can't be exchanged for money, sold or transferred to anyone else." },
  ];
}

/** /rewards for whoever asks: the rules, and for a signed-in shopper the words they'd agree to or their balances. */
export async function rewardsPage(db: Queryable, settings: RewardSettings, user: { id: string } | null) {
  const rules = rewardRules(settings);
  if (!user) return { rules, viewer: { kind: "visitor" as const } };
  const membership = await membershipOf(db, user.id);
  if (!membership.member) return { rules, viewer: { kind: "shopper" as const, wording: joinWording(env().SHOP_NAME, settings) } };
  return {
    rules,
    viewer: {
      kind: "member" as const,
      joined: formatDateZA(membership.joinedAt),
      available: pointsWords(membership.available, settings.pointValueCents),
      pending: pointsWords(membership.pending, settings.pointValueCents),
      owed: membership.owed > 0 ? pointsWords(membership.owed, settings.pointValueCents) : null,
    },
  };
}

export const REWARDS_PAGE_MESSAGES = {
  joined: "Welcome to the programme: your paid orders now earn points.",
  alreadyMember: "You are already a member.",
  left: "You have left the programme. The points you have stay yours to spend until they expire.",
  notMember: "You are not a member of the programme.",
  rulesChanged: "The programme's rules have just changed: please read them again below before joining.",
  unknown: "Unknown action",
};

/**
 * Joins with the words the page showed, which must be today's (the owner may have changed the numbers since the page
 * was drawn: the consent log keeps exactly what was agreed to). The account and its consent row in one transaction.
 */
export async function joinFromPage(db: Queryable, user: { id: string; email: string }, settings: RewardSettings, shownWording: string): Promise<{ ok: boolean; message: string }> {
  const wording = joinWording(env().SHOP_NAME, settings);
  if (shownWording !== wording) return { ok: false, message: REWARDS_PAGE_MESSAGES.rulesChanged };
  if ((await membershipOf(db, user.id)).member) return { ok: true, message: REWARDS_PAGE_MESSAGES.alreadyMember };
  await inTransaction(db, (trx) => joinRewards(trx, user, wording));
  return { ok: true, message: REWARDS_PAGE_MESSAGES.joined };
}

export async function leaveFromPage(db: Queryable, user: { id: string; email: string }): Promise<{ ok: boolean; message: string }> {
  if (!(await membershipOf(db, user.id)).member) return { ok: false, message: REWARDS_PAGE_MESSAGES.notMember };
  await inTransaction(db, (trx) => leaveRewards(trx, user));
  return { ok: true, message: REWARDS_PAGE_MESSAGES.left };
}

const KIND_WORDS: Record<RewardEntryKind, string> = {
  earned: "Earned on an order: pending until its return window ends",
  available: "Became yours to spend",
  redeemed: "Spent on an order",
  released: "Returned: the order they were kept for wasn't paid",
  reversed: "Taken back: what earned them was refunded",
  given_back: "Given back: the order they were spent on was refunded",
  expired: "Expired",
  adjusted: "Adjusted by the shop",
};

/**
 * One history line: the change in the shopper's points, as one signed number. Pending → available is a move, not a
 * gain, so its pending part doesn't count; a point that pays what was owed counts as gained.
 */
export function historyLine(e: RewardHistoryEntry) {
  const change = e.availableDelta - e.owedDelta + (e.kind === "available" ? 0 : e.pendingDelta);
  const pendingOnly = e.kind !== "available" && e.availableDelta === 0 && e.owedDelta === 0 && e.pendingDelta !== 0;
  const notes: string[] = [];
  if (e.owedDelta < 0) notes.push(`${(-e.owedDelta).toLocaleString("en-ZA")} paid what was owed`);
  if (e.owedDelta > 0) notes.push(`${e.owedDelta.toLocaleString("en-ZA")} owed: already spent`);
  return {
    date: formatDateZA(e.createdAt),
    words: KIND_WORDS[e.kind],
    points: `${change > 0 ? "+" : change < 0 ? "−" : ""}${Math.abs(change).toLocaleString("en-ZA")}`,
    tone: change > 0 ? ("gain" as const) : change < 0 ? ("loss" as const) : ("none" as const),
    pending: pendingOnly,
    notes,
    order: e.orderId ? { href: `/order-confirmation?id=${encodeURIComponent(e.orderId)}`, shortId: shortOrderId(e.orderId) } : null,
  };
}

/** /profile/rewards: balances in points and rand, what expires within a month, the latest history. */
export async function profileRewards(db: Queryable, userId: string, settings: RewardSettings, now: Date = new Date()) {
  const account = await balancesOf(db, userId);
  if (!account) return { member: false as const, account: null };
  const [soon, history] = await Promise.all([pointsExpiringSoon(db, userId, now), rewardHistory(db, userId)]);
  const value = settings.pointValueCents;
  return {
    member: account.joinedAt !== null,
    account: {
      available: { points: account.available.toLocaleString("en-ZA"), worth: formatRand(pointsWorthCents(account.available, value)) },
      pending: { points: account.pending.toLocaleString("en-ZA"), worth: formatRand(pointsWorthCents(account.pending, value)) },
      owed: account.owed > 0 ? pointsWords(account.owed, value) : null,
      expiring: soon.points > 0 && soon.firstAt ? { points: pointsWords(soon.points, value), first: formatDateZA(soon.firstAt) } : null,
      minRedeem: pointsWords(settings.minRedeemPoints, value),
      history: history.map(historyLine),
    },
    referrals: account.joinedAt !== null && settings.referralsOn ? await referralShare(db, userId, settings) : null,
  };
}

/**
 * A member's referral link to share (docs/decisions/063): the link, its code, the text with the friend's reward, and
 * WhatsApp's share address (the member chooses the friend in WhatsApp; the shop never learns who).
 */
async function referralShare(db: Queryable, userId: string, s: RewardSettings) {
  const code = await referralCodeOf(db, userId);
  if (!code) return null;
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  const url = `${base}/r/${code}`;
  const text = shareText(env().SHOP_NAME, s.friendRewardCents, s.referralMinOrderCents, url);
  return {
    code,
    url,
    text,
    whatsapp: whatsappShareUrl(text),
    friendReward: rand(s.friendRewardCents),
    yourReward: pointsWords(Math.floor(s.referrerRewardCents / s.pointValueCents), s.pointValueCents),
    minOrder: rand(s.referralMinOrderCents),
    friends: await referralsOfReferrer(db, userId),
  };
}
