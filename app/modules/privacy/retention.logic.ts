/**
 * How long the shop keeps personal information (POPIA s14; docs/decisions/040), as pure rules: the policy from the
 * RETENTION_* settings, the cut-off dates of a run, and the policy in words. The words are used by the privacy
 * notice (/privacy), Admin → Privacy and the deletion page alike, so the notice states exactly what the daily job
 * enforces: one source, they cannot disagree. Browser-safe (no server imports).
 */
import { STOCK_ALERT_CONFIRM_DAYS, STOCK_ALERT_KEEP_MONTHS } from "~/modules/stock-alerts/stock-alerts.logic";
import { daysBefore, monthsBefore } from "~/utils/dates";

/** The owner's periods (env RETENTION_*; the defaults are the ones the issue names). */
export interface RetentionPolicy {
  /** contact messages, and the record (recipient, subject) of each e-mail sent: deleted after this many months */
  contactMonths: number;
  /** a sent e-mail's body (text and HTML) is erased after this many days; its record stays for contactMonths */
  mailBodyDays: number;
  /** an order that was never paid (cancelled, failed, abandoned): its personal details erased after this many months */
  unpaidOrderMonths: number;
  /** a paid order's tax invoice is kept this many years (at least 5: Tax Administration Act s29) */
  invoiceYears: number;
  /** a signed-in shopper's cart kept on the server (docs/decisions/056): deleted after this many days unchanged */
  savedCartDays: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { contactMonths: 12, mailBodyDays: 90, unpaidOrderMonths: 12, invoiceYears: 5, savedCartDays: 90 };

/** The Tax Administration Act's minimum (s29(3)(a): five years from the date of submission of the return). */
export const MIN_INVOICE_YEARS = 5;

/**
 * Housekeeping with fixed periods (not settings: they follow from how the data is used). An expired session or reset
 * link can't be used again; a rate-limit counter's longest window is an hour (accounts/rate-limit.server.ts), so a day
 * later it counts nothing. Both hold IP addresses and e-mail addresses.
 */
export const EXPIRED_GRACE_MS = 0;
export const RATE_LIMIT_KEEP_MS = 24 * 60 * 60 * 1000;
/**
 * The admin's activity log (docs/decisions/060) is kept 5 years, the Tax Administration Act's records period (s29): it
 * records changes to invoiced orders, refunds and prices. Fixed, not a setting: its table's triggers refuse deleting a
 * younger entry. The job deletes an entry a day after its 5 years, so a clock a little ahead of the database's never
 * asks the triggers for one they still keep.
 */
export const ACTIVITY_LOG_YEARS = 5;
export const ACTIVITY_LOG_MARGIN_DAYS = 1;
/** The job's own records (retention_runs) are kept a year: Admin → Privacy shows the recent ones. */
export const RUN_RECORDS_KEEP_MS = 366 * 24 * 60 * 60 * 1000;

/** What one run erased, per rule (keys are stable: they are stored in retention_runs.summary). */
export interface RetentionCounts {
  contactMessages: number;
  mailBodies: number;
  mailRecords: number;
  unpaidOrders: number;
  invoicedOrders: number;
  sessions: number;
  verifications: number;
  rateLimits: number;
  /** WhatsApp messages whose number and words were erased (like an e-mail's text) */
  whatsappTexts: number;
  /** WhatsApp message records deleted (like an e-mail's record) */
  whatsappRecords: number;
  /** reminders whose items (the cart or order as reminded) and error were erased (like an e-mail's text) */
  reminderContents: number;
  /** reminders no longer linked to an account (like an e-mail's record; the count of reminders sent stays) */
  reminderLinks: number;
  /** carts kept on the server, deleted after savedCartDays unchanged */
  savedCarts: number;
  /** back-in-stock requests past their time (the stock-alerts module's rule: unconfirmed after 7 days, any after 6 months) */
  stockAlerts: number;
  /** activity log entries past their 5 years */
  activityEntries: number;
}

export const EMPTY_COUNTS: RetentionCounts = {
  contactMessages: 0,
  mailBodies: 0,
  mailRecords: 0,
  unpaidOrders: 0,
  invoicedOrders: 0,
  sessions: 0,
  verifications: 0,
  rateLimits: 0,
  whatsappTexts: 0,
  whatsappRecords: 0,
  reminderContents: 0,
  reminderLinks: 0,
  savedCarts: 0,
  stockAlerts: 0,
  activityEntries: 0,
};

export function totalErased(counts: RetentionCounts): number {
  return Object.values(counts).reduce((n, v) => n + v, 0);
}

/** Calendar months and days before a moment: app/utils/dates.ts (the stock alerts' job counts its months the same way). */
export { daysBefore, monthsBefore };

/** The instants before which each rule applies at `now` (ISO strings, comparable with the stored timestamps). */
export interface RetentionCutoffs {
  contactBefore: string;
  mailBodyBefore: string;
  mailRecordBefore: string;
  unpaidOrderBefore: string;
  invoiceBefore: string;
  savedCartBefore: string;
  expiredBefore: string;
  /** epoch ms: rate_limits.last_request is a number */
  rateLimitBefore: number;
  runRecordsBefore: string;
  activityBefore: string;
}

export function retentionCutoffs(policy: RetentionPolicy, now: Date): RetentionCutoffs {
  const contact = monthsBefore(now, policy.contactMonths).toISOString();
  return {
    contactBefore: contact,
    mailBodyBefore: daysBefore(now, policy.mailBodyDays).toISOString(),
    mailRecordBefore: contact,
    unpaidOrderBefore: monthsBefore(now, policy.unpaidOrderMonths).toISOString(),
    invoiceBefore: monthsBefore(now, policy.invoiceYears * 12).toISOString(),
    savedCartBefore: daysBefore(now, policy.savedCartDays).toISOString(),
    expiredBefore: new Date(now.getTime() - EXPIRED_GRACE_MS).toISOString(),
    rateLimitBefore: now.getTime() - RATE_LIMIT_KEEP_MS,
    runRecordsBefore: new Date(now.getTime() - RUN_RECORDS_KEEP_MS).toISOString(),
    activityBefore: daysBefore(monthsBefore(now, ACTIVITY_LOG_YEARS * 12), ACTIVITY_LOG_MARGIN_DAYS).toISOString(),
  };
}

// ---------------------------------------------------------------- the daily run's timing

/** The job looks every hour whether a run is due; a run is due a day after the last one started. */
export const RETENTION_CHECK_EVERY_MS = 60 * 60 * 1000;
export const RETENTION_DUE_AFTER_MS = 23 * 60 * 60 * 1000;

/** Is a run due at `now`, the last run (done or failed) having started at `lastStartedAt`? */
export function isRetentionDue(now: Date, lastStartedAt: string | null): boolean {
  if (!lastStartedAt) return true;
  return now.getTime() - Date.parse(lastStartedAt) >= RETENTION_DUE_AFTER_MS;
}

// ---------------------------------------------------------------- the policy in words

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One rule of the policy as people read it (the notice, Admin → Privacy). */
export interface RetentionRule {
  id: keyof RetentionCounts;
  what: string;
  kept: string;
  then: string;
  /** the setting that decides it, if any */
  setting: string | null;
  law: string;
}

export function retentionRules(policy: RetentionPolicy): RetentionRule[] {
  return [
    {
      id: "contactMessages",
      what: "Contact messages",
      kept: plural(policy.contactMonths, "month"),
      then: "Deleted.",
      setting: "RETENTION_CONTACT_MONTHS",
      law: "POPIA s14(1)",
    },
    {
      id: "mailBodies",
      what: "The text of e-mails we send",
      kept: plural(policy.mailBodyDays, "day"),
      then: "The text is erased; who it went to, its subject and when stay on record.",
      setting: "RETENTION_MAIL_BODY_DAYS",
      law: "POPIA s14(1)",
    },
    {
      id: "mailRecords",
      what: "The record of each e-mail we send (address, subject, date)",
      kept: plural(policy.contactMonths, "month"),
      then: "Deleted.",
      setting: "RETENTION_CONTACT_MONTHS",
      law: "POPIA s14(1)",
    },
    {
      id: "unpaidOrders",
      what: "Orders never paid (cancelled, failed or abandoned)",
      kept: plural(policy.unpaidOrderMonths, "month"),
      then: "Name, telephone and address are erased; what was ordered and the amounts stay, without them.",
      setting: "RETENTION_UNPAID_ORDER_MONTHS",
      law: "POPIA s14(1)",
    },
    {
      id: "invoicedOrders",
      what: "Paid orders and their tax invoices",
      kept: `${plural(policy.invoiceYears, "year")} from the invoice`,
      then: "Once no account is linked to them, the name, telephone and address are erased; while your account exists they stay in your order history.",
      setting: "RETENTION_INVOICE_YEARS",
      law: "Tax Administration Act s29; VAT Act s55; POPIA s14(1)(a)",
    },
    {
      id: "whatsappTexts",
      what: "WhatsApp order updates: the number and the words of each message",
      kept: plural(policy.mailBodyDays, "day"),
      then: "The number and the words are erased; the order, the update, its status and dates stay on record.",
      setting: "RETENTION_MAIL_BODY_DAYS",
      law: "POPIA s14(1)",
    },
    {
      id: "whatsappRecords",
      what: "The record of each WhatsApp update (order, update, status, dates)",
      kept: plural(policy.contactMonths, "month"),
      then: "Deleted.",
      setting: "RETENTION_CONTACT_MONTHS",
      law: "POPIA s14(1)",
    },
    {
      id: "reminderContents",
      what: "Cart and payment reminders: the items reminded of",
      kept: plural(policy.mailBodyDays, "day"),
      then: "The items are erased (the reminder's link no longer restores anything); that a reminder was sent stays.",
      setting: "RETENTION_MAIL_BODY_DAYS",
      law: "POPIA s14(1)",
    },
    {
      id: "reminderLinks",
      what: "Which account a reminder went to",
      kept: plural(policy.contactMonths, "month"),
      then: "The link to the account is removed; the reminder stays in the reminder figures, naming nobody.",
      setting: "RETENTION_CONTACT_MONTHS",
      law: "POPIA s14(1)",
    },
    {
      id: "savedCarts",
      what: "A signed-in shopper's cart kept on the server",
      kept: `${plural(policy.savedCartDays, "day")} unchanged`,
      then: "Deleted once it has not changed for that long (the copy in the shopper's own browser stays).",
      setting: "RETENTION_SAVED_CART_DAYS",
      law: "POPIA s14(1)",
    },
    {
      id: "stockAlerts",
      what: "Back-in-stock requests (e-mail address, fragrance)",
      kept: `${plural(STOCK_ALERT_KEEP_MONTHS, "month")} at most`,
      then: `Deleted once its e-mail is sent; one never confirmed after ${plural(STOCK_ALERT_CONFIRM_DAYS, "day")}; any after ${plural(STOCK_ALERT_KEEP_MONTHS, "month")}.`,
      setting: null,
      law: "POPIA s14(1)",
    },
    {
      id: "activityEntries",
      what: "The admin's activity log (who changed what, when, from which IP address, the values before and after)",
      kept: plural(ACTIVITY_LOG_YEARS, "year"),
      then: "Deleted. Until then nobody can change or delete an entry.",
      setting: null,
      law: "Tax Administration Act s29; POPIA s14(1)(a)",
    },
    {
      id: "sessions",
      what: "Sign-in sessions (IP address and browser)",
      kept: "Until the session ends",
      then: "Deleted at the next daily run.",
      setting: null,
      law: "POPIA s14(1)",
    },
    {
      id: "verifications",
      what: "Password reset links",
      kept: "Until the link expires (one hour)",
      then: "Deleted at the next daily run.",
      setting: null,
      law: "POPIA s14(1)",
    },
    {
      id: "rateLimits",
      what: "Sign-in attempt counters (IP address, e-mail address)",
      kept: "One day",
      then: "Deleted.",
      setting: null,
      law: "POPIA s14(1)",
    },
  ];
}

/** The policy as the privacy notice words each of its kinds of information ("How long we keep it"). */
export function noticeRetention(policy: RetentionPolicy) {
  return {
    orders:
      `Paid orders and their tax invoices: ${plural(policy.invoiceYears, "year")} from the invoice, as the Tax Administration Act (s29) requires. ` +
      `Orders never paid: your name, telephone and address are erased after ${plural(policy.unpaidOrderMonths, "month")}. ` +
      "Deleting your account keeps paid orders and invoices, with only what the invoice shows, no longer linked to you.",
    messages:
      `Contact messages: ${plural(policy.contactMonths, "month")}. The text of each e-mail we send you: ${plural(policy.mailBodyDays, "day")}; ` +
      `the record that we sent it (address, subject, date): ${plural(policy.contactMonths, "month")}. Deleting your account deletes them at once.`,
    whatsapp:
      "Your number: until you delete your account, also after you turn updates off. " +
      `Each message's number and words: ${plural(policy.mailBodyDays, "day")}, then erased; the record that it was sent (order, update, status, dates): ${plural(policy.contactMonths, "month")}. ` +
      "Deleting your account deletes your number and your messages at once.",
    cart:
      `Your cart in your account: deleted once it has not changed for ${plural(policy.savedCartDays, "day")} (the copy in your browser stays). ` +
      `A reminder's items: ${plural(policy.mailBodyDays, "day")}; which account it went to: ${plural(policy.contactMonths, "month")}; after that only the count of reminders sent stays. ` +
      "Deleting your account deletes your cart and the items of your reminders at once.",
    activity:
      `The shop's activity log: each change our staff make in the shop's administration (to your order, your account or anything else), who made it, when, from which internet (IP) address, and the values before and after: ${plural(ACTIVITY_LOG_YEARS, "year")}, as the Tax Administration Act (s29) requires of the records behind invoices and refunds. ` +
      "Nobody can change or delete an entry before then, and deleting your account does not remove them (the law requires the record).",
  };
}
