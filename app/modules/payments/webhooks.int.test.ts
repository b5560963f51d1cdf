import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { generateWebhookSecret } from "./standard-webhooks.server";
import { simulatedWebhookSecret } from "./simulated.server";
import { insertCoupon } from "../../../tests/factories/orders";
import { createUser, type TestUser } from "../../../tests/factories/users";
import {
  couponState,
  insertAwaitingOrder,
  orderState,
  outboxFor,
  postWebhook,
  simulatedWebhook,
  type PayableOrder,
} from "../../../tests/factories/payments";

const db = () => getDb();

let buyer: TestUser;
let order: PayableOrder;
let couponId: string;
let eventsBefore: number;

beforeEach(async () => {
  eventsBefore = await countEvents();
  buyer = await createUser(db());
  const coupon = await insertCoupon(db(), { max_redemptions: 5 });
  couponId = coupon.id;
  order = await insertAwaitingOrder(db(), {
    userId: buyer.id,
    lines: [{ quantity: 2, unitPriceCents: 45000, name: "Oud Noir" }],
    discountCents: 9000,
    shippingCents: 0,
    coupon: { id: coupon.id, code: coupon.code },
  });
});

async function eventsFor(orderId: string) {
  return db().selectFrom("payment_events").selectAll().where("order_id", "=", orderId).execute();
}

async function countEvents() {
  return (await db().selectFrom("payment_events").select("id").execute()).length;
}

/** Events stored since this test began. */
async function newEvents() {
  return (await countEvents()) - eventsBefore;
}

/** E-mails about this test's order (the customer's and the shop's carry its short id). */
async function orderMail() {
  const short = order.id.slice(0, 8);
  return (await outboxFor(db())).filter((m) => m.subject.includes(short) || m.text_body.includes(short));
}

/** The refused cases: the order and the coupon reservation are exactly as before. */
async function expectUnchanged() {
  expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending", processing_started_at: null });
  expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
  expect(await orderMail()).toHaveLength(0);
}

describe("a verified payment.succeeded", () => {
  it("marks the order paid, keeps the coupon redemption, records the event and sends both e-mails once", async () => {
    expect(order.totalAmountCents).toBe(81000);
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: "paid" });

    const state = await orderState(db(), order.id);
    expect(state).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(Date.now() - Date.parse(state.processing_started_at!)).toBeLessThan(60_000);
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
    expect(await eventsFor(order.id)).toMatchObject([{ provider: "simulated", outcome: "paid", amount_cents: 81000, currency: "ZAR", type: "payment.succeeded" }]);

    const customerMail = await outboxFor(db(), buyer.email);
    expect(customerMail).toHaveLength(1);
    expect(customerMail[0].subject).toContain(order.id.slice(0, 8));
    expect(customerMail[0].text_body).toContain("Oud Noir: 2 x R450.00 = R900.00");
    expect(customerMail[0].text_body).toContain("Total: R810.00");
    const shopMail = (await orderMail()).filter((m) => m.to_address === env().CONTACT_EMAIL);
    expect(shopMail).toHaveLength(1);
    expect(shopMail[0].subject).toBe(`New order ${order.id.slice(0, 8)}: R810.00`);
  });

  it("sends the confirmation even to a customer who turned e-mail notifications off", async () => {
    await db().updateTable("users").set({ email_notifications: false, email_marketing: false }).where("id", "=", buyer.id).execute();
    await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000));
    expect(await outboxFor(db(), buyer.email)).toHaveLength(1);
  });

  it("a replay of the same event answers 200 and changes nothing", async () => {
    const webhook = simulatedWebhook(order.checkoutId, 81000);
    await postWebhook("simulated", webhook);
    const before = await orderState(db(), order.id);
    const replay = await postWebhook("simulated", webhook);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: "duplicate" });
    expect(await orderState(db(), order.id)).toEqual(before);
    expect(await newEvents()).toBe(1);
    expect(await orderMail()).toHaveLength(2);
  });

  it("a second, different success event for a paid order changes nothing and sends no more e-mail", async () => {
    await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000));
    const before = await orderState(db(), order.id);
    const second = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000));
    expect(await second.json()).toEqual({ received: true, outcome: "already_paid" });
    expect(await orderState(db(), order.id)).toEqual(before);
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
    expect(await orderMail()).toHaveLength(2);
  });

  it("the same event delivered five times at once is applied exactly once", async () => {
    const webhook = simulatedWebhook(order.checkoutId, 81000);
    const responses = await Promise.all(Array.from({ length: 5 }, () => postWebhook("simulated", webhook)));
    const outcomes = await Promise.all(responses.map(async (r) => ({ status: r.status, ...(await r.json()) })));
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o.outcome === "paid")).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === "duplicate")).toHaveLength(4);
    expect(await newEvents()).toBe(1);
    expect(await orderMail()).toHaveLength(2);
  });

  it("different success events for one order at once mark it paid exactly once", async () => {
    const responses = await Promise.all(Array.from({ length: 4 }, () => postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000))));
    const outcomes = await Promise.all(responses.map(async (r) => (await r.json()).outcome));
    expect(outcomes.filter((o) => o === "paid")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_paid")).toHaveLength(3);
    expect(await orderMail()).toHaveLength(2);
  });
});

