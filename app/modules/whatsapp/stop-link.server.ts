/**
 * The "stop WhatsApp updates" link in the order e-mails (docs/decisions/055): `/whatsapp/stop?token=…`, a token of
 * the person's id and an expiry signed with the shop's secret under its own purpose (utils/signed-token.server.ts), so
 * it verifies as nothing else the secret signs. Works signed out. Opening it changes nothing (mail scanners open
 * links); the page's button (a POST) turns the person's WhatsApp updates off and logs it (source "unsubscribe").
 */
import type { Queryable } from "~/db/db.server";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { env } from "~/utils/env.server";
import { expiresAfterDays, signToken, verifyToken, type TokenRefusal } from "~/utils/signed-token.server";
import { optOutOfWhatsapp, whatsappSubscription } from "./subscriptions.server";
import { displayPhone } from "./templates";

const PURPOSE = "scentara/whatsapp-stop/v1";
/** Order e-mails are kept for months; the link outlives the order's deliveries and returns. */
export const STOP_LINK_DAYS = 180;
export const STOP_PATH = "/whatsapp/stop";

export const STOP_MESSAGES = {
  invalid: "This link is not valid: it may have been cut short or changed. Nothing was changed. Use the link exactly as it is in the e-mail, reply STOP on WhatsApp, or sign in and turn WhatsApp updates off under Profile → Preferences.",
  expired: `This link has expired (links work for ${STOP_LINK_DAYS} days). Nothing was changed. Reply STOP on WhatsApp, or sign in and turn WhatsApp updates off under Profile → Preferences.`,
  done: "WhatsApp updates are off. We send you no more WhatsApp messages; your order e-mails still reach you.",
  already: "WhatsApp updates were already off: we send you no WhatsApp messages.",
  gone: "We no longer hold an account for this link, so there is nothing to stop.",
} as const;

export function whatsappStopUrl(userId: string, now = new Date()): string {
  const token = signToken(PURPOSE, { u: userId }, { secret: authSecret(), expiresAt: expiresAfterDays(STOP_LINK_DAYS, now) });
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${STOP_PATH}?token=${encodeURIComponent(token)}`;
}

function verify(token: unknown, now: Date): { ok: true; userId: string } | { ok: false; reason: TokenRefusal } {
  const verified = verifyToken(PURPOSE, token, { secret: authSecret(), maxLength: 400, now });
  if (!verified.ok) return verified;
  const u = verified.claims.u;
  return typeof u === "string" && u.length > 0 && u.length <= 100 ? { ok: true, userId: u } : { ok: false, reason: "invalid" };
}

export type StopLinkState =
  | { kind: "refused"; reason: TokenRefusal; message: string }
  | { kind: "gone"; message: string }
  | { kind: "ready"; phone: string | null; active: boolean }
  | { kind: "done"; changed: boolean; message: string };

/** What the link would do (GET): nothing changes. */
export async function inspectStopLink(db: Queryable, token: unknown, now = new Date()): Promise<StopLinkState> {
  const v = verify(token, now);
  if (!v.ok) return { kind: "refused", reason: v.reason, message: STOP_MESSAGES[v.reason] };
  const user = await db.selectFrom("users").select("id").where("id", "=", v.userId).executeTakeFirst();
  if (!user) return { kind: "gone", message: STOP_MESSAGES.gone };
  const sub = await whatsappSubscription(db, v.userId);
  return { kind: "ready", phone: sub ? displayPhone(sub.phone) : null, active: sub?.active ?? false };
}

/** The button (POST): the link's person's updates off, logged once. */
export async function stopWithLink(db: Queryable, token: unknown, now = new Date()): Promise<StopLinkState> {
  const v = verify(token, now);
  if (!v.ok) return { kind: "refused", reason: v.reason, message: STOP_MESSAGES[v.reason] };
  const user = await db.selectFrom("users").select("id").where("id", "=", v.userId).executeTakeFirst();
  if (!user) return { kind: "gone", message: STOP_MESSAGES.gone };
  const changed = await optOutOfWhatsapp(db, v.userId, { source: "unsubscribe", shopName: env().SHOP_NAME }, now);
  return { kind: "done", changed, message: changed ? STOP_MESSAGES.done : STOP_MESSAGES.already };
}

/** The lines an order e-mail ends with while the person's WhatsApp updates are on (else none). */
export async function whatsappEmailLines(db: Queryable, userId: string | null, now = new Date()): Promise<string[]> {
  if (!userId) return [];
  try {
    const sub = await whatsappSubscription(db, userId);
    if (!sub?.active) return [];
    return ["", `WhatsApp updates go to ${displayPhone(sub.phone)}. To stop them: ${whatsappStopUrl(userId, now)}`];
  } catch {
    return [];
  }
}
