/**
 * Reward points and orders (docs/decisions/062): the steps the order flows take, each in the flow's transaction.
 *
 *   placed   → reservePoints: the points it spends taken from what is available, soonest-expiring lots first;
 *   paid     → confirmPoints (the reservation kept) and earnPoints (pending, by the rule of the day);
 *   closed unpaid (expired, failed, cancelled, superseded) → releasePoints: the points back to their lots;
 *   refunded → reverseEarned (the points its refunded part earned, taken back: from pending, from available, or owed)
 *              and giveBackSpent (the points its returned goods used, back to their lots), each proportional and
 *              cumulative, so a whole order refunded in parts comes out exact;
 *   cancelled when paid → both, in full; reopened → reclaimPoints (spent again, or the reopening refused);
 *   return window over → makeAvailable (pending → available, a lot that expires); its time → expireLots.
 *
 * Lock order: the order row (the flow's), then the account (reward-ledger.server.ts), then its lots.
 */
import type { Queryable } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import type { RedeemedLot } from "~/db/schema";
import { newId } from "~/utils/ids";
import { changeBalances, credit, REWARDS_SYSTEM, spend, takeBack, type RewardActor } from "./reward-ledger.server";
import { cancelReferralOfOrder, markReferralRewarded, releaseFriendReward } from "./referrals.server";
import { lotExpiry, maxRedeemablePoints, pointsEarned, pointsWorthCents, proportionalShare, redeemRefusal, type RewardSettings } from "./rewards.logic";

/** What a cart may spend, for the quote: the balance, the most it may spend, and what it spends of what was asked. */
export interface PointsForCart {
  available: number;
  most: number;
  used: number;
  cents: number;
  /** why what was asked can't be spent (nothing is spent then) */
  refusal: string | null;
}

/**
 * The points a signed-in member's cart spends: at most what is available and `capCents` allows (the goods left after
 * the coupon and the sample credits, less what keeps the provider's minimum). null: the programme is off, the shopper
 * never joined, or left with nothing left to spend (nothing shows).
 */
export async function pointsForCart(db: Queryable, userId: string | null | undefined, wanted: number, capCents: number, s: RewardSettings): Promise<PointsForCart | null> {
  if (!s.pointsOn || !userId) return null;
  const account = await db.selectFrom("reward_accounts").select(["available_points", "joined_at"]).where("user_id", "=", userId).executeTakeFirst();
  if (!account) return null;
  const available = Number(account.available_points);
  // a member who left keeps what they have to spend (nothing to show once it is gone)
  if (!account.joined_at && available === 0) return null;
  const most = maxRedeemablePoints({ available, capCents, pointValueCents: s.pointValueCents, minRedeemPoints: s.minRedeemPoints });
  const refusal = redeemRefusal(wanted, most, s);
  const used = refusal || wanted <= 0 ? 0 : wanted;
  return { available, most, used, cents: pointsWorthCents(used, s.pointValueCents), refusal };
}

/** The points an order spends were taken meanwhile (another tab): nothing was placed. */
export const POINTS_TAKEN = "Your points changed while you were checking out (another order spent them). Nothing was placed: please check your total and try again.";

/**
 * Takes `points` from the member's available points for the order being placed, soonest-expiring lots first.
 * false: they aren't there any more (the caller refuses the placement; the rollback undoes the rest).
 */
export async function reservePoints(trx: Queryable, input: { orderId: string; userId: string; points: number; cents: number; now: Date }): Promise<boolean> {
  const left = await changeBalances(trx, input.userId, "redeemed", spend(input.points), { actor: { kind: "user", id: input.userId }, orderId: input.orderId, now: input.now });
  if (!left) return false;
  const lots = await takeFromLots(trx, input.userId, input.points);
  await trx
    .insertInto("reward_redemptions")
    .values({ order_id: input.orderId, user_id: input.userId, points: input.points, cents: input.cents, lots: JSON.stringify(lots), created_at: input.now.toISOString() })
    .execute();
  return true;
}

/**
 * Points from the lots that expire first (spent, or taken away by hand); the account's UPDATE before this holds the
 * member's lots for this transaction. Answers which lots gave how many.
 */
