/**
 * /api/me — the signed-in user's own e-mail, for the header's account menu. Storefront pages are shared by everyone
 * of a role (docs/decisions/023), so the menu asks for it when it is opened; it is never in a shared page.
 */
import { data } from "react-router";
import { getSessionUser } from "~/modules/accounts/session.server";
import type { Me } from "~/modules/settings/root-data";
import type { Route } from "./+types/api.me";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const headers = { "Cache-Control": "private, no-store" };
  if (!user) return data<Me>({ email: null }, { status: 401, headers });
  return data<Me>({ email: user.email }, { headers });
}
