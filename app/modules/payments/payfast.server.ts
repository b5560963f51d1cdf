import { createHash, timingSafeEqual } from "node:crypto";
import { formatAmount } from "~/utils/money";
import { logger } from "~/utils/logger.server";
import { z } from "zod";
import {
  checkoutFormPath,
  PaymentProviderError,
  type CheckoutForm,
  type CreateCheckoutInput,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
  type RefundInput,
  type RefundResult,
} from "./provider";
import { WebhookVerificationError } from "./standard-webhooks.server";

/**
 * PayFast custom integration (DESIGN.md "Payments"; PayFast's developer documentation, "Custom integration" and
 * "ITN", and their PHP SDK github.com/Payfast/payfast-php-sdk lib/Auth.php and lib/PaymentIntegrations/Notification.php):
 *
 * - Checkout is a form the shopper's browser posts to {base}/eng/process: merchant details, buyer details,
 *   transaction details, then `signature` = MD5 (lower-case hex) of `key=value` pairs of the NON-EMPTY fields, in the
 *   documented order (not alphabetical), values trimmed and encoded as PHP's urlencode(), joined by '&', with
 *   `&passphrase=…` appended when the account has one. createCheckout makes no network call: it sends the shopper to
 *   the shop's own /pay/form/<orderId>, which renders checkoutForm() and posts it.
 * - PayFast then posts an ITN (Instant Transaction Notification, application/x-www-form-urlencoded) to notify_url.
 *   It is accepted only when (1) its signature verifies: every field except `signature`, in the order received, empty
 *   ones included, + passphrase; (2) merchant_id is ours; (3) amount_gross is a well-formed amount (that it equals
 *   the order's total is checked by applyPaymentEvent: `amount_mismatch` changes nothing); (4) PayFast itself confirms
 *   it: the same parameter string POSTed to {base}/eng/query/validate answers `VALID`. Anything else throws
 *   WebhookVerificationError: the route answers 400/401, nothing is stored, and PayFast retries later.
 *   PayFast's fourth documented check, that the request comes from one of PayFast's published addresses, is left out:
 *   behind proxies the source address is unreliable, and check (4) is the stronger server-side confirmation — an ITN
 *   PayFast did not send is answered INVALID whatever its source.
 * - PayFast retries an ITN until it gets HTTP 200. The event id is `pf_payment_id:payment_status`, so a retried ITN is
 *   a duplicate (the unique key in payment_events), while a later status for the same payment (PENDING, then
 *   COMPLETE, as some payment methods do) is still applied.
 * - No status call: PayFast's transaction query is a separate signed API (api.payfast.co.za, its own headers); this
 *   integration relies on the ITN, and the return page shows "confirming" until it arrives.
 * - Refunds (docs/decisions/041) go through that API: POST {api}/refunds/{pf_payment_id}, JSON { amount (cents),
 *   reason, notify_buyer }, headers merchant-id, version "v1", timestamp and `signature` = MD5 of every header and body
 *   value, keys sorted alphabetically with `passphrase` among them, as `key=urlencode(value)` joined by '&'
 *   (payfast-php-sdk lib/Request.php, lib/Auth.php generateApiSignature, lib/Services/Refunds.php). PayFast offers it
 *   on live accounts only, not the sandbox: without `apiBase` the adapter has no refund and the owner pays by EFT.
 */
export interface PayfastConfig {
  /** https://www.payfast.co.za, https://sandbox.payfast.co.za, or a local fake in tests. */
  baseUrl: string;
  merchantId: string;
  merchantKey: string;
  /** The passphrase set on the PayFast account (Settings → Developer settings), if any. */
  passphrase?: string;
  /** ms before the ITN confirmation call to PayFast is abandoned */
  timeoutMs?: number;
  /** PayFast's API (https://api.payfast.co.za) for refunds; null on the sandbox, which has no refunds. */
  apiBase?: string | null;
}

