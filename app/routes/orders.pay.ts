/**
 * /orders/:id/pay — the unpaid-order reminder's link (docs/decisions/056): the shopper's own order, still awaiting its
 * card payment, goes back to its payment page (the provider's checkout made at placement, or the form-post page); an
 * order paid meanwhile goes to its confirmation, one closed (expired, cancelled) to the cart with a message. Signed
 * out: sign in first, then back here. Anyone else's order is not found.
 */
import { data, redirect } from "react-router";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { reopenPaymentPath } from "~/modules/reminders/reopen-payment.server";
import type { Route } from "./+types/orders.pay";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const to = await reopenPaymentPath(getDb(), params.id, user.id);
  if (!to) throw data("Order not found", { status: 404 });
  throw redirect(to, { headers: { "Cache-Control": "private, no-store" } });
}
