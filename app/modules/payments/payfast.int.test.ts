import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { checkout } from "~/modules/flows/checkout.server";
import { checkoutSchema } from "~/modules/orders/orders.schema";
import { loader as payFormLoader } from "~/routes/pay.form";
import { resetEnvForTests } from "~/utils/env.server";
import { formatAmount } from "~/utils/money";
import { resolvePaymentReturn } from "~/modules/flows/payment-return.server";
import { confirmPaymentWithProvider } from "~/modules/flows/payment-events.server";
import { getPaymentProvider } from "~/modules/payments/payments.server";
import { startFakePayfast, type FakePayfast } from "../../../tests/fakes/fake-payfast";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { couponState, orderState, outboxFor, postWebhook } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { callLoader, dataOf, statusOf, TEST_ORIGIN } from "../../../tests/setup/route";

/**
 * The real PayFast adapter against a local fake PayFast (tests/fakes/fake-payfast.ts): checkout through checkout(),
 * the /pay/form page's signed form as PayFast checks it, and ITNs through the real webhook route.
 */
let fake: FakePayfast;
let buyer: TestUser;
let cookie = "";
const db = () => getDb();
const ENV_KEYS = ["PAYMENT_PROVIDER", "PAYMENT_METHODS", "PAYFAST_BASE_URL", "PAYFAST_MERCHANT_ID", "PAYFAST_MERCHANT_KEY", "PAYFAST_PASSPHRASE", "PUBLIC_BASE_URL", "SHOP_NAME"];
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

function useEnv(overrides: Record<string, string> = {}) {
  Object.assign(process.env, {
    PAYMENT_PROVIDER: "payfast",
    PAYMENT_METHODS: "card",
    PAYFAST_BASE_URL: fake.baseUrl,
    PAYFAST_MERCHANT_ID: fake.merchantId,
    PAYFAST_MERCHANT_KEY: fake.merchantKey,
    PAYFAST_PASSPHRASE: fake.passphrase,
    PUBLIC_BASE_URL: TEST_ORIGIN,
    // The shop's name reaches PayFast in item_name: characters PHP's urlencode treats unlike encodeURIComponent.
    SHOP_NAME: "Scent*ara ~ O'Brien & Co (Pty)!",
    ...overrides,
  });
  resetEnvForTests();
}

beforeAll(async () => {
  fake = await startFakePayfast();
  useEnv();
  buyer = await createUser(db());
  cookie = await sessionCookieFor(db(), buyer.id);
});

afterAll(async () => {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetEnvForTests();
  await fake.close();
});

beforeEach(() => {
  fake.validateNormally();
  fake.requests.length = 0;
});

/** Places an order through checkout() as the checkout page does, then loads its /pay/form page. */
async function placePayfastOrder(options: { couponCode?: string } = {}) {
  const product = await insertProduct(db(), { price_cents: 45000 });
  const input = checkoutSchema.parse({
    ...TEST_ADDRESS,
    lines: JSON.stringify([{ productId: product.id, quantity: 2 }]),
    checkoutToken: crypto.randomUUID(),
    ...(options.couponCode ? { couponCode: options.couponCode } : {}),
  });
  const { redirectTo } = await checkout(db(), { id: buyer.id, email: buyer.email }, input);
  const orderId = /^\/pay\/form\/([^/]+)$/.exec(redirectTo)?.[1];
  expect(orderId, redirectTo).toBeTruthy();
  const page = await callLoader(payFormLoader, redirectTo, { params: { orderId: orderId! }, headers: { cookie } });
  expect(statusOf(page)).toBe(200);
  const data = await dataOf<{ form: { action: string; fields: Array<[string, string]> }; provider: string; amountCents: number }>(page);
  const state = await orderState(db(), orderId!);
  return { id: orderId!, redirectTo, data, totalCents: Number(state.total_amount_cents), short: orderId!.slice(0, 8) };
}

/** The order is placed, signed and posted to the fake PayFast, which accepted it (the shopper is on PayFast's page). */
async function payfastOrderAtPayfast(options: { couponCode?: string } = {}) {
  const order = await placePayfastOrder(options);
  const response = await fake.submitForm(order.data.form);
  expect(response.status, await response.clone().text()).toBe(200);
  return order;
}

async function eventsFor(orderId: string) {
  return db().selectFrom("payment_events").selectAll().where("order_id", "=", orderId).execute();
}

async function eventCount() {
  return (await db().selectFrom("payment_events").select("id").where("provider", "=", "payfast").execute()).length;
}

async function mailAbout(short: string) {
  return (await outboxFor(db())).filter((m) => m.subject.includes(short));
}

async function outcomeOf(response: Response) {
  return { status: response.status, ...(await response.json()) };
}

