/**
 * /api/cart/restore — the cart reminder's restore link at work (docs/decisions/056). The cart page, opened from the
 * e-mail as /cart?restore=<token>, posts the token here after hydration and puts the answered lines into the browser's
 * cart. Works signed out (the signed token is the authority, and all it can do is name that reminder's products); a
 * tampered or expired token answers 400 with a message and restores nothing.
 */
import { data } from "react-router";
import { getDb } from "~/db/db.server";
import { assertSameOrigin } from "~/modules/accounts/session.server";
import { restoreFromLink } from "~/modules/reminders/restore-link.server";
import { readFields } from "~/utils/request.server";
import type { Route } from "./+types/api.cart.restore";

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readFields(request);
  const outcome = await restoreFromLink(getDb(), form.token);
  const headers = { "Cache-Control": "private, no-store" };
  return outcome.ok ? data({ lines: outcome.lines }, { headers }) : data({ error: outcome.message }, { status: outcome.status, headers });
}
