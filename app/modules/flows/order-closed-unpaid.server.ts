/**
 * Flow: an unpaid order ends without payment — the provider's failure, the buyer's cancel, expiry (flows/order-expired),
 * a newer attempt with the same limited coupon (flows/order-placed), an account deleted (flows/account-deleted):
 *
 *   1. orders: pending/pending → cancelled / failed-or-cancelled, conditional on pending/pending (closeUnpaidOrder),
 *      so of two closers, or a closer and a payment, exactly one wins and only the winner goes on;
 *   2. samples: the sample credits it held are released;
 *   3. coupons: its redemption reservation is released (times_redeemed given back once);
 *   4. gift cards: what they paid goes back to them (a release);
 *   5. reward points it held go back to the member (docs/decisions/062); a friend's reward waits for the next order (063).
 *
 * All in the caller's transaction (or one of its own): a later step failing rolls back the earlier ones, the order
 * stays pending and the next closer tries again. The coupon bookkeeping is in the same transaction as the status
 * change (docs/decisions/002). Nothing goes out after the commit.
 */
import { inTransaction } from "~/db/in-transaction.server";
import type { Queryable } from "~/db/db.server";
import { releaseCouponRedemption } from "~/modules/coupons/coupons.server";
import { releaseSampleCredits } from "~/modules/samples/sample-orders.server";
import { returnGiftCardsOfOrder } from "~/modules/gift-cards/gift-card-orders.server";
import { setUnpaidOrderClosed } from "~/modules/orders/order-writes.server";
import { undoRewardsOfOrder } from "~/modules/rewards/reward-orders.server";


/** Why an unpaid order is closed; the payment status it ends with follows from it. */
export type CloseReason = "payment_failed" | "payment_cancelled" | "expired" | "superseded";

const PAYMENT_STATUS_AFTER: Record<CloseReason, "failed" | "cancelled"> = {
  payment_failed: "failed",
  payment_cancelled: "cancelled",
  expired: "cancelled",
  superseded: "cancelled",
};

export interface ClosedOrder {
  /** false: the order was not pending/pending any more (paid, already closed, gone), and nothing changed */
  closed: boolean;
  /** a coupon reservation was given back */
  couponReleased: boolean;
}

/**
 * THE way an unpaid order ends without payment (provider failure, buyer's cancel, expiry, a newer attempt):
 * pending/pending → cancelled / failed-or-cancelled, and its coupon reservation released, in the caller's transaction
 * (or one of its own). The update is conditional on pending/pending: of two closers (two servers' expiry runs, an
 * expiry and a cancel, a replayed event), or a closer and a payment, exactly one wins, and only the winner releases the
 * coupon, so times_redeemed is never given back twice. `userId` narrows it to the owner's order.
 */
export async function closeUnpaidOrder(
  db: Queryable,
  orderId: string,
  reason: CloseReason,
  options: { now?: Date; userId?: string } = {},
): Promise<ClosedOrder> {
  return inTransaction(db, async (trx) => {
    const closed = await setUnpaidOrderClosed(trx, orderId, PAYMENT_STATUS_AFTER[reason], options.now ?? new Date(), options.userId);
    if (!closed) return { closed: false, couponReleased: false };
    await releaseSampleCredits(trx, orderId);
    const couponReleased = await releaseCouponRedemption(trx, orderId);
    // What its gift cards paid goes back to them (docs/decisions/053): the winner of the close alone gives it back.
    const actor = options.userId !== undefined ? { kind: "user" as const, id: options.userId } : { kind: "system" as const, id: null };
    await returnGiftCardsOfOrder(trx, orderId, "release", actor, options.now);
    await undoRewardsOfOrder(trx, orderId, false, actor, options.now ?? new Date());
    return { closed: true, couponReleased };
  });
}

/**
 * The payment failed (provider event, or the checkout could not be created): the order is closed
 * (status cancelled, payment failed) and its coupon reservation released, so the buyer starts again from the cart.
 */
export async function failOrderPayment(db: Queryable, orderId: string, now: Date = new Date()): Promise<boolean> {
  return (await closeUnpaidOrder(db, orderId, "payment_failed", { now })).closed;
}

export type CancelOutcome = "cancelled" | "not_pending" | "not_found";

/**
 * The buyer came back from the provider with status=cancelled: their own pending order becomes cancelled / payment
 * cancelled and the coupon reservation is released. Someone else's order counts as not found.
 */
export async function cancelOrderPayment(db: Queryable, orderId: string, userId: string, now: Date = new Date()): Promise<CancelOutcome> {
  return inTransaction(db, async (trx) => {
    const order = await trx.selectFrom("orders").select(["id", "user_id"]).where("id", "=", orderId).executeTakeFirst();
    if (!order || order.user_id !== userId) return "not_found";
    const { closed } = await closeUnpaidOrder(trx, orderId, "payment_cancelled", { now, userId });
    return closed ? "cancelled" : "not_pending";
  });
}
