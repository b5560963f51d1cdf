/**
 * /api/stock-alerts — the notify-me form's post when the page's script runs (docs/decisions/057): JSON
 * `{ ok, message }`, or the shop's error body. A signed-in shopper (the session, read here) waits at once; a visitor
 * gets a confirmation e-mail first. Without the script the form posts to /stock-alerts (a page) instead.
 */
import { data } from "react-router";
import type { Route } from "./+types/api.stock-alerts";
import { getDb } from "~/db/db.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { requestStockAlertFromForm } from "~/modules/stock-alerts/stock-alerts.server";
import { handleDomainErrors } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const user = await getSessionUser(request);
  return handleDomainErrors(async () => {
    const outcome = await requestStockAlertFromForm(getDb(), fields, user, requestMeta(request, context).ip);
    return data({ ok: true as const, ...outcome }, { headers: { "Cache-Control": "no-store" } });
  });
}
