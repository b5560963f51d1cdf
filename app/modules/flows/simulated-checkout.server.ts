import type { DB } from "~/db/db.server";
import { amountDueOfRow } from "~/modules/gift-cards/gift-card-payments.logic";
import { env } from "~/utils/env.server";
import { DomainError, notFound } from "~/utils/errors";
import { shortOrderId } from "~/utils/ids";
import { handlePaymentWebhook } from "./payment-events.server";
import { paymentReturnUrls } from "~/modules/payments/payments.server";
import { buildSimulatedWebhook } from "~/modules/payments/simulated.server";

/**
 * The simulated provider's checkout page: the order behind a checkout id, for its owner only, and the Pay / Cancel
 * choices. Pay delivers a signed payment.succeeded webhook through handlePaymentWebhook — the same verification and
 * transaction as a real provider's — then sends the buyer to the success URL. Only while PAYMENT_PROVIDER=simulated.
 */
export interface SimulatedCheckout {
  checkoutId: string;
  orderId: string;
  shortId: string;
  amountCents: number;
  /** open: can be paid; paid: already paid; closed: cancelled or failed */
  state: "open" | "paid" | "closed";
  successUrl: string;
  cancelUrl: string;
}

export function simulatedPaymentsEnabled() {
  return env().PAYMENT_PROVIDER === "simulated";
}

export async function getSimulatedCheckout(db: DB, checkoutId: string, userId: string): Promise<SimulatedCheckout> {
  if (!simulatedPaymentsEnabled()) throw notFound("Test payments are not enabled");
  if (!/^sim_[A-Za-z0-9-]{1,64}$/.test(checkoutId)) throw notFound("Checkout not found");
  const order = await db
    .selectFrom("orders")
    .select(["id", "user_id", "status", "payment_status", "total_amount_cents", "gift_card_cents"])
    .where("payment_id", "=", checkoutId)
    .where("payment_provider", "=", "simulated")
    .executeTakeFirst();
  // Someone else's checkout is "not found" too: a checkout id never reveals another buyer's order.
  if (!order || order.user_id !== userId) throw notFound("Checkout not found");
  // The test checkout lives on this shop, so it returns by path (whatever host the buyer used).
  const urls = paymentReturnUrls(order.id, { relative: true });
  return {
    checkoutId,
    orderId: order.id,
    shortId: shortOrderId(order.id),
    amountCents: amountDueOfRow(order),
    state:
      order.payment_status === "completed"
        ? "paid"
        : order.status === "pending" && order.payment_status === "pending"
          ? "open"
          : "closed",
    successUrl: urls.successUrl,
    cancelUrl: urls.cancelUrl,
  };
}

/** Pay: a signed webhook through the real endpoint logic; returns where to send the buyer. */
export async function paySimulatedCheckout(db: DB, checkoutId: string, userId: string): Promise<string> {
  const checkout = await getSimulatedCheckout(db, checkoutId, userId);
  if (checkout.state === "paid") return checkout.successUrl;
  if (checkout.state === "closed") throw new DomainError("This checkout is closed. Please start again from your cart.", 409);
  const webhook = buildSimulatedWebhook({ checkoutId, amountCents: checkout.amountCents });
  const request = new Request(new URL("/webhooks/payments/simulated", env().PUBLIC_BASE_URL), {
    method: "POST",
    headers: { "content-type": "application/json", ...webhook.headers },
    body: webhook.body,
  });
  const result = await handlePaymentWebhook(db, "simulated", request);
  if (result.status !== 200) throw new DomainError("The test payment could not be completed. Please try again.", 502);
  return checkout.successUrl;
}

/** Cancel: nothing is sent; the return page cancels the order (as it would after a real provider's cancel). */
export async function cancelSimulatedCheckout(db: DB, checkoutId: string, userId: string): Promise<string> {
  const checkout = await getSimulatedCheckout(db, checkoutId, userId);
  return checkout.cancelUrl;
}