type Field = [name: string, value: string];

/** PHP's urlencode(): everything but A–Z a–z 0–9 - _ . is %XX (upper-case hex, UTF-8 bytes), and a space is '+'. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** MD5, lower-case hex. */
function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/**
 * The checkout form's signature: the non-empty fields (values trimmed) in the order given — give them in PayFast's
 * documented order — as `key=urlencode(value)` joined by '&', then `&passphrase=urlencode(passphrase)` when set; MD5.
 */
export function payfastSignature(fields: ReadonlyArray<Field>, passphrase?: string): string {
  const pairs = fields
    .filter(([name]) => name !== "signature")
    .map(([name, value]) => [name, value.trim()] as const)
    .filter(([, value]) => value !== "")
    .map(([name, value]) => `${name}=${phpUrlencode(value)}`);
  const secret = passphrase?.trim();
  if (secret) pairs.push(`passphrase=${phpUrlencode(secret)}`);
  return md5(pairs.join("&"));
}

/**
 * An ITN's parameter string: every field except `signature`, in the order received, empty values included and not
 * trimmed (as PayFast's ITN sample code builds it). It is also what /eng/query/validate is sent.
 */
export function itnParamString(fields: ReadonlyArray<Field>): string {
  return fields
    .filter(([name]) => name !== "signature")
    .map(([name, value]) => `${name}=${phpUrlencode(value)}`)
    .join("&");
}

/** The signature PayFast puts on an ITN: MD5 of the parameter string, with `&passphrase=…` when one is set. */
export function itnSignature(fields: ReadonlyArray<Field>, passphrase?: string): string {
  const secret = passphrase?.trim();
  const base = itnParamString(fields);
  return md5(secret ? `${base}&passphrase=${phpUrlencode(secret)}` : base);
}

/**
 * The signature of a call to PayFast's API: every header and body value with the passphrase, keys sorted
 * alphabetically, `key=urlencode(value)` joined by '&', MD5 (payfast-php-sdk Auth::generateApiSignature).
 */
export function payfastApiSignature(values: Record<string, string>, passphrase?: string): string {
  const all: Record<string, string> = { ...values };
  if (passphrase?.trim()) all.passphrase = passphrase.trim();
  return md5(
    Object.keys(all)
      .filter((k) => k !== "signature")
      .sort()
      .map((k) => `${k}=${phpUrlencode(all[k]!)}`)
      .join("&"),
  );
}

/** South African time as PayFast's API timestamp: 2026-03-05T14:30:00+02:00. */
export function payfastTimestamp(now: Date): string {
  return `${new Date(now.getTime() + 2 * 60 * 60 * 1000).toISOString().slice(0, 19)}+02:00`;
}

/** Integer cents as PayFast's amount: rand with 2 decimals ('123.45'), no floating point. */
export function centsToPayfastAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new TypeError(`Not an amount in cents: ${cents}`);
  return formatAmount(cents);
}

/** PayFast's amount ('123.45', also '123' or '123.4') as integer cents, without floating point; null when malformed. */
export function payfastAmountToCents(amount: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Our telephone (+27821234567) as PayFast's cell_number (0821234567); only South African mobile numbers, else "". */
export function payfastCellNumber(telephone: string): string {
  const digits = telephone.replace(/[\s-]/g, "");
  const local = /^\+27(\d{9})$/.exec(digits)?.[1] ?? /^0(\d{9})$/.exec(digits)?.[1];
  // Mobile numbers start 06, 07 or 08; a landline is not a cell number PayFast can use.
  return local && /^[678]/.test(local) ? `0${local}` : "";
}

/** At most `max` characters (whole code points: an emoji is never cut in half). */
function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length > max ? chars.slice(0, max).join("").trim() : chars.join("");
}

