import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { createCheckoutForOrder } from "~/modules/flows/checkout.server";
import { confirmPaymentWithProvider } from "~/modules/flows/payment-events.server";
import { getPaymentProvider } from "~/modules/payments/payments.server";
import { PaymentProviderError } from "./provider";
import { INIT_FAILED, createYocoProvider } from "./yoco.server";
import { startFakeYoco, type FakeYoco } from "../../../tests/fakes/fake-yoco";
import { insertCoupon, insertOrder } from "../../../tests/factories/orders";
import { couponState, insertAwaitingOrder, orderState, outboxFor, postWebhook } from "../../../tests/factories/payments";
import { createUser, type TestUser } from "../../../tests/factories/users";
import { TEST_ORIGIN } from "../../../tests/setup/route";

/** The real Yoco adapter against a local fake that follows Yoco's documented contract. */
let fake: FakeYoco;
let buyer: TestUser;
const db = () => getDb();
const customer = { email: "buyer@example.test", name: "Thandi Nkosi", telephone: "+27821234567" };
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeYoco();
  Object.assign(process.env, {
    PAYMENT_PROVIDER: "yoco",
    YOCO_API_BASE: fake.baseUrl,
    YOCO_SECRET_KEY: fake.secretKey,
    YOCO_WEBHOOK_SECRET: fake.webhookSecret,
    PUBLIC_BASE_URL: TEST_ORIGIN,
  });
  resetEnvForTests();
  buyer = await createUser(db());
});

afterAll(async () => {
  for (const key of ["PAYMENT_PROVIDER", "YOCO_API_BASE", "YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET", "PUBLIC_BASE_URL"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetEnvForTests();
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
});

describe("creating a checkout", () => {
  it("posts the order to Yoco with the bearer key, a stable Idempotency-Key and the return URLs, and stores the checkout id", async () => {
    const order = await insertOrder(db(), { userId: buyer.id, lines: [{ unitPriceCents: 34999 }], shippingCents: 7000 });
    const result = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, customer);

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0];
    expect(sent).toMatchObject({ method: "POST", path: "/api/checkouts", authorization: `Bearer ${fake.secretKey}`, idempotencyKey: order.id });
    const returnUrl = (status: string) => `${TEST_ORIGIN}/payment-status?orderId=${order.id}&status=${status}`;
    expect(sent.body).toEqual({
      amount: 41999,
      currency: "ZAR",
      successUrl: returnUrl("success"),
      cancelUrl: returnUrl("cancelled"),
      failureUrl: returnUrl("cancelled"),
      metadata: { orderId: order.id },
    });
    const checkout = [...fake.checkouts.values()].find((c) => c.idempotencyKey === order.id)!;
    expect(result).toEqual({ checkoutId: checkout.id, redirectUrl: `${fake.baseUrl}/checkout/${checkout.id}` });
    expect(await orderState(db(), order.id)).toMatchObject({ payment_id: checkout.id, payment_provider: "yoco", status: "pending" });
  });

  it("the same Idempotency-Key gets the same checkout (a retried request never makes a second one)", async () => {
    const provider = getPaymentProvider();
    const input = {
      orderId: "order-idem",
      amountCents: 5000,
      currency: "ZAR" as const,
      successUrl: `${TEST_ORIGIN}/s`,
      cancelUrl: `${TEST_ORIGIN}/c`,
      failureUrl: `${TEST_ORIGIN}/f`,
      notifyUrl: `${TEST_ORIGIN}/webhooks/payments/yoco`,
      description: "Scentara order test",
      customer,
      idempotencyKey: "order-idem",
    };
    const first = await provider.createCheckout(input);
    const second = await provider.createCheckout(input);
    expect(second).toEqual(first);
    expect(fake.requests.map((r) => r.idempotencyKey)).toEqual(["order-idem", "order-idem"]);
    const other = await provider.createCheckout({ ...input, orderId: "order-other", idempotencyKey: "order-other" });
    expect(other.checkoutId).not.toBe(first.checkoutId);
  });

  it("a wrong secret key is refused by Yoco: the buyer sees the generic message, the order is closed and its coupon released", async () => {
    const wrongKey = createYocoProvider({ apiBase: fake.baseUrl, secretKey: "sk_test_wrong", webhookSecret: fake.webhookSecret });
    await expect(
      wrongKey.createCheckout({
        orderId: "x",
        amountCents: 5000,
        currency: "ZAR",
        successUrl: `${TEST_ORIGIN}/s`,
        cancelUrl: `${TEST_ORIGIN}/c`,
        failureUrl: `${TEST_ORIGIN}/f`,
        notifyUrl: `${TEST_ORIGIN}/webhooks/payments/yoco`,
        description: "Scentara order test",
        customer,
        idempotencyKey: "x",
      }),
    ).rejects.toEqual(new PaymentProviderError(INIT_FAILED, 401));

    const coupon = await insertCoupon(db(), { max_redemptions: 1 });
    const order = await insertAwaitingOrder(db(), { userId: buyer.id, coupon, discountCents: 1000, checkoutId: null });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
    fake.failNextCreate(401, { errorCode: "unauthorized" });
    const error = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, customer).catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.message).toBe("Unable to initialize payment. Please try again.");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_status: "failed", payment_id: null });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });
  });

  it("shows Yoco's displayMessage when it gives one", async () => {
    const order = await insertOrder(db(), { userId: buyer.id });
    fake.failNextCreate(400, { errorCode: "invalid", errorMessage: "internal detail", displayMessage: "Card payments are unavailable right now." });
    const error = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, customer).catch((e) => e);
    expect(error.message).toBe("Card payments are unavailable right now.");
  });

  it("below R2.00 nothing is sent to Yoco: 'Minimum order amount is R2.00'", async () => {
    const order = await insertOrder(db(), { userId: buyer.id, lines: [{ unitPriceCents: 100 }], shippingCents: 99 });
    expect(order.totalAmountCents).toBe(199);
    const error = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: 199 }, customer).catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.message).toBe("Minimum order amount is R2.00");
    expect(fake.requests).toHaveLength(0);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "cancelled", payment_id: null });
  });

  it("an unreachable Yoco gives 'Unable to initialize payment. Please try again.'", async () => {
    const down = createYocoProvider({ apiBase: "http://127.0.0.1:9", secretKey: "sk", webhookSecret: fake.webhookSecret, timeoutMs: 2000 });
    await expect(
      down.createCheckout({
        orderId: "y",
        amountCents: 5000,
        currency: "ZAR",
        successUrl: `${TEST_ORIGIN}/s`,
        cancelUrl: `${TEST_ORIGIN}/c`,
        failureUrl: `${TEST_ORIGIN}/f`,
        notifyUrl: `${TEST_ORIGIN}/webhooks/payments/yoco`,
        description: "Scentara order test",
        customer,
        idempotencyKey: "y",
      }),
    ).rejects.toThrow(INIT_FAILED);
  });
});

