/**
 * The WhatsApp outbox (docs/decisions/055): order updates are queued where the order's e-mails are sent, and sent by a
 * job (server/jobs.ts, `send-whatsapp`; also nudged right after a message is queued), with retries and backoff.
 *
 * Nobody without consent gets a message: a message is queued only for a person whose updates are on (the consent
 * log's current state, whatsapp_subscriptions), and asked again right before it is sent (an opt-out in between skips it).
 *
 * Never twice:
 * - one row per order and event (`dedupe_key` unique): a second call for the same news inserts nothing;
 * - a row is claimed before it is sent (queued → sending, conditional, with a claim token and a lease): of two
 *   processes only one sends it;
 * - it goes back to the queue only when the Cloud API answered that nothing was sent (unreachable, rate-limited, 5xx);
 *   when the answer was lost (a timeout) or a process died holding the claim (its lease lapsed), it may have gone, so
 *   it is never sent again: it is marked failed and the e-mail covers it.
 *
 * A failed message falls back to e-mail: the e-mail sent for the same event (its id recorded when queued) covers it,
 * and where the event has no e-mail of its own (booked, delivered) the message's own text goes by e-mail instead.
 */
import type { Queryable } from "~/db/db.server";
import type { WhatsappMessageStatus } from "~/db/schema";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { activeWhatsappNumber, whatsappReminderNumber } from "./subscriptions.server";
import { allTemplates, REMINDER_TEMPLATES, renderTemplate, WHATSAPP_EVENTS, TEMPLATES, type ReminderTemplateKind, type WhatsappEvent } from "./templates";
import { WhatsappSendError, type WhatsappClient } from "./whatsapp";
import { whatsappClient } from "./whatsapp.server";

/** A claim this old belonged to a process that stopped (a send gives up after 15 s). */
export const WHATSAPP_LEASE_MS = 2 * 60_000;
/** Tries in all before a message that keeps meeting "try again later" is given up (and the e-mail covers it). */
export const WHATSAPP_MAX_ATTEMPTS = 5;
/** The wait before each next try: 1 min, 5 min, 30 min, 2 h. */
export const WHATSAPP_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;

export function backoffMs(attempts: number): number {
  return WHATSAPP_BACKOFF_MS[Math.min(Math.max(attempts - 1, 0), WHATSAPP_BACKOFF_MS.length - 1)]!;
}

/** What an event needs beyond the order (the hooks know it; the order row does not). */
export interface UpdateDetails {
  /** the mail_outbox id of the e-mail sent for the same event: it covers the message if it fails */
  emailId?: string | null;
  /** booked: the courier as the shopper knows it */
  courier?: string;
  /** ready at a locker or point: the collection code */
  pin?: string | null;
  /** refunded: the return, the amount and how it was paid back */
  returnId?: string;
  amountCents?: number;
  how?: string;
}

let nudge: (() => void) | null = null;

/** The server's sender job registers itself here, so a queued message goes at once rather than at the next run. */
export function onWhatsappQueued(fn: (() => void) | null) {
  nudge = fn;
}

/** Meta refuses an empty parameter: a missing value reads as a dash. */
const filled = (values: Array<string | null | undefined>) => values.map((v) => (v && v.trim() ? v.trim() : "-"));

