/**
 * "Give R50, get R50" (issue 40 point 2, docs/decisions/063). A member shares /r/CODE; a new shopper who arrives by it
 * is attributed to them once signed in (the shop never asks for a friend's e-mail: it is not the member's to give).
 *
 *   attributed → (placed) reserved → (paid) paid → (return window over) rewarded
 *                (closed unpaid) back to attributed;  (refunded or cancelled while paid) cancelled;
 *   refused, with why, at any check.
 *
 * The friend's reward is a discount on their first paid order (reserved like a coupon: referrals_friend_idx allows one
 * referral per friend, the status update is conditional); the referrer's is points worth the owner's amount, pending
 * on the friend's order like the order's own points (reward_earnings kind "referral"), available once it is past its
 * return window. Checks, each refused with a reason the shopper and the owner read (referrals.logic.ts): the same
 * person (account, or e-mail ignoring dots and +tags), a friend who ordered before, many new friends from one internet
 * address in a week (a keyed hash of it, never the address), the referrer's telephone or delivery address on the
 * order, more rewards a week than the owner allows.
 */
import { createHmac } from "node:crypto";
import { isPostgres, isUniqueViolation, type Queryable } from "~/db/db.server";
import type { ShippingAddress } from "~/db/schema";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { addressKey } from "~/modules/accounts/rate-limit.server";
import { hasPaidOrder, orderContactsOf } from "~/modules/orders/order-read.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { changeBalances, REWARDS_SYSTEM } from "./reward-ledger.server";
import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH, REFERRAL_REASONS, samePersonEmail, samePhone, samePlace, type ReferralReason } from "./referrals.logic";
import type { RewardSettings } from "./rewards.logic";

const WEEK_MS = 7 * 86_400_000;

function randomCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(REFERRAL_CODE_LENGTH));
  return [...bytes].map((b) => REFERRAL_CODE_ALPHABET[b % REFERRAL_CODE_ALPHABET.length]).join("");
}

/** A member's code, made the first time it is asked for; null for someone who isn't a member. */
export async function referralCodeOf(db: Queryable, userId: string): Promise<string | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.selectFrom("reward_accounts").select(["referral_code", "joined_at"]).where("user_id", "=", userId).executeTakeFirst();
    if (!row?.joined_at) return null;
    if (row.referral_code) return row.referral_code;
    try {
      await db.updateTable("reward_accounts").set({ referral_code: randomCode() }).where("user_id", "=", userId).where("referral_code", "is", null).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // another member has that code: draw again
    }
  }
  throw new Error("Could not make a referral code");
}

/** The internet address a friend came from, as a keyed hash: enough to count, nothing to read back. */
export function addressHash(ip: string): string {
  return createHmac("sha256", authSecret()).update(`referral-address\n${addressKey(ip)}`).digest("base64url").slice(0, 32);
}

export type Attribution = { status: "attributed" } | { status: "refused"; reason: ReferralReason; words: string } | null;

/**
 * A signed-in shopper who came by `code`: their referral, once (a friend has at most one). null: the programme is
 * off, no member has that code, or they were already attributed (the first link counts).
 */
