import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * WhatsApp order updates (issue 34 point 1, docs/decisions/055).
 *
 * - `whatsapp_subscriptions`: one row per person who ever opted in: the number their updates go to (international
 *   digits, as the Cloud API's `to` and the webhooks' `wa_id`), when they opted in, and when they opted out (null
 *   while they get updates). The consent log (`consents`) keeps every change with its wording; this row is the
 *   current state the sender reads. Looked up by number when a "STOP" reply arrives.
 * - `whatsapp_messages`: the outbox, one row per order and event (`dedupe_key` unique: the same news is never queued
 *   twice, whatever calls twice). `status` queued → sending (claimed, `claim_token` and `lease_until`) → sent →
 *   delivered → read, or failed / skipped; each webhook status stamps its own column once (`sent_at`, `delivered_at`,
 *   `read_at`, `failed_at`). `wamid` is the Cloud API's id for the message (the webhooks name it). `email_id` is the
 *   e-mail sent for the same event, which covers a failed message (`email_covered_at`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("whatsapp_subscriptions")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("opted_in_at", t.timestamp, (c) => c.notNull())
    .addColumn("opted_out_at", t.timestamp)
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("whatsapp_subscriptions_phone_idx").on("whatsapp_subscriptions").column("phone").execute();

  await db.schema
    .createTable("whatsapp_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
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
    .execute();
  // the sender's question every few seconds: what is due (queued, or a lapsed claim)
  await db.schema.createIndex("whatsapp_messages_due_idx").on("whatsapp_messages").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("whatsapp_messages_order_idx").on("whatsapp_messages").columns(["order_id", "created_at"]).execute();
  await db.schema.createIndex("whatsapp_messages_wamid_idx").on("whatsapp_messages").column("wamid").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("whatsapp_messages").execute();
  await db.schema.dropTable("whatsapp_subscriptions").execute();
}