describe("checkout with PayFast", () => {
  it("goes to /pay/form/<order id>; that page carries the signed form, and the fake PayFast accepts it", async () => {
    const order = await placePayfastOrder();
    expect(order.redirectTo).toBe(`/pay/form/${order.id}`);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending", payment_provider: "payfast", payment_id: order.id });
    expect(fake.requests).toHaveLength(0); // placing the order made no call to PayFast

    const { form, provider, amountCents } = order.data;
    expect(provider).toBe("PayFast");
    expect(amountCents).toBe(order.totalCents);
    expect(form.action).toBe(`${fake.baseUrl}/eng/process`);
    const fields = Object.fromEntries(form.fields);
    expect(fields).toMatchObject({
      merchant_id: fake.merchantId,
      merchant_key: fake.merchantKey,
      return_url: `${TEST_ORIGIN}/payment-status?orderId=${order.id}&status=success`,
      cancel_url: `${TEST_ORIGIN}/payment-status?orderId=${order.id}&status=cancelled`,
      notify_url: `${TEST_ORIGIN}/webhooks/payments/payfast`,
      name_first: "Thandi",
      name_last: "Nkosi",
      email_address: buyer.email,
      cell_number: "0821234567",
      m_payment_id: order.id,
      amount: formatAmount(order.totalCents),
      item_name: `Scent*ara ~ O'Brien & Co (Pty)! order ${order.short}`,
    });

    const accepted = await fake.submitForm(form);
    expect(accepted.status).toBe(200);
    expect(fake.payments.get(order.id)).toMatchObject({ amount: formatAmount(order.totalCents) });
  });

  it("a form changed in the browser (a lower amount) is refused by PayFast's signature check", async () => {
    const order = await placePayfastOrder();
    const cheaper = order.data.form.fields.map(([k, v]) => [k, k === "amount" ? "1.00" : v] as [string, string]);
    const refused = await fake.submitForm({ action: order.data.form.action, fields: cheaper });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("signature does not match");
    expect(fake.payments.has(order.id)).toBe(false);
  });

  it("has no status call: the return page keeps 'confirming' until the ITN arrives, then shows success", async () => {
    const order = await payfastOrderAtPayfast();
    expect(getPaymentProvider().fetchCheckoutStatus).toBeUndefined();
    expect(await confirmPaymentWithProvider(db(), await orderState(db(), order.id))).toBeNull();
    expect(await resolvePaymentReturn(db(), { orderId: order.id, status: "success", userId: buyer.id })).toMatchObject({ view: "confirming" });
    expect(await outcomeOf(await fake.postItn(order.id))).toEqual({ status: 200, received: true, outcome: "paid" });
    expect(await resolvePaymentReturn(db(), { orderId: order.id, status: "success", userId: buyer.id })).toMatchObject({ view: "success" });
  });
});

