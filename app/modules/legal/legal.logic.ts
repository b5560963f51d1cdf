/**
 * The privacy notice (POPIA s18) and the seller disclosure (ECTA s43(1)) as data, built from the shop's settings
 * (docs/decisions/037). Pure and browser-safe: legal.server.ts reads the configuration into LegalSettings; the pages
 * only render what comes out of here. An owner fact that is not set is `null` here and "Not provided" on the page:
 * nothing is invented, and missingLegalSettings() names what to set.
 */
import { DELIVERY_WORKING_DAYS } from "~/modules/shipping/delivery-window.logic";
import { formatRand } from "~/utils/money";
import { noticeRetention, type RetentionPolicy } from "~/modules/privacy/retention.logic";

/**
 * The Information Regulator (South Africa), the authority POPIA s74 complaints go to. Public facts, from the
 * Regulator's own site (https://inforegulator.org.za, "How to Lodge a Complaint": the eServices portal) and its public
 * alert on new e-mail addresses (general enquiries; POPIA complaints on Form 5), checked November 2026. The older
 * complaints.IR@inforegulator.org.za was replaced by POPIAComplaints@inforegulator.org.za.
 */
export const INFORMATION_REGULATOR = {
  name: "Information Regulator (South Africa)",
  address: ["JD House, 27 Stiemens Street", "Braamfontein", "Johannesburg", "2001"],
  postalAddress: ["P.O. Box 31533", "Braamfontein", "Johannesburg", "2017"],
  enquiriesEmail: "enquiries@inforegulator.org.za",
  complaintsEmail: "POPIAComplaints@inforegulator.org.za",
  complaintsPortal: "https://eservices.inforegulator.org.za",
  website: "https://inforegulator.org.za",
} as const;

/** The owner's facts and the parts of the configuration the notices describe (legal.server.ts fills it). */
export interface LegalSettings {
  /** SHOP_NAME: the name shoppers know */
  tradingName: string;
  /** SHOP_LEGAL_NAME */
  legalName: string | null;
  /** SHOP_LEGAL_STATUS, e.g. "Private company" */
  legalStatus: string | null;
  /** SHOP_REGISTRATION_NUMBER (CIPC) */
  registrationNumber: string | null;
  /** SHOP_REGISTRATION_PLACE */
  registrationPlace: string | null;
  /** SHOP_OFFICE_BEARERS, one per entry ("Name (director)") */
  officeBearers: string[];
  /** SHOP_ADDRESS: the physical address (the same lines as on invoices) */
  physicalAddress: string[];
  /** SHOP_TELEPHONE */
  telephone: string | null;
  /** CONTACT_EMAIL */
  email: string;
  /** PUBLIC_BASE_URL without a trailing slash */
  website: string;
  /** SHOP_VAT_NUMBER */
  vatNumber: string | null;
  /** SHOP_LEGAL_SERVICE_ADDRESS: where legal documents are served */
  legalServiceAddress: string[];
  /** SHOP_SELF_REGULATORY_BODIES ("none" when none) */
  selfRegulatoryBodies: string | null;
  /** SHOP_CODE_OF_CONDUCT ("none" when none) */
  codeOfConduct: string | null;
  /** SHOP_DISPUTE_RESOLUTION ("none" when none) */
  disputeResolution: string | null;
  /** SHOP_INFORMATION_OFFICER */
  informationOfficer: string | null;
  /** SHOP_INFORMATION_OFFICER_EMAIL */
  informationOfficerEmail: string | null;
  /** SHOP_TRANSFERS_ABROAD ("none" when nothing leaves South Africa) */
  transfersAbroad: string | null;
  /** RETENTION_*: how long each kind of information is kept, as the daily retention job enforces it (decision 040) */
  retention: RetentionPolicy;
  /** who receives personal information, from the payment, delivery and mail configuration */
  recipients: Recipient[];
  /** the ways to pay the checkout offers, as the shopper reads them */
  paymentMethods: string[];
  /** FREE_DELIVERY_THRESHOLD_CENTS */
  freeDeliveryThresholdCents: number;
}

/** A setting a notice needs, and the law that asks for it. */
export interface LegalSettingSpec {
  key: string;
  what: string;
  law: string;
  page: "seller" | "privacy";
  isSet: (s: LegalSettings) => boolean;
}