describe("Yoco's webhook and status call", () => {
  async function yocoOrder() {
    const order = await insertOrder(db(), { userId: buyer.id, lines: [{ unitPriceCents: 52000 }], shippingCents: 0 });
    const { checkoutId } = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, customer);
    return { ...order, checkoutId };
  }

  it("a payment.succeeded signed by Yoco marks the order paid", async () => {
    const order = await yocoOrder();
    fake.complete(order.checkoutId);
    const response = await postWebhook("yoco", fake.webhook(order.checkoutId));
    expect(response.status).toBe(200);
    expect((await response.json()).outcome).toBe("paid");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
  });

  it("refuses a webhook signed with another secret (401) and a stale one (401)", async () => {
    const order = await yocoOrder();
    const forged = fake.webhook(order.checkoutId, { secret: "whsec_" + Buffer.from("not yoco's secret").toString("base64") });
    expect((await postWebhook("yoco", forged)).status).toBe(401);
    const stale = fake.webhook(order.checkoutId, { now: new Date(Date.now() - 181_000) });
    expect((await postWebhook("yoco", stale)).status).toBe(401);
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("an amount different from the order's is not applied", async () => {
    const order = await yocoOrder();
    const response = await postWebhook("yoco", fake.webhook(order.checkoutId, { amount: 100 }));
    expect((await response.json()).outcome).toBe("amount_mismatch");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("the status call reports unpaid, then paid; a paid answer is applied once and the later webhook changes nothing", async () => {
    const order = await yocoOrder();
    const provider = getPaymentProvider();
    expect(await provider.fetchCheckoutStatus!(order.checkoutId)).toMatchObject({ paid: false, status: "created", amountCents: 52000 });
    const start = Date.now();
    expect(await confirmPaymentWithProvider(db(), await orderState(db(), order.id), start)).toBeNull();
    expect(await orderState(db(), order.id)).toMatchObject({ status: "pending" });

    fake.complete(order.checkoutId);
    expect(await provider.fetchCheckoutStatus!(order.checkoutId)).toMatchObject({ paid: true, status: "completed", amountCents: 52000, currency: "ZAR" });
    // The return page asks the provider at most once every 3 s per checkout.
    expect(await confirmPaymentWithProvider(db(), await orderState(db(), order.id), start + 1000)).toBeNull();
    expect(await confirmPaymentWithProvider(db(), await orderState(db(), order.id), start + 3500)).toBe("paid");
    expect(await orderState(db(), order.id)).toMatchObject({ status: "processing", payment_status: "completed" });

    const late = await postWebhook("yoco", fake.webhook(order.checkoutId));
    expect((await late.json()).outcome).toBe("already_paid");
    const short = order.id.slice(0, 8);
    expect((await outboxFor(db())).filter((m) => m.subject.includes(short))).toHaveLength(2);
  });
});
