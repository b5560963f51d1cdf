import type { Route } from "./+types/webhooks.payments";
import { getDb } from "~/db/db.server";
import { handlePaymentWebhook } from "~/modules/flows/payment-events.server";
import { afterOrdersWritten } from "~/modules/order-days/order-days.server";

/**
 * POST /webhooks/payments/:provider — the provider's signed event (Standard Webhooks). No session and no origin
 * check: the signature is the authentication. The raw body is read once, inside handlePaymentWebhook.
 * 200 for an accepted event (also a replay, which changes nothing); 400/401 for a malformed or forged/stale one.
 */
export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const result = await handlePaymentWebhook(getDb(), params.provider, request);
  // a refund or a late payment of an old order: its day's sums are summed again here, not by the owner's next page
  if (result.status === 200) await afterOrdersWritten(getDb(), `payment webhook ${params.provider}`);
  const body = result.status === 200 ? { received: true, outcome: result.outcome } : { received: false };
  return Response.json(body, { status: result.status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