const given = (v: string | null) => v !== null && v.trim() !== "";

/** Every owner fact the two notices state, in the order the pages state them. */
export const LEGAL_SETTINGS: readonly LegalSettingSpec[] = [
  { key: "SHOP_LEGAL_NAME", what: "full legal name", law: "ECTA s43(1)(a), POPIA s18(1)(b)", page: "seller", isSet: (s) => given(s.legalName) },
  { key: "SHOP_LEGAL_STATUS", what: "legal status", law: "ECTA s43(1)(a)", page: "seller", isSet: (s) => given(s.legalStatus) },
  { key: "SHOP_ADDRESS", what: "physical address", law: "ECTA s43(1)(b), POPIA s18(1)(b)", page: "seller", isSet: (s) => s.physicalAddress.length > 0 },
  { key: "SHOP_TELEPHONE", what: "telephone number", law: "ECTA s43(1)(b)", page: "seller", isSet: (s) => given(s.telephone) },
  { key: "SHOP_SELF_REGULATORY_BODIES", what: "self-regulatory or accreditation bodies (or none)", law: "ECTA s43(1)(d)", page: "seller", isSet: (s) => given(s.selfRegulatoryBodies) },
  { key: "SHOP_CODE_OF_CONDUCT", what: "code of conduct (or none)", law: "ECTA s43(1)(e)", page: "seller", isSet: (s) => given(s.codeOfConduct) },
  { key: "SHOP_REGISTRATION_NUMBER", what: "registration number", law: "ECTA s43(1)(f)", page: "seller", isSet: (s) => given(s.registrationNumber) },
  { key: "SHOP_OFFICE_BEARERS", what: "office bearers", law: "ECTA s43(1)(f)", page: "seller", isSet: (s) => s.officeBearers.length > 0 },
  { key: "SHOP_REGISTRATION_PLACE", what: "place of registration", law: "ECTA s43(1)(f)", page: "seller", isSet: (s) => given(s.registrationPlace) },
  { key: "SHOP_LEGAL_SERVICE_ADDRESS", what: "address for service of legal documents", law: "ECTA s43(1)(g)", page: "seller", isSet: (s) => s.legalServiceAddress.length > 0 },
  { key: "SHOP_DISPUTE_RESOLUTION", what: "alternative dispute resolution code (or none)", law: "ECTA s43(1)(o)", page: "seller", isSet: (s) => given(s.disputeResolution) },
  { key: "SHOP_INFORMATION_OFFICER", what: "Information Officer's name", law: "POPIA s18(1)(b), s55", page: "privacy", isSet: (s) => given(s.informationOfficer) },
  { key: "SHOP_INFORMATION_OFFICER_EMAIL", what: "Information Officer's e-mail address", law: "POPIA s18(1)(b), s23, s24", page: "privacy", isSet: (s) => given(s.informationOfficerEmail) },
  { key: "SHOP_TRANSFERS_ABROAD", what: "transfers of personal information outside South Africa (or none)", law: "POPIA s18(1)(g), s72", page: "privacy", isSet: (s) => given(s.transfersAbroad) },
];

/** The settings the notices need that are not set (an empty list: both pages are complete). */
export function missingLegalSettings(s: LegalSettings): LegalSettingSpec[] {
  return LEGAL_SETTINGS.filter((spec) => !spec.isSet(s));
}

/** One line for the log and the dashboard: "SHOP_TELEPHONE (telephone number, ECTA s43(1)(b))". */
export function describeMissing(spec: Pick<LegalSettingSpec, "key" | "what" | "law">): string {
  return `${spec.key} (${spec.what}, ${spec.law})`;
}

/** Who else receives a shopper's personal information, and what of it (POPIA s18(1)(h)(i)). */
export interface Recipient {
  role: "payment" | "courier" | "email";
  name: string;
  receives: string;
  why: string;
}

export type CardProvider = "simulated" | "yoco" | "payfast";
export type PaymentMethodName = "card" | "instant_eft" | "eft";
export type DeliveryKindName = "door" | "locker" | "point";

/** The configuration that decides the recipients (the env variables of the same names). */
export interface RecipientConfig {
  PAYMENT_PROVIDER: CardProvider;
  PAYMENT_METHODS: readonly PaymentMethodName[];
  DELIVERY_KINDS: readonly DeliveryKindName[];
  SHIPLOGIC_API_KEY?: string | undefined;
  PUDO_API_KEY?: string | undefined;
  PARGO_USERNAME?: string | undefined;
  PARGO_PASSWORD?: string | undefined;
  SMTP_URL?: string | undefined;
}

