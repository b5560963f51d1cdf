import { inTransaction } from "~/db/in-transaction.server";
import type { Queryable, Trx } from "~/db/db.server";
import { confirmCouponRedemption, releaseCouponRedemption } from "~/modules/coupons/coupons.server";
import { allocateInvoiceNumber } from "~/modules/invoices/invoice-number.server";
import { takeOrderStock, type StockOutcome } from "./order-stock.server";
import { releaseSampleCredits, settleSamplesOnPayment } from "~/modules/samples/sample-orders.server";
import { returnGiftCardsOfOrder } from "~/modules/gift-cards/gift-card-orders.server";
import { issueSoldGiftCards } from "~/modules/gift-cards/gift-card-sales.server";

/**
 * The payment transitions of an order. Each is conditional on the order still being pending, so two deliveries of
 * the same news (a webhook and a status call, or a replay) cannot apply it twice: the second updates 0 rows.
 * The coupon bookkeeping happens in the same transaction as the status change (docs/decisions/002).
 */


/** A payment that was applied, with what it did to stock. */
export interface PaidOrder {
  stock: StockOutcome;
}

/**
 * A verified payment: pending → processing, payment completed, processing_started_at stamped, coupon redemption
 * confirmed, stock taken (docs/decisions/020: a line whose product has run out is recorded short; the payment stands),
 * and the order's invoice number allocated (last: the counter stays locked until the commit, docs/decisions/019).
 * Returns null (and changes nothing) when the order was not pending/pending any more. The caller raises
 * storefrontChanged after its commit when `stock.changed`.
 */
export async function markOrderPaid(trx: Trx, orderId: string, now: Date = new Date()): Promise<PaidOrder | null> {
  const stamp = now.toISOString();
  const result = await trx
    .updateTable("orders")
    .set({ status: "processing", payment_status: "completed", processing_started_at: stamp, updated_at: stamp })
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .where("payment_status", "=", "pending")
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  await confirmCouponRedemption(trx, orderId);
  // the sample credits it held are used; the samples it bought earn theirs (docs/decisions/054)
  await settleSamplesOnPayment(trx, orderId, now);
  // the gift cards it bought are issued, once (docs/decisions/053); their e-mails go after the commit
  await issueSoldGiftCards(trx, orderId, now);
  const stock = await takeOrderStock(trx, orderId);
  await allocateInvoiceNumber(trx, orderId, now);
  return { stock };
}

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
    const stamp = (options.now ?? new Date()).toISOString();
    let update = trx
      .updateTable("orders")
      .set({ status: "cancelled", payment_status: PAYMENT_STATUS_AFTER[reason], updated_at: stamp })
      .where("id", "=", orderId)
      .where("status", "=", "pending")
      .where("payment_status", "=", "pending");
    if (options.userId !== undefined) update = update.where("user_id", "=", options.userId);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { closed: false, couponReleased: false };
    await releaseSampleCredits(trx, orderId);
    const couponReleased = await releaseCouponRedemption(trx, orderId);
    // What its gift cards paid goes back to them (docs/decisions/053): the winner of the close alone gives it back.
    const actor = options.userId !== undefined ? { kind: "user" as const, id: options.userId } : { kind: "system" as const, id: null };
    await returnGiftCardsOfOrder(trx, orderId, "release", actor, options.now);
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
