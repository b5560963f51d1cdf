/**
 * Invoice numbers (docs/decisions/019): one sequence, no gaps, no duplicates, one number per order for good.
 *
 * `allocateInvoiceNumber` runs inside the transaction that confirms the payment (markOrderPaid, and the owner's
 * payment change to completed), after the order row was updated (so on PostgreSQL that row is locked): it takes the
 * counter's next number with one `update … set next_number = next_number + 1 … returning`. PostgreSQL holds that
 * row's lock until the commit, so concurrent confirmations take numbers one after another; SQLite has one writer.
 * If the transaction rolls back, the increment rolls back with it and the number is given to the next payment: no
 * gap. The unique index on orders.invoice_number makes a duplicate impossible whatever happens.
 */
import { inTransaction } from "~/db/in-transaction.server";
import { sql } from "kysely";
import type { Queryable, Trx } from "~/db/db.server";
import { setOrderInvoiceNumber } from "~/modules/orders/order-writes.server";

/**
 * The order's invoice number, allocating the next one when it has none yet. An order keeps the number it was given
 * first: a payment confirmed again (reopened, set back to pending and completed again) does not take another.
 * Call it last in the confirming transaction: the counter's row stays locked until the commit.
 */
export async function allocateInvoiceNumber(trx: Trx, orderId: string, now: Date = new Date()): Promise<number> {
  const order = await trx.selectFrom("orders").select("invoice_number").where("id", "=", orderId).executeTakeFirst();
  if (!order) throw new Error(`allocateInvoiceNumber: no order ${orderId}`);
  if (order.invoice_number !== null) return Number(order.invoice_number);
  const number = await takeNextNumber(trx, "invoice_counter");
  // Only a caller that did not hold the order's row (against the contract above) could race here; refuse rather
  // than leave a gap behind: the whole transaction rolls back, increment included.
  if (!(await setOrderInvoiceNumber(trx, orderId, number, now))) throw new Error(`allocateInvoiceNumber: order ${orderId} was numbered concurrently`);
  return number;
}

/**
 * Takes the next number of a document series kept in a one-row counter table (invoices; credit notes, migration 0026):
 * one `update … set next_number = next_number + 1 … returning` in the caller's transaction, so the row stays locked
 * until its commit (PostgreSQL; SQLite has one writer) and a rollback gives the number back. Call it last.
 */
export async function takeNextNumber(trx: Trx, counter: "invoice_counter" | "credit_note_counter"): Promise<number> {
  const row = await trx
    .updateTable(counter)
    .set((eb) => ({ next_number: eb("next_number", "+", 1) }))
    .where("id", "=", 1)
    .returning("next_number")
    .executeTakeFirstOrThrow();
  return Number(row.next_number) - 1;
}

/**
 * Numbers paid orders that have none, oldest payment first (orders written directly by a bulk seed). Migration
 * 0008 did the same for the orders paid before invoices existed. One transaction: the counter moves with them.
 */
export async function numberUninvoicedPaidOrders(db: Queryable): Promise<number> {
  const run = async (trx: Queryable) => {
    // A no-op update first: it locks the counter's row (PostgreSQL) before we read it.
    const next = await trx
      .updateTable("invoice_counter")
      .set((eb) => ({ next_number: eb.ref("next_number") }))
      .where("id", "=", 1)
      .returning("next_number")
      .executeTakeFirstOrThrow();
    const first = Number(next.next_number);
    const result = await sql`
      update orders set invoice_number = numbered.n + ${first - 1}, invoice_issued_at = numbered.issued
      from (
        select id, coalesce(processing_started_at, created_at) as issued,
               row_number() over (order by coalesce(processing_started_at, created_at), created_at, id) as n
        from orders where payment_status = 'completed' and invoice_number is null
      ) as numbered
      where orders.id = numbered.id`.execute(trx);
    const count = Number(result.numAffectedRows ?? 0);
    await trx.updateTable("invoice_counter").set({ next_number: first + count }).where("id", "=", 1).execute();
    return count;
  };
  return inTransaction(db, run);
}