export async function takeFromLots(trx: Queryable, userId: string, points: number): Promise<RedeemedLot[]> {
  const lots = await trx
    .selectFrom("reward_earnings")
    .select(["id", "remaining_points"])
    .where("user_id", "=", userId)
    .where("remaining_points", ">", 0)
    .orderBy("expires_at")
    .orderBy("id")
    .execute();
  const taken: RedeemedLot[] = [];
  let left = points;
  for (const lot of lots) {
    if (left === 0) break;
    const take = Math.min(left, Number(lot.remaining_points));
    await trx.updateTable("reward_earnings").set((eb) => ({ remaining_points: eb("remaining_points", "-", take) })).where("id", "=", lot.id).execute();
    taken.push({ earningId: lot.id, points: take });
    left -= take;
  }
  return taken;
}

/** Points back into the lots they came from, in order, up to `points`. */
async function backToLots(trx: Queryable, lots: readonly RedeemedLot[], points: number): Promise<void> {
  let left = points;
  for (const lot of lots) {
    if (left === 0) break;
    const back = Math.min(left, lot.points);
    await trx.updateTable("reward_earnings").set((eb) => ({ remaining_points: eb("remaining_points", "+", back) })).where("id", "=", lot.earningId).execute();
    left -= back;
  }
}

/** Paid: the reservation is the order's for good. */
export async function confirmPoints(trx: Queryable, orderId: string): Promise<void> {
  await trx.updateTable("reward_redemptions").set({ status: "confirmed" }).where("order_id", "=", orderId).where("status", "=", "reserved").execute();
}

/** Closed unpaid: the points it held go back to the member, and to their lots. Answers how many. */
export async function releasePoints(trx: Queryable, orderId: string, now: Date): Promise<number> {
  const held = await trx.selectFrom("reward_redemptions").select(["user_id", "points", "lots"]).where("order_id", "=", orderId).where("status", "=", "reserved").executeTakeFirst();
  if (!held) return 0;
  // conditional: of two closes at once, one gives them back
  const released = await trx.updateTable("reward_redemptions").set({ status: "released" }).where("order_id", "=", orderId).where("status", "=", "reserved").executeTakeFirst();
  if (Number(released.numUpdatedRows) === 0) return 0;
  const points = Number(held.points);
  await changeBalances(trx, held.user_id, "released", credit(points), { actor: REWARDS_SYSTEM, orderId, now, note: "the order closed unpaid" });
  await backToLots(trx, held.lots, points);
  return points;
}

/**
 * Reopened by the owner: the points a released (or given back) reservation held are spent again. false: the member
 * doesn't have them any more (the reopening is refused, as for a used-up coupon).
 */
export async function reclaimPoints(trx: Queryable, orderId: string, paid: boolean, now: Date): Promise<boolean> {
  const row = await trx.selectFrom("reward_redemptions").select(["user_id", "points", "status", "given_back_points"]).where("order_id", "=", orderId).executeTakeFirst();
  if (!row) return true;
  const again = row.status === "released" ? Number(row.points) : Number(row.given_back_points);
  if (again > 0) {
    const left = await changeBalances(trx, row.user_id, "redeemed", spend(again), { actor: REWARDS_SYSTEM, orderId, now, note: "the order reopened" });
    if (!left) return false;
    const lots = await takeFromLots(trx, row.user_id, again);
    await trx.updateTable("reward_redemptions").set({ lots: JSON.stringify(lots) }).where("order_id", "=", orderId).execute();
  }
  await trx.updateTable("reward_redemptions").set({ status: paid ? "confirmed" : "reserved", given_back_points: 0 }).where("order_id", "=", orderId).execute();
  return true;
}

/**
 * Paid: a member earns on what they paid for goods (`orders.reward_base_cents`), pending until the return window
 * ends. Once per order (a second confirmation earns nothing more); nothing for a non-member or with the programme off.
 */
