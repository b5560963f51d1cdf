/**
 * Unsubscribing with the link every marketing e-mail carries (issue 21 point 2; POPIA s69(4)(b), RFC 8058;
 * docs/decisions/039). The link works signed out: its signed token names the person. Opening it (GET) only shows
 * what it would do, because mail scanners open links by themselves; the unsubscribe is a POST: the page's button, or
 * the mail program's own one-click button posting "List-Unsubscribe=One-Click" to the same address. A forged,
 * altered or expired link is refused with a message saying so, and changes nothing.
 */
import type { Queryable } from "~/db/db.server";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { oneClickUnsubscribeWording, unsubscribePageWording } from "~/modules/consent/consent.logic";
import { setMarketingConsent } from "~/modules/consent/consent.server";
import { env } from "~/utils/env.server";
import { signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, verifyUnsubscribeToken, type UnsubscribeRefusal } from "./unsubscribe-token";

export const UNSUBSCRIBE_PATH = "/unsubscribe";
/** The List-Unsubscribe header's address: where a mail program's one-click button posts (RFC 8058). */
export const ONE_CLICK_PATH = "/unsubscribe/one-click";

export const UNSUBSCRIBE_MESSAGES = {
  invalid:
    "This unsubscribe link is not valid: it may have been cut short or changed. Nothing was changed. Use the link exactly as it is in the e-mail, or sign in and turn off “News and offers by e-mail” under Profile → Email Preferences.",
  expired: `This unsubscribe link has expired (links work for ${UNSUBSCRIBE_LINK_DAYS} days). Nothing was changed. Use the link in a more recent e-mail, or sign in and turn off “News and offers by e-mail” under Profile → Email Preferences.`,
  done: "You're unsubscribed. You will get no more news and offers e-mails from us. Order and account e-mails still reach you.",
  already: "You're not subscribed: we send you no news and offers e-mails. Order and account e-mails still reach you.",
  gone: "We no longer hold an account for this link, so there is nothing to send you.",
} as const;

/** The link for one person, to the page that asks (absolute: it goes into e-mails). */
export function unsubscribeUrl(userId: string, now = new Date()): string {
  return unsubscribeLinks(userId, now).pageUrl;
}

/**
 * Both addresses of one person's link, with one token: the page (the e-mail's footer) and the one-click address (its
 * List-Unsubscribe header).
 */
export function unsubscribeLinks(userId: string, now = new Date()): { pageUrl: string; oneClickUrl: string } {
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  const token = encodeURIComponent(signUnsubscribeToken(userId, { secret: authSecret(), now }));
  return { pageUrl: `${base}${UNSUBSCRIBE_PATH}?token=${token}`, oneClickUrl: `${base}${ONE_CLICK_PATH}?token=${token}` };
}

/** "th•••@example.co.za": enough for the person to recognise, not a full address for whoever holds a forwarded link. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, local.length))}•••${email.slice(at)}`;
}

export type UnsubscribeLinkState =
  | { kind: "refused"; reason: UnsubscribeRefusal; message: string }
  | { kind: "gone"; message: string }
  | { kind: "ready"; email: string; subscribed: boolean };

/** What the link would do, without changing anything (the page a GET shows). */
export async function inspectUnsubscribeLink(db: Queryable, token: unknown, now = new Date()): Promise<UnsubscribeLinkState> {
  const verified = verifyUnsubscribeToken(token, { secret: authSecret(), now });
  if (!verified.ok) return { kind: "refused", reason: verified.reason, message: UNSUBSCRIBE_MESSAGES[verified.reason] };
  const user = await db.selectFrom("users").select(["email", "email_marketing"]).where("id", "=", verified.claims.userId).executeTakeFirst();
  if (!user) return { kind: "gone", message: UNSUBSCRIBE_MESSAGES.gone };
  return { kind: "ready", email: maskEmail(user.email), subscribed: user.email_marketing === true };
}

export type UnsubscribeOutcome =
  | { kind: "refused"; reason: UnsubscribeRefusal; message: string }
  | { kind: "gone"; message: string }
  | { kind: "done"; email: string; changed: boolean; message: string };

/**
 * Turns the link's person's marketing e-mails off and logs it (source unsubscribe), once: a second POST finds them
 * already off and records nothing. `oneClick`: the mail program's button (RFC 8058) rather than the page's.
 */
export async function unsubscribeWithLink(db: Queryable, token: unknown, options: { oneClick: boolean; now?: Date }): Promise<UnsubscribeOutcome> {
  const now = options.now ?? new Date();
  const verified = verifyUnsubscribeToken(token, { secret: authSecret(), now });
  if (!verified.ok) return { kind: "refused", reason: verified.reason, message: UNSUBSCRIBE_MESSAGES[verified.reason] };
  const user = await db.selectFrom("users").select(["email"]).where("id", "=", verified.claims.userId).executeTakeFirst();
  if (!user) return { kind: "gone", message: UNSUBSCRIBE_MESSAGES.gone };
  const shop = env().SHOP_NAME;
  const row = await setMarketingConsent(db, {
    userId: verified.claims.userId,
    granted: false,
    source: "unsubscribe",
    wording: options.oneClick ? oneClickUnsubscribeWording(shop) : unsubscribePageWording(shop),
    now,
  });
  return { kind: "done", email: maskEmail(user.email), changed: row !== null, message: row ? UNSUBSCRIBE_MESSAGES.done : UNSUBSCRIBE_MESSAGES.already };
}
