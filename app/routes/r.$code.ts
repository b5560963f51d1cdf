/**
 * A member's referral link, /r/CODE (docs/decisions/063): remembers the code in a cookie of its own and sends the
 * visitor to the shop's home page, a cached page (the code never reaches its address or a shared copy). A signed-in
 * shopper is attributed at once. A code that can't be one goes to the home page with nothing remembered.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/r.$code";
import { getDb } from "~/db/db.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { attributeFromCookie, referralCookie } from "~/modules/rewards/referral-cookie.server";
import { normalizeReferralCode } from "~/modules/rewards/referrals.logic";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const code = normalizeReferralCode(params.code);
  if (!code) return redirect("/", { headers: { "Cache-Control": "no-store" } });
  const user = await getSessionUser(request);
  if (user) {
    // the cookie this answer sets, as the next request would carry it
    const withCode = new Request(request.url, { headers: { cookie: `${referralCookie(code).split(";")[0]}` } });
    await attributeFromCookie(getDb(), withCode, user, () => requestMeta(request, context).ip);
  }
  return redirect("/", { status: 303, headers: { "Set-Cookie": referralCookie(code), "Cache-Control": "no-store" } });
}
