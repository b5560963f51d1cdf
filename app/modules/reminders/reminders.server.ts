/**
 * Unpaid-order and cart reminders (issue 34 point 2; docs/decisions/056): a job (server/jobs.ts, `send-reminders`)
 * that sends ONE reminder per cart left with items and per unpaid card order, after the set time (reminders.logic.ts):
 * an e-mail to people who agreed to marketing e-mails, and a WhatsApp message beside it to people who agreed to
 * reminders on WhatsApp (app/modules/whatsapp; its own consent) — POPIA s69(1)(a): a reminder to come back and buy is
 * electronic direct marketing, so each channel needs its own yes — with the items and their sizes, a link that restores the cart (restore-link.server.ts) or reopens the
 * order's payment (/orders/:id/pay), the shop's name, and the marketing footer with its one-click unsubscribe.
 *
 * Never twice, whatever runs at once (two app servers, a job and a restart):
 * - every reminder is a row of `reminders`, unique per (kind, cart or order): the claim is an insert that only one of
 *   any number of runners can make (on conflict do nothing), and it chooses the outbox id before the e-mail is written;
 * - consent and the order's state are asked again right after the claim: a shopper who unsubscribed, or an order paid,
 *   meanwhile ends the reminder as `skipped`, never sent later;
 * - a claim left by a process that died (still `sending` after REMINDER_CLAIM_STALE_MS) is settled by its outbox row:
 *   written, it counts (sent, or failed if the server refused it); not written, the claim is dropped, and the cart or
 *   order is reminded at a later run if it is still due.
 * None once they buy: an order placed since the cart last changed ends the cart's turn (its own reminder, if unpaid,
 * is the order's), and a paid or closed order is never due.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB, Queryable } from "~/db/db.server";
import type { ReminderKind, ReminderStatus, SavedCartLine } from "~/db/schema";
import { lineNameSql } from "~/modules/catalog/sizes.server";
import { lineName } from "~/modules/catalog/sizes.logic";
import { cartLinesForBrowser } from "~/modules/cart/saved-cart.server";
import { NO_SMTP_REASON, sendMail } from "~/modules/mail/mailer.server";
import { unsubscribeLinks } from "~/modules/marketing/unsubscribe.server";
import { queueReminderMessage } from "~/modules/whatsapp/outbox.server";
import { whatsappReminderNumber } from "~/modules/whatsapp/subscriptions.server";
import { holdMinutesFor, type UnpaidHoldPolicy } from "~/modules/orders/order-expiry.logic";
import { env } from "~/utils/env.server";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { reminderMail, type ReminderContent } from "./reminder-mail";
import { cartReminderWindow, inWindow, orderReminderWindow, windowBounds, type ReminderSettings, type Window } from "./reminders.logic";
import { restoreUrl } from "./restore-link.server";

/** A claim older than this, still not finished, belonged to a process that stopped (a send takes seconds at most). */
export const REMINDER_CLAIM_STALE_MS = 30 * 60_000;
/** Carts and orders looked at per kind and run; the rest wait for the next run (every minute). */
export const REMINDER_BATCH = 50;

export interface ReminderRunOptions {
  settings: ReminderSettings;
  /** the unpaid orders' holds (null: they never expire, UNPAID_ORDER_TTL_MINUTES=0) */
  holdPolicy: UnpaidHoldPolicy | null;
  /** the clock (tests control it) */
  now?: Date;
  limit?: number;
}

export interface SentReminder {
  id: string;
  kind: ReminderKind;
  subjectId: string;
  userId: string;
}

export interface ReminderRun {
  sent: SentReminder[];
  /** claimed, then found not to be sent (consent withdrawn, order paid or closed meanwhile) */
  skipped: number;
  /** stale claims settled or dropped */
  recovered: number;
  /** a batch was full: more may be due */
  more: boolean;
}

/** The person a reminder goes to, asked right before sending. */
interface Person {
  email: string;
  name: string;
  email_marketing: boolean;
}

