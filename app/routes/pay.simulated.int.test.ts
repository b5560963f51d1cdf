import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import { action, loader } from "./pay.simulated";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertAwaitingOrder, orderState, outboxFor } from "../../tests/factories/payments";
import { createUser, sessionCookieFor, type TestUser } from "../../tests/factories/users";

const db = () => getDb();
let buyer: TestUser & { cookie: string };
let otherCookie: string;

beforeAll(async () => {
  const b = await createUser(db());
  buyer = { ...b, cookie: await sessionCookieFor(db(), b.id) };
  otherCookie = await sessionCookieFor(db(), (await createUser(db())).id);
});

afterEach(() => {
  delete process.env.PAYMENT_PROVIDER;
  delete process.env.YOCO_SECRET_KEY;
  delete process.env.YOCO_WEBHOOK_SECRET;
  resetEnvForTests();
});

const page = (checkoutId: string) => `/pay/simulated/${checkoutId}`;

describe("the simulated checkout page", () => {
  it("shows the owner the order's short id and amount", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const result = await callLoader(loader, page(order.checkoutId), { params: { checkoutId: order.checkoutId }, headers: { cookie: buyer.cookie } });
    expect(await dataOf(result)).toMatchObject({ shortId: order.id.slice(0, 8), amountCents: order.totalAmountCents, state: "open" });
  });

  it("Pay delivers a signed webhook through the verification path, marks the order paid and goes to the success URL", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const result = await callAction(action, page(order.checkoutId), { intent: "pay" }, { params: { checkoutId: order.checkoutId }, headers: { cookie: buyer.cookie } });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe(`/payment-status?orderId=${order.id}&status=success`);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    const event = await db().selectFrom("payment_events").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ provider: "simulated", outcome: "paid", amount_cents: order.totalAmountCents, currency: "ZAR" });
    expect(await outboxFor(db(), buyer.email)).toHaveLength(1);

    // Pressing Pay again (back button) changes nothing and sends no second e-mail.
    const again = await callAction(action, page(order.checkoutId), { intent: "pay" }, { params: { checkoutId: order.checkoutId }, headers: { cookie: buyer.cookie } });
    expect(statusOf(again)).toBe(302);
    expect(await outboxFor(db(), buyer.email)).toHaveLength(1);
  });

  it("Cancel goes to the cancel URL and changes nothing by itself", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const result = await callAction(action, page(order.checkoutId), { intent: "cancel" }, { params: { checkoutId: order.checkoutId }, headers: { cookie: buyer.cookie } });
    expect((result as Response).headers.get("Location")).toBe(`/payment-status?orderId=${order.id}&status=cancelled`);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("another customer's checkout is not found, and they cannot pay it", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const opts = { params: { checkoutId: order.checkoutId }, headers: { cookie: otherCookie } };
    expect(statusOf(await callLoader(loader, page(order.checkoutId), opts))).toBe(404);
    expect(statusOf(await callAction(action, page(order.checkoutId), { intent: "pay" }, opts))).toBe(404);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("a visitor is sent to sign in", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const result = await callLoader(loader, page(order.checkoutId), { params: { checkoutId: order.checkoutId } });
    expect(statusOf(result)).toBe(302);
  });

  it("a cross-site POST is refused (403) and nothing is paid", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const result = await callAction(action, page(order.checkoutId), { intent: "pay" }, {
      params: { checkoutId: order.checkoutId },
      headers: { cookie: buyer.cookie, origin: "https://evil.example" },
    });
    expect(statusOf(result)).toBe(403);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("refuses to work when the shop's provider is not the simulated one", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    Object.assign(process.env, { PAYMENT_PROVIDER: "yoco", YOCO_SECRET_KEY: "sk_test", YOCO_WEBHOOK_SECRET: "whsec_dGVzdA==" });
    resetEnvForTests();
    const opts = { params: { checkoutId: order.checkoutId }, headers: { cookie: buyer.cookie } };
    expect(statusOf(await callLoader(loader, page(order.checkoutId), opts))).toBe(404);
    expect(statusOf(await callAction(action, page(order.checkoutId), { intent: "pay" }, opts))).toBe(404);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("an unknown intent is refused with a message", async () => {
    const order = await insertAwaitingOrder(db(), { userId: buyer.id });
    const result = await callAction(action, page(order.checkoutId), { intent: "refund" }, { params: { checkoutId: order.checkoutId }, headers: { cookie: buyer.cookie } });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe("Choose Pay or Cancel.");
  });
});
