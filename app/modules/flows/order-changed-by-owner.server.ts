/**
 * Flow: the owner changes an order (SPEC §4; Admin → Orders): its status, its payment status, its lines and address,
 * or deletes it. Each change is one transaction with the order row locked (PostgreSQL) so two admins, or an admin and
 * a payment webhook, can't interleave. The transition itself is decided by orders' pure rules (order-admin.logic:
 * changeStatus / changePayment); this file does what it means for every other area, in this order:
 *
 *   cancelled (coupon effect "release"):
 *     1. coupons: the redemption given back;           2. samples: the sample credits it held released;
 *     3. gift cards: what they paid given back (a refund when it was paid, a release when not);
 *     4. gift cards it bought: cancelled (what is left on them is void);
 *     5. samples, when it was paid: used credits given back, granted ones taken back (docs/decisions/054);
 *     5b. reward points: unpaid, the points it held released; paid, the points it earned taken back and the points it
 *         spent given back (docs/decisions/062);
 *   reopened (coupon effect "reclaim") — the undo of the above, each taken again:
 *     1. coupons: reclaimed, or the change refused when the coupon is used up (409);
 *     3. gift cards: what they paid taken again;      5. samples: the credits taken again;
 *     5b. reward points: spent again, or the change refused when the member no longer has them (409); earned again;
 *   then, every change:
 *     6. orders: the status, payment status and stamps written, its metrics row;
 *     7. stock: taken (paid again) or given back (cancelled / un-paid) — flows/order-stock.server.ts;
 *   and when the change confirms the payment (an EFT the owner marks completed: flow "order paid"):
 *     8. samples settled, the gift cards it bought issued, the paid messages queued, the invoice number allocated
 *        (last: its counter stays locked until the commit, docs/decisions/019);
 *   and the messages the change calls for, queued (flows/reactions.server.ts): the paid e-mails; a shipped order's
 *   e-mail when it has a tracking number; a delivered one's WhatsApp update.
 * A step that fails (a coupon used up, a gift card spent meanwhile) throws, and the transaction rolls back every step
 * before it: the order is as it was. Lock order as everywhere: the order row, its coupon, its products by id, the
 * invoice counter last (docs/decisions/019, 020).
 *
 * After the commit (the admin's, when its dispatcher holds this change in its transaction): the page cache hears of
 * changed stock, and the queued messages are delivered. A failed message never undoes a change.
 */
import type { Queryable, Trx } from "~/db/db.server";
import type { OrderStatus, PaymentStatus } from "~/db/schema";
import { inTransaction } from "~/db/in-transaction.server";
import { reclaimCouponRedemption, releaseCouponRedemption } from "~/modules/coupons/coupons.server";
import { reclaimGiftCardsOfOrder, returnGiftCardsOfOrder } from "~/modules/gift-cards/gift-card-orders.server";
import { cancelSoldGiftCardsOfOrder, issueSoldGiftCards } from "~/modules/gift-cards/gift-card-sales.server";
import { allocateInvoiceNumber } from "~/modules/invoices/invoice-number.server";
import { changePayment, changeStatus, confirmsPayment, ORDER_ADMIN_MESSAGES, type Transition } from "~/modules/orders/order-admin.logic";
import type { OrderEditInput } from "~/modules/orders/order-admin.schema";
import { lockOrder, writeOrderEdit, writeTransition, type LockedOrder } from "~/modules/orders/order-admin.server";
import { reclaimSampleCreditsOfOrder, releaseSampleCredits, returnSampleCreditsOfPaidOrder, settleSamplesOnPayment } from "~/modules/samples/sample-orders.server";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { sendOrderStatusEmail } from "./order-messages.server";
import { deliverReactions, queueReaction } from "./reactions.server";
import type { ReactionTicket } from "~/modules/reactions/reaction-queue.server";
import { giveBackOrderStock, takeOrderStock, type StockOutcome } from "./order-stock.server";
import { deleteOrderRow } from "~/modules/orders/order-writes.server";
import { reclaimPoints, restoreEarning, undoRewardsOfOrder } from "~/modules/rewards/reward-orders.server";
import { reclaimFriendReward, restoreReferralOfOrder } from "~/modules/rewards/referrals.server";
import { settleRewardsOnPayment } from "./order-paid.server";

