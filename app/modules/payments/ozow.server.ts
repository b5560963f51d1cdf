import { createHash, timingSafeEqual } from "node:crypto";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import {
  PaymentProviderError,
  checkoutFormPath,
  type CheckoutForm,
  type CheckoutStatus,
  type CreateCheckoutInput,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
} from "./provider";
import { WebhookVerificationError } from "./standard-webhooks.server";

/**
 * Ozow (instant EFT), as documented at hub.ozow.com (checked 2026: "Step 1: Post from merchant website",
 * "Step 2: Process Ozow response", "Step 3: Check transaction status using API", "Outcome"):
 *
 * - The shopper's browser posts a form to https://pay.ozow.com/ with, in this order, SiteCode, CountryCode (ZA),
 *   CurrencyCode (ZAR), Amount (decimal 9,2), TransactionReference (≤ 50), BankReference (≤ 20; letters, digits,
 *   spaces and dashes only), Optional1–5, Customer (≤ 100), CancelUrl, ErrorUrl, SuccessUrl, NotifyUrl (≤ 150 each),
 *   IsTest (true/false) and HashCheck: the values concatenated in that order, the private key appended, the whole
 *   string lower-cased, SHA-512, hex. A field not sent adds nothing to the string.
 * - Ozow posts a notification to NotifyUrl (form fields) with SiteCode, TransactionId, TransactionReference, Amount,
 *   Status, Optional1–5, CurrencyCode, IsTest, StatusMessage and Hash, the same scheme over those fields in that
 *   order. Ozow warns that the same transaction may be notified more than once.
 * - Status: Complete, Cancelled, Error, Abandoned, PendingInvestigation, Pending (a Pending transaction is notified
 *   again once it is final).
 * - GET {api}/GetTransactionByReference?siteCode=…&transactionReference=…[&isTest=true] with the `ApiKey` and
 *   `Accept: application/json` headers answers the transactions (up to 10) for a merchant reference:
 *   transactionId, siteCode, transactionReference, currencyCode, amount, status, statusMessage, …; `isTest` defaults
 *   to false and must be true to see test transactions.
 *
 * The shop never trusts the notification alone: its Hash must verify AND Ozow's status API must say the same thing
 * (same transaction, status and amount) before anything changes (DESIGN.md "Payments", decision 003).
 */
export interface OzowConfig {
  siteCode: string;
  privateKey: string;
  apiKey: string;
  isTest: boolean;
  /** The shop's name, the start of the bank reference. */
  shopName: string;
  /** Ozow's payment page (https://pay.ozow.com); the form posts to its root path. */
  payUrl: string;
  /** Ozow's API (https://api.ozow.com). */
  apiBase: string;
  /** ms before a status call is abandoned */
  timeoutMs?: number;
}

/** The post variables in the order Ozow hashes them (HashCheck itself excluded). */
export const OZOW_REQUEST_FIELDS = [
  "SiteCode",
  "CountryCode",
  "CurrencyCode",
  "Amount",
  "TransactionReference",
  "BankReference",
  "Optional1",
  "Optional2",
  "Optional3",
  "Optional4",
  "Optional5",
  "Customer",
  "CancelUrl",
  "ErrorUrl",
  "SuccessUrl",
  "NotifyUrl",
  "IsTest",
] as const;
export type OzowRequestField = (typeof OZOW_REQUEST_FIELDS)[number];

/** The notification's response variables in the order Ozow hashes them (Hash itself excluded). */
export const OZOW_NOTIFICATION_FIELDS = [
  "SiteCode",
  "TransactionId",
  "TransactionReference",
  "Amount",
  "Status",
  "Optional1",
  "Optional2",
  "Optional3",
  "Optional4",
  "Optional5",
  "CurrencyCode",
  "IsTest",
  "StatusMessage",
] as const;
export type OzowNotificationField = (typeof OZOW_NOTIFICATION_FIELDS)[number];

export const BANK_REFERENCE_MAX = 20;

