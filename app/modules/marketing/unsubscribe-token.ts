// relative, not ~/: the end-to-end tests import this file outside Vite
import { expiresAfterDays, signToken, verifyToken, type TokenRefusal } from "../../utils/signed-token.server";

/**
 * The signed part of a marketing e-mail's unsubscribe link: `/unsubscribe?token=<payload>.<signature>` (POPIA s69(4),
 * RFC 8058; docs/decisions/039). Works signed out, from any browser or mail program.
 *
 * The payload names the person (their user id) and an expiry; signed for this purpose with the shop's auth secret
 * (utils/signed-token.server.ts), so it is valid as nothing else the secret signs (sessions, review links, webhooks).
 * Nothing is stored per link: the token itself is the proof that the shop sent this person this link, and all it can
 * do is what its person could do anyway — turn their own marketing e-mails off.
 *
 * No imports beyond signed-token (node:crypto), so the end-to-end tests can sign one (an expired link) with the test
 * shop's secret.
 */
const PURPOSE = "scentara/unsubscribe/v1";

/** How long a link works: long after a campaign is read (people unsubscribe from old mail), not for ever. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

/** A longer value is not one of ours. */
const MAX_TOKEN_LENGTH = 400;
const MAX_ID_LENGTH = 100;

export interface UnsubscribeClaims {
  userId: string;
  /** epoch seconds after which the link is refused */
  expiresAt: number;
}

/** Why a link is refused: it was never ours (or was altered), or it is too old. */
export type UnsubscribeRefusal = TokenRefusal;

export function signUnsubscribeToken(userId: string, options: { secret: string; now?: Date; lifetimeDays?: number }): string {
  return signToken(PURPOSE, { u: userId }, { secret: options.secret, expiresAt: expiresAfterDays(options.lifetimeDays ?? UNSUBSCRIBE_LINK_DAYS, options.now) });
}

/** The claims of a token this shop signed and that has not expired; otherwise why not. */
export function verifyUnsubscribeToken(
  token: unknown,
  options: { secret: string; now?: Date },
): { ok: true; claims: UnsubscribeClaims } | { ok: false; reason: UnsubscribeRefusal } {
  const verified = verifyToken(PURPOSE, token, { ...options, maxLength: MAX_TOKEN_LENGTH });
  if (!verified.ok) return verified;
  const { u, e } = verified.claims;
  if (typeof u !== "string" || u.length === 0 || u.length > MAX_ID_LENGTH) return { ok: false, reason: "invalid" };
  return { ok: true, claims: { userId: u, expiresAt: e } };
}
