/**
 * Who gets WhatsApp order updates, and the consent log of it (POPIA s11(1)(a) and s11(2)(b); docs/decisions/055).
 *
 * A person opts in with the checkout's box or in their profile, for one number; they opt out in their profile, with
 * the signed link in their order e-mail, or by replying STOP. Every change is a row of the consent log with the words
 * shown, in the same transaction as the change, and only when something really changed: each change is one
 * conditional statement, so a double click, two tabs or a replayed webhook record one change, not two.
 *
 * Reminders on WhatsApp (marketing, POPIA s69) are a second consent on the same subscription: given in the profile
 * while updates are on, for their number; withdrawn on its own, and with every way of stopping updates (STOP stops
 * both), or when the updates move to another number (the consent named the old one).
 */
import { inTransaction } from "~/db/in-transaction.server";
import type { Queryable, Trx } from "~/db/db.server";
import type { ConsentSource } from "~/db/schema";
import { recordConsent } from "~/modules/consent/consent.server";
import { displayPhone, WHATSAPP_CONSENT, WHATSAPP_MARKETING_CONSENT, WHATSAPP_OPT_OUT_WORDING, whatsappConsentWording, waDigits } from "./templates";

export interface WhatsappSubscription {
  /** international digits, e.g. 27821234567 */
  phone: string;
  active: boolean;
  /** reminders on WhatsApp agreed to (only while active) */
  reminders: boolean;
  optedInAt: string;
  optedOutAt: string | null;
}


export async function whatsappSubscription(db: Queryable, userId: string): Promise<WhatsappSubscription | null> {
  const row = await db.selectFrom("whatsapp_subscriptions").select(["phone", "opted_in_at", "opted_out_at", "marketing_opted_in_at"]).where("user_id", "=", userId).executeTakeFirst();
  return row
    ? { phone: row.phone, active: row.opted_out_at === null, reminders: row.opted_out_at === null && row.marketing_opted_in_at !== null, optedInAt: row.opted_in_at, optedOutAt: row.opted_out_at }
    : null;
}

/** The number a person's reminders go to right now (updates on and reminders agreed to), or null. */
export async function whatsappReminderNumber(db: Queryable, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("whatsapp_subscriptions")
    .select("phone")
    .where("user_id", "=", userId)
    .where("opted_out_at", "is", null)
    .where("marketing_opted_in_at", "is not", null)
    .executeTakeFirst();
  return row?.phone ?? null;
}

/**
 * Turns reminders on WhatsApp on, for the number updates go to (the profile's box). Answers true when it changed and
 * was logged; false when already on, or when updates are off (there is no number to send them to).
 */
export async function optInToWhatsappReminders(db: Queryable, input: { userId: string; shopName: string; now?: Date }): Promise<boolean> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const on = await trx
      .updateTable("whatsapp_subscriptions")
      .set({ marketing_opted_in_at: now.toISOString(), updated_at: now.toISOString() })
      .where("user_id", "=", input.userId)
      .where("opted_out_at", "is", null)
      .where("marketing_opted_in_at", "is", null)
      .returning("phone")
      .executeTakeFirst();
    if (!on) return false;
    await logReminderConsent(trx, input.userId, WHATSAPP_MARKETING_CONSENT.wording(on.phone, input.shopName), true, "profile", now);
    return true;
  });
}

/**
 * Ends reminders on WhatsApp (on their own, or as part of stopping updates: `wording` says which). Answers true when
 * they were on.
 */