/** The owner's changes to an order, as a gift card's ledger records them (the admin routes check the role). */
const OWNER = { kind: "admin" as const, id: null };

/**
 * Applies a transition: the row, its stamps, its coupon redemption, its metrics, its stock and — when it newly
 * confirms the payment — the paid messages and the order's invoice number (kept if it had one: docs/decisions/019),
 * all or nothing.
 */
async function apply(trx: Trx, order: LockedOrder, next: Transition, now: Date): Promise<{ stock: StockOutcome; reactions: ReactionTicket[] }> {
  if (next.coupon === "release") {
    await releaseCouponRedemption(trx, order.id);
    await releaseSampleCredits(trx, order.id);
  }
  if (next.coupon === "reclaim") {
    const outcome = await reclaimCouponRedemption(trx, { id: order.id, userId: order.user_id, couponCode: order.coupon_code, discountCents: Number(order.discount_amount_cents) });
    if (outcome === "full") throw new DomainError(ORDER_ADMIN_MESSAGES.couponFull(order.coupon_code ?? ""), 409);
  }
  // Gift cards follow the coupon's rule (docs/decisions/053): a cancelled order gives back what its cards paid (a
  // refund when it was paid, a release when not), a reopened one takes it again.
  if (next.coupon === "release") await returnGiftCardsOfOrder(trx, order.id, order.payment_status === "completed" ? "refund" : "release", OWNER, now);
  // The gift cards a cancelled order bought are cancelled with it: what is left on them is void.
  if (next.coupon === "release") await cancelSoldGiftCardsOfOrder(trx, order.id, OWNER, now);
  if (next.coupon === "reclaim") await reclaimGiftCardsOfOrder(trx, order.id, OWNER, now);
  // So do sample credits of a paid order (docs/decisions/054): used ones given back, granted ones taken back; reopened, again.
  if (next.coupon === "release" && order.payment_status === "completed") await returnSampleCreditsOfPaidOrder(trx, order.id, now);
  if (next.coupon === "reclaim") await reclaimSampleCreditsOfOrder(trx, order.id, now, { paid: next.paymentStatus === "completed" });
  // Reward points follow too (docs/decisions/062), and a friend's first order's referral (063).
  if (next.coupon === "release") await undoRewardsOfOrder(trx, order.id, order.payment_status === "completed", OWNER, now);
  if (next.coupon === "reclaim") {
    if (!(await reclaimPoints(trx, order.id, next.paymentStatus === "completed", now))) throw new DomainError(ORDER_ADMIN_MESSAGES.pointsGone, 409);
    if (order.payment_status !== "completed" && !(await reclaimFriendReward(trx, order.id, order.user_id, order.referral_cents))) throw new DomainError(ORDER_ADMIN_MESSAGES.friendRewardGone, 409);
    await restoreEarning(trx, order.id, now);
    await restoreReferralOfOrder(trx, order.id, now);
  }
  await writeTransition(trx, order.id, next, now);
  // Lock order as everywhere: the order row (locked above), its coupon, its products by id, the invoice counter last
  // (held until the commit: docs/decisions/019, 020).
  const stock: StockOutcome =
    next.stock === "take" ? await takeOrderStock(trx, order.id) : next.stock === "give_back" ? await giveBackOrderStock(trx, order.id) : { changed: false, short: [] };
  const reactions: ReactionTicket[] = [];
  if (confirmsPayment({ status: order.status, paymentStatus: order.payment_status }, next)) {
    // the owner's confirmation settles samples as the provider's would (docs/decisions/054)
    await settleSamplesOnPayment(trx, order.id, now);
    await issueSoldGiftCards(trx, order.id, now);
    await settleRewardsOnPayment(trx, order.id, now);
    // an EFT that arrived gets the same confirmation as a card payment
    reactions.push(await queueReaction(trx, "order_paid", order.id, {}, now));
    await allocateInvoiceNumber(trx, order.id, now);
  }
  return { stock, reactions };
}

