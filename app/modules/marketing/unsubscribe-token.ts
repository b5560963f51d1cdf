import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The signed part of a marketing e-mail's unsubscribe link: `/unsubscribe?token=<payload>.<signature>` (POPIA s69(4),
 * RFC 8058; docs/decisions/039). Works signed out, from any browser or mail program.
 *
 * The payload is base64url JSON naming the person (their user id) and an expiry (epoch seconds); the signature is
 * HMAC-SHA256 keyed with the shop's auth secret over a purpose label and the payload. The label keeps this signature
 * from being valid as anything else the secret signs (sessions, review links, webhooks), and the other way round.
 * Nothing is stored per link: the token itself is the proof that the shop sent this person this link, and all it can
 * do is what its person could do anyway — turn their own marketing e-mails off.
 *
 * No imports beyond node:crypto, so the end-to-end tests can sign one (an expired link) with the test shop's secret.
 */
const PURPOSE = "scentara/unsubscribe/v1";

/** How long a link works: long after a campaign is read (people unsubscribe from old mail), not for ever. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

/** A longer value is not one of ours: refused before any parsing or hashing. */
const MAX_TOKEN_LENGTH = 400;
const MAX_ID_LENGTH = 100;

export interface UnsubscribeClaims {
  userId: string;
  /** epoch seconds after which the link is refused */
  expiresAt: number;
}

/** Why a link is refused: it was never ours (or was altered), or it is too old. */
export type UnsubscribeRefusal = "invalid" | "expired";

function signature(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`${PURPOSE}\n${payload}`).digest("base64url");
}

export function signUnsubscribeToken(userId: string, options: { secret: string; now?: Date; lifetimeDays?: number }): string {
  const now = options.now ?? new Date();
  const expiresAt = Math.floor(now.getTime() / 1000) + (options.lifetimeDays ?? UNSUBSCRIBE_LINK_DAYS) * 24 * 60 * 60;
  const payload = Buffer.from(JSON.stringify({ u: userId, e: expiresAt }), "utf8").toString("base64url");
  return `${payload}.${signature(payload, options.secret)}`;
}

/** The claims of a token this shop signed and that has not expired; otherwise why not. */
export function verifyUnsubscribeToken(
  token: unknown,
  options: { secret: string; now?: Date },
): { ok: true; claims: UnsubscribeClaims } | { ok: false; reason: UnsubscribeRefusal } {
  const invalid = { ok: false as const, reason: "invalid" as const };
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return invalid;
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return invalid;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const wanted = Buffer.from(signature(payload, options.secret), "base64url");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return invalid;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return invalid;
  }
  if (!body || typeof body !== "object") return invalid;
  const { u, e } = body as Record<string, unknown>;
  if (typeof u !== "string" || u.length === 0 || u.length > MAX_ID_LENGTH || typeof e !== "number" || !Number.isSafeInteger(e)) return invalid;
  if (e <= Math.floor((options.now ?? new Date()).getTime() / 1000)) return { ok: false, reason: "expired" };
  return { ok: true, claims: { userId: u, expiresAt: e } };
}
