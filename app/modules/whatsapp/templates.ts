/**
 * WhatsApp order updates: the one place that says what is sent and what the shopper agrees to (docs/decisions/055).
 *
 * - TEMPLATES: each event's template as it must be registered with Meta (name, category, body with {{1}}… in order),
 *   and the parameters the shop fills in. The sender (outbox.server.ts) sends exactly these names and parameters; the
 *   admin's WhatsApp page lists them for the owner to register, so the two cannot drift apart.
 * - WHATSAPP_CONSENT: the opt-in's words (checkout and profile) and their version; the consent log records the same
 *   text. Change a wording only together with its version.
 * Browser-safe: no I/O.
 */

export const WHATSAPP_EVENTS = ["order_placed", "payment_received", "booked", "ready_for_collection", "delivered", "refunded"] as const;
export type WhatsappEvent = (typeof WHATSAPP_EVENTS)[number];

export interface WhatsappTemplate {
  /** the name registered at Meta (lower case and underscores, as Meta requires) */
  name: string;
  /** what the owner reads in the admin */
  label: string;
  /** Meta's category: these are all updates about an order the shopper placed */
  category: "UTILITY";
  /** the body as registered, {{1}}, {{2}}… in the order of `example` */
  body: string;
  /** one example value per parameter (Meta asks for samples when a template is submitted) */
  example: string[];
}

/** Every template ends the same way: who sends it and how to stop it (POPIA s69(4) asks it of marketing; we give it to all). */
const FOOTER = "Reply STOP to stop WhatsApp updates from {{shop}}.";

function template(name: string, label: string, text: string, example: string[]): WhatsappTemplate {
  const parts = `${text}\n\n${FOOTER}`;
  // {{shop}} is the last parameter of every template
  const body = parts.replace("{{shop}}", `{{${example.length + 1}}}`);
  return { name, label, category: "UTILITY", body, example: [...example, "Scentara"] };
}

export const TEMPLATES: Record<WhatsappEvent, WhatsappTemplate> = {
  order_placed: template(
    "order_placed",
    "Order placed (bank transfer)",
    "Hi {{1}}, thank you for your order {{2}} ({{3}}). Please pay by bank transfer with the reference {{4}}: the bank details are on your order's page, {{5}}. We let you know here when the money reaches us.",
    ["Thandi", "3f9c2a1b", "R 1 249.00", "3F9C2A1B", "https://scentara.co.za/payment/eft/…"],
  ),
  payment_received: template(
    "payment_received",
    "Payment received",
    "Hi {{1}}, we have received your payment of {{2}} for order {{3}}: thank you. We are preparing your order now. Order details: {{4}}",
    ["Thandi", "R 1 249.00", "3f9c2a1b", "https://scentara.co.za/order-confirmation?id=…"],
  ),
  booked: template(
    "order_booked",
    "Booked with the courier",
    "Hi {{1}}, your order {{2}} is booked with {{3}}, waybill {{4}}. Follow your parcel: {{5}}",
    ["Thandi", "3f9c2a1b", "The Courier Guy", "TCG123456", "https://scentara.co.za/order-confirmation?id=…"],
  ),
  ready_for_collection: template(
    "order_ready_for_collection",
    "Ready at the locker or pick-up point",
    "Hi {{1}}, your order {{2}} is waiting for you at {{3}}, {{4}}. Your collection code: {{5}}",
    ["Thandi", "3f9c2a1b", "PUDO Sandton City", "83 Rivonia Road, Sandhurst", "482913"],
  ),
  delivered: template(
    "order_delivered",
    "Delivered",
    "Hi {{1}}, your order {{2}} has been delivered. We hope you love it. Order details: {{3}}",
    ["Thandi", "3f9c2a1b", "https://scentara.co.za/order-confirmation?id=…"],
  ),
  refunded: template(
    "order_refunded",
    "Refunded",
    "Hi {{1}}, we have refunded {{2}} for order {{3}}, {{4}}. Details: {{5}}",
    ["Thandi", "R 450.00", "3f9c2a1b", "to the card you paid with", "https://scentara.co.za/orders/…/return"],
  ),
};

/** The template's body with its parameters filled in: what the shopper reads (the admin shows it; the fake keeps it). */
export function renderTemplate(body: string, params: readonly string[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (whole, n: string) => params[Number(n) - 1] ?? whole);
}

/** "+27821234567" or "27821234567" → "082 123 4567": how a South African reads their own number. */
export function displayPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  const national = digits.startsWith("27") && digits.length === 11 ? `0${digits.slice(2)}` : digits;
  return national.length === 10 ? `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}` : phone;
}

/** "+27821234567" → "27821234567": the Cloud API's `to` and the webhooks' `wa_id` (digits, country code first). */
export function waDigits(e164: string): string {
  return e164.replace(/\D/g, "");
}

/**
 * The opt-in (never ticked in advance): label and description as the checkout box and the profile show them.
 * It says what is sent, to which number, and how to stop it (POPIA s11(1)(a) consent, s18(1) awareness of the purpose).
 */
export const WHATSAPP_CONSENT = {
  version: "2026-11-28",
  label: (phone: string) => `Order updates on WhatsApp to ${displayPhone(phone)}`,
  description: (shopName: string) =>
    `${shopName} sends you a WhatsApp message when your payment arrives, when your order is with the courier, waiting for collection, delivered or refunded. Reply STOP, or turn it off in your profile or with the link in your order e-mail, at any time.`,
} as const;

/** The whole opt-in as shown: what its consent row records. */
export function whatsappConsentWording(phone: string, shopName: string): string {
  return `${WHATSAPP_CONSENT.label(phone)}. ${WHATSAPP_CONSENT.description(shopName)}`;
}

/** Each way of stopping, in the words the consent log records. */
export const WHATSAPP_OPT_OUT_WORDING = {
  profile: (phone: string) => `Stop order updates on WhatsApp to ${displayPhone(phone)} (Profile → Preferences).`,
  link: (phone: string, shopName: string) => `Stop order updates on WhatsApp to ${displayPhone(phone)} from ${shopName}? [Stop WhatsApp updates]`,
  reply: (phone: string) => `Replied "STOP" on WhatsApp from ${displayPhone(phone)}: no more order updates on WhatsApp.`,
} as const;

/** What the admin calls each status of a message. */
export const MESSAGE_STATUS_LABELS = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  delivered: "Delivered",
  read: "Read",
  failed: "Failed",
  skipped: "Not sent (no consent)",
} as const;
