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
  /** when a shopper gets it (the admin's list says so beside each template) */
  when: string;
  /** Meta's category: updates about an order the shopper placed are UTILITY; a reminder to come back is MARKETING */
  category: "UTILITY" | "MARKETING";
  /** the body as registered, {{1}}, {{2}}… in the order of `example` */
  body: string;
  /** one example value per parameter (Meta asks for samples when a template is submitted) */
  example: string[];
}

/** Every template ends the same way: who sends it and how to stop it (POPIA s69(4) asks it of marketing; we give it to all). */
const FOOTER = "Reply STOP to stop WhatsApp updates from {{shop}}.";

function template(name: string, label: string, when: string, text: string, example: string[], category: WhatsappTemplate["category"] = "UTILITY"): WhatsappTemplate {
  const parts = `${text}\n\n${FOOTER}`;
  // {{shop}} is the last parameter of every template
  const body = parts.replace("{{shop}}", `{{${example.length + 1}}}`);
  return { name, label, when, category, body, example: [...example, "Scentara"] };
}

export const TEMPLATES: Record<WhatsappEvent, WhatsappTemplate> = {
  order_placed: template(
    "order_placed",
    "Order placed (bank transfer)",
    "When an order to pay by bank transfer is placed, with how to pay. A card or instant EFT order sends none: its first message is the payment, seconds later.",
    "Hi {{1}}, thank you for your order {{2}} ({{3}}). Please pay by bank transfer with the reference {{4}}: the bank details are on your order's page, {{5}}. We let you know here when the money reaches us.",
    ["Thandi", "3f9c2a1b", "R 1 249.00", "3F9C2A1B", "https://scentara.co.za/payment/eft/…"],
  ),
  payment_received: template(
    "payment_received",
    "Payment received",
    "When the payment of any order arrives (card, instant EFT, or a bank transfer the owner marks paid).",
    "Hi {{1}}, we have received your payment of {{2}} for order {{3}}: thank you. We are preparing your order now. Order details: {{4}}",
    ["Thandi", "R 1 249.00", "3f9c2a1b", "https://scentara.co.za/order-confirmation?id=…"],
  ),
  booked: template(
    "order_booked",
    "Booked with the courier",
    "When the order is booked with the courier, with the waybill and tracking link.",
    "Hi {{1}}, your order {{2}} is booked with {{3}}, waybill {{4}}. Follow your parcel: {{5}}",
    ["Thandi", "3f9c2a1b", "The Courier Guy", "TCG123456", "https://scentara.co.za/order-confirmation?id=…"],
  ),
  ready_for_collection: template(
    "order_ready_for_collection",
    "Ready at the locker or pick-up point",
    "When a locker or pick-up point order is waiting there, with its address and collection code.",
    "Hi {{1}}, your order {{2}} is waiting for you at {{3}}, {{4}}. Your collection code: {{5}}",
    ["Thandi", "3f9c2a1b", "PUDO Sandton City", "83 Rivonia Road, Sandhurst", "482913"],
  ),
  delivered: template(
    "order_delivered",
    "Delivered",
    "When the order is marked delivered.",
    "Hi {{1}}, your order {{2}} has been delivered. We hope you love it. Order details: {{3}}",
    ["Thandi", "3f9c2a1b", "https://scentara.co.za/order-confirmation?id=…"],
  ),
  refunded: template(
    "order_refunded",
    "Refunded",
    "When a return is refunded.",
    "Hi {{1}}, we have refunded {{2}} for order {{3}}, {{4}}. Details: {{5}}",
    ["Thandi", "R 450.00", "3f9c2a1b", "to the card you paid with", "https://scentara.co.za/orders/…/return"],
  ),
};

/**
 * The reminders (docs/decisions/056): marketing, sent only to people who agreed to reminders on WhatsApp
 * (WHATSAPP_MARKETING_CONSENT), at most once per cart or unpaid order, beside the reminder e-mail. Parameters: the
 * first name, the items ("Velvet Rose (50 ml), Oud Noir"), the link that restores the cart or reopens the payment.
 */
export const REMINDER_KINDS = ["cart", "order"] as const;
export type ReminderTemplateKind = (typeof REMINDER_KINDS)[number];

export const REMINDER_TEMPLATES: Record<ReminderTemplateKind, WhatsappTemplate> = {
  cart: template(
    "cart_reminder",
    "Reminder: items left in the cart",
    "Marketing, only with the reminders opt-in: once per cart left with items, after the set time (Settings), beside the reminder e-mail.",
    "Hi {{1}}, you left {{2}} in your cart. It is kept for you here: {{3}}",
    ["Thandi", "Velvet Rose (50 ml), Oud Noir (100 ml)", "https://scentara.co.za/cart?restore=…"],
    "MARKETING",
  ),
  order: template(
    "unpaid_order_reminder",
    "Reminder: order not paid yet",
    "Marketing, only with the reminders opt-in: once per unpaid card or instant EFT order, after the set time and while it can still be paid.",
    "Hi {{1}}, your order {{2}} ({{3}}) is waiting for its payment. You can still pay for it here: {{4}}",
    ["Thandi", "#3F9C2A1B", "Velvet Rose (50 ml)", "https://scentara.co.za/orders/…/pay"],
    "MARKETING",
  ),
};

/** Every template the shop may send, as the admin lists them for registration: order updates, then reminders. */
export function allTemplates(): WhatsappTemplate[] {
  return [...WHATSAPP_EVENTS.map((e) => TEMPLATES[e]), ...REMINDER_KINDS.map((k) => REMINDER_TEMPLATES[k])];
}

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
  // names the bank-transfer order's first message; one version for the words of this release
  version: "2026-11-28",
  label: (phone: string) => `Order updates on WhatsApp to ${displayPhone(phone)}`,
  description: (shopName: string) =>
    `${shopName} sends you a WhatsApp message when you place an order to pay by bank transfer (how to pay), when your payment arrives, when your order is with the courier, waiting for collection, delivered or refunded. Reply STOP, or turn it off in your profile or with the link in your order e-mail, at any time.`,
} as const;

/**
 * Reminders on WhatsApp: marketing (POPIA s69(1)(a)), so a consent of its own, separate from order updates; offered
 * in the profile only, once updates are on (it goes to the same number), never ticked in advance.
 */
export const WHATSAPP_MARKETING_CONSENT = {
  version: "2026-11-28",
  label: (phone: string) => `Reminders on WhatsApp to ${displayPhone(phone)}`,
  description: (shopName: string) =>
    `${shopName} may send you one WhatsApp reminder about a cart you left with items, or an order you have not paid yet, with a link back to it: never more than one per cart or order. Reply STOP (which stops every WhatsApp message from us), or turn reminders off here, at any time.`,
  wording: (phone: string, shopName: string) => `${WHATSAPP_MARKETING_CONSENT.label(phone)}. ${WHATSAPP_MARKETING_CONSENT.description(shopName)}`,
  off: (phone: string) => `Stop reminders on WhatsApp to ${displayPhone(phone)} (Profile → Preferences).`,
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
