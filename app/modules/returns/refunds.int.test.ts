/**
 * Refunds through the payment provider (docs/decisions/041): the real Yoco adapter against the local fake that speaks
 * Yoco's published refund API and webhooks (tests/fakes/fake-yoco.ts); Yoco's refusal; its refund.succeeded and
 * refund.failed events; a refund event that beats the refund's own commit; and an order paid by bank transfer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { setOrderStatus, setPaymentStatus } from "~/modules/flows/order-changed-by-owner.server";
import { createCheckoutForOrder } from "~/modules/flows/checkout.server";
import { action as adminReturnAction } from "~/routes/admin.returns.$id";
import { action as requestAction } from "~/routes/orders.return";
import { setTestEnv } from "../../../tests/factories/env";
import { snapshotDatabase } from "../../../tests/authz/matrix";
import { startFakeYoco, type FakeYoco } from "../../../tests/fakes/fake-yoco";
import { insertOrder } from "../../../tests/factories/orders";
import { outboxFor, postWebhook } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { callAction, dataOf, statusOf, TEST_ORIGIN } from "../../../tests/setup/route";
import { RETURN_MESSAGES } from "./returns.logic";

const db = () => getDb();
let fake: FakeYoco;
let shopper: TestUser;
let admin: TestUser;
const cookies: Record<string, string> = {};
let restoreEnv: () => void;

beforeAll(async () => {
  fake = await startFakeYoco();
  restoreEnv = setTestEnv({
    PAYMENT_PROVIDER: "yoco",
    PAYMENT_METHODS: "card,eft",
    YOCO_API_BASE: fake.baseUrl,
    YOCO_SECRET_KEY: fake.secretKey,
    YOCO_WEBHOOK_SECRET: fake.webhookSecret,
    PUBLIC_BASE_URL: TEST_ORIGIN,
    EFT_BANK_NAME: "First National Bank",
    EFT_ACCOUNT_NAME: "Scentara (Pty) Ltd",
    EFT_ACCOUNT_NUMBER: "62812345678",
    EFT_BRANCH_CODE: "250655",
  });
  shopper = await createUser(db());
  admin = await createUser(db(), { isAdmin: true });
  for (const u of [shopper, admin]) cookies[u.id] = await sessionCookieFor(db(), u.id);
});

afterAll(async () => {
  restoreEnv();
  await fake.close();
});

const as = (user: TestUser) => ({ headers: { cookie: cookies[user.id]! } });
const step = (returnId: string, form: Record<string, string>) => callAction(adminReturnAction, `/admin/returns/${returnId}`, { id: returnId, ...form }, { ...as(admin), params: { id: returnId } });

/** An order paid on (fake) Yoco through its verified webhook, delivered, with a return received and waiting for its refund. */
async function receivedYocoReturn() {
  const order = await insertOrder(db(), { userId: shopper.id, lines: [{ quantity: 1, unitPriceCents: 45000 }], shippingCents: 7000 });
  const { checkoutId } = await createCheckoutForOrder(db(), { id: order.id, totalAmountCents: order.totalAmountCents }, { email: shopper.email, name: "Thandi Nkosi", telephone: "+27821234567" });
  fake.complete(checkoutId);
  expect((await postWebhook("yoco", fake.webhook(checkoutId))).status).toBe(200);
  await setOrderStatus(db(), order.id, "delivered");
  const asked = await callAction(requestAction, `/orders/${order.id}/return`, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" }, { ...as(shopper), params: { id: order.id } });
  expect(statusOf(asked)).toBe(303);
  const ret = await db().selectFrom("returns").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
  await step(ret.id, { intent: "approve" });
  await step(ret.id, { intent: "receive" });
  return { order, checkoutId, returnId: ret.id };
}
const returnRow = (id: string) => db().selectFrom("returns").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("a refund through Yoco", () => {
  it("asks Yoco's refund API for the amount, with the key and an idempotency key, and waits for refund.succeeded", async () => {
    const { order, checkoutId, returnId } = await receivedYocoReturn();
    fake.requests.length = 0;
    const answer = await dataOf(await step(returnId, { intent: "refund", amount: "450.00", method: "provider" }));
    expect(answer).toMatchObject({ ok: true });
    expect(answer.message).toMatch(/^Refunded R450\.00 to the card or account you paid with, through Yoco; credit note CN-\d{6} issued\./);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: `/api/checkouts/${checkoutId}/refund`,
      authorization: `Bearer ${fake.secretKey}`,
      idempotencyKey: `refund-${returnId}`,
      body: { amount: 45000, metadata: { orderId: order.id, returnId } },
    });
    const [refund] = [...fake.refunds.values()].filter((r) => r.checkoutId === checkoutId);
    let row = await returnRow(returnId);
    expect(row).toMatchObject({ status: "refunded", refund_method: "provider", refund_provider: "yoco", refund_reference: refund!.id, payout_status: "pending", refund_cents: 45000 });

    // Yoco's refund.succeeded: the payout is confirmed; a replay of it changes nothing
    const event = fake.refundWebhook(refund!.id);
    const res = await postWebhook("yoco", event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: "refund_confirmed" });
    row = await returnRow(returnId);
    expect(row.payout_status).toBe("paid");
    expect(await (await postWebhook("yoco", event)).json()).toEqual({ received: true, outcome: "duplicate" });
  });

  it("Yoco refuses: the owner reads why, and nothing is refunded or numbered", async () => {
    const { returnId } = await receivedYocoReturn();
    fake.failNextRefund(400, { errorCode: "insufficient_balance", errorMessage: "Insufficient balance", displayMessage: "Your balance is too low to refund this payment." });
    const before = await snapshotDatabase(db());
    const refused = await step(returnId, { intent: "refund", amount: "450.00", method: "provider" });
    expect(statusOf(refused)).toBe(502);
    expect((await dataOf(refused)).error).toBe("Yoco refused the refund: Your balance is too low to refund this payment. Nothing was refunded.");
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it("refund.failed: the payout is flagged, the shop is told, and the owner records the EFT that replaced it", async () => {
    const { order, returnId } = await receivedYocoReturn();
    await step(returnId, { intent: "refund", amount: "450.00", method: "provider" });
    const row = await returnRow(returnId);
    expect(await (await postWebhook("yoco", fake.refundWebhook(row.refund_reference!, { type: "refund.failed" }))).json()).toEqual({ received: true, outcome: "refund_failed" });
    expect((await returnRow(returnId)).payout_status).toBe("failed");
    const shop = (await outboxFor(db(), "hello@scentara.co.za")).filter((m) => m.subject === `Refund failed for order ${order.id.slice(0, 8)}`);
    expect(shop).toHaveLength(1);
    expect(shop[0]!.text_body).toContain(`/admin/returns/${returnId}`);
    expect(await dataOf(await step(returnId, { intent: "eftPaid", reference: "FNB 0042" }))).toMatchObject({ ok: true, message: RETURN_MESSAGES.paidByEft });
    expect(await returnRow(returnId)).toMatchObject({ payout_status: "paid", refund_method: "eft", refund_reference: "FNB 0042" });
    // only a failed payout can be recorded so
    expect((await dataOf(await step(returnId, { intent: "eftPaid", reference: "again" }))).error).toBe(RETURN_MESSAGES.notPendingPayout);
  });

  it("a refund event that beats the refund's own commit is answered 503, stores nothing, and is applied when Yoco sends it again", async () => {
    const { checkoutId, returnId } = await receivedYocoReturn();
    // Yoco has the refund (asked directly here), the shop has not recorded it yet: the return is still 'received'
    const response = await fetch(`${fake.baseUrl}/api/checkouts/${checkoutId}/refund`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fake.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": `refund-${returnId}` },
      body: JSON.stringify({ amount: 45000, metadata: {} }),
    });
    const { refundId } = (await response.json()) as { refundId: string };
    const event = fake.refundWebhook(refundId);
    const early = await postWebhook("yoco", event);
    expect(early.status).toBe(503);
    expect(await db().selectFrom("payment_events").select("id").where("provider_event_id", "=", event.eventId).executeTakeFirst()).toBeUndefined();
    // the owner refunds: the same idempotency key is the same refund at Yoco
    await step(returnId, { intent: "refund", amount: "450.00", method: "provider" });
    expect((await returnRow(returnId)).refund_reference).toBe(refundId);
    expect([...fake.refunds.values()].filter((r) => r.checkoutId === checkoutId)).toHaveLength(1);
    expect(await (await postWebhook("yoco", event)).json()).toEqual({ received: true, outcome: "refund_confirmed" });
  });
});

