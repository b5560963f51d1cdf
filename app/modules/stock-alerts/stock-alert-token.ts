// relative, not ~/: the end-to-end tests import this file outside Vite
import { expiresAfterDays, signToken, verifyToken, type TokenRefusal } from "../../utils/signed-token.server";

/**
 * The signed part of a back-in-stock confirmation link: `/stock-alerts/confirm?token=<payload>.<signature>` (double
 * opt-in, docs/decisions/057). It names the request (its row id) and expires with the request; signed for this
 * purpose only (utils/signed-token.server.ts), so no other link of the shop verifies as one.
 */
const PURPOSE = "scentara/stock-alert-confirm/v1";
const MAX_TOKEN_LENGTH = 300;
const MAX_ID_LENGTH = 100;

export function signStockAlertToken(alertId: string, options: { secret: string; days: number; now?: Date }): string {
  return signToken(PURPOSE, { a: alertId }, { secret: options.secret, expiresAt: expiresAfterDays(options.days, options.now) });
}

export function verifyStockAlertToken(token: unknown, options: { secret: string; now?: Date }): { ok: true; alertId: string } | { ok: false; reason: TokenRefusal } {
  const verified = verifyToken(PURPOSE, token, { ...options, maxLength: MAX_TOKEN_LENGTH });
  if (!verified.ok) return verified;
  const { a } = verified.claims;
  if (typeof a !== "string" || a.length === 0 || a.length > MAX_ID_LENGTH) return { ok: false, reason: "invalid" };
  return { ok: true, alertId: a };
}