/** PayFast's name_first / name_last from one name: the last word is the surname ('Thandi Nkosi' → Thandi, Nkosi). */
export function splitName(name: string): [first: string, last: string] {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return [clip(words[0] ?? "", 100), ""];
  return [clip(words.slice(0, -1).join(" "), 100), clip(words[words.length - 1]!, 100)];
}

function normaliseStatus(status: string): PaymentEventType {
  if (status === "COMPLETE") return "payment.succeeded";
  if (status === "CANCELLED") return "payment.cancelled";
  if (status === "FAILED") return "payment.failed";
  return "other";
}

/** An ITN body's fields in the order received; a body that is not a plain form (a repeated field) is refused. */
function parseItn(rawBody: string): Field[] {
  const fields: Field[] = [...new URLSearchParams(rawBody)];
  const names = new Set(fields.map(([name]) => name));
  if (fields.length === 0 || names.size !== fields.length) throw new WebhookVerificationError("malformed_body", "ITN is not a form with distinct fields");
  return fields;
}

function sameHex(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase(), "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createPayfastProvider(config: PayfastConfig): PaymentProvider {
  const base = config.baseUrl.replace(/\/+$/, "");
  const timeout = config.timeoutMs ?? 10_000;

  /** PayFast's server-side confirmation: true only for a 200 whose body is VALID. */
  async function confirmedByPayfast(paramString: string, log: typeof logger): Promise<boolean> {
    try {
      const response = await fetch(`${base}/eng/query/validate`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: paramString,
        signal: AbortSignal.timeout(timeout),
      });
      const answer = (await response.text()).trim();
      if (response.ok && answer === "VALID") return true;
      log.warn({ status: response.status, answer: answer.slice(0, 40) }, "payfast: ITN not confirmed by PayFast");
      return false;
    } catch (error) {
      log.warn({ err: error }, "payfast: ITN confirmation call failed");
      return false;
    }
  }

  return {
    name: "payfast",

    async createCheckout(input: CreateCheckoutInput) {
      // A form post, not an API call: the shop's own page posts checkoutForm(input) to PayFast.
      return { checkoutId: input.orderId, redirectUrl: checkoutFormPath(input.orderId) };
    },

    checkoutForm(input: CreateCheckoutInput): CheckoutForm {
      if (input.currency !== "ZAR") throw new Error("PayFast takes rand only");
      const [first, last] = splitName(input.customer.name);
      const email = input.customer.email.trim();
      // PayFast's documented order: merchant details, buyer details, transaction details.
      const candidates: Field[] = [
        ["merchant_id", config.merchantId],
        ["merchant_key", config.merchantKey],
        ["return_url", input.successUrl],
        ["cancel_url", input.cancelUrl],
        ["notify_url", input.notifyUrl],
        ["name_first", first],
        ["name_last", last],
        ["email_address", email.length <= 100 ? email : ""],
        ["cell_number", payfastCellNumber(input.customer.telephone)],
        ["m_payment_id", input.orderId],
        ["amount", centsToPayfastAmount(input.amountCents)],
        ["item_name", clip(input.description, 100)],
      ];
      // The form carries exactly what is signed: trimmed values, empty fields left out.
      const fields = candidates.map(([name, value]) => [name, value.trim()] as Field).filter(([, value]) => value !== "");
      fields.push(["signature", payfastSignature(fields, config.passphrase)]);
      return { action: `${base}/eng/process`, fields };
    },

    async verifyWebhook(rawBody: string): Promise<PaymentEvent> {
      const fields = parseItn(rawBody);
      const get = (name: string) => fields.find(([n]) => n === name)?.[1];
      const signature = get("signature");
      const pfPaymentId = get("pf_payment_id")?.trim();
      const status = get("payment_status")?.trim();
      const checkoutId = get("m_payment_id")?.trim();
      const amountGross = get("amount_gross")?.trim();
      if (!signature || !pfPaymentId || !status || !checkoutId || amountGross === undefined || get("merchant_id") === undefined || pfPaymentId.length > 100 || status.length > 40) {
        throw new WebhookVerificationError("malformed_body", "ITN lacks signature, pf_payment_id, payment_status, m_payment_id, amount_gross or merchant_id");
      }
      const log = logger.child({ provider: "payfast", pfPaymentId: pfPaymentId.slice(0, 100), checkoutId: checkoutId.slice(0, 100) });

      if (!sameHex(signature, itnSignature(fields, config.passphrase))) {
        log.warn("payfast: ITN signature does not match (wrong passphrase, or the data was changed)");
        throw new WebhookVerificationError("bad_signature", "ITN signature does not match");
      }
      if (get("merchant_id") !== config.merchantId) {
        log.warn({ merchantId: get("merchant_id")?.slice(0, 40) }, "payfast: ITN for another merchant");
        throw new WebhookVerificationError("wrong_merchant", "ITN is for another merchant");
      }
      const amountCents = payfastAmountToCents(amountGross);
      if (amountCents === null) {
        log.warn({ amountGross: amountGross.slice(0, 40) }, "payfast: ITN amount_gross is malformed");
        throw new WebhookVerificationError("malformed_body", "ITN amount_gross is not an amount");
      }
      if (!(await confirmedByPayfast(itnParamString(fields), log))) {
        throw new WebhookVerificationError("not_confirmed", "PayFast did not confirm the ITN");
      }
      return {
        id: `${pfPaymentId}:${status}`,
        type: normaliseStatus(status),
        providerType: status.slice(0, 100),
        checkoutId,
        amountCents,
        currency: "ZAR",
      };
    },

    ...(config.apiBase ? { refund: (input: RefundInput) => refundThroughApi(config, config.apiBase!, timeout, input) } : {}),
  };
}

