import { describe, expect, it } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";
import { setOrderStatus, setPaymentStatus } from "~/modules/flows/order-changed-by-owner.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { insertOrder } from "../../../tests/factories/orders";
import { postWebhook, simulatedWebhook, insertAwaitingOrder } from "../../../tests/factories/payments";
import { createUser } from "../../../tests/factories/users";
import { allocateInvoiceNumber, numberUninvoicedPaidOrders } from "./invoice-number.server";

/** Invoice numbers (docs/decisions/019): allocated with the payment's confirmation, sequential, no gaps, kept. */
const db = () => getDb();

async function nextNumber(): Promise<number> {
  const row = await db().selectFrom("invoice_counter").select("next_number").where("id", "=", 1).executeTakeFirstOrThrow();
  return Number(row.next_number);
}

async function invoiceOf(id: string) {
  const row = await db().selectFrom("orders").select(["invoice_number", "invoice_issued_at", "payment_status"]).where("id", "=", id).executeTakeFirstOrThrow();
  return { number: row.invoice_number === null ? null : Number(row.invoice_number), issuedAt: row.invoice_issued_at, paymentStatus: row.payment_status };
}

async function pendingOrder() {
  const user = await createUser(db());
  return insertAwaitingOrder(db(), { userId: user.id });
}

