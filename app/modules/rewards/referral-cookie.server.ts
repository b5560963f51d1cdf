/**
 * The referral link's cookie (docs/decisions/063): /r/CODE remembers the code for 30 days in a cookie of its own, then
 * sends the visitor on to the shop. The cookie is not a session: cached storefront pages stay shared copies (the
 * page they land on has no code in its address). Once the visitor is signed in (the link again, the cart, the
 * checkout) the code attributes them to the member, once.
 */
import type { Queryable } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { formatWholeRand } from "~/utils/money";
import { logger } from "~/utils/logger.server";
import { normalizeReferralCode } from "./referrals.logic";
import { attributeReferral, type Attribution } from "./referrals.server";
import { loadRewardSettings } from "./rewards.server";

export const REFERRAL_COOKIE = "scentara_ref";
const COOKIE_DAYS = 30;

/** The Set-Cookie header remembering a code (Secure on an https shop). */
export function referralCookie(code: string): string {
  const secure = env().PUBLIC_BASE_URL.startsWith("https:") ? "; Secure" : "";
  return `${REFERRAL_COOKIE}=${code}; Path=/; Max-Age=${COOKIE_DAYS * 86_400}; HttpOnly; SameSite=Lax${secure}`;
}

/** The code the request's cookie remembers, or null. */
export function referralCodeOf(request: Request): string | null {
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === REFERRAL_COOKIE) return normalizeReferralCode(rest.join("="));
  }
  return null;
}

/**
 * A signed-in shopper with a remembered code: attributed (or refused, with why), once. A failure never costs the
 * shopper their page: it is logged and the reward waits for the next look.
 */
export async function attributeFromCookie(db: Queryable, request: Request, friend: { id: string; email: string }, ip: () => string, now: Date = new Date()): Promise<Attribution> {
  const code = referralCodeOf(request);
  if (!code) return null;
  try {
    return await attributeReferral(db, { friend, code, ip: ip(), now }, await loadRewardSettings(db));
  } catch (error) {
    logger.error({ err: error }, "referrals: could not attribute a signed-in shopper's referral code");
    return null;
  }
}

/** What a visitor who came by a member's link is told in the cart: the friend's reward waits for an account. */
export async function friendRewardForVisitor(db: Queryable): Promise<{ cents: 0; refusal: string } | null> {
  const s = await loadRewardSettings(db);
  if (!s.pointsOn || !s.referralsOn || s.friendRewardCents <= 0) return null;
  return { cents: 0, refusal: `Create an account or sign in to take your friend's ${formatWholeRand(s.friendRewardCents)} off your first order.` };
}
