import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Reminders by WhatsApp (issue 34 point 2; docs/decisions/056 addendum).
 *
 * - `whatsapp_subscriptions.marketing_opted_in_at`: when the person agreed to reminders on WhatsApp (marketing, POPIA
 *   s69: a purpose of its own beside order updates); null while they have not. It goes to the subscription's number
 *   and ends with it (STOP, the profile's stop, the e-mail's stop link).
 * - `whatsapp_messages.order_id` may be null (a cart's reminder belongs to no order) and `reminder_id` names the
 *   reminder a message carries. SQLite cannot drop a NOT NULL, so there the table is rebuilt with its rows and indexes.
 * - `sample_credits` (docs/decisions/054 addendum), for a paid order the owner cancels and may reopen:
 *   `returned_by_order_id` — a credit that order used, given back to the shopper (reopening takes it again);
 *   `revoked_at` — a credit that order granted, taken back unused (reopening restores it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("whatsapp_subscriptions").addColumn("marketing_opted_in_at", t.timestamp).execute();
  await db.schema.alterTable("sample_credits").addColumn("returned_by_order_id", "text").execute();
  await db.schema.alterTable("sample_credits").addColumn("revoked_at", t.timestamp).execute();
  if (t.timestamp === "timestamptz") {
    await sql`alter table whatsapp_messages alter column order_id drop not null`.execute(db);
    await db.schema.alterTable("whatsapp_messages").addColumn("reminder_id", "text", (c) => c.references("reminders.id").onDelete("set null")).execute();
    return;
  }
  await db.schema
    .createTable("whatsapp_messages_0043")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "text", (c) => c.references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("to_phone", "text", (c) => c.notNull())
    .addColumn("template", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull())
    .addColumn("params", t.json, (c) => c.notNull().defaultTo(t.emptyJsonArray))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("is_test", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", t.timestamp, (c) => c.notNull())
    .addColumn("claim_token", "text")
    .addColumn("lease_until", t.timestamp)
    .addColumn("wamid", "text")
    .addColumn("error", "text")
    .addColumn("email_id", "text")
    .addColumn("email_covered_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("sent_at", t.timestamp)
    .addColumn("delivered_at", t.timestamp)
    .addColumn("read_at", t.timestamp)
    .addColumn("failed_at", t.timestamp)
    .addColumn("reminder_id", "text", (c) => c.references("reminders.id").onDelete("set null"))
    .execute();
  const columns = sql.raw(
    "id, dedupe_key, order_id, user_id, event, to_phone, template, language, params, status, is_test, attempts, next_attempt_at, claim_token, lease_until, wamid, error, email_id, email_covered_at, created_at, updated_at, sent_at, delivered_at, read_at, failed_at",
  );
  await sql`insert into whatsapp_messages_0043 (${columns}) select ${columns} from whatsapp_messages`.execute(db);
  await db.schema.dropTable("whatsapp_messages").execute();
  await db.schema.alterTable("whatsapp_messages_0043").renameTo("whatsapp_messages").execute();
  await db.schema.createIndex("whatsapp_messages_due_idx").on("whatsapp_messages").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("whatsapp_messages_order_idx").on("whatsapp_messages").columns(["order_id", "created_at"]).execute();
  await db.schema.createIndex("whatsapp_messages_wamid_idx").on("whatsapp_messages").column("wamid").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // a cart's reminder messages have no order: they cannot go back into the older table
  await db.deleteFrom("whatsapp_messages").where("order_id", "is", null).execute();
  await db.schema.alterTable("whatsapp_messages").dropColumn("reminder_id").execute();
  if (columnTypes(db).timestamp === "timestamptz") await sql`alter table whatsapp_messages alter column order_id set not null`.execute(db);
  await db.schema.alterTable("whatsapp_subscriptions").dropColumn("marketing_opted_in_at").execute();
  await db.schema.alterTable("sample_credits").dropColumn("revoked_at").execute();
  await db.schema.alterTable("sample_credits").dropColumn("returned_by_order_id").execute();
}
