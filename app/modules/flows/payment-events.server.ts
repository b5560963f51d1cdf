/**
 * Flow: a payment provider's news about an order (docs/decisions/002, 020, 041, 053). One verified event — a webhook
 * (handlePaymentWebhook) or the answer to a status call (confirmPaymentWithProvider) — is applied in ONE transaction
 * with its payment_events row, whose unique (provider, provider_event_id) key makes a replay change nothing:
 *
 *   refund.succeeded / refund.failed → returns: the refund's payout settled (applyRefundEvent); a refund whose own
 *                                      transaction hasn't committed yet is rolled back and answered 503 (retried)
 *   payment.failed                   → the unpaid order closed (flows/order-closed-unpaid: coupon, credits, gift cards back)
 *   payment.cancelled                → the same, as cancelled
 *   payment.succeeded                → checked (amount due after gift cards, ZAR, still pending), then the order paid
 *                                      (flows/order-paid: coupon, samples, gift cards sold, stock, invoice number)
 *
 * Each step runs in the event's transaction: any failure rolls back the event row with it, so the provider's retry
 * applies it afresh. After the commit, only from the delivery that changed the order: the page cache hears of stock
 * that changed, the paid e-mails go out (flows/order-messages), a failed refund's e-mails go out.
 */
import { isUniqueViolation, type DB } from "~/db/db.server";
import { enabledProviders, getPaymentProvider, isProviderName } from "~/modules/payments/payments.server";
import type { PaymentEvent, ProviderName } from "~/modules/payments/provider";
import { WebhookVerificationError } from "~/modules/payments/standard-webhooks.server";
import { amountDueOfRow } from "~/modules/gift-cards/gift-card-payments.logic";
import { applyRefundEvent, returnAwaitsRefund } from "~/modules/returns/refund-events.server";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { closeUnpaidOrder, failOrderPayment } from "./order-closed-unpaid.server";
import { deliverReactions, queueReaction } from "./reactions.server";
import type { ReactionTicket } from "~/modules/reactions/reaction-queue.server";
import { markOrderPaid, type PaidOrder } from "./order-paid.server";

/**
 * What became of one provider event (stored in payment_events.outcome):
 * paid – the order was marked paid; already_paid – it was paid before, nothing changed; amount_mismatch – amount or
 * currency differ from the order, nothing changed; order_not_payable – the order was closed (cancelled/failed) when
 * the money arrived: needs a person (refund); unknown_checkout – no order has this checkout; failed – the order's
 * payment failed; cancelled – the shopper cancelled at the provider, the order is closed; ignored – an event type or
 * state that changes nothing; duplicate – this event id was seen before.
 */
export type PaymentOutcome =
  | "paid"
  | "already_paid"
  | "amount_mismatch"
  | "order_not_payable"
  | "unknown_checkout"
  | "failed"
  | "cancelled"
  | "ignored"
  | "duplicate"
  // a refund's outcome (docs/decisions/041): confirmed, failed, one the shop never made, or one whose own record is
  // still being written (answered 503 so the provider delivers it again)
  | "refund_confirmed"
  | "refund_failed"
  | "unknown_refund"
  | "refund_in_flight";

/** A refund event that arrived before the refund's own transaction committed: rolled back, the provider retries. */
class RefundInFlight extends Error {}

/**
 * Applies one verified event. The event row and the order change are written in ONE transaction; the unique
 * (provider, provider_event_id) key makes a replay change nothing. E-mails are queued in that transaction, only by the
 * delivery that actually marked the order paid, and go out after the commit (flows/reactions.server.ts).
 */
