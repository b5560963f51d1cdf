/**
 * Refunds through PayFast's API (docs/decisions/041): the real adapter against the local fake PayFast, which checks the
 * API signature its own way (tests/fakes/fake-payfast.ts); PayFast's refusal; and a shop on PayFast's sandbox, which
 * has no refunds, where the owner is told to pay by EFT.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { createCheckoutForOrder } from "~/modules/flows/checkout.server";
import { payfastApiSignature, payfastTimestamp } from "~/modules/payments/payfast.server";
import { action as adminReturnAction, loader as adminReturnLoader } from "~/routes/admin.returns.$id";
import { action as requestAction } from "~/routes/orders.return";
import { setTestEnv } from "../../../tests/factories/env";
import { snapshotDatabase } from "../../../tests/authz/matrix";
import { startFakePayfast, type FakePayfast } from "../../../tests/fakes/fake-payfast";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { callAction, callLoader, dataOf, statusOf, TEST_ORIGIN } from "../../../tests/setup/route";

const db = () => getDb();
let fake: FakePayfast;
let shopper: TestUser;
let admin: TestUser;
const cookies: Record<string, string> = {};
let restoreEnv: (() => void) | null = null;

/** The fake PayFast's settings, with `overrides`; the first call's restore puts back what the file started with. */
function useEnv(overrides: Record<string, string | undefined> = {}) {
  const restore = setTestEnv({
    PAYMENT_PROVIDER: "payfast",
    PAYMENT_METHODS: "card",
    PAYFAST_BASE_URL: fake.baseUrl,
    PAYFAST_API_BASE: fake.baseUrl,
    PAYFAST_MERCHANT_ID: fake.merchantId,
    PAYFAST_MERCHANT_KEY: fake.merchantKey,
    PAYFAST_PASSPHRASE: fake.passphrase,
    PUBLIC_BASE_URL: TEST_ORIGIN,
    ...overrides,
  });
  restoreEnv ??= restore;
}

beforeAll(async () => {
  fake = await startFakePayfast();
  useEnv();
  shopper = await createUser(db());
  admin = await createUser(db(), { isAdmin: true });
  for (const u of [shopper, admin]) cookies[u.id] = await sessionCookieFor(db(), u.id);
});

afterAll(async () => {
  restoreEnv?.();
  await fake.close();
});

const as = (user: TestUser) => ({ headers: { cookie: cookies[user.id]! } });
const step = (returnId: string, form: Record<string, string>) => callAction(adminReturnAction, `/admin/returns/${returnId}`, { id: returnId, ...form }, { ...as(admin), params: { id: returnId } });

/** An order paid on the fake PayFast (its ITN verified), delivered, its return received. */
async function receivedPayfastReturn() {
  const order = await insertOrder(db(), { userId: shopper.id, lines: [{ quantity: 1, unitPriceCents: 45000 }], shippingCents: 7000 });
  await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, { email: shopper.email, name: "Thandi Nkosi", telephone: "+27821234567" });
  expect((await fake.postItn(order.id, { amountGross: "520.00" })).status).toBe(200);
  await setOrderStatus(db(), order.id, "delivered");
  await callAction(requestAction, `/orders/${order.id}/return`, { reason: "faulty", [`qty.${order.lines[0]!.id}`]: "1" }, { ...as(shopper), params: { id: order.id } });
  const ret = await db().selectFrom("returns").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
  await step(ret.id, { intent: "approve" });
  await step(ret.id, { intent: "receive" });
  const paid = await db().selectFrom("payment_events").select("provider_event_id").where("order_id", "=", order.id).where("outcome", "=", "paid").executeTakeFirstOrThrow();
  return { order, returnId: ret.id, pfPaymentId: paid.provider_event_id.split(":")[0]! };
}

describe("a refund through PayFast's API", () => {
  it("the API signature: sorted keys with the passphrase, PHP-urlencoded, MD5; South African time", () => {
    // the SDK's order: headers and body merged, passphrase added, ksort; written out by hand here
    const signed = "amount=5000&merchant-id=10000100&notify_buyer=0&passphrase=jt7NOE43FZPn&reason=Return+of+order+3f2a9c1e&timestamp=2026-03-05T14%3A30%3A00%2B02%3A00&version=v1";
    expect(payfastApiSignature({ "merchant-id": "10000100", version: "v1", timestamp: "2026-03-05T14:30:00+02:00", amount: "5000", reason: "Return of order 3f2a9c1e", notify_buyer: "0" }, "jt7NOE43FZPn")).toBe(
      createHash("md5").update(signed).digest("hex"),
    );
    expect(payfastTimestamp(new Date("2026-03-05T12:30:00.000Z"))).toBe("2026-03-05T14:30:00+02:00");
  });

  it("posts the amount for PayFast's payment id, signed as PayFast checks it, and records the refund as paid", async () => {
    const { returnId, pfPaymentId } = await receivedPayfastReturn();
    fake.requests.length = 0;
    const answer = await dataOf(await step(returnId, { intent: "refund", amount: "520.00", method: "provider" }));
    expect(answer).toMatchObject({ ok: true });
    expect(answer.message).toMatch(/^Refunded R520\.00 to the card or account you paid with, through PayFast; credit note CN-\d{6} issued\./);
    const call = fake.requests.find((r) => r.path === `/refunds/${pfPaymentId}`)!;
    expect(call).toMatchObject({ method: "POST", status: 200, headers: { "merchant-id": fake.merchantId, version: "v1" } });
    expect(JSON.parse(call.body)).toEqual({ amount: 52000, reason: expect.stringMatching(/^Return of order [0-9a-f]{8}$/), notify_buyer: 0 });
    expect(fake.refunds.filter((r) => r.pfPaymentId === pfPaymentId)).toEqual([expect.objectContaining({ amount: 52000 })]);
    const row = await db().selectFrom("returns").selectAll().where("id", "=", returnId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "refunded", refund_method: "provider", refund_provider: "payfast", payout_status: "paid", refund_cents: 52000, refund_reference: fake.refunds.at(-1)!.id });
  });

  it("PayFast refuses (a wrong passphrase): the owner reads why, and nothing changes", async () => {
    const { returnId } = await receivedPayfastReturn();
    useEnv({ PAYFAST_PASSPHRASE: "not-the-passphrase" });
    try {
      const before = await snapshotDatabase(db());
      const refused = await step(returnId, { intent: "refund", amount: "520.00", method: "provider" });
      expect(statusOf(refused)).toBe(502);
      expect((await dataOf(refused)).error).toBe("PayFast refused the refund: Signature mismatch. Nothing was refunded.");
      expect(await snapshotDatabase(db())).toEqual(before);
    } finally {
      useEnv();
    }
  });

  it("on PayFast's sandbox there are no refunds: the refund form offers EFT and says why", async () => {
    const { returnId } = await receivedPayfastReturn();
    useEnv({ PAYFAST_BASE_URL: "https://sandbox.payfast.co.za" });
    try {
      const detail = await dataOf(await callLoader(adminReturnLoader, `/admin/returns/${returnId}`, { ...as(admin), params: { id: returnId } }));
      expect(detail.capability).toEqual({ provider: null, label: "PayFast", why: "PayFast's refund API works only on a live account (not its sandbox): refund by EFT and record it here." });
      expect(statusOf(await step(returnId, { intent: "refund", amount: "520.00", method: "provider" }))).toBe(409);
      expect(await dataOf(await step(returnId, { intent: "refund", amount: "520.00", method: "eft", reference: "EFT 9" }))).toMatchObject({ ok: true });
    } finally {
      useEnv();
    }
  });
});
