/**
 * A person's WhatsApp order updates for "Download my data", "Delete my account" and the retention job (POPIA s23,
 * s24, s14; docs/decisions/040 and 055). The messages are treated like the shop's e-mails (mail_outbox): their number
 * and words (`to_phone`, `params`, and Graph's error, which may quote the number) are erased after
 * RETENTION_MAIL_BODY_DAYS and the record after RETENTION_CONTACT_MONTHS; a deleted account takes its subscription and
 * its messages with it.
 */
import type { ExpressionBuilder } from "kysely";
import type { Queryable } from "~/db/db.server";
import type { Database, WhatsappMessageStatus } from "~/db/schema";

export interface PersonWhatsapp {
  subscription: { phone: string; on: boolean; optedInAt: string; optedOutAt: string | null } | null;
  messages: Array<{
    /** null for a cart reminder (no order) */
    orderId: string | null;
    event: string;
    status: WhatsappMessageStatus;
    /** empty once erased by the retention job */
    phone: string;
    createdAt: string;
    sentAt: string | null;
    deliveredAt: string | null;
    readAt: string | null;
    failedAt: string | null;
  }>;
}

/** The messages of a person: queued for their account, or about their orders. */
const ofPerson = (userId: string) => (eb: ExpressionBuilder<Database, "whatsapp_messages">) =>
  eb.or([eb("user_id", "=", userId), eb("order_id", "in", eb.selectFrom("orders").select("id").where("user_id", "=", userId))]);

export async function whatsappOfPerson(db: Queryable, userId: string): Promise<PersonWhatsapp> {
  const [subscription, messages] = await Promise.all([
    db.selectFrom("whatsapp_subscriptions").select(["phone", "opted_in_at", "opted_out_at"]).where("user_id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("whatsapp_messages")
      .where(ofPerson(userId))
      .select(["order_id", "event", "status", "to_phone", "created_at", "sent_at", "delivered_at", "read_at", "failed_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute(),
  ]);
  return {
    subscription: subscription ? { phone: subscription.phone, on: subscription.opted_out_at === null, optedInAt: subscription.opted_in_at, optedOutAt: subscription.opted_out_at } : null,
    messages: messages.map((m) => ({
      orderId: m.order_id,
      event: m.event,
      status: m.status,
      phone: m.to_phone,
      createdAt: m.created_at,
      sentAt: m.sent_at,
      deliveredAt: m.delivered_at,
      readAt: m.read_at,
      failedAt: m.failed_at,
    })),
  };
}

/** The account is being deleted (in the caller's transaction): its number and every message to it go. */
export async function deleteWhatsappOfPerson(trx: Queryable, userId: string): Promise<{ subscriptions: number; messages: number }> {
  const messages = await trx.deleteFrom("whatsapp_messages").where(ofPerson(userId)).executeTakeFirstOrThrow();
  const subscriptions = await trx.deleteFrom("whatsapp_subscriptions").where("user_id", "=", userId).executeTakeFirstOrThrow();
  return { subscriptions: Number(subscriptions.numDeletedRows), messages: Number(messages.numDeletedRows) };
}

/**
 * The retention job's rule for the WhatsApp outbox: records created before `recordBefore` are deleted; the number and
 * words of those created before `textBefore` are erased (a message still queued or being sent is left alone: the
 * sender needs them, and none is still waiting weeks later). Conditional, so two runs erase each row once.
 */
export async function eraseOldWhatsappMessages(db: Queryable, cut: { textBefore: string; recordBefore: string }): Promise<{ texts: number; records: number }> {
  const records = await db.deleteFrom("whatsapp_messages").where("created_at", "<", cut.recordBefore).executeTakeFirstOrThrow();
  const texts = await db
    .updateTable("whatsapp_messages")
    .set({ to_phone: "", params: JSON.stringify([]), error: null })
    .where("created_at", "<", cut.textBefore)
    .where("status", "not in", ["queued", "sending"])
    .where("to_phone", "<>", "")
    .executeTakeFirstOrThrow();
  return { texts: Number(texts.numUpdatedRows), records: Number(records.numDeletedRows) };
}
