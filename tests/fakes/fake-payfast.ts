/**
 * A local fake of PayFast for tests (node:http on a random loopback port), following PayFast's documented custom
 * integration (DESIGN.md "Payments"; payfast-php-sdk lib/Auth.php and lib/PaymentIntegrations/Notification.php):
 * - POST /eng/process: the shopper's browser posts the checkout form. Like PayFast, the fake checks merchant_id and
 *   merchant_key and recomputes the signature over the non-empty fields in PayFast's documented order (whatever order
 *   they arrived in), values trimmed and PHP-urlencoded, + passphrase; a match is recorded as a payment and answered
 *   with a small HTML page, a mismatch with 400 and PayFast's message.
 * - ITNs: `itn()` builds the notification PayFast would post to notify_url for a payment (fields in PayFast's order,
 *   signed over every field in the order sent, empty ones included, + passphrase) and remembers its parameter string;
 *   `postItn()` delivers it through the shop's real webhook route.
 * - POST /eng/query/validate answers VALID only for the parameter string of an ITN the fake itself sent, INVALID
 *   otherwise (or always, after `invalidateAll()`).
 * - POST /refunds/:pf_payment_id (PayFast's API, payfast-php-sdk lib/Services/Refunds.php): headers merchant-id,
 *   version v1, timestamp and signature (MD5 over every header and body value with the passphrase, keys sorted,
 *   PHP-urlencoded); body { amount (cents), reason, notify_buyer }. A payment the fake sent a COMPLETE ITN for can be
 *   refunded up to its amount_gross: { code: 200, status: "success", data: { response: { id, … } } }; otherwise
 *   { code: 400, status: "failed", data: { response: false, message } }.
 * The signing here is written independently of app/modules/payments/payfast.server.ts (byte-by-byte PHP urlencode),
 * so the fake checks the adapter rather than agreeing with it by construction.
 */
