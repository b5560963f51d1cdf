import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * A person's data and how long the shop keeps it (issue 21 points 3–5, docs/decisions/040):
 *
 * - `privacy_requests`: the record of each "Download my data" (POPIA s23) and each account deletion (s24): who asked
 *   (the person, or an admin on their behalf), when, and what was done, as counts (`summary`, JSON). An erasure's row
 *   names nobody: its subject is gone; an export's row names its user until that account is deleted.
 * - `retention_runs`: each run of the daily retention job (POPIA s14): when, in which process, what it erased
 *   (`summary`, JSON counts per rule) or why it failed. Admin → Privacy shows the last runs.
 * - `orders.personal_data_erased_at`: when an order's personal details (name, telephone, address) were erased, by the
 *   retention job or an account deletion. The order, its lines and amounts stay; the mark keeps the job from
 *   rewriting the same order every day and says on the order why its address is blank.
 * - lower-case e-mail indexes on `mail_outbox.to_address` and `contact_messages.email`: a download and a deletion find
 *   a person's e-mails and messages by address without reading the whole table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("privacy_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('export', 'erasure')`))
    .addColumn("requested_by", "text", (c) => c.notNull().check(sql`requested_by in ('self', 'admin')`))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("summary", t.json, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("privacy_requests_created_idx").on("privacy_requests").column("created_at").execute();
  await db.schema.createIndex("privacy_requests_user_idx").on("privacy_requests").column("user_id").execute();

  await db.schema
    .createTable("retention_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("started_at", t.timestamp, (c) => c.notNull())
    .addColumn("finished_at", t.timestamp)
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull().check(sql`outcome in ('running', 'done', 'failed')`))
    .addColumn("summary", t.json)
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("retention_runs_started_idx").on("retention_runs").column("started_at").execute();

  await db.schema.alterTable("orders").addColumn("personal_data_erased_at", t.timestamp).execute();

  await db.schema.createIndex("mail_outbox_to_lower_idx").on("mail_outbox").expression(sql`lower(to_address)`).execute();
  await db.schema.createIndex("contact_messages_email_lower_idx").on("contact_messages").expression(sql`lower(email)`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("contact_messages_email_lower_idx").execute();
  await db.schema.dropIndex("mail_outbox_to_lower_idx").execute();
  await db.schema.alterTable("orders").dropColumn("personal_data_erased_at").execute();
  await db.schema.dropTable("retention_runs").execute();
  await db.schema.dropTable("privacy_requests").execute();
}
