import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { loader as payFormLoader } from "~/routes/pay.form";
import { resetEnvForTests } from "~/utils/env.server";
import { createCheckoutForOrder } from "~/modules/flows/checkout.server";
import { confirmPaymentWithProvider } from "~/modules/flows/payment-events.server";
import { getPaymentProvider } from "~/modules/payments/payments.server";
import { resolvePaymentReturn } from "~/modules/flows/payment-return.server";
import { startFakeOzow, type FakeOzow } from "../../../tests/fakes/fake-ozow";
import { insertCoupon, insertOrder } from "../../../tests/factories/orders";
import { couponState, insertAwaitingOrder, orderState, outboxFor } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { TEST_ORIGIN, callLoader, dataOf, statusOf } from "../../../tests/setup/route";

/** The real Ozow adapter, the real /pay/form loader and the real webhook route, against a local fake Ozow. */
let fake: FakeOzow;
let buyer: TestUser;
let cookie: string;
const db = () => getDb();
const customer = { email: "buyer@example.test", name: "Thandi Nkosi", telephone: "+27821234567" };
const ENV_KEYS = ["PAYMENT_PROVIDER", "PAYMENT_METHODS", "OZOW_SITE_CODE", "OZOW_PRIVATE_KEY", "OZOW_API_KEY", "OZOW_IS_TEST", "OZOW_PAY_URL", "OZOW_API_BASE", "PUBLIC_BASE_URL"];
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

beforeAll(async () => {
  fake = await startFakeOzow();
  Object.assign(process.env, {
    PAYMENT_PROVIDER: "simulated",
    PAYMENT_METHODS: "card,instant_eft",
    OZOW_SITE_CODE: fake.siteCode,
    OZOW_PRIVATE_KEY: fake.privateKey,
    OZOW_API_KEY: fake.apiKey,
    OZOW_IS_TEST: "true",
    OZOW_PAY_URL: fake.baseUrl,
    OZOW_API_BASE: fake.baseUrl,
    PUBLIC_BASE_URL: TEST_ORIGIN,
  });
  resetEnvForTests();
});

afterAll(async () => {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetEnvForTests();
  await fake.close();
});

beforeEach(async () => {
  fake.payments.length = 0;
  fake.statusCalls.length = 0;
  fake.failStatusApi(null);
  buyer = await createUser(db());
  cookie = await sessionCookieFor(db(), buyer.id);
});

/** A placed order (R349.99 + R70 delivery = R419.99) whose instant-EFT checkout was started, as checkout leaves it. */
async function ozowOrder(options: { coupon?: { id: string; code: string } } = {}) {
  const order = options.coupon
    ? await insertAwaitingOrder(db(), { userId: buyer.id, lines: [{ unitPriceCents: 38999 }], shippingCents: 7000, discountCents: 4000, coupon: options.coupon, checkoutId: null })
    : await insertOrder(db(), { userId: buyer.id, lines: [{ unitPriceCents: 34999 }], shippingCents: 7000 });
  expect(order.totalAmountCents).toBe(41999);
  const checkout = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, customer, "ozow");
  return { ...order, ...checkout };
}

