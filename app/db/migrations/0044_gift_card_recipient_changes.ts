import { PostgresAdapter, sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The owner corrects a sold gift card's recipient or day, sends it now, or resends its e-mail (docs/decisions/053
 * addendum "Changing and resending a sold card").
 *
 * - `gift_cards.recipient_name`: a sold card's recipient, per card (a sale of two cards may end with two recipients
 *   once one is corrected); copied from its sale, null for a card for the buyer themself or issued by hand.
 * - `gift_cards.email_count`: how many times its e-mail left. A resend claims the card only while the count is the one
 *   the owner's page showed, so a double click (two posts of one page) sends once. Cards already e-mailed count 1.
 * - `gift_cards.email_claimed_at` is now cleared when an e-mail leaves (it marks a send in progress, nothing more), so
 *   the claim of a sent card is dropped here.
 * - `gift_card_changes`: each of the owner's changes to a card's e-mail (recipient, day, sent now, resent) with who,
 *   when and what it was before and after. The ledger keeps only money movements (its rows sum to the balance).
 *
 * Self-contained: it adds a table and columns and fills them from rows it reads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("gift_cards").addColumn("recipient_name", "text").execute();
  await db.schema.alterTable("gift_cards").addColumn("email_count", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await sql`update gift_cards set recipient_name = (select s.recipient_name from gift_card_sales s where s.id = gift_cards.sale_id) where sale_id is not null`.execute(db);
  await sql`update gift_cards set email_count = 1, email_claimed_at = null where emailed_at is not null`.execute(db);
  await db.schema
    .createTable("gift_card_changes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("gift_card_id", "text", (c) => c.notNull().references("gift_cards.id").onDelete("cascade"))
    /** recipient (name, e-mail or day changed), sent_now, resent */
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("before_name", "text")
    .addColumn("before_email", "text")
    .addColumn("before_send_on", "text")
    .addColumn("after_name", "text")
    .addColumn("after_email", "text")
    .addColumn("after_send_on", "text")
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("gift_card_changes_card_idx").on("gift_card_changes").columns(["gift_card_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable("gift_card_changes").execute();
  for (const column of ["email_count", "recipient_name"]) {
    if (postgres) await sql`alter table gift_cards drop column ${sql.ref(column)}`.execute(db);
    else await db.schema.alterTable("gift_cards").dropColumn(column).execute();
  }
}
