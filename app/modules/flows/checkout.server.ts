import { isUniqueViolation, type DB, type Queryable } from "~/db/db.server";
import { beginBankTransfer } from "~/modules/payments/bank-transfer.server";
import { CheckoutNotOpened, openProviderCheckout, paymentReturnUrls, providerNameFor } from "~/modules/payments/payments.server";
import type { CheckoutCustomer as ProviderCustomer, ProviderName } from "~/modules/payments/provider";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { CHECKOUT_MESSAGES, MINIMUM_PAYMENT_CENTS } from "~/modules/orders/orders.logic";
import type { CheckoutInput } from "~/modules/orders/orders.schema";
import { resolveDeliveryChoice } from "~/modules/couriers/checkout-delivery.server";
import { resolveGiftCardCodes } from "~/modules/gift-cards/gift-card-orders.server";
import { amountDueCents } from "~/modules/gift-cards/gift-card-payments.logic";
import { failOrderPayment } from "./order-closed-unpaid.server";
import { payOrderWithGiftCards } from "./order-paid.server";
import { placeOrder } from "./order-placed.server";

/**
 * Flow: an order is placed and its payment started — checkout as one use case, in steps with undo (the shape of
 * Medusa's workflows):
 * 1. price the courier option the shopper chose (couriers; may ask the courier, outside any transaction) and look up
 *    the gift card codes (gift cards; throttled): refused, nothing is stored;
 * 2. place the order (flows/order-placed.server.ts): one transaction reprices everything from the database, stores
 *    the order and its lines and reserves the coupon, sample credits and gift cards, or stores nothing and throws the
 *    reason (DomainError: cart changed, coupon refused, minimum);
 * 3. gift cards pay it all: it is paid at once (flows/order-paid.server.ts payOrderWithGiftCards), no provider;
 * 4. otherwise start the payment of what is due: the provider's checkout (createCheckoutForOrder) or the bank
 *    transfer's instructions (startBankTransfer). Undo when it can't start: the order is closed (payment failed) and
 *    everything step 2 reserved given back (flows/order-closed-unpaid.server.ts), and the shopper hears the reason;
 * 5. send the shopper to the payment page.
 *
 * One order per checkout click: the form carries a token (made by the checkout page's loader), stored with the order.
 * A second submission with the same token — a double tap, a retry on a slow network, the page posted again — finds
 * that order and goes to the same payment page; two racing submissions are decided by the unique index on
 * (user_id, checkout_token): the loser's transaction rolls back and it follows the winner's order.
 *
 * The token's lifecycle: a refusal that stored nothing (bad field, coupon refused, cart changed) leaves it unused, so
 * the corrected form may carry it again; once the order it placed is closed (the provider refused, the payment was
 * cancelled or failed) it is spent: CheckoutAttemptClosedError tells the page to hand out a new one.
 */
export interface CheckoutCustomer {
  id: string;
  email: string;
}

/** The order this token placed is closed: trying again needs a new token (a new attempt, a new order). */
export class CheckoutAttemptClosedError extends DomainError {
  constructor(message: string = CHECKOUT_MESSAGES.orderFailed, status = 409) {
    super(message, status);
    this.name = "CheckoutAttemptClosedError";
  }
}

/**
 * How long a repeated submission waits for the first one's payment page: longer than the Yoco adapter's 15 s
 * timeout, so a repeat during a slow provider call hears that call's outcome instead of a "please wait".
 */
const RESUME_WAIT_MS = 20_000;
const RESUME_POLL_MS = 100;