describe("an order paid by bank transfer", () => {
  it("has no provider to refund through: the owner is told to pay by EFT, and recording the EFT issues the credit note", async () => {
    const order = await insertOrder(db(), { userId: shopper.id, lines: [{ quantity: 1, unitPriceCents: 30000 }], shippingCents: 0 });
    await db().updateTable("orders").set({ payment_method: "eft", payment_provider: "eft" }).where("id", "=", order.id).execute();
    await setPaymentStatus(db(), order.id, "completed");
    await setOrderStatus(db(), order.id, "delivered");
    await callAction(requestAction, `/orders/${order.id}/return`, { reason: "damaged", [`qty.${order.lines[0]!.id}`]: "1" }, { ...as(shopper), params: { id: order.id } });
    const { id } = await db().selectFrom("returns").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
    await step(id, { intent: "approve" });
    await step(id, { intent: "receive" });
    const refused = await step(id, { intent: "refund", amount: "300.00", method: "provider" });
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).error).toBe("This order was paid by bank transfer: pay the refund by EFT and record it here.");
    expect(await dataOf(await step(id, { intent: "refund", amount: "300.00", method: "eft", reference: "FNB 77" }))).toMatchObject({ ok: true });
    expect(await returnRow(id)).toMatchObject({ status: "refunded", refund_method: "eft", refund_reference: "FNB 77", payout_status: "paid" });
    expect((await returnRow(id)).credit_note_number).not.toBeNull();
  });
});