/** After the commit: visitors see the new stock at once. */
function announceStock(orderId: string, stock: StockOutcome) {
  if (stock.changed) storefrontChanged(`stock: order ${orderId} changed by the owner`);
}

/** What the owner's change did that they should hear about: products it found out of stock. */
export interface OrderChangeResult {
  short: StockOutcome["short"];
}

export async function setOrderStatus(db: Queryable, id: string, status: OrderStatus, now = new Date()): Promise<OrderChangeResult> {
  const { before, stock, reactions } = await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, id);
    const { stock, reactions } = await apply(trx, order, changeStatus({ status: order.status, paymentStatus: order.payment_status }, status, now), now);
    // Shipped with a tracking number: the customer hears where their parcel is.
    if (status === "shipped" && order.status !== "shipped" && order.tracking_number) reactions.push(await queueReaction(trx, "order_shipped", id, { oldStatus: order.status }, now));
    // Delivered (by the courier's tracking or the owner): on WhatsApp, for a customer who opted in.
    if (status === "delivered" && order.status !== "delivered") reactions.push(await queueReaction(trx, "order_delivered", id, { at: now.toISOString() }, now));
    return { before: order, stock, reactions };
  });
  announceStock(id, stock);
  logger.info({ orderId: id, from: before.status, to: status }, "admin: order status changed");
  await deliverReactions(db, reactions);
  return { short: stock.short };
}

export async function setPaymentStatus(db: Queryable, id: string, paymentStatus: PaymentStatus, now = new Date()): Promise<OrderChangeResult> {
  const { before, next, stock, reactions } = await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, id);
    const state = { status: order.status, paymentStatus: order.payment_status };
    const transition = changePayment(state, paymentStatus, now);
    const { stock, reactions } = await apply(trx, order, transition, now);
    return { before: state, next: transition, stock, reactions };
  });
  announceStock(id, stock);
  logger.info({ orderId: id, from: before.paymentStatus, to: paymentStatus, status: next.status }, "admin: payment status changed");
  await deliverReactions(db, reactions);
  return { short: stock.short };
}

/** The inline edit (SPEC §4): lines' quantity and unit price, address, notes, tracking; totals recomputed here. */
export async function updateOrder(db: Queryable, input: OrderEditInput, now = new Date()): Promise<void> {
  const reactions = await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, input.id);
    await writeOrderEdit(trx, order, input, now);
    // A tracking number added to (or changed on) a shipped order reaches the customer.
    const tracking = input.trackingNumber;
    return order.status === "shipped" && tracking && tracking !== order.tracking_number ? [await queueReaction(trx, "order_shipped", order.id, { oldStatus: "shipped" }, now)] : [];
  });
  await deliverReactions(db, reactions);
}

/** Deletes the order and everything hanging off it; a redemption it still held goes back to its coupon. */
export async function deleteOrder(db: Queryable, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, id);
    await releaseCouponRedemption(trx, id);
    if (order.status !== "cancelled") await returnGiftCardsOfOrder(trx, id, order.payment_status === "completed" ? "refund" : "release", OWNER);
    if (order.status !== "cancelled") await undoRewardsOfOrder(trx, id, order.payment_status === "completed", OWNER, new Date());
    await deleteOrderRow(trx, id);
  });
  logger.info({ orderId: id }, "admin: order deleted");
}

/** The button: the order's current status to its customer, old status 'manual'. Throws the spec's failure message. */
export async function sendStatusEmailNow(db: Queryable, id: string): Promise<void> {
  const result = await sendOrderStatusEmail(db, id, { oldStatus: "manual" });
  if (!result.sent) throw new DomainError(ORDER_ADMIN_MESSAGES.emailFailed(result.reason), result.status);
}

