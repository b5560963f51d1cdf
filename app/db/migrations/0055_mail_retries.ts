import type { Kysely } from "kysely";
import { sql } from "kysely";
import { columnTypes } from "./column-types";

/**
 * E-mail that SMTP refused is tried again (app/modules/mail/mail-retries.server.ts): `attempts` counts the sends
 * tried, `retry_at` says when the next one is due (null: sent, given up, never failed, or not retryable), and
 * `reply_to` keeps the one header the stored row lacked (the contact form's replies), so a retry sends what the first
 * try would have. Rows from before stay as they are: nothing old is sent again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("mail_outbox").addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("mail_outbox").addColumn("retry_at", t.timestamp).execute();
  await db.schema.alterTable("mail_outbox").addColumn("reply_to", "text").execute();
  // the job's read: the few messages due, soonest first (a partial index: the outbox's sent rows are never in it)
  await sql`create index mail_outbox_retry_idx on mail_outbox (retry_at) where retry_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("mail_outbox_retry_idx").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("reply_to").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("retry_at").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("attempts").execute();
}