describe("an old order's payment", () => {
  it("a late payment of an order placed five days ago: the webhook's request sums that day again, not the owner's next page", async () => {
    const { sql } = await import("kysely");
    const { sumSettledOrderDays } = await import("~/modules/order-days/order-days.server");
    const { saDay } = await import("~/utils/sa-days");
    const placedAt = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const late = await insertAwaitingOrder(db(), { userId: buyer.id, lines: [{ quantity: 1, unitPriceCents: 52000, name: "Amber Lantern" }], shippingCents: 0, createdAt: placedAt });
    await sumSettledOrderDays(db()); // the past days summed, as the background job does
    const day = saDay(placedAt);
    const paidThatDay = async () =>
      Number((await sql<{ n: number | null }>`select sum(orders) as n from order_day_totals where day = ${day} and payment_status = 'completed'`.execute(db())).rows[0]?.n ?? 0);
    const before = await paidThatDay();

    const response = await postWebhook("simulated", simulatedWebhook(late.checkoutId, 52000));
    expect(await response.json()).toEqual({ received: true, outcome: "paid" });
    // no stale mark left for the day: the stored sums already count the order as paid
    expect((await sql<{ day: string }>`select day from order_days_stale where day = ${day}`.execute(db())).rows).toEqual([]);
    expect(await paidThatDay()).toBe(before + 1);
  });
});

describe("refused webhooks change nothing", () => {
  it("a forged signature → 401, nothing stored", async () => {
    const forged = simulatedWebhook(order.checkoutId, 81000, { secret: generateWebhookSecret() });
    const response = await postWebhook("simulated", forged);
    expect(response.status).toBe(401);
    await expectUnchanged();
    expect(await newEvents()).toBe(0);
  });

  it("a body changed after signing (amount raised) → 401", async () => {
    const webhook = simulatedWebhook(order.checkoutId, 100);
    const tampered = { ...webhook, body: webhook.body.replace('"amount":100', '"amount":81000') };
    expect(tampered.body).not.toBe(webhook.body);
    expect((await postWebhook("simulated", tampered)).status).toBe(401);
    await expectUnchanged();
    expect(await newEvents()).toBe(0);
  });

  it("a stale timestamp (4 minutes old) → 401, nothing stored", async () => {
    const stale = simulatedWebhook(order.checkoutId, 81000, { now: new Date(Date.now() - 4 * 60_000) });
    expect((await postWebhook("simulated", stale)).status).toBe(401);
    await expectUnchanged();
    expect(await newEvents()).toBe(0);
  });

  it("a timestamp from the future (4 minutes ahead) → 401", async () => {
    const future = simulatedWebhook(order.checkoutId, 81000, { now: new Date(Date.now() + 4 * 60_000) });
    expect((await postWebhook("simulated", future)).status).toBe(401);
    await expectUnchanged();
  });

  it("no signature headers → 400", async () => {
    const webhook = simulatedWebhook(order.checkoutId, 81000);
    expect((await postWebhook("simulated", { body: webhook.body, headers: { "content-type": "application/json" } })).status).toBe(400);
    await expectUnchanged();
  });

  it("a correctly signed body that is not JSON → 400, nothing stored", async () => {
    const { webhookHeaders } = await import("./standard-webhooks.server");
    const body = "not json";
    const response = await postWebhook("simulated", { body, headers: webhookHeaders(simulatedWebhookSecret(), "evt_x", body) });
    expect(response.status).toBe(400);
    await expectUnchanged();
    expect(await newEvents()).toBe(0);
  });

  it("a webhook for a provider that is not configured → 404", async () => {
    const response = await postWebhook("yoco", simulatedWebhook(order.checkoutId, 81000));
    expect(response.status).toBe(404);
    expect((await postWebhook("paypal", simulatedWebhook(order.checkoutId, 81000))).status).toBe(404);
    await expectUnchanged();
  });

  it("a wrong amount is recorded as amount_mismatch and the order stays pending", async () => {
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 80999));
    expect(response.status).toBe(200);
    expect((await response.json()).outcome).toBe("amount_mismatch");
    await expectUnchanged();
    expect(await eventsFor(order.id)).toMatchObject([{ outcome: "amount_mismatch", amount_cents: 80999 }]);
  });

  it("a wrong currency is recorded as amount_mismatch and the order stays pending", async () => {
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000, { currency: "USD" }));
    expect((await response.json()).outcome).toBe("amount_mismatch");
    await expectUnchanged();
  });

  it("an event for a checkout no order has is recorded as unknown_checkout; no order changes", async () => {
    const response = await postWebhook("simulated", simulatedWebhook("sim_does-not-exist", 81000));
    expect(response.status).toBe(200);
    expect((await response.json()).outcome).toBe("unknown_checkout");
    await expectUnchanged();
    expect(await newEvents()).toBe(1);
    const stored = await db().selectFrom("payment_events").selectAll().where("outcome", "=", "unknown_checkout").execute();
    expect(stored.at(-1)).toMatchObject({ order_id: null, amount_cents: 81000 });
  });

  it("money for an order that was cancelled meanwhile is flagged, not applied", async () => {
    await db().updateTable("orders").set({ status: "cancelled", payment_status: "cancelled" }).where("id", "=", order.id).execute();
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000));
    expect((await response.json()).outcome).toBe("order_not_payable");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_status: "cancelled" });
    expect(await orderMail()).toHaveLength(0);
  });

  it("GET on the webhook URL is 405", async () => {
    const { loader } = await import("~/routes/webhooks.payments");
    expect(loader().status).toBe(405);
  });
});

describe("payment.failed", () => {
  it("closes the order (payment failed) and releases the coupon reservation", async () => {
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000, { type: "payment.failed" }));
    expect((await response.json()).outcome).toBe("failed");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_status: "failed" });
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    expect(await orderMail()).toHaveLength(0);
  });

  it("after a success, a failure event changes nothing", async () => {
    await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000));
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, 81000, { type: "payment.failed" }));
    expect((await response.json()).outcome).toBe("ignored");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(await couponState(db(), couponId)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
  });
});