async function composeParams(db: Queryable, orderId: string, event: WhatsappEvent, details: UpdateDetails): Promise<string[] | null> {
  const order = await db
    .selectFrom("orders")
    .select(["id", "shipping_address", "total_amount_cents", "tracking_number", "delivery_point"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order) return null;
  const config = env();
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const name = order.shipping_address.name?.split(/\s+/)[0] || "there";
  const short = shortOrderId(order.id);
  const page = `${base}/order-confirmation?id=${order.id}`;
  const total = formatRand(Number(order.total_amount_cents));
  switch (event) {
    case "order_placed":
      return filled([name, short, total, short.toUpperCase(), `${base}/payment/eft/${order.id}`, config.SHOP_NAME]);
    case "payment_received":
      return filled([name, total, short, page, config.SHOP_NAME]);
    case "booked": {
      const shipment = await db.selectFrom("shipments").select(["tracking_reference", "tracking_url", "is_test"]).where("order_id", "=", orderId).where("status", "<>", "cancelled").executeTakeFirst();
      // a test courier's tracking address leads nowhere: the order's page shows the tracking instead
      const link = shipment?.tracking_url && !shipment.is_test ? shipment.tracking_url : page;
      return filled([name, short, details.courier, shipment?.tracking_reference ?? order.tracking_number, link, config.SHOP_NAME]);
    }
    case "ready_for_collection": {
      const point = order.delivery_point;
      return filled([name, short, point?.name, point ? `${point.streetAddress}, ${point.suburb}` : null, details.pin ?? `on your order's page, ${page}`, config.SHOP_NAME]);
    }
    case "delivered":
      return filled([name, short, page, config.SHOP_NAME]);
    case "refunded":
      return filled([name, formatRand(details.amountCents ?? 0), short, details.how, `${base}/orders/${order.id}/return`, config.SHOP_NAME]);
  }
}

/**
 * Writes one message into the outbox, once per dedupe key (an order's event, a cart's reminder), and wakes the sender.
 * Answers the new message's id, or null when that key was queued before.
 */
async function enqueue(
  db: Queryable,
  m: { dedupeKey: string; orderId: string | null; reminderId?: string; userId: string | null; event: string; phone: string; template: string; params: string[]; test: boolean; emailId: string | null },
  now: Date,
): Promise<string | null> {
  const id = newId();
  const stamp = now.toISOString();
  const inserted = await db
    .insertInto("whatsapp_messages")
    .values({
      id,
      dedupe_key: m.dedupeKey,
      order_id: m.orderId,
      ...(m.reminderId ? { reminder_id: m.reminderId } : {}),
      user_id: m.userId,
      event: m.event,
      to_phone: m.phone,
      template: m.template,
      language: env().WHATSAPP_TEMPLATE_LANGUAGE,
      params: JSON.stringify(m.params),
      status: "queued",
      is_test: m.test,
      next_attempt_at: stamp,
      email_id: m.emailId,
      created_at: stamp,
      updated_at: stamp,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return null;
  nudge?.();
  return id;
}

/**
 * Queues an order's update for its customer, when their WhatsApp updates are on (else nothing: no consent, no row).
 * Once per order and event (a refund: per return). Never throws: the order's change stands whatever happens here.
 */
export async function queueOrderUpdate(db: Queryable, orderId: string, event: WhatsappEvent, details: UpdateDetails = {}, now = new Date()): Promise<string | null> {
  try {
    const client = whatsappClient();
    if (!client) return null;
    const order = await db.selectFrom("orders").select(["id", "user_id"]).where("id", "=", orderId).executeTakeFirst();
    const phone = await activeWhatsappNumber(db, order?.user_id ?? null);
    if (!order || !phone) return null;
    const params = await composeParams(db, orderId, event, details);
    if (!params) return null;
    const template = TEMPLATES[event];
    return await enqueue(db, {
      dedupeKey: `${event}:${orderId}${details.returnId ? `:${details.returnId}` : ""}`,
      orderId,
      userId: order.user_id,
      event,
      phone,
      template: template.name,
      params,
      test: client.test,
      emailId: details.emailId ?? null,
    }, now);
  } catch (error) {
    logger.error({ err: error, orderId, event }, "whatsapp: update not queued");
    return null;
  }
}

/** The `event` of a reminder's message ("reminder:cart", "reminder:order"): never e-mailed in its place when it fails. */
const REMINDER_EVENT = "reminder:";

/** "Velvet Rose (50 ml) ×2, Oud Noir and 3 more": the items as one short parameter. */
export function itemsSummary(items: ReadonlyArray<{ name: string; quantity: number }>, max = 3): string {
  const named = items.slice(0, max).map((i) => (i.quantity > 1 ? `${i.name} ×${i.quantity}` : i.name));
  const more = items.length - named.length;
  return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
}

export interface ReminderMessage {
  reminderId: string;
  kind: ReminderTemplateKind;
  /** the cart's id or the order's: one message per cart or order, whoever queues it */
  subjectId: string;
  userId: string;
  orderId: string | null;
  name: string;
  items: ReadonlyArray<{ name: string; quantity: number }>;
  orderRef: string | null;
  url: string;
  /** the reminder's e-mail, when one went beside it */
  emailId: string | null;
}

/**
 * Queues a reminder's WhatsApp copy (docs/decisions/056 addendum) when the person agreed to reminders on WhatsApp
 * (else nothing). Once per cart or order (`dedupe_key`), whatever runs it again. Answers the message's id, or null.
 * Never throws: the reminder's e-mail stands whatever happens here.
 */
export async function queueReminderMessage(db: Queryable, m: ReminderMessage, now = new Date()): Promise<string | null> {
  try {
    const client = whatsappClient();
    const phone = client ? await whatsappReminderNumber(db, m.userId) : null;
    if (!client || !phone) return null;
    const first = m.name.split(/\s+/)[0] || "there";
    const items = itemsSummary(m.items);
    const params = filled(m.kind === "cart" ? [first, items, m.url, env().SHOP_NAME] : [first, m.orderRef, items, m.url, env().SHOP_NAME]);
    return await enqueue(db, {
      dedupeKey: `${REMINDER_EVENT}${m.kind}:${m.subjectId}`,
      orderId: m.orderId,
      reminderId: m.reminderId,
      userId: m.userId,
      event: `${REMINDER_EVENT}${m.kind}`,
      phone,
      template: REMINDER_TEMPLATES[m.kind].name,
      params,
      test: client.test,
      emailId: m.emailId,
    }, now);
  } catch (error) {
    logger.error({ err: error, reminderId: m.reminderId }, "whatsapp: reminder not queued");
    return null;
  }
}

export interface SenderRun {
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  /** lapsed claims settled as failed (they may have gone: never sent again) */
  lapsed: number;
}

/**
 * One run: settle lapsed claims, then claim and send up to `limit` due messages. Safe to run in several processes at
 * once: each message is sent by the one run whose claim took it.
 */
export async function sendDueWhatsappMessages(db: Queryable, options: { now?: Date; limit?: number; client?: WhatsappClient | null } = {}): Promise<SenderRun> {
  const now = options.now ?? new Date();
  const stamp = now.toISOString();
  const run: SenderRun = { sent: 0, retried: 0, failed: 0, skipped: 0, lapsed: 0 };
  const lapsed = await db.selectFrom("whatsapp_messages").select(["id", "claim_token"]).where("status", "=", "sending").where("lease_until", "<", stamp).execute();
  for (const l of lapsed) {
    if (await markFailed(db, l.id, "the sending process stopped before WhatsApp answered: it may have been sent, so it is not sent again", now, { claimToken: l.claim_token })) run.lapsed++;
  }
  const client = options.client === undefined ? whatsappClient() : options.client;
  if (!client) return run;
  const due = await db
    .selectFrom("whatsapp_messages")
    .select("id")
    .where("status", "=", "queued")
    .where("next_attempt_at", "<=", stamp)
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(options.limit ?? 20)
    .execute();
  for (const { id } of due) {
    const claimToken = newId();
    const claimed = await db
      .updateTable("whatsapp_messages")
      .set((eb) => ({ status: "sending" as WhatsappMessageStatus, claim_token: claimToken, lease_until: new Date(now.getTime() + WHATSAPP_LEASE_MS).toISOString(), attempts: eb("attempts", "+", 1), updated_at: stamp }))
      .where("id", "=", id)
      .where("status", "=", "queued")
      .where("next_attempt_at", "<=", stamp)
      .returning(["id", "order_id", "user_id", "event", "to_phone", "template", "language", "params", "attempts"])
      .executeTakeFirst();
    if (!claimed) continue; // another process took it
    // consent, asked again right before the message: a reminder's own (marketing), else the order updates'
    const reminder = claimed.event.startsWith(REMINDER_EVENT);
    const phone = reminder ? (claimed.user_id ? await whatsappReminderNumber(db, claimed.user_id) : null) : await activeWhatsappNumber(db, claimed.user_id);
    if (!phone) {
      const why = reminder ? "Reminders on WhatsApp were turned off before it was sent" : "WhatsApp updates were turned off before it was sent";
      await db.updateTable("whatsapp_messages").set({ status: "skipped", claim_token: null, lease_until: null, error: why, updated_at: stamp }).where("id", "=", id).where("claim_token", "=", claimToken).where("status", "=", "sending").execute();
      run.skipped++;
      continue;
    }
    try {
      const { wamid } = await client.sendTemplate({ to: phone, template: claimed.template, language: claimed.language, params: claimed.params, reference: id });
      // the wamid first; the status only if no webhook has already moved it further
      await db.updateTable("whatsapp_messages").set({ wamid, to_phone: phone, claim_token: null, lease_until: null, error: null, updated_at: stamp }).where("id", "=", id).where("claim_token", "=", claimToken).execute();
      await db.updateTable("whatsapp_messages").set({ status: "sent" }).where("id", "=", id).where("status", "=", "sending").execute();
      run.sent++;
    } catch (error) {
      const reason = error instanceof WhatsappSendError ? error : new WhatsappSendError(String((error as Error)?.message ?? error), "uncertain");
      if (reason.kind === "retry" && claimed.attempts < WHATSAPP_MAX_ATTEMPTS) {
        const next = new Date(now.getTime() + backoffMs(claimed.attempts)).toISOString();
        await db.updateTable("whatsapp_messages").set({ status: "queued", claim_token: null, lease_until: null, next_attempt_at: next, error: reason.message.slice(0, 500), updated_at: stamp }).where("id", "=", id).where("claim_token", "=", claimToken).where("status", "=", "sending").execute();
        run.retried++;
        logger.warn({ id, orderId: claimed.order_id, attempts: claimed.attempts, next }, `whatsapp: not sent, tried again later: ${reason.message}`);
      } else {
        const why = reason.kind === "retry" ? `${reason.message} (gave up after ${claimed.attempts} tries)` : reason.message;
        if (await markFailed(db, id, why, now, { claimToken })) run.failed++;
      }
    }
  }
  return run;
}

/**
 * Marks a message failed (once: conditional on it not being failed, delivered or read) and lets e-mail cover it.
 * `claimToken`: only while that claim holds it (the sender); unset: from the webhook (a sent message Meta could not
 * deliver). Answers whether this call made the change.
 */
export async function markFailed(db: Queryable, id: string, error: string, now: Date, options: { claimToken?: string | null; at?: string } = {}): Promise<boolean> {
  let query = db
    .updateTable("whatsapp_messages")
    .set({ status: "failed", failed_at: options.at ?? now.toISOString(), claim_token: null, lease_until: null, error: error.slice(0, 500), updated_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "in", ["queued", "sending", "sent"]);
  if (options.claimToken !== undefined) query = query.where("status", "=", "sending").where("claim_token", options.claimToken === null ? "is" : "=", options.claimToken);
  const failed = await query.returning(["id", "order_id", "user_id", "event", "template", "params", "email_id"]).executeTakeFirst();
  if (!failed) return false;
  logger.warn({ id, orderId: failed.order_id, error }, "whatsapp: message failed; the e-mail covers it");
  await coverByEmail(db, failed, now);
  return true;
}

/** The e-mail sent for the same event covers a failed message; where there was none, the message's text is e-mailed. */
async function coverByEmail(db: Queryable, m: { id: string; order_id: string | null; user_id: string | null; event: string; template: string; params: string[]; email_id: string | null }, now: Date) {
  try {
    let emailId = m.email_id;
    // A reminder is marketing: its text goes by e-mail only as the reminder's own e-mail, to those who agreed to it.
    if (!emailId && m.event.startsWith(REMINDER_EVENT)) return;
    if (!emailId) {
      const user = m.user_id ? await db.selectFrom("users").select("email").where("id", "=", m.user_id).executeTakeFirst() : undefined;
      const template = Object.values(TEMPLATES).find((t) => t.name === m.template);
      if (!user || !template || !m.order_id) return;
      const config = env();
      const sent = await sendMail(
        {
          to: user.email,
          subject: `${config.SHOP_NAME}: ${template.label.toLowerCase()}, order ${shortOrderId(m.order_id)}`,
          // the WhatsApp text as it would have read, without its WhatsApp-only last line
          text: renderTemplate(template.body, m.params).replace(/\n\nReply STOP[^\n]*$/, "") + `\n\n${config.SHOP_NAME}`,
          replyTo: config.CONTACT_EMAIL,
          kind: "transactional",
        },
        db,
      );
      emailId = sent.id;
    }
    await db.updateTable("whatsapp_messages").set({ email_id: emailId, email_covered_at: now.toISOString() }).where("id", "=", m.id).where("email_covered_at", "is", null).execute();
  } catch (error) {
    logger.error({ err: error, id: m.id }, "whatsapp: the e-mail covering a failed message could not be sent");
  }
}

export interface OrderMessage {
  id: string;
  event: string;
  label: string;
  status: WhatsappMessageStatus;
  test: boolean;
  to: string;
  text: string;
  attempts: number;
  error: string | null;
  emailCovered: boolean;
  /** its number and words were erased by the retention job (docs/decisions/040): only its kind, status and times remain */
  erased: boolean;
  createdAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
}

/** The WhatsApp messages of these orders, oldest first (the admin's order rows). */
export async function messagesForOrders(db: Queryable, orderIds: string[]): Promise<Map<string, OrderMessage[]>> {
  const byOrder = new Map<string, OrderMessage[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db.selectFrom("whatsapp_messages").selectAll().where("order_id", "in", orderIds).orderBy("created_at").orderBy("id").execute();
  // Two events in the same millisecond (a paid order delivered at once) read in their order in an order's life.
  const step = (event: string) => WHATSAPP_EVENTS.indexOf(event as WhatsappEvent);
  const at = (v: unknown) => new Date(v as string).getTime();
  rows.sort((a, b) => at(a.created_at) - at(b.created_at) || step(a.event) - step(b.event));
  for (const r of rows) {
    if (!r.order_id) continue;
    const template = allTemplates().find((t) => t.name === r.template);
    const erased = r.to_phone === "" && r.params.length === 0;
    const list = byOrder.get(r.order_id) ?? [];
    list.push({
      id: r.id,
      event: r.event,
      label: template?.label ?? r.template,
      status: r.status,
      test: r.is_test === true,
      to: r.to_phone,
      text: erased ? "" : template ? renderTemplate(template.body, r.params) : r.params.join(" · "),
      attempts: Number(r.attempts),
      error: r.error,
      emailCovered: r.email_covered_at !== null,
      erased,
      createdAt: r.created_at,
      sentAt: r.sent_at,
      deliveredAt: r.delivered_at,
      readAt: r.read_at,
      failedAt: r.failed_at,
    });
    byOrder.set(r.order_id, list);
  }
  return byOrder;
}
