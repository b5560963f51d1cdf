/**
 * The orders area's writes for the areas and flows above it (issue 39 point 1: each table has one owning area;
 * app/modules/table-owners.test.ts): every change another area makes to `orders` or `order_lines` is one of these
 * functions, named for what it does. Each runs on the caller's database or transaction and decides nothing itself:
 * the flows (app/modules/flows/) say when. The conditional ones (pending/pending, no invoice number yet…) answer
 * whether they changed the row, so of two racing callers exactly one wins.
 */
import { sql, type Insertable } from "kysely";
import type { Queryable } from "~/db/db.server";
import type { OrderLinesTable, OrdersTable, PaymentStatus, ShippingAddress } from "~/db/schema";

/** An address as stored on the order (what is left of one after its erasure: any of its fields). */
type ShippingAddressJson = Partial<ShippingAddress>;

/** A new order's row, as the placing flow stores it. */
export type NewOrderRow = Insertable<OrdersTable>;
/** A new order line's row. */
export type NewOrderLineRow = Insertable<OrderLinesTable>;

function changed(result: { numUpdatedRows: bigint | number }): boolean {
  return Number(result.numUpdatedRows) === 1;
}

/** Stores a placed order and its lines (the lines in one statement). */
export async function insertOrder(db: Queryable, order: NewOrderRow, lines: readonly NewOrderLineRow[]): Promise<void> {
  await db.insertInto("orders").values(order).execute();
  if (lines.length > 0) await db.insertInto("order_lines").values([...lines]).execute();
}

/** Deletes an order (its lines, metrics and the rows hanging off it go with it by their foreign keys). */
export async function deleteOrderRow(db: Queryable, orderId: string): Promise<void> {
  await db.deleteFrom("orders").where("id", "=", orderId).execute();
}

/** pending/pending → processing, payment completed, processing started now; false when it was not pending/pending. */
export async function setOrderPaidIfPending(db: Queryable, orderId: string, now: Date): Promise<boolean> {
  const stamp = now.toISOString();
  const result = await db
    .updateTable("orders")
    .set({ status: "processing", payment_status: "completed", processing_started_at: stamp, updated_at: stamp })
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .where("payment_status", "=", "pending")
    .executeTakeFirst();
  return changed(result);
}

/**
 * pending/pending → cancelled with the given payment status (failed or cancelled); `userId` narrows it to the owner's
 * order. False when it was not pending/pending (another closer or a payment won).
 */
export async function setUnpaidOrderClosed(db: Queryable, orderId: string, paymentStatus: PaymentStatus, now: Date, userId?: string): Promise<boolean> {
  const stamp = now.toISOString();
  let update = db
    .updateTable("orders")
    .set({ status: "cancelled", payment_status: paymentStatus, updated_at: stamp })
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .where("payment_status", "=", "pending");
  if (userId !== undefined) update = update.where("user_id", "=", userId);
  return changed(await update.executeTakeFirst());
}

/**
 * Records how a pending/pending order is being paid: the provider (and its checkout id and page, when there is one).
 * `onlyWhenGiftCardsCover`: only when its gift cards hold its whole total. False when the order was not pending/pending
 * (or its cards did not cover it).
 */
export async function setOrderPaymentProvider(
  db: Queryable,
  orderId: string,
  payment: { provider: string; paymentId?: string; checkoutUrl?: string; onlyWhenGiftCardsCover?: boolean },
  now: Date = new Date(),
): Promise<boolean> {
  let update = db
    .updateTable("orders")
    .set({
      payment_provider: payment.provider,
      ...(payment.paymentId !== undefined ? { payment_id: payment.paymentId } : {}),
      ...(payment.checkoutUrl !== undefined ? { checkout_url: payment.checkoutUrl } : {}),
      updated_at: now.toISOString(),
    })
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .where("payment_status", "=", "pending");
  if (payment.onlyWhenGiftCardsCover) update = update.whereRef("gift_card_cents", ">=", "total_amount_cents");
  return changed(await update.executeTakeFirst());
}

/** What the order's gift cards pay of it. */
export async function setOrderGiftCardCents(db: Queryable, orderId: string, cents: number): Promise<void> {
  await db.updateTable("orders").set({ gift_card_cents: cents }).where("id", "=", orderId).execute();
}

/** The order's invoice number and its date, when it has none yet; false when it had one already. */
export async function setOrderInvoiceNumber(db: Queryable, orderId: string, number: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("orders")
    .set({ invoice_number: number, invoice_issued_at: now.toISOString() })
    .where("id", "=", orderId)
    .where("invoice_number", "is", null)
    .executeTakeFirst();
  return changed(result);
}

/** The order's tracking number (a courier's waybill). */
export async function setOrderTrackingNumber(db: Queryable, orderId: string, trackingNumber: string, now: Date): Promise<void> {
  await db.updateTable("orders").set({ tracking_number: trackingNumber, updated_at: now.toISOString() }).where("id", "=", orderId).execute();
}

/** Forgets the order's tracking number when it is still `trackingNumber` (an owner's own number stays). */
export async function clearOrderTrackingNumber(db: Queryable, orderId: string, trackingNumber: string | null, now: Date): Promise<void> {
  await db
    .updateTable("orders")
    .set({ tracking_number: null, updated_at: now.toISOString() })
    .where("id", "=", orderId)
    .where("tracking_number", "=", trackingNumber)
    .execute();
}

/** The words the order keeps for the sample credits it used (once their names are erased). */
export async function setOrderSampleCreditLabel(db: Queryable, orderId: string, label: string | null): Promise<void> {
  await db.updateTable("orders").set({ sample_credit_label: label }).where("id", "=", orderId).execute();
}

/** Flags a line whose stock had run out when the order was paid (`quantity` of it short). */
export async function setOrderLineStockShort(db: Queryable, lineId: string, quantity: number): Promise<void> {
  await db.updateTable("order_lines").set({ stock_short: quantity }).where("id", "=", lineId).execute();
}

/** `quantity` of what the line took from stock given back (a return restocked): never below 0. */
export async function giveBackLineStockTaken(db: Queryable, lineId: string, quantity: number): Promise<void> {
  await db
    .updateTable("order_lines")
    .set({ stock_taken: sql<number>`case when stock_taken > ${quantity} then stock_taken - ${quantity} else 0 end` })
    .where("id", "=", lineId)
    .execute();
}

/** Forgets the order's notes and checkout token (an account deleted whose order is kept as the tax record). */
export async function forgetOrderNotes(db: Queryable, orderId: string, now: Date): Promise<void> {
  await db.updateTable("orders").set({ notes: null, checkout_token: null, updated_at: now.toISOString() }).where("id", "=", orderId).execute();
}

/**
 * Erases the order's personal details once: its address replaced by `erasedAddress` (what privacy keeps of it), notes
 * and checkout token forgotten, the erasure stamped. False when it was erased before.
 */
export async function eraseOrderPersonalData(db: Queryable, orderId: string, erasedAddress: ShippingAddressJson, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("orders")
    .set({ shipping_address: JSON.stringify(erasedAddress), notes: null, checkout_token: null, personal_data_erased_at: now.toISOString(), updated_at: now.toISOString() })
    .where("id", "=", orderId)
    .where("personal_data_erased_at", "is", null)
    .executeTakeFirst();
  return changed(result);
}
