import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The consent log and marketing announcements (issue 21 points 1 and 2, docs/decisions/039).
 *
 * - `consents`: every consent given or withdrawn, one row each, never updated: who (`user_id`, and `email` as it was
 *   then: the row outlives an account, whose deletion sets `user_id` null and may blank the address), what for
 *   (`purpose`: marketing_email, terms, privacy_notice), which `version` and the exact `wording` shown, `granted`
 *   or withdrawn, where (`source`: register, profile, checkout, unsubscribe, admin), the admin who made the change
 *   (`actor_user_id`), when. Read per person oldest first (the index) and as a whole in time order (the CSV).
 * - `announcements`: what the owner writes (subject, text, up to two products) and where its sending stands:
 *   draft → sending (queued: its recipients listed) → sent.
 * - `announcement_recipients`: one row per announcement and person, listed when the owner presses Send (everyone
 *   opted in at that moment). The primary key is what makes "never twice to one person" hold, whatever the number of
 *   processes or restarts; `status` moves pending → sending (claimed by one sender, `outbox_id` chosen before the
 *   e-mail is written) → sent | failed | skipped (no longer opted in when their turn came).
 * - `mail_outbox.list_unsubscribe`: the one-click unsubscribe address a marketing e-mail was sent with (its
 *   List-Unsubscribe header, RFC 8058), so the outbox keeps what was sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("consents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("email", "text")
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("wording", "text", (c) => c.notNull())
    .addColumn("granted", t.bool, (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("consents_user_created_idx").on("consents").columns(["user_id", "created_at"]).execute();
  // The whole log in time order, a batch at a time (the CSV download): keyset pagination on (created_at, id).
  await db.schema.createIndex("consents_created_idx").on("consents").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("announcements")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("product_ids", t.json, (c) => c.notNull().defaultTo(t.emptyJsonArray))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("queued_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("recipients_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("queued_at", t.timestamp)
    .addColumn("finished_at", t.timestamp)
    .execute();
  await db.schema.createIndex("announcements_status_idx").on("announcements").columns(["status", "queued_at"]).execute();

  await db.schema
    .createTable("announcement_recipients")
    .addColumn("announcement_id", "text", (c) => c.notNull().references("announcements.id").onDelete("cascade"))
    // A person deleted before their turn is never written to (their row goes with them).
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("outbox_id", "text")
    .addColumn("error", "text")
    .addColumn("claimed_at", t.timestamp)
    .addColumn("sent_at", t.timestamp)
    .addPrimaryKeyConstraint("announcement_recipients_pk", ["announcement_id", "user_id"])
    .execute();
  // The sender's question, every few seconds: the next pending recipients of the announcements being sent.
  await db.schema.createIndex("announcement_recipients_status_idx").on("announcement_recipients").columns(["announcement_id", "status"]).execute();

  await db.schema.alterTable("mail_outbox").addColumn("list_unsubscribe", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mail_outbox").dropColumn("list_unsubscribe").execute();
  await db.schema.dropTable("announcement_recipients").execute();
  await db.schema.dropTable("announcements").execute();
  await db.schema.dropTable("consents").execute();
}
