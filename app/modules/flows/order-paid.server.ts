/**
 * Flow: an order is paid. Three ways in, one set of steps:
 * - a provider's verified payment (flows/payment-events.server.ts: webhook or status call) → markOrderPaid;
 * - the owner marks an EFT's payment completed (flows/order-changed-by-owner.server.ts) → the same steps through the
 *   admin's transition (it may also reopen a cancelled order);
 * - gift cards cover the whole total at checkout (payOrderWithGiftCards below) → markOrderPaid.
 *
 * markOrderPaid's steps, in the caller's transaction, in this order (the lock order every payment keeps):
 *   1. orders: pending → processing, payment completed, processing_started_at stamped — conditional on
 *      pending/pending, so a second delivery of the same news changes nothing (and takes no step below);
 *   2. coupons: the redemption reservation confirmed;
 *   3. samples: the sample credits it held are used; the samples it bought earn theirs (docs/decisions/054);
 *   4. gift cards: the cards it bought are issued, once (docs/decisions/053);
 *   5. stock: taken (docs/decisions/020: a line whose product has run out is recorded short; the payment stands);
 *   5b. reward points: the points it spent kept; a member's points earned, pending until the return window ends (062);
 *   6. reactions: the paid e-mails, the WhatsApp update and the gift cards' e-mails queued (flows/reactions.server.ts);
 *   7. invoices: the order's invoice number allocated — last, the counter stays locked until the commit (decision 019).
 * Any step failing rolls the transaction back: the order stays pending with nothing taken, and the provider retries.
 * After the commit (the caller's): the page cache hears of changed stock; the queued messages are delivered
 * (deliverReactions; the deliver-reactions job when the process stopped in between).
 */
import type { DB, Trx } from "~/db/db.server";
import { confirmCouponRedemption } from "~/modules/coupons/coupons.server";
import { allocateInvoiceNumber } from "~/modules/invoices/invoice-number.server";
import { settleSamplesOnPayment } from "~/modules/samples/sample-orders.server";
import { issueSoldGiftCards } from "~/modules/gift-cards/gift-card-sales.server";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { deliverReactions, queueReaction } from "./reactions.server";
import type { ReactionTicket } from "~/modules/reactions/reaction-queue.server";
import { takeOrderStock, type StockOutcome } from "./order-stock.server";
import { setOrderPaidIfPending, setOrderPaymentProvider } from "~/modules/orders/order-writes.server";
import { confirmPoints, earnPoints } from "~/modules/rewards/reward-orders.server";
import { settleReferralOnPayment } from "~/modules/rewards/referrals.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";

/** A payment that was applied, with what it did to stock and the messages to deliver after the commit. */
export interface PaidOrder {
  stock: StockOutcome;
  reactions: ReactionTicket[];
}

/**
 * A verified payment: pending → processing, payment completed, processing_started_at stamped, coupon redemption
 * confirmed, stock taken (docs/decisions/020: a line whose product has run out is recorded short; the payment stands),
 * and the order's invoice number allocated (last: the counter stays locked until the commit, docs/decisions/019).
 * The paid messages are queued in the same transaction. Returns null (and changes nothing) when the order was not
 * pending/pending any more. After its commit the caller raises storefrontChanged when `stock.changed`, and delivers
 * `reactions`.
 */
export async function markOrderPaid(trx: Trx, orderId: string, now: Date = new Date()): Promise<PaidOrder | null> {
  if (!(await setOrderPaidIfPending(trx, orderId, now))) return null;
  await confirmCouponRedemption(trx, orderId);
  // the sample credits it held are used; the samples it bought earn theirs (docs/decisions/054)
  await settleSamplesOnPayment(trx, orderId, now);
  // the gift cards it bought are issued, once (docs/decisions/053); their e-mails go after the commit
  await issueSoldGiftCards(trx, orderId, now);
  const stock = await takeOrderStock(trx, orderId);
  await settleRewardsOnPayment(trx, orderId, now);
  // the paid messages, queued with the payment: delivered after the commit, or by the job if this process stops
  const reactions = [await queueReaction(trx, "order_paid", orderId, {}, now)];
  await allocateInvoiceNumber(trx, orderId, now);
  return { stock, reactions };
}

/**
 * Reward points when a payment is confirmed (by the provider, gift cards or the owner): the points the order spent
 * are its own for good; a member earns points on what they paid for goods, pending until the return window ends
 * (docs/decisions/062). Once per order.
 */
export async function settleRewardsOnPayment(trx: Trx, orderId: string, now: Date): Promise<void> {
  const settings = await loadRewardSettings(trx);
  await confirmPoints(trx, orderId);
  await earnPoints(trx, orderId, settings, now);
  // a friend's first order: their reward is theirs; the referrer's points pending on it (docs/decisions/063)
  await settleReferralOnPayment(trx, orderId, settings, now);
}

/** orders.payment_provider of an order paid wholly by gift cards */
export const GIFT_CARD_PROVIDER = "gift_card";

/** Marks the placed order paid by its gift cards; false when it was no longer pending (paid or closed meanwhile). */
export async function payOrderWithGiftCards(db: DB, orderId: string, now: Date = new Date()): Promise<boolean> {
  const paid = await db.transaction().execute(async (trx) => {
    const claimed = await setOrderPaymentProvider(trx, orderId, { provider: GIFT_CARD_PROVIDER, onlyWhenGiftCardsCover: true }, now);
    if (!claimed) return null;
    return markOrderPaid(trx, orderId, now);
  });
  if (!paid) return false;
  logger.info({ orderId }, "payment: order paid in full by gift cards");
  if (paid.stock.changed) storefrontChanged(`stock: order ${orderId} paid by gift card`);
  await deliverReactions(db, paid.reactions);
  return true;
}
