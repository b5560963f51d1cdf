import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Invoice numbers (docs/decisions/019): every paid order gets the next number of one sequence, once, when its payment
 * is confirmed, in the same transaction as the confirmation.
 *
 * - `invoice_counter` is a one-row table holding the next number. Allocation is an
 *   `update … set next_number = next_number + 1 … returning` inside the payment's transaction: PostgreSQL locks the
 *   row until the commit, SQLite has one writer, and a rolled-back transaction rolls its increment back with it, so
 *   the numbers have neither gaps nor duplicates (a PostgreSQL SEQUENCE would leave gaps: it never rolls back).
 * - `orders.invoice_number` (unique) and `orders.invoice_issued_at` (the date of issue) say which number an order has.
 *
 * Orders already paid when this runs are numbered now, in the order they were paid, so every paid order has one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("invoice_counter")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("next_number", "integer", (c) => c.notNull().check(sql`next_number >= 1`))
    .execute();
  await db.schema.alterTable("orders").addColumn("invoice_number", "integer").execute();
  await db.schema.alterTable("orders").addColumn("invoice_issued_at", t.timestamp).execute();
  await db.schema.createIndex("orders_invoice_number_idx").on("orders").column("invoice_number").unique().execute();

  // The orders paid before invoices existed, numbered by when they were paid (one statement on both databases).
  await sql`
    update orders set invoice_number = numbered.n, invoice_issued_at = numbered.issued
    from (
      select id, coalesce(processing_started_at, created_at) as issued,
             row_number() over (order by coalesce(processing_started_at, created_at), created_at, id) as n
      from orders where payment_status = 'completed'
    ) as numbered
    where orders.id = numbered.id`.execute(db);
  await sql`insert into invoice_counter (id, next_number) select 1, coalesce(max(invoice_number), 0) + 1 from orders`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("orders_invoice_number_idx").execute();
  await db.schema.alterTable("orders").dropColumn("invoice_issued_at").execute();
  await db.schema.alterTable("orders").dropColumn("invoice_number").execute();
  await db.schema.dropTable("invoice_counter").execute();
}