/** The shopper's browser: loads /pay/form/<id> and posts its form to Ozow. Returns Ozow's transaction id. */
async function payAtOzow(orderId: string): Promise<string> {
  const page = await callLoader(payFormLoader, `/pay/form/${orderId}`, { params: { orderId }, headers: { cookie } });
  expect(statusOf(page)).toBe(200);
  const { form } = await dataOf<{ form: { action: string; fields: [string, string][] } }>(page);
  const response = await fetch(form.action, {
    method: "POST",
    body: new URLSearchParams(form.fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(response.status).toBe(200);
  const posted = fake.payments.at(-1)!;
  expect(posted.hashValid).toBe(true);
  return posted.transactionId!;
}

async function eventsFor(orderId: string) {
  return db().selectFrom("payment_events").selectAll().where("order_id", "=", orderId).orderBy("received_at").execute();
}

async function ozowEventCount() {
  return (await db().selectFrom("payment_events").select("id").where("provider", "=", "ozow").execute()).length;
}

async function orderMail(orderId: string) {
  const short = orderId.slice(0, 8);
  return (await outboxFor(db())).filter((m) => m.subject.includes(short) || m.text_body.includes(short));
}

async function expectUntouched(orderId: string) {
  expect(await orderState(db(), orderId)).toMatchObject({ status: "pending", payment_status: "pending", processing_started_at: null });
  expect(await eventsFor(orderId)).toEqual([]);
  expect(await orderMail(orderId)).toEqual([]);
}

describe("starting an instant-EFT payment", () => {
  it("sends the shopper to /pay/form/<id>, whose signed form Ozow accepts", async () => {
    const order = await ozowOrder();
    expect(order.redirectUrl).toBe(`/pay/form/${order.id}`);
    expect(await orderState(db(), order.id)).toMatchObject({ payment_provider: "ozow", payment_id: order.id, status: "pending" });

    const page = await callLoader(payFormLoader, `/pay/form/${order.id}`, { params: { orderId: order.id }, headers: { cookie } });
    const data = await dataOf(page);
    expect(data).toMatchObject({ provider: "Ozow", amountCents: 41999, shortId: order.id.slice(0, 8) });
    expect(data.form.action).toBe(`${fake.baseUrl}/`);
    const fields = Object.fromEntries(data.form.fields);
    const back = (status: string) => `${TEST_ORIGIN}/payment-status?orderId=${order.id}&status=${status}`;
    expect(fields).toEqual({
      SiteCode: fake.siteCode,
      CountryCode: "ZA",
      CurrencyCode: "ZAR",
      Amount: "419.99",
      TransactionReference: order.id,
      BankReference: `SCENTARA ${order.id.slice(0, 8)}`,
      Customer: "Thandi Nkosi",
      CancelUrl: back("cancelled"),
      ErrorUrl: back("cancelled"),
      SuccessUrl: back("success"),
      NotifyUrl: `${TEST_ORIGIN}/webhooks/payments/ozow`,
      IsTest: "true",
      HashCheck: expect.stringMatching(/^[0-9a-f]{128}$/),
    });

    const transactionId = await payAtOzow(order.id);
    expect(fake.transactions.get(transactionId)).toMatchObject({ transactionReference: order.id, amount: "419.99", status: "Pending", isTest: true });
  });

  it("a form changed in the browser (amount lowered) is refused by Ozow", async () => {
    const order = await ozowOrder();
    const page = await callLoader(payFormLoader, `/pay/form/${order.id}`, { params: { orderId: order.id }, headers: { cookie } });
    const { form } = await dataOf(page);
    const tampered = (form.fields as [string, string][]).map(([k, v]) => [k, k === "Amount" ? "1.00" : v]);
    const response = await fetch(form.action, { method: "POST", body: new URLSearchParams(tampered) });
    expect(response.status).toBe(400);
    expect(fake.payments.at(-1)).toMatchObject({ hashValid: false, transactionId: null });
  });

  it("nobody else gets the order's form", async () => {
    const order = await ozowOrder();
    const other = await createUser(db());
    const page = await callLoader(payFormLoader, `/pay/form/${order.id}`, { params: { orderId: order.id }, headers: { cookie: await sessionCookieFor(db(), other.id) } });
    expect(statusOf(page)).toBe(404);
  });
});

describe("Ozow's notification", () => {
  it("Complete, confirmed by the status API, marks the order paid once; a replay is a duplicate and no e-mail goes twice", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    fake.setStatus(transactionId, "Complete");

    const response = await fake.notify(transactionId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: "paid" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(await eventsFor(order.id)).toMatchObject([
      { provider: "ozow", provider_event_id: `${transactionId}:Complete`, type: "Complete", amount_cents: 41999, currency: "ZAR", outcome: "paid" },
    ]);
    // The status API was asked with the API key, for this site and reference, among test transactions.
    expect(fake.statusCalls).toEqual([
      {
        query: { siteCode: fake.siteCode, transactionReference: order.id, isTest: "true" },
        apiKey: fake.apiKey,
        accept: "application/json",
        status: 200,
      },
    ]);
    expect(await orderMail(order.id)).toHaveLength(2);

    const replay = await fake.notify(transactionId);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: "duplicate" });
    expect(await eventsFor(order.id)).toHaveLength(1);
    expect(await orderMail(order.id)).toHaveLength(2);
  });

  it("Pending changes nothing; the later Complete for the same transaction is a new event and pays", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    const pending = await fake.notify(transactionId);
    expect(await pending.json()).toEqual({ received: true, outcome: "ignored" });
    expect(fake.statusCalls).toHaveLength(0);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });

    fake.setStatus(transactionId, "Complete");
    expect(await (await fake.notify(transactionId)).json()).toEqual({ received: true, outcome: "paid" });
    expect((await eventsFor(order.id)).map((e) => `${e.provider_event_id} ${e.outcome}`).sort()).toEqual([`${transactionId}:Complete paid`, `${transactionId}:Pending ignored`]);
  });

  it("Cancelled closes the order and releases its coupon; Error fails it", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 1 });
    const order = await ozowOrder({ coupon });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
    const transactionId = await payAtOzow(order.id);
    fake.setStatus(transactionId, "Cancelled");
    const response = await fake.notify(transactionId);
    expect(await response.json()).toEqual({ received: true, outcome: "cancelled" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_status: "cancelled" });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    expect(await orderMail(order.id)).toEqual([]);

    const failing = await ozowOrder();
    const failed = await payAtOzow(failing.id);
    fake.setStatus(failed, "Error");
    expect(await (await fake.notify(failed)).json()).toEqual({ received: true, outcome: "failed" });
    expect(await orderState(db(), failing.id)).toMatchObject({ status: "cancelled", payment_status: "failed" });
  });

  it("a forged hash (another key, or a field changed after hashing) is refused before Ozow is even asked", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    fake.setStatus(transactionId, "Complete");
    const before = await ozowEventCount();

    expect((await fake.notify(transactionId, { key: "not-our-private-key" })).status).toBe(401);
    const real = fake.notification(transactionId);
    const { postWebhook } = await import("../../../tests/factories/payments");
    const tampered = new URLSearchParams({ ...real, TransactionReference: (await ozowOrder()).id }).toString();
    expect((await postWebhook("ozow", { body: tampered, headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(401);
    const unsigned = new URLSearchParams({ ...real, Hash: "" }).toString();
    expect((await postWebhook("ozow", { body: unsigned, headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(400);

    expect(fake.statusCalls).toHaveLength(0);
    expect(await ozowEventCount()).toBe(before);
    await expectUntouched(order.id);
  });

  it("a correctly hashed Complete the status API does not confirm (still pending, another amount, unknown transaction) is refused", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    const before = await ozowEventCount();

    // Ozow's API says the transaction is still Pending.
    expect((await fake.notify(transactionId, { Status: "Complete" })).status).toBe(401);
    // Ozow's API says Complete, but for R419.99, not the R1.00 claimed (and vice versa below).
    fake.setStatus(transactionId, "Complete");
    expect((await fake.notify(transactionId, { Amount: "1.00" })).status).toBe(401);
    // A transaction id Ozow does not have for this reference.
    expect((await fake.notify(transactionId, { TransactionId: crypto.randomUUID() })).status).toBe(401);
    // Ozow says Cancelled; the notification says Complete.
    fake.setStatus(transactionId, "Cancelled");
    expect((await fake.notify(transactionId, { Status: "Complete" })).status).toBe(401);

    expect(fake.statusCalls.length).toBeGreaterThanOrEqual(4);
    expect(await ozowEventCount()).toBe(before);
    await expectUntouched(order.id);
  });

  it("when the status API cannot be reached or refuses, the notification is answered 503 and nothing changes", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    fake.setStatus(transactionId, "Complete");
    fake.failStatusApi(500);
    expect((await fake.notify(transactionId)).status).toBe(503);
    fake.failStatusApi(200, "<html>not json</html>");
    expect((await fake.notify(transactionId)).status).toBe(503);
    await expectUntouched(order.id);

    // Once Ozow answers again, the redelivered notification pays.
    fake.failStatusApi(null);
    expect(await (await fake.notify(transactionId)).json()).toEqual({ received: true, outcome: "paid" });
  });

  it("an Ozow transaction for a cent less than the order is recorded as amount_mismatch and the order stays unpaid", async () => {
    const order = await ozowOrder();
    const tx = fake.addTransaction(order.id, { amount: "419.98", status: "Complete" });
    const response = await fake.notify(tx.transactionId);
    expect(await response.json()).toEqual({ received: true, outcome: "amount_mismatch" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
    expect(await eventsFor(order.id)).toMatchObject([{ outcome: "amount_mismatch", amount_cents: 41998 }]);
    expect(await orderMail(order.id)).toEqual([]);
  });

  it("is not accepted when instant EFT is switched off", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    fake.setStatus(transactionId, "Complete");
    process.env.PAYMENT_METHODS = "card";
    resetEnvForTests();
    try {
      expect((await fake.notify(transactionId)).status).toBe(404);
    } finally {
      process.env.PAYMENT_METHODS = "card,instant_eft";
      resetEnvForTests();
    }
    await expectUntouched(order.id);
  });
});

describe("the return page's status fallback", () => {
  it("marks a Complete transaction paid without a notification; the late notification then changes nothing", async () => {
    const order = await ozowOrder();
    const transactionId = await payAtOzow(order.id);
    const provider = getPaymentProvider("ozow");

    expect(await provider.fetchCheckoutStatus!(order.id)).toEqual({ paid: false, status: "Pending", amountCents: 41999, currency: "ZAR" });
    expect(await resolvePaymentReturn(db(), { orderId: order.id, status: "success", userId: buyer.id })).toMatchObject({ view: "confirming" });

    fake.setStatus(transactionId, "Complete");
    // Throttled per checkout (3 s): ask as the page would a little later.
    expect(await confirmPaymentWithProvider(db(), await orderState(db(), order.id), Date.now() + 10_000)).toBe("paid");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(await resolvePaymentReturn(db(), { orderId: order.id, status: "success", userId: buyer.id })).toMatchObject({ view: "success" });

    const late = await fake.notify(transactionId);
    expect(await late.json()).toEqual({ received: true, outcome: "already_paid" });
    expect(await orderMail(order.id)).toHaveLength(2);
  });

  it("a reference Ozow has never seen is simply not paid", async () => {
    const order = await ozowOrder();
    expect(await getPaymentProvider("ozow").fetchCheckoutStatus!(order.id)).toEqual({ paid: false, status: "not_found", amountCents: null, currency: null });
    expect(await confirmPaymentWithProvider(db(), await orderState(db(), order.id), Date.now() + 20_000)).toBeNull();
    await expectUntouched(order.id);
  });
});