const refundAnswer = z.object({
  status: z.string(),
  data: z.object({ response: z.unknown().optional(), message: z.string().optional() }).loose().optional(),
});

/** A refund through PayFast's API; PayFast pays card refunds back itself, so an accepted one is under way. */
async function refundThroughApi(config: PayfastConfig, apiBase: string, timeout: number, input: RefundInput): Promise<RefundResult> {
  if (!input.providerPaymentId) throw new PaymentProviderError("PayFast's id of this payment is not on record, so PayFast can't be asked to refund it: refund by EFT.");
  const body = { amount: input.amountCents, reason: clip(input.reason, 255), notify_buyer: 0 };
  const headers = { "merchant-id": config.merchantId, version: "v1", timestamp: payfastTimestamp(new Date()) };
  const signature = payfastApiSignature({ ...headers, amount: String(body.amount), reason: body.reason, notify_buyer: String(body.notify_buyer) }, config.passphrase);
  let response: Response;
  try {
    response = await fetch(`${apiBase.replace(/\/+$/, "")}/refunds/${encodeURIComponent(input.providerPaymentId)}`, {
      method: "POST",
      headers: { ...headers, signature, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
  } catch (error) {
    logger.error({ err: error, pfPaymentId: input.providerPaymentId }, "payfast: refund request failed");
    throw new PaymentProviderError("PayFast could not be reached: nothing was refunded. Try again, or pay the customer back by EFT.");
  }
  const answer = refundAnswer.safeParse(await response.json().catch(() => null));
  if (!response.ok || !answer.success || answer.data.status !== "success") {
    const why = answer.success ? answer.data.data?.message : undefined;
    logger.error({ status: response.status, pfPaymentId: input.providerPaymentId, why }, "payfast: refund refused");
    throw new PaymentProviderError(`PayFast refused the refund${why ? `: ${why.trim().replace(/\.+$/, "")}` : ""}. Nothing was refunded.`, response.status);
  }
  const refunded = answer.data.data?.response;
  const id = refunded && typeof refunded === "object" && typeof (refunded as { id?: unknown }).id === "string" ? ((refunded as { id: string }).id.slice(0, 200)) : null;
  return { refundId: id, status: "succeeded" };
}
