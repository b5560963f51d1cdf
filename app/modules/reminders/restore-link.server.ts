/**
 * The cart reminder's restore link: `/cart?restore=<token>` (docs/decisions/056). The token names the reminder and an
 * expiry, signed with the shop's auth secret for this purpose alone (utils/signed-token.server.ts); the cart it puts
 * back is the reminder's own copy, read from the database. It works signed out, in any browser: all it can do is put
 * those products into that browser's cart. A tampered, truncated or expired token restores nothing.
 */
import type { Queryable } from "~/db/db.server";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { cartLinesForBrowser } from "~/modules/cart/saved-cart.server";
import type { CartLine } from "~/modules/cart/cart.browser";
import { env } from "~/utils/env.server";
import { expiresAfterDays, signToken, verifyToken } from "~/utils/signed-token.server";

const PURPOSE = "scentara/cart-restore/v1";
/** Long enough for a reminder read days later; a cart older than this is not worth restoring blindly. */
export const RESTORE_LINK_DAYS = 14;
const MAX_TOKEN_LENGTH = 300;

export const RESTORE_MESSAGES = {
  invalid: "This link to your cart is not valid: it may have been cut short or changed. Nothing was added to your cart.",
  expired: `This link to your cart has expired (links work for ${RESTORE_LINK_DAYS} days). Nothing was added to your cart.`,
  gone: "The scents of this cart are no longer sold. Nothing was added to your cart.",
} as const;

export function signRestoreToken(reminderId: string, now = new Date()): string {
  return signToken(PURPOSE, { r: reminderId }, { secret: authSecret(), expiresAt: expiresAfterDays(RESTORE_LINK_DAYS, now) });
}

export function restoreUrl(reminderId: string, now = new Date()): string {
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}/cart?restore=${encodeURIComponent(signRestoreToken(reminderId, now))}`;
}

export type RestoreOutcome = { ok: true; lines: CartLine[] } | { ok: false; status: number; message: string };

/**
 * The lines a restore link puts back, named and priced from the database today; the reminder's first use is recorded
 * (an order placed after it counts as recovered by the reminder).
 */
export async function restoreFromLink(db: Queryable, token: unknown, now = new Date()): Promise<RestoreOutcome> {
  const verified = verifyToken(PURPOSE, token, { secret: authSecret(), maxLength: MAX_TOKEN_LENGTH, now });
  if (!verified.ok) return { ok: false, status: 400, message: RESTORE_MESSAGES[verified.reason] };
  const reminderId = verified.claims.r;
  if (typeof reminderId !== "string" || !reminderId) return { ok: false, status: 400, message: RESTORE_MESSAGES.invalid };
  const reminder = await db.selectFrom("reminders").select(["lines"]).where("id", "=", reminderId).where("kind", "=", "cart").executeTakeFirst();
  if (!reminder) return { ok: false, status: 404, message: RESTORE_MESSAGES.gone };
  const lines = await cartLinesForBrowser(db, reminder.lines);
  if (lines.length === 0) return { ok: false, status: 404, message: RESTORE_MESSAGES.gone };
  await db.updateTable("reminders").set({ restored_at: now.toISOString() }).where("id", "=", reminderId).where("restored_at", "is", null).execute();
  return { ok: true, lines };
}
