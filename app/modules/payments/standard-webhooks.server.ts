import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks (https://www.standardwebhooks.com), as Yoco uses them (DESIGN.md "Payments"):
 * - headers `webhook-id`, `webhook-timestamp` (unix seconds), `webhook-signature` (space-separated `v1,<base64>`
 *   entries; any one may match, so a provider can rotate secrets);
 * - signed content `${id}.${timestamp}.${rawBody}`, HMAC-SHA256 keyed with the base64-decoded secret after `whsec_`;
 * - constant-time comparison; timestamps more than 3 minutes away from now are refused (replay window).
 */
export const WEBHOOK_TOLERANCE_SECONDS = 180;

/**
 * Why a notification was refused. `not_confirmed`: signed correctly, but the provider's own server-side check (Ozow's
 * status API) does not confirm what it claims; `provider_unavailable`: that check could not be made (answered 503,
 * so the provider may deliver again; nothing was changed).
 */
export type WebhookFailure =
  | "missing_headers"
  | "bad_timestamp"
  | "stale_timestamp"
  | "bad_signature"
  | "malformed_body"
  // PayFast's ITN: for another merchant id; not confirmed by PayFast's validate call (INVALID, or unreachable).
  | "wrong_merchant"
  | "not_confirmed"
  | "provider_unavailable";

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }

  /** 400 for a request that is not a webhook at all (or a body we cannot read); 401 for a refused signature, timestamp or confirmation; 503 when the confirmation could not be made. */
  get status() {
    if (this.reason === "provider_unavailable") return 503;
    return this.reason === "missing_headers" || this.reason === "malformed_body" ? 400 : 401;
  }
}

/** The HMAC key: the base64 secret after its `whsec_` prefix, decoded. */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new Error("Webhook secret is empty or not base64");
  return key;
}

/** A fresh secret in the provider's format (whsec_ + 32 random bytes, base64). */
export function generateWebhookSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return `whsec_${Buffer.from(bytes).toString("base64")}`;
}

/** The `v1,<base64>` signature of one message. */
export function signWebhook(secret: string, id: string, timestamp: number | string, rawBody: string): string {
  const mac = createHmac("sha256", webhookKey(secret)).update(`${id}.${timestamp}.${rawBody}`, "utf8").digest("base64");
  return `v1,${mac}`;
}

/** The three headers a sender attaches to a webhook (used by the simulated provider and by tests' fake Yoco). */
export function webhookHeaders(
  secret: string,
  id: string,
  rawBody: string,
  now: Date = new Date(),
): { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string } {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signWebhook(secret, id, timestamp, rawBody) };
}

type HeaderSource = Headers | Record<string, string | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

/**
 * Verifies a webhook's signature and timestamp against the raw body exactly as received.
 * Returns the message id and timestamp; throws WebhookVerificationError otherwise.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string,
  headers: HeaderSource,
  options: { now?: Date; toleranceSeconds?: number } = {},
): { id: string; timestamp: number } {
  const id = header(headers, "webhook-id")?.trim();
  const timestampText = header(headers, "webhook-timestamp")?.trim();
  const signatures = header(headers, "webhook-signature")?.trim();
  if (!id || !timestampText || !signatures) {
    throw new WebhookVerificationError("missing_headers", "Missing webhook-id, webhook-timestamp or webhook-signature header");
  }
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError("bad_timestamp", "Invalid webhook-timestamp");
  const timestamp = Number(timestampText);
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError("stale_timestamp", "Webhook timestamp is outside the allowed window");
  }

  const expected = createHmac("sha256", webhookKey(secret)).update(`${id}.${timestampText}.${rawBody}`, "utf8").digest();
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0) continue;
    const version = entry.slice(0, comma);
    if (version !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1), "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { id, timestamp };
  }
  throw new WebhookVerificationError("bad_signature", "No matching webhook signature");
}