/** Ozow's hash: SHA-512 (hex) of the values in order, private key appended, all lower-cased. */
export function ozowHash(values: readonly string[], privateKey: string): string {
  return createHash("sha512")
    .update((values.join("") + privateKey).toLowerCase(), "utf8")
    .digest("hex");
}

function ordered<F extends string>(order: readonly F[], fields: Partial<Record<F, string | null | undefined>>): string[] {
  return order.map((name) => fields[name] ?? "").filter((v) => v !== "");
}

/** HashCheck of a payment request (the form the browser posts). */
export function ozowRequestHash(fields: Partial<Record<OzowRequestField, string | null>>, privateKey: string): string {
  return ozowHash(ordered(OZOW_REQUEST_FIELDS, fields), privateKey);
}

/** Hash of a notification (what Ozow posts to NotifyUrl). */
export function ozowNotificationHash(fields: Partial<Record<OzowNotificationField, string | null>>, privateKey: string): string {
  return ozowHash(ordered(OZOW_NOTIFICATION_FIELDS, fields), privateKey);
}

/**
 * Constant-time comparison of a received hash with the expected one. Case and surrounding spaces are ignored, and so
 * are leading zeros (some Ozow integrations compare with them trimmed, as a number-formatted digest loses them): a
 * SHA-512 hex digest has a fixed length, so this accepts nothing that isn't the same digest.
 */