export async function checkout(db: DB, user: CheckoutCustomer, input: CheckoutInput, request: { ip: string } = { ip: "unknown" }): Promise<{ redirectTo: string }> {
  const { lines, couponCode, zoneId, checkoutToken, paymentMethod, deliveryKind, deliveryService, deliveryPoint, giftCardCodes, rewardPoints, ...shippingAddress } = input;
  if (checkoutToken && (await findByToken(db, user.id, checkoutToken))) return resume(db, user.id, checkoutToken);
  const offered = env().PAYMENT_METHODS;
  const method = paymentMethod ?? offered[0]!;
  if (!offered.includes(method)) throw new DomainError(CHECKOUT_MESSAGES.methodUnavailable, 400, "paymentMethod");
  // The courier option, priced now from the quote the shopper was shown (outside the order's transaction: it may ask
  // the courier, within its timeout, when the cached quote has lapsed). Refused: nothing is stored.
  const delivery = await resolveDeliveryChoice(db, {
    lines,
    couponCode,
    zoneId,
    province: shippingAddress.province,
    userId: user.id,
    address: shippingAddress,
    kind: deliveryKind,
    serviceCode: deliveryService,
    pointCode: deliveryPoint,
    rewardPoints,
  });
  // Gift card codes are looked up (throttled against guessing) before the order's transaction: counted attempts stay
  // counted when the placement is refused.
  const giftCardIds = giftCardCodes?.length ? await resolveGiftCardCodes(db, giftCardCodes, { userId: user.id, ip: request.ip }) : [];
  let order;
  try {
    // Without a token (a page from before tokens existed) the submission is simply not deduplicated.
    order = await placeOrder(db, user, { lines, couponCode, zoneId, shippingAddress, checkoutToken: checkoutToken ?? null, paymentMethod: method, delivery, giftCardIds, rewardPoints });
  } catch (error) {
    // A twin submission with this token placed its order while this one was being refused: the token's order is
    // taken, and the buyer hears that attempt's outcome. A refusal may come before the order's insert (the twin took
    // the last of a coupon's uses, or of a stock), so it is not only a unique violation that says so.
    if (checkoutToken && (isUniqueViolation(error) || (error instanceof DomainError && (await findByToken(db, user.id, checkoutToken))))) {
      return resume(db, user.id, checkoutToken);
    }
    throw error;
  }
  // Gift cards cover it all: paid now, no provider (docs/decisions/053). Otherwise the provider is asked for the rest.
  const due = amountDueCents(order);
  // The shopper lands where a card payment returns (the payment-status page, which also empties the stored cart).
  if (due === 0 && (await payOrderWithGiftCards(db, order.id))) return { redirectTo: paymentReturnUrls(order.id, { relative: true }).successUrl };
  try {
    const provider = providerNameFor(method);
    const session = provider
      ? await createCheckoutForOrder(db, { id: order.id, totalAmountCents: due }, { email: user.email, name: shippingAddress.name, telephone: shippingAddress.telephone }, provider)
      : await startBankTransfer(db, { ...order, totalAmountCents: due }, { email: user.email, name: shippingAddress.name });
    return { redirectTo: session.redirectUrl };
  } catch (error) {
    // The payment could not start, and its undo has closed the order: this token's attempt is over.
    if (error instanceof DomainError) throw new CheckoutAttemptClosedError(error.message, error.status);
    throw error;
  }
}

async function findByToken(db: DB, userId: string, token: string) {
  return db
    .selectFrom("orders")
    .select(["id", "status", "payment_status", "checkout_url"])
    .where("user_id", "=", userId)
    .where("checkout_token", "=", token)
    .executeTakeFirst();
}

/** The order this token already placed: its payment page, its confirmation if paid, or a refusal if it failed. */
async function resume(db: DB, userId: string, token: string): Promise<{ redirectTo: string }> {
  const deadline = Date.now() + RESUME_WAIT_MS;
  for (;;) {
    const order = await findByToken(db, userId, token);
    if (!order) throw new CheckoutAttemptClosedError();
    if (order.payment_status === "completed") return { redirectTo: `/order-confirmation?id=${encodeURIComponent(order.id)}` };
    const open = order.status === "pending" && order.payment_status === "pending";
    if (open && order.checkout_url) {
      logger.info({ orderId: order.id }, "checkout: repeated submission sent to the same payment");
      return { redirectTo: order.checkout_url };
    }
    if (!open) throw new CheckoutAttemptClosedError();
    // Still open and without a payment page: the first submission is talking to the provider right now. Its token
    // stays (a plain DomainError): a later click with it still finds this order rather than placing a second one.
    if (Date.now() > deadline) throw new DomainError("Your order is already being placed. Please wait a moment and check your profile.", 409);
    await new Promise((resolve) => setTimeout(resolve, RESUME_POLL_MS));
  }
}

/**
 * Step 4 with its undo: the provider's checkout for a stored, pending order (payments), its checkout id recorded on
 * the order. Below the minimum amount, or when the provider refuses, the order is closed (payment failed: coupon,
 * sample credits and gift cards given back) and a DomainError carries the message for the buyer; nothing redirects.
 */
export async function createCheckoutForOrder(
  db: Queryable,
  order: { id: string; totalAmountCents: number },
  customer: ProviderCustomer,
  providerName: ProviderName = env().PAYMENT_PROVIDER,
): Promise<{ redirectUrl: string; checkoutId: string }> {
  try {
    return await openProviderCheckout(db, order, customer, providerName);
  } catch (error) {
    if (error instanceof CheckoutNotOpened) await failOrderPayment(db, order.id);
    throw error;
  }
}

/**
 * Step 4 for a bank transfer, with its undo: below the minimum the order is closed (payment failed) and the buyer
 * hears why; otherwise the order is marked as paid by EFT and the instructions go out (payments/bank-transfer).
 */
export async function startBankTransfer(
  db: Queryable,
  order: { id: string; totalAmountCents: number; createdAt: string },
  customer: { email: string; name: string },
): Promise<{ redirectUrl: string }> {
  if (order.totalAmountCents < MINIMUM_PAYMENT_CENTS) {
    await failOrderPayment(db, order.id);
    throw new DomainError(CHECKOUT_MESSAGES.minimum);
  }
  return beginBankTransfer(db, order, customer);
}