describe("invoice numbers", () => {
  it("a new shop's counter starts at 1 and an unpaid order has no number", async () => {
    expect(await nextNumber()).toBeGreaterThanOrEqual(1);
    const order = await pendingOrder();
    expect(await invoiceOf(order.id)).toEqual({ number: null, issuedAt: null, paymentStatus: "pending" });
  });

  it("paying an order (the verified webhook) allocates the next number, dated when the payment was confirmed", async () => {
    const order = await pendingOrder();
    const expected = await nextNumber();
    const before = Date.now();
    const res = await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
    expect(res.status).toBe(200);
    const invoice = await invoiceOf(order.id);
    expect(invoice.paymentStatus).toBe("completed");
    expect(invoice.number).toBe(expected);
    expect(Date.parse(invoice.issuedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(await nextNumber()).toBe(expected + 1);
  });

  it("a second confirmation of the same order keeps its number: a replayed event, markOrderPaid again", async () => {
    const order = await pendingOrder();
    await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
    const first = (await invoiceOf(order.id)).number;
    expect(first).not.toBeNull();
    const counter = await nextNumber();
    expect(await db().transaction().execute((trx) => markOrderPaid(trx, order.id))).toBeNull();
    await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
    expect((await invoiceOf(order.id)).number).toBe(first);
    expect(await nextNumber()).toBe(counter);
  });

  it("the owner's payment change to completed (an EFT) allocates too; reopening and completing again keeps the first number", async () => {
    const order = await pendingOrder();
    const expected = await nextNumber();
    await setPaymentStatus(db(), order.id, "completed");
    expect(await invoiceOf(order.id)).toMatchObject({ number: expected, paymentStatus: "completed" });
    const issuedAt = (await invoiceOf(order.id)).issuedAt;

    // Set back to pending, cancelled, then completed again (decision 016 reopens it): same number, same date.
    await setPaymentStatus(db(), order.id, "pending");
    await setOrderStatus(db(), order.id, "cancelled");
    await setPaymentStatus(db(), order.id, "cancelled");
    await setPaymentStatus(db(), order.id, "completed");
    expect(await invoiceOf(order.id)).toEqual({ number: expected, issuedAt, paymentStatus: "completed" });
    expect(await nextNumber()).toBe(expected + 1);
  });

  it("the owner's other changes allocate nothing: a status change, a payment set to failed", async () => {
    const order = await pendingOrder();
    const counter = await nextNumber();
    await setOrderStatus(db(), order.id, "processing");
    await setPaymentStatus(db(), order.id, "failed");
    expect((await invoiceOf(order.id)).number).toBeNull();
    expect(await nextNumber()).toBe(counter);
  });

  it("a rolled-back confirmation gives its number back: the next payment takes it (no gap)", async () => {
    const a = await pendingOrder();
    const b = await pendingOrder();
    const expected = await nextNumber();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          expect(await markOrderPaid(trx, a.id)).not.toBeNull();
          expect((await trx.selectFrom("orders").select("invoice_number").where("id", "=", a.id).executeTakeFirstOrThrow()).invoice_number).toBe(expected);
          throw new Error("the provider's event could not be recorded");
        }),
    ).rejects.toThrow("could not be recorded");
    expect(await invoiceOf(a.id)).toMatchObject({ number: null, paymentStatus: "pending" });
    expect(await nextNumber()).toBe(expected);
    await db().transaction().execute((trx) => markOrderPaid(trx, b.id));
    expect((await invoiceOf(b.id)).number).toBe(expected);
  });

  it("50 concurrent confirmations of 50 orders (webhooks and the owner at once) give 50 distinct numbers, no gaps", async () => {
    const user = await createUser(db());
    const orders = [];
    for (let i = 0; i < 50; i++) orders.push(await insertAwaitingOrder(db(), { userId: user.id }));
    const first = await nextNumber();
    await Promise.all(
      orders.map((o, i) =>
        i % 5 === 0
          ? setPaymentStatus(db(), o.id, "completed")
          : i % 5 === 1
            ? postWebhook("simulated", simulatedWebhook(o.checkoutId, o.totalAmountCents))
            : db().transaction().execute((trx) => markOrderPaid(trx, o.id)),
      ),
    );
    const numbers = [];
    for (const o of orders) numbers.push((await invoiceOf(o.id)).number);
    expect(numbers.every((n) => n !== null)).toBe(true);
    expect([...numbers].sort((x, y) => x! - y!)).toEqual(Array.from({ length: 50 }, (_, i) => first + i));
    expect(await nextNumber()).toBe(first + 50);
  });

  it("the same order confirmed concurrently by the webhook and the owner gets one number", async () => {
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await pendingOrder());
    const first = await nextNumber();
    await Promise.all(
      orders.flatMap((o) => [
        postWebhook("simulated", simulatedWebhook(o.checkoutId, o.totalAmountCents)),
        setPaymentStatus(db(), o.id, "completed"),
        db().transaction().execute((trx) => markOrderPaid(trx, o.id)),
      ]),
    );
    const numbers = new Set<number | null>();
    for (const o of orders) numbers.add((await invoiceOf(o.id)).number);
    expect([...numbers].sort((x, y) => x! - y!)).toEqual(Array.from({ length: 10 }, (_, i) => first + i));
    expect(await nextNumber()).toBe(first + 10);
  });

  it("allocateInvoiceNumber on an order that has a number returns it and takes nothing", async () => {
    const order = await pendingOrder();
    await setPaymentStatus(db(), order.id, "completed");
    const { number } = await invoiceOf(order.id);
    const counter = await nextNumber();
    expect(await db().transaction().execute((trx) => allocateInvoiceNumber(trx, order.id))).toBe(number);
    expect(await nextNumber()).toBe(counter);
  });

  it("numbers paid orders written directly (a bulk seed), oldest payment first, and moves the counter past them", async () => {
    const user = await createUser(db());
    const older = await insertOrder(db(), { userId: user.id, status: "delivered", paymentStatus: "completed", processingStartedAt: "2025-01-02T08:00:00.000Z" });
    const newer = await insertOrder(db(), { userId: user.id, status: "shipped", paymentStatus: "completed", processingStartedAt: "2025-03-02T08:00:00.000Z" });
    const unpaid = await insertOrder(db(), { userId: user.id, status: "cancelled", paymentStatus: "cancelled" });
    const first = await nextNumber();
    expect(await numberUninvoicedPaidOrders(db())).toBe(2);
    expect(await invoiceOf(older.id)).toMatchObject({ number: first, issuedAt: "2025-01-02T08:00:00.000Z" });
    expect((await invoiceOf(newer.id)).number).toBe(first + 1);
    expect((await invoiceOf(unpaid.id)).number).toBeNull();
    expect(await nextNumber()).toBe(first + 2);
    expect(await numberUninvoicedPaidOrders(db())).toBe(0);
  });

  it("the database refuses a duplicate number", async () => {
    const a = await pendingOrder();
    const b = await pendingOrder();
    await setPaymentStatus(db(), a.id, "completed");
    const { number } = await invoiceOf(a.id);
    await expect(db().updateTable("orders").set({ invoice_number: number }).where("id", "=", b.id).execute()).rejects.toThrow();
  });

  it(`runs on ${isPostgres(getDb()) ? "PostgreSQL" : "SQLite"}`, () => {
    expect(true).toBe(true);
  });
});