async function endWhatsappReminders(trx: Queryable, userId: string, source: ConsentSource, wording: (phone: string) => string, now: Date, except?: string): Promise<boolean> {
  let query = trx
    .updateTable("whatsapp_subscriptions")
    .set({ marketing_opted_in_at: null, updated_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("marketing_opted_in_at", "is not", null);
  if (except) query = query.where("phone", "<>", except);
  const ended = await query.returning("phone").executeTakeFirst();
  if (!ended) return false;
  await logReminderConsent(trx, userId, wording(ended.phone), false, source, now);
  return true;
}

export async function optOutOfWhatsappReminders(db: Queryable, userId: string, now = new Date()): Promise<boolean> {
  return inTransaction(db, (trx) => endWhatsappReminders(trx, userId, "profile", WHATSAPP_MARKETING_CONSENT.off, now));
}

async function logReminderConsent(trx: Queryable, userId: string, wording: string, granted: boolean, source: ConsentSource, now: Date) {
  const user = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  await recordConsent(trx, { userId, email: user?.email ?? null, purpose: "whatsapp_marketing", version: WHATSAPP_MARKETING_CONSENT.version, wording, granted, source, now });
}

/** The number a person's updates go to right now, or null: what the outbox asks before queuing and before sending. */
export async function activeWhatsappNumber(db: Queryable, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const row = await db.selectFrom("whatsapp_subscriptions").select("phone").where("user_id", "=", userId).where("opted_out_at", "is", null).executeTakeFirst();
  return row?.phone ?? null;
}

/**
 * Turns a person's updates on for this number (a South African number as normalizeSaPhone gives it, "+27…").
 * Answers true when it changed (off before, or another number) and was logged; false when it was already so.
 */
export async function optInToWhatsapp(
  db: Queryable,
  input: { userId: string; phone: string; source: Extract<ConsentSource, "checkout" | "profile">; shopName: string; now?: Date },
): Promise<boolean> {
  const now = (input.now ?? new Date()).toISOString();
  const phone = waDigits(input.phone);
  return inTransaction(db, async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email"]).where("id", "=", input.userId).executeTakeFirst();
    if (!user) return false;
    // reminders were agreed to for the old number: they end with it
    await endWhatsappReminders(trx, user.id, input.source, (old) => `Reminders on WhatsApp to ${displayPhone(old)} ended: updates now go to ${displayPhone(phone)}.`, new Date(now), phone);
    // Off, or on for another number: switched (conditional, so of two at once one changes it).
    const switched = await trx
      .updateTable("whatsapp_subscriptions")
      .set({ phone, opted_in_at: now, opted_out_at: null, updated_at: now })
      .where("user_id", "=", user.id)
      .where((eb) => eb.or([eb("opted_out_at", "is not", null), eb("phone", "<>", phone)]))
      .executeTakeFirst();
    let changed = Number(switched.numUpdatedRows) === 1;
    if (!changed) {
      const inserted = await trx
        .insertInto("whatsapp_subscriptions")
        .values({ user_id: user.id, phone, opted_in_at: now, opted_out_at: null, updated_at: now })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .returning("user_id")
        .executeTakeFirst();
      changed = inserted !== undefined;
    }
    if (!changed) return false;
    await recordConsent(trx, {
      userId: user.id,
      email: user.email,
      purpose: "whatsapp_updates",
      version: WHATSAPP_CONSENT.version,
      wording: whatsappConsentWording(phone, input.shopName),
      granted: true,
      source: input.source,
      now: new Date(now),
    });
    return true;
  });
}

type OptOutWay = { source: "profile" } | { source: "unsubscribe"; shopName: string } | { source: "whatsapp_reply" };

function optOutWording(way: OptOutWay, phone: string): string {
  if (way.source === "profile") return WHATSAPP_OPT_OUT_WORDING.profile(phone);
  if (way.source === "unsubscribe") return WHATSAPP_OPT_OUT_WORDING.link(phone, way.shopName);
  return WHATSAPP_OPT_OUT_WORDING.reply(phone);
}

/** Turns a person's updates off. Answers true when they were on (and the change was logged). */
export async function optOutOfWhatsapp(db: Queryable, userId: string, way: OptOutWay, now = new Date()): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    // every way of stopping updates stops reminders too (STOP means no more WhatsApp messages at all)
    await endWhatsappReminders(trx, userId, way.source, (phone) => optOutWording(way, phone), now);
    const stopped = await trx
      .updateTable("whatsapp_subscriptions")
      .set({ opted_out_at: now.toISOString(), updated_at: now.toISOString() })
      .where("user_id", "=", userId)
      .where("opted_out_at", "is", null)
      .returning(["phone"])
      .executeTakeFirst();
    if (!stopped) return false;
    const user = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
    await recordConsent(trx, {
      userId,
      email: user?.email ?? null,
      purpose: "whatsapp_updates",
      version: WHATSAPP_CONSENT.version,
      wording: optOutWording(way, stopped.phone),
      granted: false,
      source: way.source,
      now,
    });
    return true;
  });
}

/** A "STOP" from this number (digits, as the webhook's `from`): everyone whose updates go to it is opted out. */
export async function optOutNumber(db: Queryable, phone: string, now = new Date()): Promise<number> {
  const holders = await db.selectFrom("whatsapp_subscriptions").select("user_id").where("phone", "=", waDigits(phone)).where("opted_out_at", "is", null).execute();
  let stopped = 0;
  for (const h of holders) if (await optOutOfWhatsapp(db, h.user_id, { source: "whatsapp_reply" }, now)) stopped++;
  return stopped;
}
