/**
 * What a person is shown when they give or withdraw a consent, versioned, and how the log names things (POPIA s11
 * and s69; docs/decisions/039). The pages render these texts and the consent rows record the same texts, so the log
 * says exactly what was shown. Change a wording only together with its version. Browser-safe: no I/O.
 */
import type { ConsentPurpose, ConsentSource } from "~/db/schema";
import { PRIVACY_NOTICE_VERSION, TERMS_VERSION } from "./legal-versions";

export const CONSENT_PURPOSES = ["marketing_email", "terms", "privacy_notice", "stock_alert", "wishlist_alerts", "whatsapp_updates", "whatsapp_marketing", "rewards_programme"] as const satisfies readonly ConsentPurpose[];
export const CONSENT_SOURCES = ["register", "profile", "checkout", "unsubscribe", "admin", "product_page", "wishlist", "whatsapp_reply", "rewards_page"] as const satisfies readonly ConsentSource[];

/**
 * The marketing opt-in: the registration box (never ticked in advance) and the profile's switch show this label and
 * description. It says what will be sent and how to stop it (POPIA s69(1)(a) consent, s18 awareness of the purpose).
 */
export const MARKETING_CONSENT = {
  version: "2026-11-26",
  label: "News and offers by e-mail",
  description: (shopName: string) =>
    `New scents, restocks and occasional offers from ${shopName}. Unsubscribe at any time with the link in every one of these e-mails, or in your profile.`,
} as const;

/** The whole text of the opt-in as shown (label, then description): what a marketing row records. */
export function marketingConsentWording(shopName: string): string {
  return `${MARKETING_CONSENT.label}. ${MARKETING_CONSENT.description(shopName)}`;
}

/** The unsubscribe page's question and button, as the person sees them (the row records both). */
export function unsubscribePageWording(shopName: string): string {
  return `Stop news and offers e-mails from ${shopName}? [Unsubscribe]`;
}

/**
 * A mail program's own "Unsubscribe" button (RFC 8058 one-click: it posts to the e-mail's List-Unsubscribe address).
 * The shop did not show these words: the row says what happened, in the shop's words.
 */
export function oneClickUnsubscribeWording(shopName: string): string {
  return `Unsubscribed with one click from the e-mail program (List-Unsubscribe-Post, RFC 8058): no more news and offers e-mails from ${shopName}.`;
}

/** What an admin sees when they turn a customer's marketing e-mails off (Admin → Users). */
export const ADMIN_MARKETING_OFF_WORDING = "Marketing e-mails turned off by an admin (Admin → Users): no more news and offers e-mails.";

/**
 * The line under the registration form: one text with two links. Rendered from these parts and recorded as their
 * joined text, so the terms and privacy notice rows hold exactly what was on the screen.
 */
export type NoticePart = string | { to: string; text: string };

export const REGISTRATION_NOTICE: readonly NoticePart[] = [
  "By creating an account you accept our ",
  { to: "/terms", text: "Terms & Conditions" },
  " and confirm that you have read our ",
  { to: "/privacy", text: "privacy notice" },
  ", which says what we keep about you, why, and your rights (POPIA).",
];

export function noticeText(parts: readonly NoticePart[]): string {
  return parts.map((p) => (typeof p === "string" ? p : p.text)).join("");
}

/** The rows registering records besides a marketing opt-in: the terms accepted and the privacy notice shown. */
export function registrationAcknowledgements(): Array<{ purpose: "terms" | "privacy_notice"; version: string; wording: string }> {
  const wording = noticeText(REGISTRATION_NOTICE);
  return [
    { purpose: "terms", version: TERMS_VERSION.version, wording },
    { purpose: "privacy_notice", version: PRIVACY_NOTICE_VERSION.version, wording },
  ];
}

export const PURPOSE_LABELS: Record<ConsentPurpose, string> = {
  marketing_email: "Marketing e-mails",
  terms: "Terms & Conditions",
  privacy_notice: "Privacy notice",
  stock_alert: "Back-in-stock e-mail",
  wishlist_alerts: "Wishlist e-mails",
  whatsapp_updates: "WhatsApp order updates",
  whatsapp_marketing: "WhatsApp reminders",
  rewards_programme: "Rewards programme",
};

export const SOURCE_LABELS: Record<ConsentSource, string> = {
  register: "Registration",
  profile: "Profile",
  checkout: "Checkout",
  unsubscribe: "Unsubscribe link",
  admin: "Admin",
  product_page: "Product page",
  wishlist: "Wishlist",
  whatsapp_reply: "WhatsApp reply (STOP)",
  rewards_page: "Rewards page",
};

/** "Given", "Withdrawn", "Accepted", "Acknowledged": a row's verb, by purpose. */
export function consentVerb(purpose: ConsentPurpose, granted: boolean): string {
  if (!granted) return "Withdrawn";
  return purpose === "marketing_email" || purpose === "whatsapp_updates" || purpose === "whatsapp_marketing" || purpose === "rewards_programme" ? "Given" : purpose === "terms" ? "Accepted" : "Acknowledged";
}