/** Settles claims whose process went away (see the file's comment). */
async function recoverStaleClaims(db: DB, now: Date): Promise<number> {
  const staleBefore = new Date(now.getTime() - REMINDER_CLAIM_STALE_MS).toISOString();
  const stale = await db
    .selectFrom("reminders as r")
    .leftJoin("mail_outbox as m", "m.id", "r.outbox_id")
    .select(["r.id", "m.id as written", "m.error"])
    .where("r.status", "=", "sending")
    .where("r.claimed_at", "<", staleBefore)
    .execute();
  for (const s of stale) {
    if (s.written) {
      await db
        .updateTable("reminders")
        .set({ status: s.error ? "failed" : "sent", error: s.error, sent_at: now.toISOString() })
        .where("id", "=", s.id)
        .where("status", "=", "sending")
        .execute();
    } else {
      await db.deleteFrom("reminders").where("id", "=", s.id).where("status", "=", "sending").execute();
    }
  }
  return stale.length;
}

/** Takes the one reminder of this cart or order; the outbox id to write under, or null when another runner has it. */
async function claim(db: Queryable, input: { kind: ReminderKind; subjectId: string; userId: string; orderId: string | null; lines: SavedCartLine[]; now: Date }) {
  const id = newId();
  const outboxId = newId();
  const row = await db
    .insertInto("reminders")
    .values({
      id,
      kind: input.kind,
      subject_id: input.subjectId,
      user_id: input.userId,
      order_id: input.orderId,
      lines: JSON.stringify(input.lines),
      status: "sending",
      outbox_id: outboxId,
      claimed_at: input.now.toISOString(),
    })
    .onConflict((oc) => oc.columns(["kind", "subject_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row ? { id, outboxId } : null;
}

async function finish(db: Queryable, id: string, status: ReminderStatus, now: Date, error: string | null = null) {
  await db
    .updateTable("reminders")
    .set({ status, error, sent_at: status === "skipped" ? null : now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "sending")
    .execute();
}

async function personOf(db: Queryable, userId: string): Promise<Person | undefined> {
  return db.selectFrom("users").select(["email", "name", "email_marketing"]).where("id", "=", userId).executeTakeFirst();
}

/** A claimed reminder: its row, the outbox id its e-mail is written under, and whose cart or order it is. */
interface Claimed {
  id: string;
  outboxId: string;
  kind: ReminderKind;
  subjectId: string;
  orderId: string | null;
  userId: string;
}

/**
 * How a reminder reaches its person, each channel only with its own consent: by e-mail, through the outbox, as
 * marketing (footer and one-click unsubscribe); and by WhatsApp, the same content as its template's parameters
 * (name, items, link), queued in the WhatsApp outbox once per cart or order. Sent when either channel took it.
 */
async function deliverReminder(db: Queryable, content: ReminderContent, person: Person, claimed: Claimed, now: Date) {
  let email: { sent: true } | { sent: false; error: string } | null = null;
  if (person.email_marketing === true) {
    const mail = reminderMail(content);
    const result = await sendMail({ to: person.email, ...mail, replyTo: env().CONTACT_EMAIL, kind: "marketing", unsubscribe: unsubscribeLinks(claimed.userId, now), id: claimed.outboxId }, db);
    // Without a mail server the e-mail waits in the outbox like every other: it counts as sent (handed over).
    email = result.delivered || result.error === NO_SMTP_REASON ? { sent: true } : { sent: false, error: result.error ?? "unknown error" };
  }
  const whatsapp = await queueReminderMessage(
    db,
    { reminderId: claimed.id, kind: claimed.kind, subjectId: claimed.subjectId, userId: claimed.userId, orderId: claimed.orderId, name: content.name, items: content.items, orderRef: content.orderRef, url: content.url, emailId: email?.sent ? claimed.outboxId : null },
    now,
  );
  if (email?.sent || whatsapp) return { status: "sent" as const };
  return email ? { status: "failed" as const, error: email.error } : { status: "skipped" as const };
}

/** Sends one claimed reminder, or ends it skipped; records how it went. */
async function sendClaimed(db: DB, claimed: Claimed, compose: (person: Person) => Promise<ReminderContent | null>, now: Date): Promise<"sent" | "skipped" | "failed" | "unwritten"> {
  const person = await personOf(db, claimed.userId);
  // consent, asked again right after the claim (POPIA s69(1)(a)): marketing e-mails, or reminders on WhatsApp
  const agreed = person && (person.email_marketing === true || (await whatsappReminderNumber(db, claimed.userId)) !== null);
  const content = person && agreed ? await compose(person) : null;
  if (!person || !content) {
    await finish(db, claimed.id, "skipped", now);
    return "skipped";
  }
  try {
    const outcome = await deliverReminder(db, content, person, claimed, now);
    await finish(db, claimed.id, outcome.status, now, outcome.status === "failed" ? outcome.error : null);
    return outcome.status;
  } catch (error) {
    // The outbox could not be written: the claim stays, and is dropped once stale (the reminder may go at a later run).
    logger.error({ err: error, reminderId: claimed.id }, "reminder e-mail could not be written; it may be tried again later");
    return "unwritten";
  }
}

/** The due queries' consent: marketing e-mails on, or reminders on WhatsApp (updates on and reminders agreed to). */
// `any`: used by two queries over different tables, both joining users as u
function agreedToReminders(eb: ExpressionBuilder<any, any>): Expression<SqlBool> {
  return eb.or([
    eb("u.email_marketing", "=", true),
    eb.exists(
      eb
        .selectFrom("whatsapp_subscriptions as w")
        .select(sql<number>`1`.as("one"))
        .whereRef("w.user_id", "=", "u.id")
        .where("w.opted_out_at", "is", null)
        .where("w.marketing_opted_in_at", "is not", null),
    ),
  ]);
}

// ---------------------------------------------------------------- unpaid orders

async function dueOrders(db: Queryable, window: Window, now: Date, limit: number) {
  const { dueBy, notBefore } = windowBounds(window, now);
  return db
    .selectFrom("orders as o")
    .innerJoin("users as u", "u.id", "o.user_id")
    .select(["o.id", "o.user_id", "o.created_at", "o.payment_provider"])
    .where("o.status", "=", "pending")
    .where("o.payment_status", "=", "pending")
    // a manual bank transfer has its own e-mail with the bank details and days to pay
    .where("o.payment_method", "!=", "eft")
    .where(agreedToReminders)
    .where("o.created_at", "<=", dueBy)
    .where("o.created_at", ">", notBefore)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("reminders as r").select(sql<number>`1`.as("one")).where("r.kind", "=", "order").whereRef("r.subject_id", "=", "o.id"))))
    .orderBy("o.created_at")
    .orderBy("o.id")
    .limit(limit)
    .execute();
}

async function orderContent(db: Queryable, orderId: string, person: Person): Promise<ReminderContent | null> {
  const order = await db
    .selectFrom("orders")
    .select(["id", "status", "payment_status", "total_amount_cents", "shipping_address"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  // paid, cancelled or expired since it was found due: nothing to remind of
  if (!order || order.status !== "pending" || order.payment_status !== "pending") return null;
  const lines = await db
    .selectFrom("order_lines as l")
    .select([lineNameSql("l").as("name"), "l.quantity", "l.total_price_cents"])
    .where("l.order_id", "=", orderId)
    .orderBy("l.position")
    .execute();
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  return {
    kind: "order",
    shopName: env().SHOP_NAME,
    name: order.shipping_address?.name || person.name || "",
    items: lines.map((l) => ({ name: l.name, quantity: Number(l.quantity), lineTotalCents: Number(l.total_price_cents) })),
    totalCents: Number(order.total_amount_cents),
    orderRef: `#${shortOrderId(order.id)}`,
    url: `${base}/orders/${order.id}/pay`,
  };
}

// ---------------------------------------------------------------- carts

async function dueCarts(db: Queryable, window: Window, now: Date, limit: number) {
  const { dueBy, notBefore } = windowBounds(window, now);
  return db
    .selectFrom("saved_carts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.user_id", "c.cart_id", "c.lines", "c.changed_at"])
    .where("c.cart_id", "is not", null)
    .where(agreedToReminders)
    .where("c.changed_at", "<=", dueBy)
    .where("c.changed_at", ">", notBefore)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("reminders as r").select(sql<number>`1`.as("one")).where("r.kind", "=", "cart").whereRef("r.subject_id", "=", "c.cart_id"))))
    // an order placed since the cart last changed: they bought (or are paying; that order has its own reminder)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("orders as o").select(sql<number>`1`.as("one")).whereRef("o.user_id", "=", "c.user_id").whereRef("o.created_at", ">=", "c.changed_at"))))
    .orderBy("c.changed_at")
    .orderBy("c.user_id")
    .limit(limit)
    .execute();
}

