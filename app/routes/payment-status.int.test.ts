import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { loader } from "./payment-status";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertCoupon } from "../../tests/factories/orders";
import { couponState, insertAwaitingOrder, orderState, postWebhook, simulatedWebhook, type PayableOrder } from "../../tests/factories/payments";
import { createUser, sessionCookieFor, type TestUser } from "../../tests/factories/users";

const db = () => getDb();
let buyer: TestUser & { cookie: string };
let other: TestUser & { cookie: string };
let order: PayableOrder;
let couponId: string;

beforeAll(async () => {
  const b = await createUser(db());
  const o = await createUser(db());
  buyer = { ...b, cookie: await sessionCookieFor(db(), b.id) };
  other = { ...o, cookie: await sessionCookieFor(db(), o.id) };
});

beforeEach(async () => {
  const coupon = await insertCoupon(db(), { max_redemptions: 3 });
  couponId = coupon.id;
  order = await insertAwaitingOrder(db(), { userId: buyer.id, coupon, discountCents: 3500 });
});

const statusUrl = (orderId: string, status: string) => `/payment-status?orderId=${encodeURIComponent(orderId)}&status=${status}`;
const asBuyer = () => ({ headers: { cookie: buyer.cookie } });

async function view(path: string, options = asBuyer()) {
  const result = await callLoader(loader, path, options);
  return { status: statusOf(result), data: await dataOf(result) };
}

describe("/payment-status shows the verified state", () => {
  it("status=success before the webhook: 'confirming', and the order is NOT marked paid by the visit", async () => {
    const { data } = await view(statusUrl(order.id, "success"));
    expect(data).toEqual({ view: "confirming", orderId: order.id, shortId: order.id.slice(0, 8) });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending", processing_started_at: null });
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
  });

  it("after the verified webhook: the success screen", async () => {
    await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
    const { data, status } = await view(statusUrl(order.id, "success"));
    expect(status).toBe(200);
    expect(data).toEqual({ view: "success", orderId: order.id, shortId: order.id.slice(0, 8), test: false, totalCents: order.totalAmountCents });
  });

  it("webhook racing the return page: whichever lands first, the page ends on the verified state", async () => {
    const [webhook, first] = await Promise.all([
      postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents)),
      view(statusUrl(order.id, "success")),
    ]);
    expect(webhook.status).toBe(200);
    expect(["confirming", "success"]).toContain(first.data.view);
    // The page re-checks; the next look shows the verified success.
    const next = await view(statusUrl(order.id, "success"));
    expect(next.data.view).toBe("success");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    const events = await db().selectFrom("payment_events").select("outcome").where("order_id", "=", order.id).execute();
    expect(events).toEqual([{ outcome: "paid" }]);
  });

  it("status=cancelled cancels the buyer's pending order and releases the coupon", async () => {
    const { data } = await view(statusUrl(order.id, "cancelled"));
    expect(data).toEqual({ view: "failed", orderId: order.id, shortId: order.id.slice(0, 8), test: false });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_status: "cancelled" });
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    // Visiting again changes nothing more.
    await view(statusUrl(order.id, "cancelled"));
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    // A late success visit shows the failure, never success.
    expect((await view(statusUrl(order.id, "success"))).data.view).toBe("failed");
  });

  it("status=cancelled on an order already paid shows the success screen and changes nothing", async () => {
    await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
    const { data } = await view(statusUrl(order.id, "cancelled"));
    expect(data.view).toBe("success");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
  });

  it("another customer cannot see or cancel the order: 'Order ID not found'", async () => {
    const { data, status } = await view(statusUrl(order.id, "cancelled"), { headers: { cookie: other.cookie } });
    expect(status).toBe(404);
    expect(data).toMatchObject({ view: "error", message: "Order ID not found" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
  });

  it("a visitor is sent to sign in and back", async () => {
    const path = statusUrl(order.id, "cancelled");
    const result = await callLoader(loader, path);
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(path)}`);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending" });
  });

  it("an unknown status: 'Unknown payment status: {status}', nothing changes", async () => {
    const { data, status } = await view(statusUrl(order.id, "refunded"));
    expect(status).toBe(400);
    expect(data).toMatchObject({ view: "error", message: "Unknown payment status: refunded" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("a missing or unknown order: 'Order ID not found'", async () => {
    expect((await view("/payment-status?status=success")).data).toMatchObject({ message: "Order ID not found" });
    expect((await view(statusUrl("00000000-0000-0000-0000-000000000000", "success"))).data).toMatchObject({ message: "Order ID not found" });
  });

  it("orderId=test shows the success screen to anyone and touches no order", async () => {
    const before = await db().selectFrom("orders").select(["id", "status", "payment_status", "updated_at"]).orderBy("id").execute();
    const result = await callLoader(loader, statusUrl("test", "success"));
    expect(await dataOf(result)).toEqual({ view: "success", orderId: "test", shortId: "test", test: true, totalCents: null });
    expect(await dataOf(await callLoader(loader, statusUrl("test", "cancelled")))).toMatchObject({ view: "failed", test: true });
    expect(await db().selectFrom("orders").select(["id", "status", "payment_status", "updated_at"]).orderBy("id").execute()).toEqual(before);
  });
});
