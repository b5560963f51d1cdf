import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The shop's signed links (the unsubscribe link of a marketing e-mail, the review link of a review request): a token
 * `<payload>.<signature>`, both base64url. The payload is JSON with the link's claims and `e`, its expiry in epoch
 * seconds; the signature is HMAC-SHA256, keyed with the shop's secret, over the link's PURPOSE label, a newline and
 * the payload. The label keeps a token of one purpose from ever verifying as another (a review link is no unsubscribe
 * link, and neither is a session or a webhook), though the same secret signs them all.
 *
 * This is the format both links had before they shared it, so the links in e-mails already sent keep working.
 * Nothing is stored per link: a token proves only that the shop sent it; what it allows is its caller's to check.
 * No imports beyond node:crypto, so the end-to-end tests can sign a link with the test shop's secret.
 */

export type TokenRefusal = "invalid" | "expired";

export function signToken(purpose: string, claims: Record<string, string | number>, options: { secret: string; expiresAt: number }): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, e: options.expiresAt }), "utf8").toString("base64url");
  return `${payload}.${signature(purpose, payload, options.secret)}`;
}

/** Epoch seconds `days` after `now`: a link's expiry. */
export function expiresAfterDays(days: number, now = new Date()): number {
  return Math.floor(now.getTime() / 1000) + days * 24 * 60 * 60;
}

/**
 * The claims of a token signed for this purpose with this secret, unexpired at `now` (`e` included); "invalid" for
 * anything else that is not one (tampered, truncated, another purpose or secret, longer than `maxLength`, no object,
 * no whole-second expiry), "expired" for one that was ours.
 */
export function verifyToken(
  purpose: string,
  token: unknown,
  options: { secret: string; maxLength: number; now?: Date },
): { ok: true; claims: Record<string, unknown> & { e: number } } | { ok: false; reason: TokenRefusal } {
  const invalid = { ok: false as const, reason: "invalid" as const };
  // a longer value is not one of ours: refused before any parsing or hashing
  if (typeof token !== "string" || token.length === 0 || token.length > options.maxLength) return invalid;
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return invalid;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const wanted = Buffer.from(signature(purpose, payload, options.secret), "base64url");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return invalid;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return invalid;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return invalid;
  const claims = body as Record<string, unknown>;
  if (typeof claims.e !== "number" || !Number.isSafeInteger(claims.e)) return invalid;
  if (claims.e <= Math.floor((options.now ?? new Date()).getTime() / 1000)) return { ok: false, reason: "expired" };
  return { ok: true, claims: claims as Record<string, unknown> & { e: number } };
}

function signature(purpose: string, payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`${purpose}\n${payload}`).digest("base64url");
}