export async function attributeReferral(db: Queryable, input: { friend: { id: string; email: string }; code: string; ip: string; now: Date }, s: RewardSettings): Promise<Attribution> {
  if (!s.pointsOn || !s.referralsOn) return null;
  const referrer = await db
    .selectFrom("reward_accounts")
    .innerJoin("users", "users.id", "reward_accounts.user_id")
    .select(["users.id", "users.email", "reward_accounts.joined_at"])
    .where("reward_accounts.referral_code", "=", input.code)
    .executeTakeFirst();
  if (!referrer?.joined_at) return null;
  if (await db.selectFrom("referrals").select("id").where("friend_user_id", "=", input.friend.id).executeTakeFirst()) return null;
  const ipKey = addressHash(input.ip);
  let reason: ReferralReason | null = null;
  if (referrer.id === input.friend.id || samePersonEmail(referrer.email) === samePersonEmail(input.friend.email)) reason = "same_person";
  else if (await hasPaidOrder(db, input.friend.id)) reason = "ordered_before";
  else {
    const since = new Date(input.now.getTime() - WEEK_MS).toISOString();
    const fromThere = await db
      .selectFrom("referrals")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("ip_key", "=", ipKey)
      .where("created_at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(fromThere.n) >= s.friendsPerAddressPerWeek) reason = "many_accounts";
  }
  try {
    await db
      .insertInto("referrals")
      .values({
        id: newId(),
        referrer_user_id: referrer.id,
        friend_user_id: input.friend.id,
        code: input.code,
        status: reason ? "refused" : "attributed",
        reason,
        ip_key: ipKey,
        created_at: input.now.toISOString(),
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) return null; // attributed a moment ago (two tabs)
    throw error;
  }
  return reason ? { status: "refused", reason, words: REFERRAL_REASONS[reason] } : { status: "attributed" };
}

/** referrerId null: the referrer deleted their account; the shop's offer to the friend still stands. */
export type FriendReward = { referralId: string; referrerId: string | null; cents: number } | { refusal: string } | null;

/**
 * The friend's reward for a signed-in shopper's cart: their attributed referral, while they have no paid order, on
 * `goodsCents` of goods (before the reward) from the owner's minimum; at most the goods. null: nothing to show.
 */
export async function friendRewardForCart(db: Queryable, userId: string | null | undefined, goodsCents: number, s: RewardSettings): Promise<FriendReward> {
  if (!userId || !s.pointsOn || !s.referralsOn || s.friendRewardCents <= 0) return null;
  const referral = await db.selectFrom("referrals").select(["id", "referrer_user_id", "status"]).where("friend_user_id", "=", userId).executeTakeFirst();
  if (referral?.status !== "attributed") return null;
  // for a first order only: a paid order without it (below the minimum) was their first
  if (await hasPaidOrder(db, userId)) return null;
  if (goodsCents < s.referralMinOrderCents) return { refusal: `Your friend's reward of R${(s.friendRewardCents / 100).toFixed(2)} applies to a first order of R${(s.referralMinOrderCents / 100).toFixed(2)} or more in goods.` };
  return { referralId: referral.id, referrerId: referral.referrer_user_id, cents: Math.min(s.friendRewardCents, goodsCents) };
}

/** The order would go to the referrer (their telephone or delivery address): the reward is refused, nothing placed. */
export class ReferralRefusedError extends DomainError {
  constructor(readonly referralId: string, readonly reason: ReferralReason) {
    super(`Your friend's reward can't be used: ${REFERRAL_REASONS[reason].charAt(0).toLowerCase()}${REFERRAL_REASONS[reason].slice(1)} Nothing was placed: please check your new total and place your order again.`, 409, "referral");
    this.name = "ReferralRefusedError";
  }
}

/** The friend's reward taken for the order being placed: refused when it goes to the referrer's telephone or address. */
export async function reserveFriendReward(trx: Queryable, input: { referralId: string; referrerId: string | null; orderId: string; cents: number; address: ShippingAddress }): Promise<void> {
  const theirs = input.referrerId ? await orderContactsOf(trx, input.referrerId) : [];
  const phone = samePhone(input.address.telephone);
  const place = samePlace(input.address);
  if (phone && theirs.some((a) => samePhone(a.telephone) === phone)) throw new ReferralRefusedError(input.referralId, "same_phone");
  if (place && theirs.some((a) => samePlace(a) === place)) throw new ReferralRefusedError(input.referralId, "same_address");
  const taken = await trx
    .updateTable("referrals")
    .set({ status: "reserved", friend_order_id: input.orderId, friend_reward_cents: input.cents })
    .where("id", "=", input.referralId)
    .where("status", "=", "attributed")
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) throw new DomainError("Your friend's reward was just used by another of your orders. Nothing was placed: please check your total and try again.", 409, "referral");
}

/** Records a refusal found while placing (after the placement's rollback, which would have undone it). */
export async function refuseReferral(db: Queryable, referralId: string, reason: ReferralReason): Promise<void> {
  await db.updateTable("referrals").set({ status: "refused", reason }).where("id", "=", referralId).where("status", "=", "attributed").execute();
}

/**
 * Reopened by the owner: the friend's reward the order had is held for it again. false: it went to another order
 * meanwhile (the reopening is refused, as for a used-up coupon).
 */
export async function reclaimFriendReward(trx: Queryable, orderId: string, userId: string | null, referralCents: number): Promise<boolean> {
  if (referralCents <= 0 || !userId) return true;
  const held = await trx
    .updateTable("referrals")
    .set({ status: "reserved", friend_order_id: orderId, friend_reward_cents: referralCents })
    .where("friend_user_id", "=", userId)
    .where("status", "=", "attributed")
    .executeTakeFirst();
  return Number(held.numUpdatedRows) > 0;
}

/** Closed unpaid: the friend's reward waits for their next order. */
export async function releaseFriendReward(trx: Queryable, orderId: string): Promise<void> {
  await trx.updateTable("referrals").set({ status: "attributed", friend_order_id: null, friend_reward_cents: 0 }).where("friend_order_id", "=", orderId).where("status", "=", "reserved").execute();
}

/**
 * The friend's first order paid: the reward is theirs; the referrer earns points worth the owner's amount, pending on
 * that order until its return window ends — unless they left the programme, or reached this week's number (counted
 * under their account's lock, so twenty friends paying at once can't pass it).
 */
export async function settleReferralOnPayment(trx: Queryable, orderId: string, s: RewardSettings, now: Date): Promise<void> {
  const referral = await trx.selectFrom("referrals").select(["id", "referrer_user_id"]).where("friend_order_id", "=", orderId).where("status", "=", "reserved").executeTakeFirst();
  if (!referral) return;
  const stamp = now.toISOString();
  const referrerId = referral.referrer_user_id;
  // the referrer's account locked (PostgreSQL; SQLite has one writer) while this week's rewards are counted
  const lookup = referrerId ? trx.selectFrom("reward_accounts").select(["joined_at"]).where("user_id", "=", referrerId) : null;
  const account = lookup ? await (isPostgres(trx) ? lookup.forUpdate() : lookup).executeTakeFirst() : undefined;
  let reason: ReferralReason | null = null;
  if (!referrerId || !account?.joined_at) reason = "referrer_left";
  else {
    const since = new Date(now.getTime() - WEEK_MS).toISOString();
    const thisWeek = await trx
      .selectFrom("referrals")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("referrer_user_id", "=", referrerId)
      .where("paid_at", ">", since)
      .where("status", "in", ["paid", "rewarded"])
      .executeTakeFirstOrThrow();
    if (Number(thisWeek.n) >= s.referralsPerWeek) reason = "weekly_limit";
  }
  const points = Math.floor(s.referrerRewardCents / s.pointValueCents);
  // the friend's reward stands either way: it was on the order they paid
  await trx
    .updateTable("referrals")
    .set({ status: reason ? "refused" : "paid", reason, paid_at: stamp, referrer_reward_points: reason ? 0 : points })
    .where("id", "=", referral.id)
    .execute();
  if (reason || points <= 0 || !referrerId) return;
  await trx
    .insertInto("reward_earnings")
    .values({ id: newId(), user_id: referrerId, order_id: orderId, kind: "referral", points, base_cents: s.referrerRewardCents, earn_cents_per_point: s.pointValueCents, created_at: stamp })
    .onConflict((oc) => oc.columns(["order_id", "kind"]).doNothing())
    .execute();
  await changeBalances(trx, referrerId, "earned", (b) => ({ ...b, pending: b.pending + points }), { actor: REWARDS_SYSTEM, orderId, now, note: "a friend's first order" });
}

/**
 * The friend's first order refunded or cancelled while the referrer's points are still pending (inside its return
 * window): the referral is cancelled and those points taken back. After the window, what was rewarded stays.
 */
export async function cancelReferralOfOrder(trx: Queryable, orderId: string, reason: "refunded" | "cancelled", now: Date): Promise<void> {
  const cancelled = await trx.updateTable("referrals").set({ status: "cancelled", reason }).where("friend_order_id", "=", orderId).where("status", "=", "paid").executeTakeFirst();
  if (Number(cancelled.numUpdatedRows) === 0) return;
  const e = await trx.selectFrom("reward_earnings").select(["id", "user_id", "points", "reversed_points"]).where("order_id", "=", orderId).where("kind", "=", "referral").where("status", "=", "pending").executeTakeFirst();
  if (!e) return;
  const left = Number(e.points) - Number(e.reversed_points);
  await trx.updateTable("reward_earnings").set({ status: "cancelled", reversed_points: Number(e.points) }).where("id", "=", e.id).execute();
  if (left > 0) await changeBalances(trx, e.user_id, "reversed", (b) => ({ ...b, pending: b.pending - left }), { actor: REWARDS_SYSTEM, orderId, now, note: `a friend's first order ${reason}` });
}

/**
 * The owner reopens a friend's first order they had cancelled while the referrer's points were still pending
 * (cancelReferralOfOrder, reason "cancelled"): the referral is paid again and the referrer's points pending on that
 * order again, exactly what the cancellation took. A refunded order's referral stays cancelled.
 */
export async function restoreReferralOfOrder(trx: Queryable, orderId: string, now: Date): Promise<void> {
  const restored = await trx
    .updateTable("referrals")
    .set({ status: "paid", reason: null })
    .where("friend_order_id", "=", orderId)
    .where("status", "=", "cancelled")
    .where("reason", "=", "cancelled")
    .executeTakeFirst();
  if (Number(restored.numUpdatedRows) === 0) return;
  const e = await trx.selectFrom("reward_earnings").select(["id", "user_id", "reversed_points"]).where("order_id", "=", orderId).where("kind", "=", "referral").where("status", "=", "cancelled").executeTakeFirst();
  if (!e) return;
  const back = Number(e.reversed_points);
  await trx.updateTable("reward_earnings").set({ status: "pending", reversed_points: 0 }).where("id", "=", e.id).execute();
  if (back > 0) await changeBalances(trx, e.user_id, "earned", (b) => ({ ...b, pending: b.pending + back }), { actor: REWARDS_SYSTEM, orderId, now, note: "a friend's first order reopened" });
}

/** The referrer's points available (the order's return window over): the referral is rewarded. */
export async function markReferralRewarded(trx: Queryable, orderId: string, now: Date): Promise<void> {
  await trx.updateTable("referrals").set({ status: "rewarded", rewarded_at: now.toISOString() }).where("friend_order_id", "=", orderId).where("status", "=", "paid").execute();
}

export interface ReferralRow {
  id: string;
  referrerEmail: string | null;
  friendEmail: string | null;
  status: string;
  reason: string | null;
  friendRewardCents: number;
  referrerRewardPoints: number;
  createdAt: string;
  paidAt: string | null;
}

/** Who referred whom, newest first, for the owner (Admin → Marketing → Rewards). */
export async function listReferrals(db: Queryable, limit = 50): Promise<ReferralRow[]> {
  const rows = await db
    .selectFrom("referrals")
    .leftJoin("users as referrer", "referrer.id", "referrals.referrer_user_id")
    .leftJoin("users as friend", "friend.id", "referrals.friend_user_id")
    .select(["referrals.id", "referrer.email as referrer_email", "friend.email as friend_email", "referrals.status", "referrals.reason", "referrals.friend_reward_cents", "referrals.referrer_reward_points", "referrals.created_at", "referrals.paid_at"])
    .orderBy("referrals.created_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    referrerEmail: r.referrer_email,
    friendEmail: r.friend_email,
    status: r.status,
    reason: r.reason,
    friendRewardCents: Number(r.friend_reward_cents),
    referrerRewardPoints: Number(r.referrer_reward_points),
    createdAt: r.created_at,
    paidAt: r.paid_at,
  }));
}

/**
 * The friend's internet address is kept (as a keyed hash) only as long as the check that reads it looks back (7
 * days), then forgotten (POPIA s14: no longer than the purpose needs). The rewards job runs this.
 */
export async function forgetReferralAddresses(db: Queryable, now: Date): Promise<number> {
  const before = new Date(now.getTime() - WEEK_MS).toISOString();
  const result = await db.updateTable("referrals").set({ ip_key: null }).where("ip_key", "is not", null).where("created_at", "<", before).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A member's own referrals, in their words: how many friends came, were rewarded, wait. */
export async function referralsOfReferrer(db: Queryable, userId: string): Promise<{ waiting: number; pending: number; rewarded: number; refused: number }> {
  const rows = await db.selectFrom("referrals").select(["status"]).where("referrer_user_id", "=", userId).execute();
  const count = (...statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).length;
  return { waiting: count("attributed", "reserved"), pending: count("paid"), rewarded: count("rewarded"), refused: count("refused", "cancelled") };
}
