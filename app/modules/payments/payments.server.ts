import { isUniqueViolation, type DB, type Queryable } from "~/db/db.server";
import { sendOrderPaidEmails } from "~/modules/orders/order-emails.server";
import { closeUnpaidOrder, failOrderPayment, markOrderPaid, type PaidOrder } from "~/modules/orders/order-payment.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { isOrderId } from "~/modules/orders/order-read.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import {
  PROVIDER_NAMES,
  PaymentProviderError,
  type CheckoutCustomer,
  type CreateCheckoutInput,
  type PaymentEvent,
  type PaymentMethod,
  type PaymentProvider,
  type ProviderName,
} from "./provider";
import { createOzowProvider } from "./ozow.server";
import { createPayfastProvider } from "./payfast.server";
import { ozowApiBase, ozowPayUrl, payfastApiBase, payfastBaseUrl } from "./provider-hosts.server";
import { createSimulatedProvider } from "./simulated.server";
import { WebhookVerificationError } from "./standard-webhooks.server";
import { INIT_FAILED, createYocoProvider } from "./yoco.server";
import { CHECKOUT_MESSAGES, MINIMUM_PAYMENT_CENTS } from "~/modules/orders/orders.logic";
import { applyRefundEvent } from "~/modules/returns/refund-events.server";
import { sendReturnEmails } from "~/modules/returns/return-emails.server";
import { amountDueOfRow } from "~/modules/gift-cards/gift-card-payments.logic";

export { INIT_FAILED };

/** The provider that takes a payment method's money: card → PAYMENT_PROVIDER, instant EFT → Ozow; EFT has none. */
export function providerNameFor(method: PaymentMethod): ProviderName | null {
  if (method === "card") return env().PAYMENT_PROVIDER;
  if (method === "instant_eft") return "ozow";
  return null;
}

/** The providers whose notifications this shop accepts: those of the enabled payment methods. */
export function enabledProviders(): Set<ProviderName> {
  return new Set(env().PAYMENT_METHODS.flatMap((m) => providerNameFor(m) ?? []));
}

/** The provider chosen by PAYMENT_PROVIDER (or the one named). */
export function getPaymentProvider(name: ProviderName = env().PAYMENT_PROVIDER): PaymentProvider {
  if (name === "yoco") {
    const config = env();
    if (!config.YOCO_SECRET_KEY || !config.YOCO_WEBHOOK_SECRET) throw new Error("Yoco is not configured (YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET)");
    return createYocoProvider({ apiBase: config.YOCO_API_BASE, secretKey: config.YOCO_SECRET_KEY, webhookSecret: config.YOCO_WEBHOOK_SECRET });
  }
  if (name === "payfast") {
    const config = env();
    if (!config.PAYFAST_MERCHANT_ID || !config.PAYFAST_MERCHANT_KEY) throw new Error("PayFast is not configured (PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY)");
    return createPayfastProvider({
      baseUrl: payfastBaseUrl(),
      merchantId: config.PAYFAST_MERCHANT_ID,
      merchantKey: config.PAYFAST_MERCHANT_KEY,
      passphrase: config.PAYFAST_PASSPHRASE,
      apiBase: payfastApiBase(),
    });
  }
  if (name === "ozow") {
    const config = env();
    if (!config.OZOW_SITE_CODE || !config.OZOW_PRIVATE_KEY || !config.OZOW_API_KEY) throw new Error("Ozow is not configured (OZOW_SITE_CODE, OZOW_PRIVATE_KEY, OZOW_API_KEY)");
    return createOzowProvider({
      siteCode: config.OZOW_SITE_CODE,
      privateKey: config.OZOW_PRIVATE_KEY,
      apiKey: config.OZOW_API_KEY,
      isTest: config.OZOW_IS_TEST,
      shopName: config.SHOP_NAME,
      payUrl: ozowPayUrl(),
      apiBase: ozowApiBase(),
    });
  }
  if (env().NODE_ENV === "production" && !warnedSimulated) {
    warnedSimulated = true;
    logger.warn("PAYMENT_PROVIDER=simulated in production: checkouts are paid on a test page and no money is collected");
  }
  return createSimulatedProvider();
}

let warnedSimulated = false;

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}

/** Where the provider sends the buyer back: /payment-status with the order id and success or cancelled. */
export function paymentReturnUrls(orderId: string, options: { relative?: boolean } = {}) {
  const base = options.relative ? "" : env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  const url = (status: "success" | "cancelled") => `${base}/payment-status?orderId=${encodeURIComponent(orderId)}&status=${status}`;
  // A failed card payment comes back as 'cancelled': the order is closed and the buyer can try again from the cart.
  return { successUrl: url("success"), cancelUrl: url("cancelled"), failureUrl: url("cancelled") };
}

/** Everything a provider is told about an order's payment (the same order gives the same input). */
export function checkoutInputFor(order: { id: string; totalAmountCents: number }, provider: ProviderName, customer: CheckoutCustomer): CreateCheckoutInput {
  const config = env();
  return {
    orderId: order.id,
    amountCents: order.totalAmountCents,
    currency: "ZAR",
    ...paymentReturnUrls(order.id),
    notifyUrl: `${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}/webhooks/payments/${provider}`,
    description: `${config.SHOP_NAME} order ${shortOrderId(order.id)}`,
    customer,
    idempotencyKey: order.id,
  };
}

