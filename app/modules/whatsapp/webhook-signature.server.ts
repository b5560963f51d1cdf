import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Meta's webhook signature (docs/decisions/055): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body,
 * keyed with the app secret>`. The shop checks it on every POST to /webhooks/whatsapp; the local fake signs what it
 * delivers the same way.
 */
export const SIGNATURE_HEADER = "x-hub-signature-256";

export function signatureFor(secret: string, rawBody: string | Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** True only for a header that is exactly the body's signature (compared in constant time). */
export function isSignedBy(secret: string, rawBody: Uint8Array, header: string | null): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header.trim())) return false;
  const given = Buffer.from(header.trim().slice("sha256=".length).toLowerCase(), "hex");
  const wanted = createHmac("sha256", secret).update(rawBody).digest();
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
