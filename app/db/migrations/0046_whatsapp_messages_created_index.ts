import type { Kysely } from "kysely";

/**
 * The retention job finds WhatsApp messages by age (`created_at <` the cut-offs: the words erased after
 * RETENTION_MAIL_BODY_DAYS, the record deleted after RETENTION_CONTACT_MONTHS; docs/decisions/040 and 055). Without an
 * index on `created_at` both statements read the whole outbox every run, which grows by every order update and
 * reminder sent; `whatsapp_messages_order_idx` starts with `order_id` and can't serve them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("whatsapp_messages_created_idx").on("whatsapp_messages").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("whatsapp_messages_created_idx").execute();
}
