import { PostgresAdapter, sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Issue 33 point 3 (docs/decisions/053, "Selling gift cards"): gift cards sold as cart lines and issued once paid.
 *
 * - `order_lines.gift_card`: 1 on a line that sells gift cards (no product, no size, no delivery, no VAT: VAT Act
 *   s10(18)); 0 on every other line.
 * - `gift_card_sales`: what such a line asked for: the amount of each card, how many, for whom (recipient's name and
 *   e-mail; null e-mail = for the buyer), the day to e-mail it (South African calendar date) and the message.
 * - `gift_cards.sale_id` + `sale_unit`: the card a sale's n-th unit issued; unique, so a replayed payment issues nothing
 *   more. `code_sealed`: a sold card's code, sealed (AES-256-GCM) so its printable card and its dated e-mail can show
 *   it (a hand-issued card keeps no code at all). `send_on`, `email_claimed_at`, `emailed_at`: its e-mail, sent once.
 *
 * - `returns.refund_to`: what the shopper chose at the request: 'original' (the payment, the default, ECTA s44) or
 *   'gift_card' (a new gift card, only when chosen); `refund_gift_card_cents`: the part of the refund that went to gift
 *   cards (back to the cards that paid, or the new card); `refund_gift_card_id`: the new card.
 *
 * Self-contained: it only adds tables and columns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("order_lines").addColumn("gift_card", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable("gift_card_sales")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("order_line_id", "text", (c) => c.notNull().references("order_lines.id").onDelete("cascade"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("recipient_name", "text")
    .addColumn("recipient_email", "text")
    .addColumn("sender_name", "text")
    .addColumn("message", "text")
    /** YYYY-MM-DD, South African calendar day */
    .addColumn("send_on", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("gift_card_sales_order_idx").on("gift_card_sales").column("order_id").execute();

  await db.schema.alterTable("gift_cards").addColumn("sale_id", "text", (c) => c.references("gift_card_sales.id").onDelete("set null")).execute();
  await db.schema.alterTable("gift_cards").addColumn("sale_unit", "integer").execute();
  await db.schema.alterTable("gift_cards").addColumn("code_sealed", "text").execute();
  await db.schema.alterTable("gift_cards").addColumn("send_on", "text").execute();
  await db.schema.alterTable("gift_cards").addColumn("email_claimed_at", t.timestamp).execute();
  await db.schema.alterTable("gift_cards").addColumn("emailed_at", t.timestamp).execute();
  await db.schema.createIndex("gift_cards_sale_unit_unique").on("gift_cards").columns(["sale_id", "sale_unit"]).unique().execute();
  await db.schema.createIndex("gift_cards_unsent_idx").on("gift_cards").columns(["emailed_at", "send_on"]).execute();

  await db.schema.alterTable("returns").addColumn("refund_to", "text", (c) => c.notNull().defaultTo("original")).execute();
  await db.schema.alterTable("returns").addColumn("refund_gift_card_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("returns").addColumn("refund_gift_card_id", "text", (c) => c.references("gift_cards.id").onDelete("set null")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const column of ["refund_gift_card_id", "refund_gift_card_cents", "refund_to"]) {
    if (postgres) await sql`alter table returns drop column ${sql.ref(column)}`.execute(db);
    else await db.schema.alterTable("returns").dropColumn(column).execute();
  }
  await db.schema.dropIndex("gift_cards_unsent_idx").execute();
  await db.schema.dropIndex("gift_cards_sale_unit_unique").execute();
  for (const column of ["emailed_at", "email_claimed_at", "send_on", "code_sealed", "sale_unit", "sale_id"]) {
    if (postgres) await sql`alter table gift_cards drop column ${sql.ref(column)}`.execute(db);
    else await db.schema.alterTable("gift_cards").dropColumn(column).execute();
  }
  await db.schema.dropTable("gift_card_sales").execute();
  if (postgres) await sql`alter table order_lines drop column gift_card`.execute(db);
  else await db.schema.alterTable("order_lines").dropColumn("gift_card").execute();
}