async function cartContent(db: Queryable, reminderId: string, lines: readonly SavedCartLine[], person: Person, now: Date): Promise<ReminderContent | null> {
  const current = await cartLinesForBrowser(db, lines);
  if (current.length === 0) return null; // every scent in it has gone from the shop
  return {
    kind: "cart",
    shopName: env().SHOP_NAME,
    name: person.name || "",
    items: current.map((l) => ({ name: lineName(l.name, l.sizeLabel), quantity: l.quantity, lineTotalCents: l.price * l.quantity })),
    totalCents: null,
    orderRef: null,
    url: restoreUrl(reminderId, now),
  };
}

/**
 * One run: settle stale claims, then send the reminders that are due at `now` (unpaid orders first: their time to pay
 * runs out), at most `limit` of each kind. Safe to run in several processes at once.
 */
export async function sendDueReminders(db: DB, options: ReminderRunOptions): Promise<ReminderRun> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? REMINDER_BATCH;
  const run: ReminderRun = { sent: [], skipped: 0, recovered: await recoverStaleClaims(db, now), more: false };
  const count = (outcome: string, sent: SentReminder) => {
    if (outcome === "sent" || outcome === "failed") run.sent.push(sent);
    else if (outcome === "skipped") run.skipped++;
  };

  // the query asks for every order inside any provider's window; each is then held to its own provider's
  const holds = options.holdPolicy ? [options.holdPolicy.defaultMinutes, ...Object.values(options.holdPolicy.byProvider)] : [null];
  const windows = holds.flatMap((hold) => orderReminderWindow(options.settings, hold) ?? []);
  if (windows.length) {
    const widest = { fromMinutes: Math.min(...windows.map((w) => w.fromMinutes)), untilMinutes: Math.max(...windows.map((w) => w.untilMinutes)) };
    const orders = await dueOrders(db, widest, now, limit);
    run.more ||= orders.length === limit;
    for (const order of orders) {
      const own = orderReminderWindow(options.settings, options.holdPolicy ? holdMinutesFor(options.holdPolicy, order.payment_provider) : null);
      if (!own || !inWindow(own, order.created_at, now) || !order.user_id) continue;
      const claimed = await claim(db, { kind: "order", subjectId: order.id, userId: order.user_id, orderId: order.id, lines: [], now });
      if (!claimed) continue;
      const outcome = await sendClaimed(db, { ...claimed, kind: "order", subjectId: order.id, orderId: order.id, userId: order.user_id }, (person) => orderContent(db, order.id, person), now);
      count(outcome, { id: claimed.id, kind: "order", subjectId: order.id, userId: order.user_id });
    }
  }

  const cartWindow = cartReminderWindow(options.settings);
  if (cartWindow) {
    const carts = await dueCarts(db, cartWindow, now, limit);
    run.more ||= carts.length === limit;
    for (const cart of carts) {
      if (!cart.cart_id) continue;
      const claimed = await claim(db, { kind: "cart", subjectId: cart.cart_id, userId: cart.user_id, orderId: null, lines: cart.lines, now });
      if (!claimed) continue;
      const outcome = await sendClaimed(db, { ...claimed, kind: "cart", subjectId: cart.cart_id, orderId: null, userId: cart.user_id }, (person) => cartContent(db, claimed.id, cart.lines, person, now), now);
      count(outcome, { id: claimed.id, kind: "cart", subjectId: cart.cart_id, userId: cart.user_id });
    }
  }
  return run;
}
