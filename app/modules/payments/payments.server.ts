import type { Queryable } from "~/db/db.server";
import { isOrderId } from "~/modules/orders/order-read.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { shortOrderId } from "~/utils/ids";
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
import { INIT_FAILED, createYocoProvider } from "./yoco.server";
import { CHECKOUT_MESSAGES, MINIMUM_PAYMENT_CENTS } from "~/modules/orders/orders.logic";
import { amountDueOfRow } from "~/modules/gift-cards/gift-card-payments.logic";
import { setOrderPaymentProvider } from "~/modules/orders/order-writes.server";

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
 * Creates the provider checkout for a stored, pending order and records its checkout id on the order. Below the
 * minimum amount, or when the provider refuses, it throws `CheckoutNotOpened` (`closeOrder` true: the order can't be
 * paid this way) carrying the buyer's message; the checkout flow (flows/checkout.server.ts) then closes the order.
 */
export class CheckoutNotOpened extends DomainError {
  constructor(message: string, status: number | undefined) {
    super(message, status);
    this.name = "CheckoutNotOpened";
  }
}

export async function openProviderCheckout(
  db: Queryable,
  order: { id: string; totalAmountCents: number },
  customer: CheckoutCustomer,
  providerName: ProviderName = env().PAYMENT_PROVIDER,
): Promise<{ redirectUrl: string; checkoutId: string }> {
  if (!Number.isSafeInteger(order.totalAmountCents) || order.totalAmountCents < MINIMUM_PAYMENT_CENTS) {
    throw new CheckoutNotOpened(CHECKOUT_MESSAGES.minimum, undefined);
  }
  const provider = getPaymentProvider(providerName);
  let session;
  try {
    session = await provider.createCheckout(checkoutInputFor(order, provider.name, customer));
  } catch (error) {
    logger.error({ err: error, orderId: order.id, provider: provider.name }, "payment: checkout could not be created");
    throw new CheckoutNotOpened(error instanceof PaymentProviderError ? error.message : INIT_FAILED, 502);
  }
  const stored = await setOrderPaymentProvider(db, order.id, { provider: provider.name, paymentId: session.checkoutId, checkoutUrl: session.redirectUrl });
  if (!stored) {
    logger.error({ orderId: order.id }, "payment: order was not pending when its checkout was recorded");
    throw new DomainError(INIT_FAILED, 409);
  }
  logger.info({ orderId: order.id, provider: provider.name, checkoutId: session.checkoutId }, "payment: checkout created");
  return { redirectUrl: session.redirectUrl, checkoutId: session.checkoutId };
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
