import { redirect } from "react-router";
import type { Route } from "./+types/auth.logout";
import { signOut } from "~/modules/accounts/accounts.server";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { forgetUserSessions } from "~/modules/accounts/session-cache.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { readForm } from "~/utils/request.server";

/** Sign Out (the header's button posts here): the session ends on the server, the cookie is cleared, home. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  await readForm(request); // nothing in it is used, but a non-form body is refused like everywhere else
  const user = await getSessionUser(request);
  const { setCookies } = await signOut(requestMeta(request, context));
  if (user) forgetUserSessions(user.id);
  return redirect("/", { headers: cookieHeaders(setCookies) });
}

/** Signing out is a POST (a link or an image elsewhere must not sign anyone out); a GET just goes home. */
export async function loader() {
  return redirect("/");
}
