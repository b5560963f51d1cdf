import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Gift cards (issue 33 point 3, docs/decisions/053).
 *
 * - `gift_cards`: one card. Its code is never stored: only the SHA-256 of the normalised code (looked up by it) and
 *   the last four characters (shown to the owner and the shopper). `balance_cents` is the sum of the card's ledger,
 *   written in the same transaction as each ledger row; spending is one conditional UPDATE on it
 *   (`balance_cents >= amount`), so concurrent checkouts can never take more than the card holds.
 * - `gift_card_ledger`: every change to a card's balance with who made it and when: issue (+), redemption (−, held by
 *   an order), release (+, the order closed unpaid), refund (+, a paid order cancelled), expiry (−), cancel (−).
 * - `orders.gift_card_cents`: what gift cards pay of the order; the payment provider (or the EFT) is asked for the
 *   rest. The order's total, and the VAT in it, stay those of the goods and delivery (VAT Act s10(18)).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("gift_cards")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("initial_cents", "integer", (c) => c.notNull().check(sql`initial_cents > 0`))
    .addColumn("balance_cents", "integer", (c) => c.notNull().check(sql`balance_cents >= 0`))
    /** how many ledger entries the card has: the next entry's position (taken by the same UPDATE as the balance) */
    .addColumn("entry_count", "integer", (c) => c.notNull().defaultTo(0))
    /** active, or cancelled by the owner (its balance void) */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("recipient_email", "text")
    .addColumn("note", "text")
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    /** who issued it: admin (by hand) or system (sold); the admin's user id when by hand */
    .addColumn("issued_by_kind", "text", (c) => c.notNull())
    .addColumn("issued_by", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("gift_cards_recipient_idx").on("gift_cards").column("recipient_email").execute();
  await db.schema.createIndex("gift_cards_last4_idx").on("gift_cards").column("last4").execute();
  await db.schema.createIndex("gift_cards_expiry_idx").on("gift_cards").columns(["status", "expires_at"]).execute();

  await db.schema
    .createTable("gift_card_ledger")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("gift_card_id", "text", (c) => c.notNull().references("gift_cards.id").onDelete("cascade"))
    /** 1, 2, 3… per card: the ledger's order (entries written within one millisecond still read in order) */
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    /** signed: + adds to the balance, − takes from it */
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("balance_after_cents", "integer", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("note", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("gift_card_ledger_card_idx").on("gift_card_ledger").columns(["gift_card_id", "position"]).unique().execute();
  await db.schema.createIndex("gift_card_ledger_order_idx").on("gift_card_ledger").column("order_id").execute();

  await db.schema.alterTable("orders").addColumn("gift_card_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("gift_card_cents").execute();
  await db.schema.dropTable("gift_card_ledger").execute();
  await db.schema.dropTable("gift_cards").execute();
}