const COURIER_RECEIVES = "your name, mobile number, e-mail address and delivery address (or the locker or pick-up point you chose), and the parcel's size";

/**
 * The services this shop's configuration actually sends personal information to. A test payment page or a test courier
 * (no credentials) is the shop itself and sends nothing anywhere, so it is not a recipient.
 */
export function recipientsFor(config: RecipientConfig): Recipient[] {
  const out: Recipient[] = [];
  if (config.PAYMENT_METHODS.includes("card") && config.PAYMENT_PROVIDER === "yoco") {
    out.push({ role: "payment", name: "Yoco", receives: "the order's amount and reference; you type your card details on Yoco's own page", why: "to take your card payment" });
  }
  if (config.PAYMENT_METHODS.includes("card") && config.PAYMENT_PROVIDER === "payfast") {
    out.push({ role: "payment", name: "PayFast", receives: "your name, e-mail address, the order's amount and reference; you type your payment details on PayFast's own page", why: "to take your payment" });
  }
  if (config.PAYMENT_METHODS.includes("instant_eft")) {
    out.push({ role: "payment", name: "Ozow", receives: "your name, the order's amount and reference; you sign in to your bank on Ozow's own page", why: "to take your instant EFT payment" });
  }
  const kinds = config.DELIVERY_KINDS;
  if (kinds.includes("door") && config.SHIPLOGIC_API_KEY) {
    out.push({ role: "courier", name: "The Courier Guy (through Shiplogic)", receives: COURIER_RECEIVES, why: "to deliver your order to your door and tell you where it is" });
  }
  if (kinds.includes("locker") && config.PUDO_API_KEY) {
    out.push({ role: "courier", name: "PUDO lockers (The Courier Guy)", receives: COURIER_RECEIVES, why: "to deliver your order to the locker you chose" });
  }
  if (kinds.includes("point") && config.PARGO_USERNAME && config.PARGO_PASSWORD) {
    out.push({ role: "courier", name: "Pargo", receives: COURIER_RECEIVES, why: "to deliver your order to the pick-up point you chose" });
  }
  const mailHost = smtpHost(config.SMTP_URL);
  if (mailHost) {
    out.push({ role: "email", name: `The e-mail service at ${mailHost}`, receives: "your e-mail address and the content of the e-mails we send you", why: "to deliver our e-mails (order confirmations, delivery updates, password resets)" });
  }
  return out;
}