import { createHash, randomInt, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { postWebhook } from "../factories/payments";

/** PayFast's public sandbox merchant (PayFast's integration documentation). */
export const PAYFAST_SANDBOX_MERCHANT = { merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "jt7NOE43FZPn" } as const;

/** The checkout fields in the order PayFast signs them (payfast-php-sdk Auth::generateSignature). */
const DOCUMENTED_ORDER = [
  "merchant_id",
  "merchant_key",
  "return_url",
  "cancel_url",
  "notify_url",
  "notify_method",
  "name_first",
  "name_last",
  "email_address",
  "cell_number",
  "m_payment_id",
  "amount",
  "item_name",
  "item_description",
  "custom_int1",
  "custom_int2",
  "custom_int3",
  "custom_int4",
  "custom_int5",
  "custom_str1",
  "custom_str2",
  "custom_str3",
  "custom_str4",
  "custom_str5",
  "email_confirmation",
  "confirmation_address",
  "currency",
  "payment_method",
];

function urlencode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

type Fields = Array<[string, string]>;

export interface FakePayfastPayment {
  fields: Record<string, string>;
  mPaymentId: string;
  amount: string;
  pfPaymentId: string;
}

export interface ItnOptions {
  status?: string;
  /** amount_gross as PayFast would send it (default: the recorded payment's amount). */
  amountGross?: string;
  merchantId?: string;
  pfPaymentId?: string;
  /** Sign with this passphrase instead of the merchant's (a forger's guess); null signs without one. */
  passphrase?: string | null;
  /** false: an ITN the fake did not send (validate answers INVALID), as if someone else made it. */
  sent?: boolean;
}

export interface FakePayfast {
  baseUrl: string;
  merchantId: string;
  merchantKey: string;
  passphrase: string | undefined;
  /** Forms accepted at /eng/process, keyed by m_payment_id. */
  payments: Map<string, FakePayfastPayment>;
  /** Every request, in order. */
  requests: { method: string; path: string; body: string; status: number; headers: Record<string, string | undefined> }[];
  /** Refunds accepted through the API. */
  refunds: Array<{ id: string; pfPaymentId: string; amount: number; reason: string }>;
  /** Make /eng/query/validate answer INVALID to everything from now on (until `validateNormally()`). */
  invalidateAll(): void;
  validateNormally(): void;
  /** What the browser does on the /pay/form page: post the form to /eng/process. */
  submitForm(form: { action: string; fields: Fields }): Promise<Response>;
  /** The ITN PayFast would send for a payment (by m_payment_id: recorded, or given with amountGross). */
  itn(mPaymentId: string, options?: ItnOptions): { fields: Fields; body: string; headers: Record<string, string> };
  /** Builds the ITN and posts it to the shop's /webhooks/payments/payfast through the real route action. */
  postItn(mPaymentId: string, options?: ItnOptions): Promise<Response>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakePayfast(
  options: { merchantId?: string; merchantKey?: string; passphrase?: string | null } = {},
): Promise<FakePayfast> {
  const merchantId = options.merchantId ?? PAYFAST_SANDBOX_MERCHANT.merchantId;
  const merchantKey = options.merchantKey ?? PAYFAST_SANDBOX_MERCHANT.merchantKey;
  const passphrase = options.passphrase === null ? undefined : (options.passphrase ?? PAYFAST_SANDBOX_MERCHANT.passphrase);
  const payments = new Map<string, FakePayfastPayment>();
  const requests: FakePayfast["requests"] = [];
  const sentItns = new Set<string>();
  /** pf_payment_id → amount_gross in cents, for payments the fake sent a COMPLETE ITN for */
  const completed = new Map<string, number>();
  const refunds: FakePayfast["refunds"] = [];
  let alwaysInvalid = false;
  let baseUrl = "";

  function checkoutSignature(fields: Record<string, string>): string {
    const pairs = DOCUMENTED_ORDER.filter((k) => (fields[k] ?? "").trim() !== "").map((k) => `${k}=${urlencode(fields[k]!.trim())}`);
    if (passphrase) pairs.push(`passphrase=${urlencode(passphrase.trim())}`);
    return md5(pairs.join("&"));
  }

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", baseUrl);
    const send = (status: number, type: string, text: string) => {
      requests.push({ method: req.method ?? "", path: url.pathname, body, status, headers: { "merchant-id": req.headers["merchant-id"] as string | undefined, version: req.headers.version as string | undefined, timestamp: req.headers.timestamp as string | undefined, signature: req.headers.signature as string | undefined } });
      res.writeHead(status, { "content-type": type });
      res.end(text);
    };

    if (req.method === "POST" && url.pathname === "/eng/process") {
      const fields = Object.fromEntries(new URLSearchParams(body));
      const unknown = Object.keys(fields).filter((k) => k !== "signature" && !DOCUMENTED_ORDER.includes(k));
      if (fields.merchant_id !== merchantId || fields.merchant_key !== merchantKey) return send(400, "text/html", "<p>Merchant is invalid</p>");
      if (unknown.length) return send(400, "text/html", `<p>Unknown fields: ${unknown.join(", ")}</p>`);
      if (!/^\d+\.\d{2}$/.test(fields.amount ?? "") || !fields.item_name) return send(400, "text/html", "<p>amount and item_name are required</p>");
      if (fields.signature !== checkoutSignature(fields)) return send(400, "text/html", "<p>Generated signature does not match submitted signature.</p>");
      const mPaymentId = fields.m_payment_id ?? "";
      const existing = payments.get(mPaymentId);
      const payment = { fields, mPaymentId, amount: fields.amount!, pfPaymentId: existing?.pfPaymentId ?? String(randomInt(1_000_000, 9_999_999)) };
      payments.set(mPaymentId, payment);
      return send(200, "text/html", `<!doctype html><title>PayFast (fake)</title><p>Pay R${payment.amount} for ${fields.item_name}</p>`);
    }

    const refund = /^\/refunds\/([^/]+)$/.exec(url.pathname);
    if (req.method === "POST" && refund) {
      const failed = (message: string, status = 400) => send(status, "application/json", JSON.stringify({ code: status, status: "failed", data: { response: false, message } }));
      const h = (name: string) => (req.headers[name] as string | undefined) ?? "";
      let b: Record<string, unknown>;
      try {
        b = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return failed("Invalid JSON");
      }
      if (h("merchant-id") !== merchantId || h("version") !== "v1" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(h("timestamp"))) return failed("Invalid merchant or headers", 401);
      const signed: Record<string, string> = { "merchant-id": h("merchant-id"), version: h("version"), timestamp: h("timestamp") };
      for (const [k, v] of Object.entries(b)) signed[k] = String(v);
      if (passphrase) signed.passphrase = passphrase;
      const expected = md5(Object.keys(signed).sort().map((k) => `${k}=${urlencode(signed[k]!)}`).join("&"));
      if (h("signature") !== expected) return failed("Signature mismatch", 401);
      const pfPaymentId = decodeURIComponent(refund[1]!);
      const gross = completed.get(pfPaymentId);
      if (gross === undefined) return failed("Transaction not found", 404);
      const amount = b.amount;
      const left = gross - refunds.filter((r) => r.pfPaymentId === pfPaymentId).reduce((sum, r) => sum + r.amount, 0);
      if (!Number.isInteger(amount) || (amount as number) <= 0 || (amount as number) > left) return failed("Refund amount exceeds the available balance");
      const made = { id: randomUUID(), pfPaymentId, amount: amount as number, reason: String(b.reason ?? "") };
      refunds.push(made);
      return send(200, "application/json", JSON.stringify({ code: 200, status: "success", data: { response: { id: made.id, payment_id: pfPaymentId, merchant_id: merchantId, refund_amount: made.amount / 100, status: "COMPLETE" } } }));
    }

    if (req.method === "POST" && url.pathname === "/eng/query/validate") {
      return send(200, "text/plain", !alwaysInvalid && sentItns.has(body) ? "VALID" : "INVALID");
    }
    return send(404, "text/plain", "Not found");
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function itn(mPaymentId: string, o: ItnOptions = {}) {
    const payment = payments.get(mPaymentId);
    const gross = o.amountGross ?? payment?.amount;
    if (gross === undefined) throw new Error(`fake PayFast: no payment ${mPaymentId}; pass amountGross`);
    const [rands, cents = "00"] = gross.split(".");
    const grossCents = Number(rands) * 100 + Number(cents.padEnd(2, "0"));
    const feeCents = Math.round(grossCents * 0.035) + 200;
    const rand = (c: number) => `${c < 0 ? "-" : ""}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, "0")}`;
    const f = payment?.fields ?? {};
    const fields: Fields = [
      ["m_payment_id", mPaymentId],
      ["pf_payment_id", o.pfPaymentId ?? payment?.pfPaymentId ?? String(randomInt(1_000_000, 9_999_999))],
      ["payment_status", o.status ?? "COMPLETE"],
      ["item_name", f.item_name ?? "Order"],
      ["item_description", f.item_description ?? ""],
      ["amount_gross", gross],
      ["amount_fee", rand(-feeCents)],
      ["amount_net", rand(grossCents - feeCents)],
      ["custom_str1", ""],
      ["custom_str2", ""],
      ["custom_str3", ""],
      ["custom_str4", ""],
      ["custom_str5", ""],
      ["custom_int1", ""],
      ["custom_int2", ""],
      ["custom_int3", ""],
      ["custom_int4", ""],
      ["custom_int5", ""],
      ["name_first", f.name_first ?? ""],
      ["name_last", f.name_last ?? ""],
      ["email_address", f.email_address ?? ""],
      ["merchant_id", o.merchantId ?? merchantId],
    ];
    const paramString = fields.map(([k, v]) => `${k}=${urlencode(v)}`).join("&");
    const key = o.passphrase === null ? undefined : (o.passphrase ?? passphrase);
    fields.push(["signature", md5(key ? `${paramString}&passphrase=${urlencode(key)}` : paramString)]);
    if (o.sent !== false) {
      sentItns.add(paramString);
      if ((o.status ?? "COMPLETE") === "COMPLETE") completed.set(fields[1]![1], grossCents);
    }
    // Sent as a browser or PHP would encode a form (WHATWG: `*` and `~` left as they are): the shop must re-encode
    // the decoded values the PHP way to check the signature, not hash the body it received.
    const body = new URLSearchParams(fields).toString();
    return { fields, body, headers: { "content-type": "application/x-www-form-urlencoded" } };
  }

  return {
    baseUrl,
    merchantId,
    merchantKey,
    passphrase,
    payments,
    requests,
    refunds,
    invalidateAll() {
      alwaysInvalid = true;
    },
    validateNormally() {
      alwaysInvalid = false;
    },
    submitForm(form) {
      return fetch(form.action, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form.fields).toString(),
      });
    },
    itn,
    postItn(mPaymentId, o) {
      return postWebhook("payfast", itn(mPaymentId, o));
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
