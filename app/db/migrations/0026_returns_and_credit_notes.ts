import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Returns within the cooling-off period and credit notes (issue 21 point 8, docs/decisions/041).
 *
 * - `returns`: one shopper's request to send back items of one delivered order, and everything that happens to it:
 *   `status` requested → approved | declined → received → refunded; the kind (ECTA s44 cooling-off, or CPA s56 a
 *   faulty item), the reason and note the shopper gave, the owner's message, when each step happened, when the refund
 *   is due (30 days after the request: ECTA s44(3)), and once refunded the amount, how it was paid out (through the
 *   payment provider or by the owner's EFT), the provider's refund reference and whether the payout is confirmed.
 *   At most one open return (requested, approved or received) per order: a partial unique index, so a double submit
 *   or two tabs can't open two.
 * - `return_lines`: the items and quantities asked back, a copy of each line's name and price (the order line may be
 *   edited later), and how many were put back on the shelf when they arrived.
 * - The refund's credit note is part of its return row: `credit_note_number` (unique, its own series) and
 *   `credit_note_issued_at`, with the amounts it states (goods, the share of the order's discount, delivery refunded).
 *   A credit note exists exactly when a refund does, one each; a separate table would only repeat the key.
 * - `credit_note_counter`: a one-row counter like `invoice_counter` (decision 019), taken in the refund's own
 *   transaction: no gaps, no duplicates, a rolled-back refund gives its number back.
 *
 * Amounts are integer cents. Returns follow their order (on delete cascade), as its lines and invoice number do.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("returns")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('requested', 'approved', 'declined', 'received', 'refunded')`))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('cooling_off', 'faulty')`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("opened", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("owner_message", "text")
    .addColumn("requested_at", t.timestamp, (c) => c.notNull())
    .addColumn("refund_due_at", t.timestamp, (c) => c.notNull())
    .addColumn("decided_at", t.timestamp)
    .addColumn("received_at", t.timestamp)
    .addColumn("refunded_at", t.timestamp)
    .addColumn("refund_cents", "integer", (c) => c.check(sql`refund_cents is null or refund_cents > 0`))
    .addColumn("refund_method", "text", (c) => c.check(sql`refund_method is null or refund_method in ('provider', 'eft')`))
    .addColumn("refund_provider", "text")
    .addColumn("refund_reference", "text")
    .addColumn("payout_status", "text", (c) => c.check(sql`payout_status is null or payout_status in ('pending', 'paid', 'failed')`))
    .addColumn("credit_note_number", "integer")
    .addColumn("credit_note_issued_at", t.timestamp)
    .addColumn("credit_goods_cents", "integer")
    .addColumn("credit_discount_cents", "integer")
    .addColumn("credit_delivery_cents", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("returns_order_idx").on("returns").column("order_id").execute();
  // The admin's tabs (status) in the order refunds fall due; the overdue ones first.
  await db.schema.createIndex("returns_status_due_idx").on("returns").columns(["status", "refund_due_at"]).execute();
  await db.schema.createIndex("returns_credit_note_number_idx").on("returns").column("credit_note_number").unique().execute();
  // A provider's refund event finds its return by the provider's refund id.
  await db.schema.createIndex("returns_refund_reference_idx").on("returns").columns(["refund_provider", "refund_reference"]).execute();
  await sql`create unique index returns_one_open_per_order on returns (order_id) where status in ('requested', 'approved', 'received')`.execute(db);

  await db.schema
    .createTable("return_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("return_id", "text", (c) => c.notNull().references("returns.id").onDelete("cascade"))
    .addColumn("order_line_id", "text", (c) => c.notNull().references("order_lines.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("unit_price_cents", "integer", (c) => c.notNull())
    .addColumn("restocked", "integer", (c) => c.notNull().defaultTo(0).check(sql`restocked >= 0`))
    .execute();
  await db.schema.createIndex("return_lines_return_idx").on("return_lines").column("return_id").execute();
  await db.schema.createIndex("return_lines_order_line_idx").on("return_lines").column("order_line_id").execute();

  await db.schema
    .createTable("credit_note_counter")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("next_number", "integer", (c) => c.notNull().check(sql`next_number >= 1`))
    .execute();
  await sql`insert into credit_note_counter (id, next_number) values (1, 1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("credit_note_counter").execute();
  await db.schema.dropTable("return_lines").execute();
  await db.schema.dropTable("returns").execute();
}