/** The mail server's host name from SMTP_URL (never its user name or password); null when unset or unreadable. */
export function smtpHost(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** A setting written "none" (any case, with or without a full stop): the owner says there is none. */
export function isNone(value: string | null): boolean {
  return value !== null && /^none\.?$/i.test(value.trim());
}

/** A fact as the page shows it: lines of text, or null for "Not provided". */
export type Fact = string[] | null;

const lines = (v: string | null | string[]): Fact => (Array.isArray(v) ? (v.length ? v : null) : v && v.trim() ? [v.trim()] : null);

/** One item of the seller disclosure, with the paragraph of s43(1) it answers. */
export interface DisclosureItem {
  id: string;
  /** "s43(1)(a)" */
  law: string;
  label: string;
  value: Fact;
  /** a page of the shop that holds the rest (terms, privacy notice) */
  link?: { to: string; text: string };
}

/** Every item ECTA s43(1) lists, (a) to (r), in the Act's order. */
export function sellerDisclosure(s: LegalSettings): DisclosureItem[] {
  const optional = (v: string | null) => (v === null ? null : isNone(v) ? ["None"] : [v]);
  const threshold = s.freeDeliveryThresholdCents;
  return [
    { id: "name", law: "s43(1)(a)", label: "Full name", value: lines(s.legalName) },
    { id: "trading-name", law: "s43(1)(a)", label: "Trading as", value: [s.tradingName] },
    { id: "legal-status", law: "s43(1)(a)", label: "Legal status", value: lines(s.legalStatus) },
    { id: "physical-address", law: "s43(1)(b)", label: "Physical address", value: lines(s.physicalAddress) },
    { id: "telephone", law: "s43(1)(b)", label: "Telephone", value: lines(s.telephone) },
    { id: "website", law: "s43(1)(c)", label: "Website", value: [s.website] },
    { id: "email", law: "s43(1)(c)", label: "E-mail", value: [s.email] },
    { id: "self-regulatory", law: "s43(1)(d)", label: "Self-regulatory or accreditation bodies", value: optional(s.selfRegulatoryBodies) },
    { id: "code-of-conduct", law: "s43(1)(e)", label: "Code of conduct", value: optional(s.codeOfConduct) },
    { id: "registration-number", law: "s43(1)(f)", label: "Registration number", value: lines(s.registrationNumber) },
    { id: "office-bearers", law: "s43(1)(f)", label: "Office bearers", value: lines(s.officeBearers) },
    { id: "registration-place", law: "s43(1)(f)", label: "Place of registration", value: lines(s.registrationPlace) },
    ...(s.vatNumber ? [{ id: "vat-number", law: "VAT Act s20(4)", label: "VAT registration number", value: [s.vatNumber] }] : []),
    { id: "legal-service", law: "s43(1)(g)", label: "Address for service of legal documents", value: lines(s.legalServiceAddress) },
    {
      id: "goods",
      law: "s43(1)(h)",
      label: "The goods",
      value: ["Designer-inspired fragrances. Each product page describes the fragrance, its size, its scent notes and the designer scent that inspired it."],
      link: { to: "/shop", text: "Browse the shop" },
    },
    {
      id: "price",
      law: "s43(1)(i)",
      label: "Full price",
      value: [
        "Prices are in South African rand and include VAT at 15%.",
        threshold > 0
          ? "The delivery fee is shown at checkout for your address and delivery choice before you pay; delivery is free on orders of " + formatRand(threshold) + " or more."
          : "Delivery is free on every order.",
        "Checkout shows every line, the delivery fee, the VAT included and the total before you pay. There are no other fees.",
      ],
    },
    { id: "payment", law: "s43(1)(j)", label: "How to pay", value: s.paymentMethods.length ? s.paymentMethods : null },
    { id: "terms", law: "s43(1)(k)", label: "Terms of agreement", value: ["Our Terms & Conditions apply to every order. They are one web page you can save or print."], link: { to: "/terms", text: "Terms & Conditions" } },
    { id: "delivery-time", law: "s43(1)(l)", label: "Delivery time", value: [`Orders are delivered within ${DELIVERY_WORKING_DAYS.min} to ${DELIVERY_WORKING_DAYS.max} working days anywhere in South Africa.`] },
    {
      id: "records",
      law: "s43(1)(m)",
      label: "Your record of the transaction",
      value: ["Each paid order is confirmed by e-mail with its lines and totals. Signed in, your profile lists your orders, and each order's invoice can be downloaded as a PDF and kept."],
    },
    { id: "returns", law: "s43(1)(n)", label: "Returns, exchanges and refunds", value: ["As set out under “Returns and exchanges” in our Terms & Conditions, together with your right to cancel below.", "To return items, sign in and choose “Return items” beside the delivered order under Profile → Orders; we answer by e-mail, and each refund comes with a credit note."], link: { to: "/terms#returns", text: "Returns and exchanges" } },
    { id: "dispute-resolution", law: "s43(1)(o)", label: "Alternative dispute resolution", value: optional(s.disputeResolution) },
    {
      id: "security",
      law: "s43(1)(p)",
      label: "Payment security and privacy",
      value: [
        "You pay on the payment provider's own page: your card details or bank sign-in never reach our shop, and a card or instant EFT payment counts only when the provider confirms it to us directly.",
        ...(s.website.startsWith("https://") ? ["Every page, checkout included, is served over an encrypted (https) connection."] : []),
        "How we handle your personal information is in our privacy notice.",
      ],
      link: { to: "/privacy", text: "Privacy notice" },
    },
    { id: "duration", law: "s43(1)(q)", label: "Minimum duration", value: ["Not applicable: each order is a single purchase, not an ongoing agreement."] },
    {
      id: "cooling-off",
      law: "s43(1)(r), s44",
      label: "Your right to cancel (cooling-off)",
      value: COOLING_OFF,
    },
  ];
}

/** ECTA s44(1)(a), (2) and (3) in plain words, and s43(2)–(3). */
export const COOLING_OFF = [
  "You may cancel the purchase without reason and without penalty within 7 days after the date you receive the goods (ECTA s44(1)(a)).",
  "The only charge you may be asked to pay is the direct cost of returning the goods (s44(2)).",
  "If you have already paid, you are entitled to a full refund within 30 days of the date you cancel (s44(3)).",
];

/** One kind of personal information the shop collects: what, why, whether it must be given (POPIA s18(1)(a), (c)–(f)). */
export interface Collected {
  id: string;
  what: string;
  items: string;
  why: string;
  /** s18(1)(d)–(e): voluntary or mandatory, and what happens without it */
  required: string;
  /** s18(1)(f): a law that requires it */
  law?: string;
  kept: string;
}

/** What this shop's code collects and keeps (the tables it writes), said once for the privacy notice. */
export function collected(s: Pick<LegalSettings, "retention">, sessionDays: number): Collected[] {
  // The periods the daily retention job enforces (docs/decisions/040): the notice and the job read the same settings.
  const kept = noticeRetention(s.retention);
  return [
    {
      id: "account",
      what: "Your account",
      items: "Your e-mail address and password (we keep only a one-way hash of the password, never the password itself), your e-mail preferences, and a record of each consent you give or withdraw: marketing e-mails, our terms, this notice (what you were shown, its version, when and where).",
      why: "To sign you in, send you what you ask for, and show you your orders.",
      required: "Needed to place an order; without an account you can still browse the shop.",
      kept: "Until you delete your account (Profile, “Delete my account”) or ask us to (POPIA s24).",
    },
    {
      id: "orders",
      what: "Your orders",
      items: "Your name, telephone number and delivery address, what you bought, the prices, the coupon you used, how you paid and the payment provider's reference.",
      why: "To deliver your order, to keep you up to date, to issue your invoice and to keep the shop's accounts.",
      required: "Needed to place an order: we can't deliver or invoice without them.",
      law: "Tax invoices and records of supplies (VAT Act s20 and s55; Tax Administration Act s29).",
      kept: kept.orders,
    },
    {
      id: "sign-in",
      what: "Sign-in and security",
      items: "While you are signed in: the internet (IP) address and browser of each session. Your IP address also counts sign-in attempts, to slow down password guessing.",
      why: "To keep your account safe.",
      required: "Collected automatically when you sign in.",
      kept: `A session ends after ${sessionDays} days, or when you sign out; its record is deleted within a day after it ends. Sign-in attempt counters are deleted after a day.`,
    },
    {
      id: "messages",
      what: "Messages",
      items: "What you write in the contact form (your name, e-mail address and message), and a copy of each e-mail we send you.",
      why: "To answer you, and to check that our e-mails reached you.",
      required: "Voluntary: only when you write to us, or when we e-mail you about your account or order.",
      kept: kept.messages,
    },
    {
      id: "activity",
      what: "Changes our staff make",
      items: "When someone who works for the shop changes your order, your account or anything else in the shop's administration: who did it, when, from which internet (IP) address, and the values before and after (for example an order's status or delivery address).",
      why: "To know who changed what in the shop's records, to correct mistakes and to answer for refunds and invoices.",
      required: "Recorded automatically with each change.",
      law: "Records behind invoices and refunds (Tax Administration Act s29).",
      kept: kept.activity,
    },
    {
      id: "reviews",
      what: "Reviews",
      items: "The rating and comment you write about a fragrance you bought, linked to your account.",
      why: "To show other shoppers what buyers think.",
      required: "Voluntary.",
      kept: "Until you or we remove the review. Deleting your account removes your reviews.",
    },
    {
      id: "stock-alerts",
      what: "Back-in-stock requests",
      items: "When you ask us to tell you that a sold-out fragrance is back (“Notify me”): your e-mail address, the fragrance and size, when you asked and, if you were not signed in, when you confirmed with the link we e-mailed you. We record your request in our consent log.",
      why: "To send you the one e-mail you asked for when it is back in stock (POPIA s11(1)(a)).",
      required: "Voluntary. If you were not signed in, nothing is sent until you confirm with the link we e-mail you.",
      kept: "We delete your request and address as soon as that e-mail is sent, or 6 months after you asked if the fragrance doesn't come back (POPIA s14). A request not confirmed within 7 days is deleted then.",
    },
    {
      id: "wishlist",
      what: "Your wishlist",
      items: "The fragrances you save with the heart: in your browser while you are not signed in, in your account when you are. Wishlist e-mails only if you turn them on (price drops and restocks of what you saved), recorded in our consent log.",
      why: "To keep the fragrances you like for later, let you share the list, and, only if you asked for them, tell you when they drop in price or come back (direct marketing with your consent, POPIA s69).",
      required: "Voluntary.",
      kept: "Until you remove an item, or delete your account. Wishlist e-mails stop when you turn them off on your wishlist or with the link in each of them.",
    },
    {
      id: "gift-cards",
      what: "Gift cards",
      items: "For a gift card we issue to you: the e-mail address we issued it to, its amount, balance and expiry, the last four characters of its code, and each change to its balance (issued, paid an order, given back, expired, cancelled) with the order and when. We never keep the code itself, only a one-way hash of it.",
      why: "To let you pay with the card, show it in your profile, and keep the shop's accounts of the money it holds.",
      required: "Voluntary.",
      kept: "The card and each change to its balance stay as the shop's accounts. Deleting your account removes your e-mail address and our notes from the card; its balance stays and it still pays with its code until it expires.",
    },
    {
      id: "sample-credits",
      what: "Sample credits",
      items: "For each sample you buy while signed in: the credit it gives on a full bottle of that fragrance, its amount, when it was granted and expires, and the order it was used on.",
      why: "To take the credit off the bottle at checkout, once.",
      required: "Comes with buying a sample while signed in.",
      kept: "In your account until you delete it: deleting your account deletes your credits, used or not. An order that used one keeps its amount as part of the tax record.",
    },
    {
      id: "whatsapp",
      what: "WhatsApp order updates",
      items: "Only if you turn them on: your mobile number, when you turned updates on and off (in our consent log), and each update we send you: the order, what it was about, the words sent, and whether it was sent, delivered, read or failed.",
      why: "To send the order updates you asked for (POPIA s11(1)(a)).",
      required: "Voluntary: off unless you turn them on at checkout or in your profile. Reply STOP, use the link in our e-mails or your profile to turn them off.",
      kept: kept.whatsapp,
    },
    {
      id: "cart",
      what: "Your cart and reminders",
      items: "While you are signed in, your cart (the fragrances, sizes and quantities) is also kept in your account, so it follows you to another device. Only if you agreed to news and offers by e-mail: one reminder for a cart you left or an order left unpaid, with the items it named and whether you used its link.",
      why: "To keep your cart on every device you sign in on, and to remind you once (direct marketing with your consent, POPIA s69).",
      required: "Voluntary: the cart is kept only while you are signed in; reminders only with your consent to marketing e-mails.",
      kept: kept.cart,
    },
    {
      id: "browser",
      what: "In your browser",
      items: "A session cookie while you are signed in, and your cart and wishlist, kept in your own browser (while you are not signed in, for the wishlist).",
      why: "To keep you signed in and remember your cart and the fragrances you saved.",
      required: "The session cookie is needed to sign in; nothing else is stored in your browser by us.",
      kept: "The cookie until you sign out or the session ends; the cart until you empty it or clear your browser; the wishlist until you remove its items, clear your browser, or sign in (it then moves to your account).",
    },
  ];
}

/** A data subject's rights as POPIA gives them, each with its section. */
export const POPIA_RIGHTS: ReadonlyArray<{ id: string; law: string; text: string }> = [
  { id: "access", law: "s23", text: "Ask us to confirm, free of charge, whether we hold personal information about you, and ask for the record or a description of it, including who has had access to it." },
  { id: "correction", law: "s24", text: "Ask us to correct or delete personal information about you that is inaccurate, irrelevant, excessive, out of date, incomplete, misleading or obtained unlawfully, or to destroy or delete a record we are no longer allowed to keep." },
  { id: "objection", law: "s11(3)", text: "Object at any time, on reasonable grounds relating to your particular situation, to our processing of your personal information, and object at any time to its use for direct marketing." },
  { id: "marketing", law: "s69", text: "Direct marketing by e-mail is allowed only with your consent, or to a customer about similar goods with the chance to refuse it when your details were collected and in every message. You can change your e-mail preferences in your profile at any time." },
  { id: "complaint", law: "s74", text: "Complain to the Information Regulator (details below)." },
];
