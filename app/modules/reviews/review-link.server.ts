import { authSecret } from "~/modules/accounts/auth-secret.server";
import { expiresAfterDays, signToken, verifyToken } from "~/utils/signed-token.server";

/**
 * The signed link in a review request e-mail: `/products/<slug>?review=<token>` (issue 19, point 6).
 *
 * The token names the order, the product, the user and an expiry, signed for this purpose with the shop's auth secret
 * (utils/signed-token.server.ts): it is never valid as any other thing the same secret signs (session cookies,
 * unsubscribe links, the simulated provider's webhooks), and the other way round.
 *
 * The token proves only "the shop sent this person this link": it grants nothing. Writing the review still needs the
 * user's own session and a paid order of theirs with the product (reviews.server.ts checks that on every save), so a
 * forwarded or leaked link lets nobody write in someone else's name. That is why a stateless token is enough and
 * nothing is stored per link.
 */
const PURPOSE = "scentara/review-request/v1";

/** How long a link works: long enough for a bottle to be worn for a few weeks, short enough that old mail goes stale. */
export const REVIEW_LINK_DAYS = 60;

/** A longer value is not one of ours. */
const MAX_TOKEN_LENGTH = 600;
const MAX_ID_LENGTH = 100;

export interface ReviewLinkClaims {
  orderId: string;
  productId: string;
  userId: string;
  /** epoch seconds after which the link no longer opens the form */
  expiresAt: number;
}

/** The token for one product of one order, for its customer. */
export function signReviewToken(
  claims: { orderId: string; productId: string; userId: string },
  options: { now?: Date; lifetimeDays?: number; secret?: string } = {},
): string {
  const expiresAt = expiresAfterDays(options.lifetimeDays ?? REVIEW_LINK_DAYS, options.now);
  return signToken(PURPOSE, { o: claims.orderId, p: claims.productId, u: claims.userId }, { secret: options.secret ?? authSecret(), expiresAt });
}

/** The link's path on the shop (the caller adds the public base URL). */
export function reviewLinkPath(slug: string, token: string): string {
  return `/products/${slug}?review=${encodeURIComponent(token)}#write-review`;
}

const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH;

/**
 * The claims of a token this shop signed that has not expired and is for this product; null for anything else
 * (tampered, truncated, expired, signed with another secret, for another product, or not a token at all).
 */
export function verifyReviewToken(token: unknown, expected: { productId: string; now?: Date; secret?: string }): ReviewLinkClaims | null {
  const verified = verifyToken(PURPOSE, token, { secret: expected.secret ?? authSecret(), maxLength: MAX_TOKEN_LENGTH, now: expected.now });
  if (!verified.ok) return null;
  const { o, p, u, e } = verified.claims;
  if (!isId(o) || !isId(p) || !isId(u)) return null;
  if (p !== expected.productId) return null;
  return { orderId: o, productId: p, userId: u, expiresAt: e };
}

/** What following a review link means for this request. */
export type ReviewLinkOutcome =
  /** not a valid link for this product (tampered, expired, another product): the plain product page */
  | { kind: "invalid" }
  /** a valid link and nobody signed in: sign in first, then come back to the same link */
  | { kind: "sign-in" }
  /** a valid link, but someone else is signed in (a shared computer, a forwarded e-mail): the plain product page */
  | { kind: "other-user" }
  /** the link's own customer: the review form, ready to rate */
  | { kind: "ready"; claims: ReviewLinkClaims };

export function reviewLinkOutcome(token: unknown, request: { productId: string; userId: string | null; now?: Date; secret?: string }): ReviewLinkOutcome {
  const claims = verifyReviewToken(token, request);
  if (!claims) return { kind: "invalid" };
  if (request.userId === null) return { kind: "sign-in" };
  if (request.userId !== claims.userId) return { kind: "other-user" };
  return { kind: "ready", claims };
}