export async function applyPaymentEvent(db: DB, provider: ProviderName, event: PaymentEvent): Promise<PaymentOutcome> {
  const log = logger.child({ provider, eventId: event.id, type: event.providerType, checkoutId: event.checkoutId });
  let result: { outcome: PaymentOutcome; orderId: string | null; returnId?: string | null };
  // what the payment did to stock (docs/decisions/020), known once the transaction has committed
  const applied: { paid: PaidOrder | null; reactions: ReactionTicket[] } = { paid: null, reactions: [] };
  try {
    result = await db.transaction().execute(async (trx) => {
      const seen = await trx
        .selectFrom("payment_events")
        .select("id")
        .where("provider", "=", provider)
        .where("provider_event_id", "=", event.id)
        .executeTakeFirst();
      if (seen) return { outcome: "duplicate" as const, orderId: null };

      const rowId = newId();
      await trx
        .insertInto("payment_events")
        .values({
          id: rowId,
          provider,
          provider_event_id: event.id,
          order_id: null,
          type: event.providerType,
          amount_cents: event.amountCents,
          currency: event.currency,
          outcome: "received",
        })
        .execute();

      if (event.type === "refund.succeeded" || event.type === "refund.failed") {
        const refund = await applyRefundEvent(trx, provider, event);
        // Yoco answers a refund request at once and may send its outcome before our refund's transaction commits:
        // while the checkout's order has a return waiting for its refund, let the provider deliver it again.
        if (refund.outcome === "unknown_refund" && event.checkoutId && (await returnAwaitsRefund(trx, provider, event.checkoutId))) throw new RefundInFlight();
        await trx.updateTable("payment_events").set({ outcome: refund.outcome, order_id: refund.orderId }).where("id", "=", rowId).execute();
        // the provider could not pay it: the shopper hears that the owner pays it by EFT (after the commit)
        if (refund.outcome === "refund_failed" && refund.returnId) applied.reactions.push(await queueReaction(trx, "refund_payout_failed", refund.returnId, {}));
        return { outcome: refund.outcome, orderId: refund.orderId, returnId: refund.returnId };
      }

      const order = event.checkoutId
        ? await trx
            .selectFrom("orders")
            .select(["id", "status", "payment_status", "total_amount_cents", "gift_card_cents"])
            .where("payment_id", "=", event.checkoutId)
            .where("payment_provider", "=", provider)
            .executeTakeFirst()
        : undefined;

      let outcome: PaymentOutcome;
      if (event.type === "other") outcome = "ignored";
      else if (!order) outcome = "unknown_checkout";
      else if (event.type === "payment.failed") outcome = (await failOrderPayment(trx, order.id)) ? "failed" : "ignored";
      else if (event.type === "payment.cancelled") outcome = (await closeUnpaidOrder(trx, order.id, "payment_cancelled")).closed ? "cancelled" : "ignored";
      else if (order.payment_status === "completed") outcome = "already_paid";
      // The provider was asked for the total less what gift cards paid (docs/decisions/053).
      else if (event.amountCents !== amountDueOfRow(order) || event.currency !== "ZAR") outcome = "amount_mismatch";
      else if (order.status !== "pending" || order.payment_status !== "pending") outcome = "order_not_payable";
      else if ((applied.paid = await markOrderPaid(trx, order.id))) outcome = "paid";
      else {
        // The order changed after it was read: paid by a concurrent delivery, or closed (an expiry, the buyer's
        // cancel) while the money was on its way. Only the first is harmless; the second needs a refund.
        const now = await trx.selectFrom("orders").select("payment_status").where("id", "=", order.id).executeTakeFirst();
        outcome = now?.payment_status === "completed" ? "already_paid" : "order_not_payable";
      }

      await trx.updateTable("payment_events").set({ outcome, order_id: order?.id ?? null }).where("id", "=", rowId).execute();
      return { outcome, orderId: order?.id ?? null };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      log.info("payment: duplicate event delivered concurrently; nothing changed");
      return "duplicate";
    }
    if (error instanceof RefundInFlight) {
      log.info("payment: refund event before the refund was recorded; the provider will deliver it again");
      return "refund_in_flight";
    }
    throw error;
  }
  if (result.outcome === "refund_failed" && result.returnId) {
    log.error({ orderId: result.orderId, returnId: result.returnId }, "payment: the provider could not pay a refund; the owner pays it by EFT");
    await deliverReactions(db, applied.reactions);
    return result.outcome;
  }
  if (result.outcome === "refund_confirmed" || result.outcome === "unknown_refund") {
    log.info({ orderId: result.orderId, returnId: result.returnId, outcome: result.outcome }, "payment: refund event applied");
    return result.outcome;
  }

  const { outcome, orderId } = result;
  if (outcome === "amount_mismatch") {
    log.error({ orderId, amountCents: event.amountCents, currency: event.currency }, "payment: amount or currency differ from the order; order unchanged");
  } else if (outcome === "order_not_payable") {
    log.error({ orderId }, "payment: money received for an order that is no longer pending; needs a refund or manual review");
  } else if (outcome === "unknown_checkout") {
    log.warn("payment: event for a checkout no order has; ignored");
  } else {
    log.info({ orderId, outcome }, "payment: event applied");
  }
  // Stock changed: visitors see the new count (or 'Out of stock') on their next request.
  if (outcome === "paid" && applied.paid?.stock.changed) storefrontChanged(`stock: order ${orderId} paid`);
  if (outcome === "paid") await deliverReactions(db, applied.paid?.reactions ?? []);
  return outcome;
}

const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * The webhook endpoint's work: read the raw body once, verify signature and timestamp with the provider's secret,
 * then apply the event. Only the configured provider is accepted. A refused webhook stores nothing (a log line).
 */
export async function handlePaymentWebhook(
  db: DB,
  providerName: string,
  request: Request,
): Promise<{ status: number; outcome: PaymentOutcome | "refused" | "unknown_provider" }> {
  if (!isProviderName(providerName) || !enabledProviders().has(providerName)) {
    logger.warn({ provider: providerName.slice(0, 40) }, "payment webhook for a provider that is not configured");
    return { status: 404, outcome: "unknown_provider" };
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  const rawBody = declared > MAX_WEBHOOK_BYTES ? "" : await request.text();
  if (declared > MAX_WEBHOOK_BYTES || Buffer.byteLength(rawBody, "utf8") > MAX_WEBHOOK_BYTES) {
    logger.warn({ provider: providerName }, "payment webhook refused: body too large");
    return { status: 413, outcome: "refused" };
  }
  let event: PaymentEvent;
  try {
    event = await getPaymentProvider(providerName).verifyWebhook(rawBody, request.headers);
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      logger.warn({ provider: providerName, reason: error.reason, webhookId: request.headers.get("webhook-id")?.slice(0, 100) }, "payment webhook refused");
      return { status: error.status, outcome: "refused" };
    }
    throw error;
  }
  const outcome = await applyPaymentEvent(db, providerName, event);
  return { status: outcome === "refund_in_flight" ? 503 : 200, outcome };
}

const lastStatusCall = new Map<string, number>();
const STATUS_CALL_INTERVAL_MS = 3000;

/**
 * The return page's fallback when the webhook has not arrived: ask the provider, server to server, whether this
 * checkout was paid. A "paid" answer goes through the same checks and transaction as a webhook (amount, currency,
 * idempotency). Providers without a status call, or errors, change nothing. Throttled per checkout.
 */
export async function confirmPaymentWithProvider(
  db: DB,
  order: { payment_provider: string | null; payment_id: string | null; status: string; payment_status: string },
  now: number = Date.now(),
): Promise<PaymentOutcome | null> {
  if (order.status !== "pending" || order.payment_status !== "pending" || !order.payment_id || !order.payment_provider) return null;
  if (!isProviderName(order.payment_provider) || !enabledProviders().has(order.payment_provider)) return null;
  const provider = getPaymentProvider(order.payment_provider);
  if (!provider.fetchCheckoutStatus) return null;
  if (now - (lastStatusCall.get(order.payment_id) ?? 0) < STATUS_CALL_INTERVAL_MS) return null;
  lastStatusCall.set(order.payment_id, now);
  if (lastStatusCall.size > 10_000) lastStatusCall.clear();
  try {
    const status = await provider.fetchCheckoutStatus(order.payment_id);
    if (!status.paid) return null;
    return await applyPaymentEvent(db, provider.name, {
      id: `status:${order.payment_id}`,
      type: "payment.succeeded",
      providerType: "checkout.status.completed",
      checkoutId: order.payment_id,
      amountCents: status.amountCents,
      currency: status.currency,
    });
  } catch (error) {
    logger.warn({ err: error, checkoutId: order.payment_id }, "payment: provider status call failed");
    return null;
  }
}
