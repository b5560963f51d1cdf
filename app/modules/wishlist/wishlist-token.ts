// relative, not ~/: the end-to-end tests import this file outside Vite
import { expiresAfterDays, signToken, verifyToken, type TokenRefusal } from "../../utils/signed-token.server";

/**
 * The wishlist's two signed links (docs/decisions/057): the share link (`/wishlist/shared/<token>`, read-only, for
 * anyone who has it) and the "turn wishlist e-mails off" link in those e-mails. Each names the shopper by id and is
 * signed for its own purpose: a share link turns nothing off, and neither is any other link of the shop. Unguessable
 * (HMAC-SHA256 with the shop's secret); a changed character makes it nothing.
 */
export type WishlistLink = "share" | "alerts-off";

const PURPOSES: Record<WishlistLink, string> = { share: "scentara/wishlist-share/v1", "alerts-off": "scentara/wishlist-alerts-off/v1" };
/** A share link lives a year (re-made whenever the owner opens /wishlist); the off link as long as an unsubscribe. */
export const WISHLIST_LINK_DAYS: Record<WishlistLink, number> = { share: 365, "alerts-off": 90 };
const MAX_TOKEN_LENGTH = 300;

export function signWishlistToken(link: WishlistLink, userId: string, options: { secret: string; now?: Date }): string {
  return signToken(PURPOSES[link], { u: userId }, { secret: options.secret, expiresAt: expiresAfterDays(WISHLIST_LINK_DAYS[link], options.now) });
}

export function verifyWishlistToken(link: WishlistLink, token: unknown, options: { secret: string; now?: Date }): { ok: true; userId: string } | { ok: false; reason: TokenRefusal } {
  const verified = verifyToken(PURPOSES[link], token, { ...options, maxLength: MAX_TOKEN_LENGTH });
  if (!verified.ok) return verified;
  const { u } = verified.claims;
  if (typeof u !== "string" || u.length === 0 || u.length > 100) return { ok: false, reason: "invalid" };
  return { ok: true, userId: u };
}