export async function earnPoints(trx: Queryable, orderId: string, s: RewardSettings, now: Date): Promise<number> {
  if (!s.pointsOn) return 0;
  const order = await trx
    .selectFrom("orders")
    .innerJoin("reward_accounts", "reward_accounts.user_id", "orders.user_id")
    .select(["orders.user_id", "orders.reward_base_cents", "reward_accounts.joined_at"])
    .where("orders.id", "=", orderId)
    .executeTakeFirst();
  if (!order?.user_id || !order.joined_at) return 0;
  const base = Number(order.reward_base_cents);
  const points = pointsEarned(base, s.earnCentsPerPoint);
  if (points === 0) return 0;
  const inserted = await trx
    .insertInto("reward_earnings")
    .values({ id: newId(), user_id: order.user_id, order_id: orderId, points, base_cents: base, earn_cents_per_point: s.earnCentsPerPoint, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["order_id", "kind"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return 0;
  await changeBalances(trx, order.user_id, "earned", (b) => ({ ...b, pending: b.pending + points }), { actor: REWARDS_SYSTEM, orderId, now });
  return points;
}

/**
 * A refund of `refundedCents` of the order's goods (cumulative: this refund and the ones before it): the points its
 * share earned are taken back, by the rule they were earned under. Pending ones from pending; available ones from what
 * is available, and what was already spent is owed (taken from the next points). Answers how many.
 */
export async function reverseEarned(trx: Queryable, orderId: string, refundedCents: number, actor: RewardActor, now: Date, note = "refunded"): Promise<number> {
  const e = await trx
    .selectFrom("reward_earnings")
    .select(["id", "user_id", "points", "base_cents", "status", "reversed_points", "remaining_points"])
    .where("order_id", "=", orderId)
    .where("kind", "=", "order")
    .executeTakeFirst();
  if (!e || e.status === "cancelled") return 0;
  const points = Number(e.points);
  const due = proportionalShare(points, Number(e.base_cents), refundedCents, Number(e.reversed_points));
  if (due === 0) return 0;
  const reversed = Number(e.reversed_points) + due;
  // every point it earned taken back: cancelled (a reopening makes it pending again: restoreEarning)
  const status = reversed >= points ? "cancelled" : e.status;
  if (e.status === "pending") {
    await trx.updateTable("reward_earnings").set({ reversed_points: reversed, status }).where("id", "=", e.id).execute();
    await changeBalances(trx, e.user_id, "reversed", (b) => ({ ...b, pending: b.pending - due }), { actor, orderId, now, note });
  } else {
    await trx
      .updateTable("reward_earnings")
      .set({ reversed_points: reversed, status, remaining_points: Math.max(0, Number(e.remaining_points) - due) })
      .where("id", "=", e.id)
      .execute();
    await changeBalances(trx, e.user_id, "reversed", takeBack(due), { actor, orderId, now, note });
  }
  return due;
}

/**
 * A return of `returnedGoodsCents` of goods (cumulative) out of `goodsCents`: the points the order spent on them come
 * back, proportionally, to the lots they came from. Answers how many.
 */
export async function giveBackSpent(trx: Queryable, orderId: string, returnedGoodsCents: number, goodsCents: number, actor: RewardActor, now: Date, note = "refunded"): Promise<number> {
  const r = await trx.selectFrom("reward_redemptions").select(["user_id", "points", "status", "given_back_points", "lots"]).where("order_id", "=", orderId).executeTakeFirst();
  if (!r || r.status !== "confirmed") return 0;
  const due = proportionalShare(Number(r.points), goodsCents, returnedGoodsCents, Number(r.given_back_points));
  if (due === 0) return 0;
  await trx.updateTable("reward_redemptions").set({ given_back_points: Number(r.given_back_points) + due }).where("order_id", "=", orderId).execute();
  await changeBalances(trx, r.user_id, "given_back", credit(due), { actor, orderId, now, note });
  await backToLots(trx, r.lots, due);
  return due;
}

/**
 * An order undone: closed unpaid (any way), or cancelled or deleted by the owner. Unpaid: the points it held released
 * and a friend's reward left for their next order. Paid: every point it earned taken back, every point it spent given
 * back, and a friend's first order's referral cancelled with the referrer's pending points (docs/decisions/063). One
 * place for all of it, so no way of undoing an order (a deletion too) leaves a balance behind.
 */
export async function undoRewardsOfOrder(trx: Queryable, orderId: string, paid: boolean, actor: RewardActor, now: Date): Promise<void> {
  if (!paid) {
    await releasePoints(trx, orderId, now);
    await releaseFriendReward(trx, orderId);
    return;
  }
  await reverseEarned(trx, orderId, Number.MAX_SAFE_INTEGER, actor, now, "the order cancelled");
  await giveBackSpent(trx, orderId, 1, 1, actor, now, "the order cancelled");
  await cancelReferralOfOrder(trx, orderId, "cancelled", now);
}

/** The order's earning, when it has one: for the owner's reopening (its points pending again). */
export async function restoreEarning(trx: Queryable, orderId: string, now: Date): Promise<void> {
  const e = await trx.selectFrom("reward_earnings").select(["id", "user_id", "points", "status", "reversed_points"]).where("order_id", "=", orderId).where("kind", "=", "order").executeTakeFirst();
  if (!e || e.status !== "cancelled") return;
  const back = Number(e.reversed_points);
  await trx.updateTable("reward_earnings").set({ status: "pending", reversed_points: 0 }).where("id", "=", e.id).where("status", "=", "cancelled").execute();
  if (back > 0) await changeBalances(trx, e.user_id, "earned", (b) => ({ ...b, pending: b.pending + back }), { actor: REWARDS_SYSTEM, orderId, now, note: "the order reopened" });
}

/** Pending earnings on orders delivered before `deliveredBefore`, oldest delivery first: the candidates to become available. */
export function pendingDelivered(db: Queryable, deliveredBefore: string, limit: number) {
  return db
    .selectFrom("reward_earnings")
    .innerJoin("orders", "orders.id", "reward_earnings.order_id")
    .select(["reward_earnings.id", "reward_earnings.order_id", "orders.actual_delivery_date"])
    .where("reward_earnings.status", "=", "pending")
    .where("orders.status", "=", "delivered")
    .where("orders.actual_delivery_date", "<=", deliveredBefore)
    .orderBy("orders.actual_delivery_date")
    .limit(limit)
    .execute();
}

/** Pending → available (once: conditional on pending): what is owed is paid first, the rest is a lot that expires. */
export async function makeAvailable(trx: Queryable, earningId: string, s: RewardSettings, now: Date): Promise<number> {
  const e = await trx.selectFrom("reward_earnings").select(["user_id", "order_id", "kind", "points", "reversed_points"]).where("id", "=", earningId).where("status", "=", "pending").executeTakeFirst();
  if (!e) return 0;
  const points = Number(e.points) - Number(e.reversed_points);
  const claimed = await trx.updateTable("reward_earnings").set({ status: "available", available_at: now.toISOString() }).where("id", "=", earningId).where("status", "=", "pending").executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return 0;
  let toLot = points;
  await changeBalances(
    trx,
    e.user_id,
    "available",
    (b) => {
      const paid = credit(points)(b);
      toLot = paid.available - b.available;
      return { ...paid, pending: b.pending - points };
    },
    { actor: REWARDS_SYSTEM, orderId: e.order_id, now },
  );
  await trx.updateTable("reward_earnings").set({ remaining_points: toLot, expires_at: lotExpiry(now, s.pointsMonths).toISOString() }).where("id", "=", earningId).execute();
  // a referrer's reward for a friend's first order: the referral is rewarded (docs/decisions/063)
  if (e.kind === "referral") await markReferralRewarded(trx, e.order_id, now);
  return points;
}

/**
 * Lots whose time has come: what is left of each expires (never more than is available: what was owed already took
 * its share). At most `limit` lots a run. Answers the points expired.
 */
export async function expireLots(db: Queryable, now: Date, limit = 100): Promise<number> {
  const due = await db
    .selectFrom("reward_earnings")
    .select(["id", "user_id", "order_id", "remaining_points"])
    .where("remaining_points", ">", 0)
    .where("expires_at", "<=", now.toISOString())
    .orderBy("expires_at")
    .limit(limit)
    .execute();
  let expired = 0;
  for (const lot of due) {
    await inTransaction(db, async (trx) => {
      const claimed = await trx.updateTable("reward_earnings").set({ remaining_points: 0 }).where("id", "=", lot.id).where("remaining_points", "=", Number(lot.remaining_points)).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return;
      let taken = 0;
      await changeBalances(
        trx,
        lot.user_id,
        "expired",
        (b) => {
          taken = Math.min(b.available, Number(lot.remaining_points));
          return taken > 0 ? { ...b, available: b.available - taken } : null;
        },
        { actor: REWARDS_SYSTEM, orderId: lot.order_id, now },
      );
      expired += taken;
    });
  }
  return expired;
}
