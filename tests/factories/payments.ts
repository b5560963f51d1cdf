/**
 * Payment helpers for integration tests: orders awaiting a provider payment (optionally holding a coupon
 * reservation, as placement leaves them), signed simulated webhooks, and a call into the real webhook route.
 */
import { RouterContextProvider } from "react-router";
import { requestInfoContext } from "~/context";
import type { DB, Queryable } from "~/db/db.server";
import { reserveCouponRedemption } from "~/modules/coupons/coupons.server";
import { buildSimulatedWebhook } from "~/modules/payments/simulated.server";
import { newId } from "~/utils/ids";
import { action as webhookAction } from "~/routes/webhooks.payments";
import { TEST_ORIGIN } from "../setup/route";
import { insertOrder, type InsertOrderInput, type InsertedOrder } from "./orders";

export interface AwaitingOrder extends InsertedOrder {
  checkoutId: string | null;
  couponId: string | null;
}

/** An awaiting order that has its provider checkout. */
export type PayableOrder = AwaitingOrder & { checkoutId: string };

/**
 * A pending order with a simulated checkout id, as createCheckoutForOrder leaves it. With `coupon`, the order carries
 * the code and discount and holds a reservation (times_redeemed + 1 and a coupon_usage row), as placement does.
 */
export async function insertAwaitingOrder(
  db: Queryable,
  input: InsertOrderInput & { coupon?: { id: string; code: string }; provider?: "simulated" | "yoco"; checkoutId?: string | null },
): Promise<PayableOrder>;
export async function insertAwaitingOrder(
  db: Queryable,
  input: InsertOrderInput & { coupon?: { id: string; code: string }; provider?: "simulated" | "yoco"; checkoutId: null },
): Promise<AwaitingOrder>;
export async function insertAwaitingOrder(
  db: Queryable,
  input: InsertOrderInput & { coupon?: { id: string; code: string }; provider?: "simulated" | "yoco"; checkoutId?: string | null },
): Promise<AwaitingOrder> {
  const provider = input.provider ?? "simulated";
  // checkoutId null: placed, but no provider checkout yet (as createCheckoutForOrder finds it).
  const checkoutId = input.checkoutId === null ? null : (input.checkoutId ?? `${provider === "simulated" ? "sim" : "ch"}_${newId()}`);
  const order = await insertOrder(db, {
    ...input,
    couponCode: input.coupon?.code ?? input.couponCode ?? null,
    paymentProvider: checkoutId ? provider : null,
    paymentId: checkoutId,
  });
  if (input.coupon) {
    const reserved = await reserveCouponRedemption(db, {
      couponId: input.coupon.id,
      orderId: order.id,
      userId: input.userId,
      discountCents: order.discountCents,
    });
    if (!reserved) throw new Error("test setup: the coupon has no redemption left");
  }
  return { ...order, checkoutId, couponId: input.coupon?.id ?? null };
}

/** POSTs a raw webhook to the real route action, as the provider would. */
export async function postWebhook(provider: string, webhook: { body: string; headers: Record<string, string> }): Promise<Response> {
  const request = new Request(new URL(`/webhooks/payments/${provider}`, TEST_ORIGIN), {
    method: "POST",
    body: webhook.body,
    headers: webhook.headers,
  });
  const context = new RouterContextProvider();
  context.set(requestInfoContext, { requestId: "test", nonce: "test", ip: "127.0.0.1" });
  return (await webhookAction({ request, params: { provider }, context } as any)) as Response;
}

/** A signed simulated payment.succeeded (or failed) for a checkout. */
export function simulatedWebhook(
  checkoutId: string,
  amountCents: number,
  options: { type?: "payment.succeeded" | "payment.failed"; currency?: string; secret?: string; now?: Date } = {},
) {
  return buildSimulatedWebhook({ checkoutId, amountCents, currency: options.currency, type: options.type }, options.secret, options.now);
}

/** The order's payment-relevant columns. */
export async function orderState(db: DB, orderId: string) {
  return db
    .selectFrom("orders")
    .select(["status", "payment_status", "processing_started_at", "payment_id", "payment_provider", "total_amount_cents"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
}

export async function couponState(db: DB, couponId: string) {
  const coupon = await db.selectFrom("coupons").select(["times_redeemed"]).where("id", "=", couponId).executeTakeFirstOrThrow();
  const usage = await db.selectFrom("coupon_usage").select(["order_id"]).where("coupon_id", "=", couponId).execute();
  return { timesRedeemed: coupon.times_redeemed, usageOrders: usage.map((u) => u.order_id).sort() };
}

export async function outboxFor(db: DB, to?: string) {
  let q = db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).orderBy("created_at");
  if (to) q = q.where("to_address", "=", to);
  return q.execute();
}
