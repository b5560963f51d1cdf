import { createHmac, randomInt } from "node:crypto";

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA-1, 6 digits, 30-second steps, as every
 * authenticator app reads an otpauth:// link. better-auth's two-factor plugin generates and stores the secret (the key
 * is the secret's UTF-8 bytes); the shop computes the codes itself too, to know which time step a code belongs to (a
 * code is accepted once: docs/decisions/059) and in tests, which move the clock instead of waiting.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after are accepted too (a phone's clock a little off, a code typed at the turn). */
export const TOTP_WINDOW = 1;

export function totpStep(nowMs: number = Date.now()): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** RFC 4226 HOTP of one counter. */
export function hotp(key: Uint8Array, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac("sha1", key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = ((digest[offset]! & 0x7f) << 24) | (digest[offset + 1]! << 16) | (digest[offset + 2]! << 8) | digest[offset + 3]!;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

/** The code an app shows at `nowMs` for this secret (the key is the secret's UTF-8 bytes, as better-auth makes it). */
export function totpCode(secret: string | Uint8Array, nowMs: number = Date.now()): string {
  return hotp(keyOf(secret), totpStep(nowMs));
}

/** The time step this code belongs to, within the window around now; null when it matches none. */
export function matchingStep(secret: string | Uint8Array, code: string, nowMs: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = keyOf(secret);
  const current = totpStep(nowMs);
  let found: number | null = null;
  // every step is computed, whichever matches (no early exit to time)
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (constantTimeEqual(hotp(key, step), code) && found === null) found = step;
  }
  return found;
}

function keyOf(secret: string | Uint8Array): Uint8Array {
  return typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
}

function constantTimeEqual(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= a.charCodeAt(i % Math.max(1, a.length)) ^ b.charCodeAt(i);
  return difference === 0;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding: the secret as an app's "enter a setup key" takes it. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** The otpauth:// link an authenticator app scans (Key Uri Format): issuer, account, base32 secret, SHA1, 6, 30. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: base32Encode(new TextEncoder().encode(secret)),
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** The base32 secret in groups of four, easier to type into an app by hand. */
export function groupedSecret(secret: string): string {
  return base32Encode(new TextEncoder().encode(secret)).replace(/(.{4})(?=.)/g, "$1 ");
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random string from a CSPRNG (the shape better-auth's generateRandomString gives its secrets and codes). */
export function randomAlphanumeric(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}