/**
 * Creates the provider checkout for a stored, pending order and records its checkout id on the order.
 * Below the minimum amount, or when the provider refuses, the order is closed (payment failed, coupon released)
 * and a DomainError carries the message for the buyer; nothing redirects.
 */
export async function createCheckoutForOrder(
  db: Queryable,
  order: { id: string; totalAmountCents: number },
  customer: CheckoutCustomer,
  providerName: ProviderName = env().PAYMENT_PROVIDER,
): Promise<{ redirectUrl: string; checkoutId: string }> {
  if (!Number.isSafeInteger(order.totalAmountCents) || order.totalAmountCents < MINIMUM_PAYMENT_CENTS) {
    await failOrderPayment(db, order.id);
    throw new DomainError(CHECKOUT_MESSAGES.minimum);
  }
  const provider = getPaymentProvider(providerName);
  let session;
  try {
    session = await provider.createCheckout(checkoutInputFor(order, provider.name, customer));
  } catch (error) {
    logger.error({ err: error, orderId: order.id, provider: provider.name }, "payment: checkout could not be created");
    await failOrderPayment(db, order.id);
    throw new DomainError(error instanceof PaymentProviderError ? error.message : INIT_FAILED, 502);
  }
  const stored = await db
    .updateTable("orders")
    .set({ payment_id: session.checkoutId, payment_provider: provider.name, checkout_url: session.redirectUrl, updated_at: new Date().toISOString() })
    .where("id", "=", order.id)
    .where("status", "=", "pending")
    .where("payment_status", "=", "pending")
    .executeTakeFirst();
  if (Number(stored.numUpdatedRows) !== 1) {
    logger.error({ orderId: order.id }, "payment: order was not pending when its checkout was recorded");
    throw new DomainError(INIT_FAILED, 409);
  }
  logger.info({ orderId: order.id, provider: provider.name, checkoutId: session.checkoutId }, "payment: checkout created");
  return { redirectUrl: session.redirectUrl, checkoutId: session.checkoutId };
}

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
 * (provider, provider_event_id) key makes a replay change nothing. E-mails go out after the commit, only from the
 * delivery that actually marked the order paid.
 */
export async function applyPaymentEvent(db: DB, provider: ProviderName, event: PaymentEvent): Promise<PaymentOutcome> {
  const log = logger.child({ provider, eventId: event.id, type: event.providerType, checkoutId: event.checkoutId });
  let result: { outcome: PaymentOutcome; orderId: string | null; returnId?: string | null };
  // what the payment did to stock (docs/decisions/020), known once the transaction has committed
  const applied: { paid: PaidOrder | null } = { paid: null };
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
        if (refund.outcome === "unknown_refund" && event.checkoutId) {
          // Yoco answers a refund request at once and may send its outcome before our refund's transaction commits:
          // while the checkout's order has a return waiting for its refund, let the provider deliver it again.
          const waiting = await trx
            .selectFrom("returns")
            .innerJoin("orders", "orders.id", "returns.order_id")
            .select("returns.id")
            .where("orders.payment_id", "=", event.checkoutId)
            .where("orders.payment_provider", "=", provider)
            .where("returns.status", "=", "received")
            .executeTakeFirst();
          if (waiting) throw new RefundInFlight();
        }
        await trx.updateTable("payment_events").set({ outcome: refund.outcome, order_id: refund.orderId }).where("id", "=", rowId).execute();
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
    await sendReturnEmails(db, result.returnId, "payout_failed");
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
  if (outcome === "paid" && orderId) await sendOrderPaidEmails(db, orderId);
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

const PROVIDER_LABELS: Record<ProviderName, string> = { simulated: "the test payment page", yoco: "Yoco", payfast: "PayFast", ozow: "Ozow" };

/**
 * The form a form-post provider (PayFast, Ozow) needs, for the shopper's own pending order: rebuilt from the stored
 * order exactly as at checkout (same input, same signature). Anyone else's order, or one no longer awaiting this
 * payment, is not found.
 */
export async function checkoutFormForOrder(db: Queryable, orderId: string, user: { id: string; email: string }) {
  if (!isOrderId(orderId)) throw new DomainError("Order not found", 404);
  const order = await db
    .selectFrom("orders")
    .select(["id", "user_id", "status", "payment_status", "payment_provider", "total_amount_cents", "gift_card_cents", "shipping_address"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order || order.user_id !== user.id || !order.payment_provider || !isProviderName(order.payment_provider)) throw new DomainError("Order not found", 404);
  if (order.status !== "pending" || order.payment_status !== "pending") throw new DomainError("This order is no longer waiting for payment", 409);
  const provider = getPaymentProvider(order.payment_provider);
  if (!provider.checkoutForm) throw new DomainError("Order not found", 404);
  const address = order.shipping_address;
  const due = amountDueOfRow(order);
  const input = checkoutInputFor({ id: order.id, totalAmountCents: due }, provider.name, {
    email: user.email,
    name: address.name,
    telephone: address.telephone,
  });
  return { form: provider.checkoutForm(input), provider: PROVIDER_LABELS[provider.name], amountCents: input.amountCents, shortId: shortOrderId(order.id) };
}