describe("PayFast's ITN", () => {
  it("COMPLETE marks the order paid once: confirmed with PayFast, recorded, both e-mails sent once; a replay is a duplicate", async () => {
    const order = await payfastOrderAtPayfast();
    const itn = fake.itn(order.id);
    const first = await postWebhook("payfast", itn);
    expect(await outcomeOf(first)).toEqual({ status: 200, received: true, outcome: "paid" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    const validations = fake.requests.filter((r) => r.path === "/eng/query/validate");
    expect(validations).toEqual([expect.objectContaining({ method: "POST", status: 200 })]);
    expect(validations[0]!.body).not.toContain("signature=");
    expect(await eventsFor(order.id)).toMatchObject([{ provider: "payfast", outcome: "paid", amount_cents: order.totalCents, currency: "ZAR", type: "COMPLETE" }]);
    expect(await mailAbout(order.short)).toHaveLength(2);

    const before = await orderState(db(), order.id);
    const events = await eventCount();
    const replay = await postWebhook("payfast", itn);
    expect(await outcomeOf(replay)).toEqual({ status: 200, received: true, outcome: "duplicate" });
    expect(await orderState(db(), order.id)).toEqual(before);
    expect(await eventCount()).toBe(events);
    expect(await mailAbout(order.short)).toHaveLength(2);
  });

  it("PENDING then COMPLETE for one PayFast payment: the first changes nothing, the second pays", async () => {
    const order = await payfastOrderAtPayfast();
    expect((await outcomeOf(await fake.postItn(order.id, { status: "PENDING" }))).outcome).toBe("ignored");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
    expect((await outcomeOf(await fake.postItn(order.id))).outcome).toBe("paid");
    expect(await mailAbout(order.short)).toHaveLength(2);
  });

  it("CANCELLED closes the order and gives its coupon redemption back", async () => {
    const coupon = await insertCoupon(db(), { code: `PF${Date.now() % 1_000_000}`, max_redemptions: 2 });
    const order = await payfastOrderAtPayfast({ couponCode: coupon.code });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
    const response = await fake.postItn(order.id, { status: "CANCELLED" });
    expect(await outcomeOf(response)).toEqual({ status: 200, received: true, outcome: "cancelled" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled" });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    expect(await mailAbout(order.short)).toHaveLength(0);
  });

  it("FAILED closes the order as payment failed", async () => {
    const order = await payfastOrderAtPayfast();
    expect((await outcomeOf(await fake.postItn(order.id, { status: "FAILED" }))).outcome).toBe("failed");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_status: "failed" });
  });

  it("an amount_gross one cent short is recorded as amount_mismatch and changes nothing", async () => {
    const order = await payfastOrderAtPayfast();
    const short = formatAmount(order.totalCents - 1);
    const response = await fake.postItn(order.id, { amountGross: short });
    expect(await outcomeOf(response)).toEqual({ status: 200, received: true, outcome: "amount_mismatch" });
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
    expect(await eventsFor(order.id)).toMatchObject([{ outcome: "amount_mismatch", amount_cents: order.totalCents - 1 }]);
    expect(await mailAbout(order.short)).toHaveLength(0);
    const more = await fake.postItn(order.id, { amountGross: formatAmount(order.totalCents + 1), pfPaymentId: "77777771" });
    expect((await outcomeOf(more)).outcome).toBe("amount_mismatch");
  });

  it("an ITN for an m_payment_id no order has is recorded as unknown_checkout", async () => {
    const response = await fake.postItn(crypto.randomUUID(), { amountGross: "100.00" });
    expect(await outcomeOf(response)).toEqual({ status: 200, received: true, outcome: "unknown_checkout" });
  });
});

describe("refused ITNs change nothing and store nothing", () => {
  let order: Awaited<ReturnType<typeof payfastOrderAtPayfast>>;
  let events: number;

  beforeEach(async () => {
    order = await payfastOrderAtPayfast();
    events = await eventCount();
  });

  async function expectUnchanged() {
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending", processing_started_at: null });
    expect(await eventCount()).toBe(events);
    expect(await mailAbout(order.short)).toHaveLength(0);
  }

  it("a signature made without the passphrase, or with a guessed one → 401, and PayFast is not even asked", async () => {
    for (const passphrase of [null, "guess"]) {
      const response = await fake.postItn(order.id, { passphrase });
      expect(await outcomeOf(response)).toEqual({ status: 401, received: false });
    }
    expect(fake.requests.filter((r) => r.path === "/eng/query/validate")).toHaveLength(0);
    await expectUnchanged();
  });

  it("a field changed after signing (amount raised, status changed) → 401", async () => {
    const itn = fake.itn(order.id, { amountGross: "1.00" });
    const raised = { ...itn, body: itn.body.replace("amount_gross=1.00", `amount_gross=${formatAmount(order.totalCents)}`) };
    expect(raised.body).not.toBe(itn.body);
    expect((await postWebhook("payfast", raised)).status).toBe(401);
    const pending = fake.itn(order.id, { status: "PENDING" });
    const completed = { ...pending, body: pending.body.replace("payment_status=PENDING", "payment_status=COMPLETE") };
    expect((await postWebhook("payfast", completed)).status).toBe(401);
    await expectUnchanged();
  });

  it("another merchant's ITN (correctly signed) → 401", async () => {
    const response = await fake.postItn(order.id, { merchantId: "10000101" });
    expect(await outcomeOf(response)).toEqual({ status: 401, received: false });
    await expectUnchanged();
  });

  it("PayFast answers INVALID (an ITN it did not send) → 401; a genuine one PayFast refused is accepted when retried", async () => {
    const forged = await fake.postItn(order.id, { sent: false });
    expect(await outcomeOf(forged)).toEqual({ status: 401, received: false });
    await expectUnchanged();

    fake.invalidateAll();
    const genuine = fake.itn(order.id);
    expect((await postWebhook("payfast", genuine)).status).toBe(401);
    await expectUnchanged();
    fake.validateNormally();
    // PayFast retries until it gets a 200: the same ITN later is applied.
    expect((await outcomeOf(await postWebhook("payfast", genuine))).outcome).toBe("paid");
  });

  it("PayFast unreachable for the confirmation → 401, nothing changed", async () => {
    useEnv({ PAYFAST_BASE_URL: "http://127.0.0.1:9" });
    try {
      const response = await fake.postItn(order.id);
      expect(await outcomeOf(response)).toEqual({ status: 401, received: false });
    } finally {
      useEnv();
    }
    await expectUnchanged();
  });

  it("a malformed amount_gross (signed and sent by 'PayFast') → 400", async () => {
    for (const amountGross of ["810,00", "-1.00", "1e3", ""]) {
      const response = await fake.postItn(order.id, { amountGross });
      expect(response.status, amountGross).toBe(400);
    }
    await expectUnchanged();
  });

  it("a body that is not an ITN → 400 (no fields, missing fields, a repeated field)", async () => {
    const itn = fake.itn(order.id);
    const bodies = [
      "",
      "hello",
      itn.body.replace(/&?pf_payment_id=[^&]*/, ""),
      itn.body.replace(/&signature=[^&]*/, ""),
      `${itn.body}&amount_gross=1.00`,
      JSON.stringify(Object.fromEntries(itn.fields)),
    ];
    for (const body of bodies) {
      const response = await postWebhook("payfast", { body, headers: itn.headers });
      expect(response.status, body.slice(0, 60)).toBe(400);
    }
    await expectUnchanged();
  });
});
