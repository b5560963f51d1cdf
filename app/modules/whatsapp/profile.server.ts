/**
 * The profile's WhatsApp section (docs/decisions/055): what it shows, and its buttons — turn updates on for a
 * number (the opt-in's words, logged with source profile) and stop them (logged likewise); while updates are on,
 * reminders on WhatsApp (marketing: their own consent, WHATSAPP_MARKETING_CONSENT; decision 056's addendum) on or off.
 */
import type { Queryable } from "~/db/db.server";
import { lastShippingAddress } from "~/modules/orders/last-address.server";
import { normalizeSaPhone } from "~/utils/sa-address";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { optInToWhatsapp, optInToWhatsappReminders, optOutOfWhatsapp, optOutOfWhatsappReminders, whatsappSubscription } from "./subscriptions.server";
import { displayPhone } from "./templates";
import { whatsappMode } from "./whatsapp.server";

export const PROFILE_WHATSAPP_MESSAGES = {
  on: (phone: string) => `WhatsApp updates are on: they go to ${displayPhone(phone)}.`,
  already: (phone: string) => `WhatsApp updates were already on for ${displayPhone(phone)}.`,
  off: "WhatsApp updates are off: we send you no WhatsApp messages.",
  alreadyOff: "WhatsApp updates were already off.",
  phone: "Enter a South African mobile number, e.g. 082 123 4567.",
  unavailable: "This shop does not send WhatsApp updates at the moment.",
  remindersOn: (phone: string) => `Reminders on WhatsApp are on: at most one per cart or unpaid order, to ${displayPhone(phone)}.`,
  remindersOff: "Reminders on WhatsApp are off.",
  remindersNeedUpdates: "Turn on WhatsApp updates first: reminders go to the same number.",
} as const;

/** The section's intents (the route hands these to changeProfileWhatsapp). */
export const PROFILE_WHATSAPP_INTENTS = ["whatsapp-on", "whatsapp-off", "whatsapp-reminders-on", "whatsapp-reminders-off"] as const;

export interface ProfileWhatsapp {
  offered: boolean;
  active: boolean;
  /** reminders on WhatsApp agreed to */
  reminders: boolean;
  /** the subscription's number, else the last order's telephone: what the field starts with */
  phone: string;
  since: string | null;
}

export async function profileWhatsapp(db: Queryable, userId: string): Promise<ProfileWhatsapp> {
  const sub = await whatsappSubscription(db, userId);
  const last = sub ? null : await lastShippingAddress(db, userId);
  return {
    offered: whatsappMode() !== "off",
    active: sub?.active ?? false,
    reminders: sub?.reminders ?? false,
    phone: sub ? displayPhone(sub.phone) : (last?.telephone ?? ""),
    since: sub?.active ? sub.optedInAt : null,
  };
}

/** The section's buttons: `whatsapp-on` with a telephone, `whatsapp-off`. Answers the message to show. */
export async function changeProfileWhatsapp(db: Queryable, userId: string, fields: Record<string, string | undefined>): Promise<string> {
  if (fields.intent === "whatsapp-reminders-off") {
    await optOutOfWhatsappReminders(db, userId);
    return PROFILE_WHATSAPP_MESSAGES.remindersOff;
  }
  if (fields.intent === "whatsapp-reminders-on") {
    if (whatsappMode() === "off") throw new DomainError(PROFILE_WHATSAPP_MESSAGES.unavailable, 409);
    const sub = await whatsappSubscription(db, userId);
    if (!sub?.active) throw new DomainError(PROFILE_WHATSAPP_MESSAGES.remindersNeedUpdates, 409);
    await optInToWhatsappReminders(db, { userId, shopName: env().SHOP_NAME });
    return PROFILE_WHATSAPP_MESSAGES.remindersOn(sub.phone);
  }
  if (fields.intent === "whatsapp-off") {
    return (await optOutOfWhatsapp(db, userId, { source: "profile" })) ? PROFILE_WHATSAPP_MESSAGES.off : PROFILE_WHATSAPP_MESSAGES.alreadyOff;
  }
  if (whatsappMode() === "off") throw new DomainError(PROFILE_WHATSAPP_MESSAGES.unavailable, 409);
  const phone = normalizeSaPhone(fields.telephone ?? "");
  if (!phone) throw new DomainError(PROFILE_WHATSAPP_MESSAGES.phone, 400, "telephone");
  const changed = await optInToWhatsapp(db, { userId, phone, source: "profile", shopName: env().SHOP_NAME });
  return changed ? PROFILE_WHATSAPP_MESSAGES.on(phone) : PROFILE_WHATSAPP_MESSAGES.already(phone);
}
