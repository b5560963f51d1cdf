import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "~/modules/accounts/auth-secret.server";

/**
 * The signed link in a review request e-mail: `/products/<slug>?review=<token>` (issue 19, point 6).
 *
 * The token is `<payload>.<signature>`, both base64url: the payload is JSON naming the order, the product, the user
 * and an expiry (epoch seconds); the signature is HMAC-SHA256 keyed with the shop's auth secret over a purpose label
 * and the payload. The label keeps this signature from ever being valid as any other thing the same secret signs
 * (session cookies, the simulated provider's webhooks), and the other way round.
 *
 * The token proves only "the shop sent this person this link": it grants nothing. Writing the review still needs the
 * user's own session and a paid order of theirs with the product (reviews.server.ts checks that on every save), so a
 * forwarded or leaked link lets nobody write in someone else's name. That is why a stateless token is enough and
 * nothing is stored per link.
 */
const PURPOSE = "scentara/review-request/v1";

/** How long a link works: long enough for a bottle to be worn for a few weeks, short enough that old mail goes stale. */
export const REVIEW_LINK_DAYS = 60;

/** A longer value is not one of ours: refused before any parsing or hashing. */
const MAX_TOKEN_LENGTH = 600;
const MAX_ID_LENGTH = 100;

export interface ReviewLinkClaims {
  orderId: string;
  productId: string;
  userId: string;
  /** epoch seconds after which the link no longer opens the form */
  expiresAt: number;
}

function signature(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`${PURPOSE}\n${payload}`).digest("base64url");
}

/** The token for one product of one order, for its customer. */
export function signReviewToken(
  claims: { orderId: string; productId: string; userId: string },
  options: { now?: Date; lifetimeDays?: number; secret?: string } = {},
): string {
  const now = options.now ?? new Date();
  const expiresAt = Math.floor(now.getTime() / 1000) + (options.lifetimeDays ?? REVIEW_LINK_DAYS) * 24 * 60 * 60;
  const payload = Buffer.from(JSON.stringify({ o: claims.orderId, p: claims.productId, u: claims.userId, e: expiresAt }), "utf8").toString("base64url");
  return `${payload}.${signature(payload, options.secret ?? authSecret())}`;
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
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const wanted = Buffer.from(signature(payload, expected.secret ?? authSecret()), "base64url");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!body || typeof body !== "object") return null;
  const { o, p, u, e } = body as Record<string, unknown>;
  if (!isId(o) || !isId(p) || !isId(u) || typeof e !== "number" || !Number.isSafeInteger(e)) return null;
  const nowSeconds = Math.floor((expected.now ?? new Date()).getTime() / 1000);
  if (e <= nowSeconds) return null;
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