export function ozowHashMatches(received: string, expected: string): boolean {
  const norm = (h: string) => h.trim().toLowerCase().replace(/^0+/, "");
  const a = Buffer.from(norm(received), "utf8");
  const b = Buffer.from(norm(expected), "utf8");
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** Integer cents → Ozow's amount text, "123.45" (no floating point). */
export function centsToRand(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Ozow's amount text ("123.45", "123.4", "123", "123.4500") → integer cents, exactly; anything else → null. */
export function randToCents(text: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = (match[2] ?? "").padEnd(2, "0");
  if (/[^0]/.test(fraction.slice(2))) return null; // fractions of a cent
  const cents = Number(match[1]) * 100 + Number(fraction.slice(0, 2));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * What the shopper's bank shows as "their reference" and the owner finds on the statement: the shop's name and the
 * order's short id, e.g. "SCENTARA 3f2a9c1e". Ozow allows 20 characters: letters, digits, spaces and dashes.
 */
export function ozowBankReference(shopName: string, orderId: string): string {
  const short = shortOrderId(orderId).replace(/[^A-Za-z0-9-]/g, "");
  const room = BANK_REFERENCE_MAX - short.length - 1;
  const prefix = shopName
    .toUpperCase()
    .replace(/[^A-Z0-9 -]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, Math.max(0, room))
    .trim();
  return (prefix ? `${prefix} ${short}` : short).slice(0, BANK_REFERENCE_MAX);
}

/** Ozow's Status → the shop's event type. Pending and PendingInvestigation change nothing (Ozow notifies again). */
export function ozowEventType(status: string): PaymentEventType {
  switch (status.toLowerCase()) {
    case "complete":
      return "payment.succeeded";
    case "cancelled":
    case "abandoned":
      return "payment.cancelled";
    case "error":
      return "payment.failed";
    default:
      return "other";
  }
}

/** One transaction as the status API reports it. */
export interface OzowTransaction {
  transactionId: string;
  transactionReference: string;
  status: string;
  amountCents: number | null;
  currency: string | null;
}

type StatusLookup = { found: true; transactions: OzowTransaction[] } | { found: false };

/** Field names as Ozow's JSON spells them (camelCase), read case-insensitively. */
function field(record: Record<string, unknown>, name: string): string | null {
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

/** The notification's fields: form-encoded (as Ozow posts them) or JSON. Repeated names keep the first value. */
function parseNotification(rawBody: string, headers: Headers): Map<string, string> {
  const type = headers.get("content-type")?.toLowerCase() ?? "";
  const fields = new Map<string, string>();
  const put = (name: string, value: string) => {
    const key = name.toLowerCase();
    if (!fields.has(key)) fields.set(key, value);
  };
  if (type.includes("json") || rawBody.trimStart().startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new WebhookVerificationError("malformed_body", "Ozow notification is not JSON");
    }
    if (!json || typeof json !== "object" || Array.isArray(json)) throw new WebhookVerificationError("malformed_body", "Ozow notification is not an object");
    for (const name of Object.keys(json)) {
      const value = field(json as Record<string, unknown>, name);
      if (value !== null) put(name, value);
    }
  } else {
    for (const [name, value] of new URLSearchParams(rawBody)) put(name, value);
  }
  return fields;
}

export function createOzowProvider(config: OzowConfig): PaymentProvider {
  const apiBase = config.apiBase.replace(/\/+$/, "");
  const timeout = config.timeoutMs ?? 10_000;

  /** GetTransactionByReference. A 404 means "no transaction for this reference (yet)"; other failures throw. */
  async function transactionsFor(reference: string): Promise<StatusLookup> {
    const url = new URL(`${apiBase}/GetTransactionByReference`);
    url.searchParams.set("siteCode", config.siteCode);
    url.searchParams.set("transactionReference", reference);
    if (config.isTest) url.searchParams.set("isTest", "true");
    let response: Response;
    try {
      response = await fetch(url, { headers: { ApiKey: config.apiKey, Accept: "application/json" }, signal: AbortSignal.timeout(timeout) });
    } catch (error) {
      logger.warn({ err: error, reference }, "ozow: status API unreachable");
      throw new PaymentProviderError("Ozow's status API is unreachable");
    }
    if (response.status === 404) return { found: false };
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok || body === undefined) {
      logger.warn({ status: response.status, reference }, "ozow: status API refused the request");
      throw new PaymentProviderError("Ozow's status API refused the request", response.status);
    }
    const rows = Array.isArray(body) ? body : body && typeof body === "object" ? [body] : [];
    const transactions: OzowTransaction[] = [];
    for (const row of rows) {
      if (!row || typeof row !== "object") continue;
      const r = row as Record<string, unknown>;
      const transactionId = field(r, "transactionId");
      const transactionReference = field(r, "transactionReference");
      const status = field(r, "status");
      const amount = field(r, "amount");
      if (!transactionId || !transactionReference || !status) continue;
      transactions.push({
        transactionId,
        transactionReference,
        status,
        amountCents: amount === null ? null : randToCents(amount),
        currency: field(r, "currencyCode"),
      });
    }
    // Only this site's transactions for exactly this reference count.
    return { found: true, transactions: transactions.filter((t) => t.transactionReference === reference) };
  }

  function formFields(input: CreateCheckoutInput): Array<[OzowRequestField, string]> {
    const values: Partial<Record<OzowRequestField, string>> = {
      SiteCode: config.siteCode,
      CountryCode: "ZA",
      CurrencyCode: input.currency,
      Amount: centsToRand(input.amountCents),
      TransactionReference: input.orderId,
      BankReference: ozowBankReference(config.shopName, input.orderId),
      Customer: input.customer.name.trim().slice(0, 100),
      CancelUrl: input.cancelUrl,
      ErrorUrl: input.failureUrl,
      SuccessUrl: input.successUrl,
      NotifyUrl: input.notifyUrl,
      IsTest: config.isTest ? "true" : "false",
    };
    return OZOW_REQUEST_FIELDS.flatMap((name) => (values[name] ? [[name, values[name]] as [OzowRequestField, string]] : []));
  }

  return {
    name: "ozow",

    async createCheckout(input: CreateCheckoutInput) {
      // Nothing to create at Ozow: the shopper's browser posts the signed form from the shop's /pay/form page.
      return { checkoutId: input.orderId, redirectUrl: checkoutFormPath(input.orderId) };
    },

    checkoutForm(input: CreateCheckoutInput): CheckoutForm {
      const fields = formFields(input);
      const hash = ozowRequestHash(Object.fromEntries(fields), config.privateKey);
      return { action: `${config.payUrl.replace(/\/+$/, "")}/`, fields: [...fields, ["HashCheck", hash]] };
    },

    async verifyWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent> {
      const fields = parseNotification(rawBody, headers);
      const get = (name: string) => fields.get(name.toLowerCase()) ?? "";
      const given = get("Hash");
      const transactionId = get("TransactionId");
      const reference = get("TransactionReference");
      const status = get("Status");
      const amountText = get("Amount");
      if (!given || !transactionId || !reference || !status || !amountText) {
        throw new WebhookVerificationError("malformed_body", "Ozow notification lacks Hash, TransactionId, TransactionReference, Status or Amount");
      }
      const values = Object.fromEntries(OZOW_NOTIFICATION_FIELDS.map((name) => [name, get(name)]));
      if (!ozowHashMatches(given, ozowNotificationHash(values, config.privateKey))) {
        throw new WebhookVerificationError("bad_signature", "Ozow notification hash does not match");
      }
      const amountCents = randToCents(amountText);
      if (amountCents === null) throw new WebhookVerificationError("malformed_body", "Ozow notification amount is not a rand amount");
      const log = logger.child({ provider: "ozow", transactionId: transactionId.slice(0, 64), reference: reference.slice(0, 64), status: status.slice(0, 40) });
      // Signed by Ozow for this site, and a test transaction (no money moved) only when the shop is in test mode.
      if (get("SiteCode") !== config.siteCode || get("IsTest").toLowerCase() !== String(config.isTest)) {
        log.warn({ siteCode: get("SiteCode").slice(0, 50), isTest: get("IsTest").slice(0, 10) }, "ozow: notification for another site or test mode");
        throw new WebhookVerificationError("not_confirmed", "Ozow notification is for another site or test mode");
      }

      const type = ozowEventType(status);
      const event: PaymentEvent = {
        // Ozow may notify one transaction more than once (same status: a duplicate) and, for a Pending one, again with
        // its final status (a different event): the transaction id AND its status make the event.
        id: `${transactionId}:${status}`.slice(0, 200),
        type,
        providerType: status.slice(0, 100),
        checkoutId: reference,
        amountCents,
        currency: get("CurrencyCode") || null,
      };
      if (type === "other") return event; // changes nothing, so needs no confirmation

      let lookup: StatusLookup;
      try {
        lookup = await transactionsFor(reference);
      } catch {
        throw new WebhookVerificationError("provider_unavailable", "Ozow's status API could not confirm the notification");
      }
      const confirmed = lookup.found ? lookup.transactions.find((t) => t.transactionId.toLowerCase() === transactionId.toLowerCase()) : undefined;
      if (!confirmed || confirmed.status.toLowerCase() !== status.toLowerCase() || confirmed.amountCents !== amountCents) {
        log.warn(
          { apiStatus: confirmed?.status ?? null, apiAmountCents: confirmed?.amountCents ?? null, amountCents },
          "ozow: the status API does not confirm the notification; nothing changed",
        );
        throw new WebhookVerificationError("not_confirmed", "Ozow's status API does not confirm the notification");
      }
      return event;
    },

    async fetchCheckoutStatus(checkoutId: string): Promise<CheckoutStatus> {
      const lookup = await transactionsFor(checkoutId);
      if (!lookup.found || lookup.transactions.length === 0) return { paid: false, status: "not_found", amountCents: null, currency: null };
      const complete = lookup.transactions.find((t) => t.status.toLowerCase() === "complete");
      const shown = complete ?? lookup.transactions[0];
      // Ozow takes rand only; a row without its currency code is in rand.
      return { paid: Boolean(complete), status: shown.status, amountCents: shown.amountCents, currency: shown.currency ?? "ZAR" };
    },
  };
}
