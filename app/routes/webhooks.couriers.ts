import type { Route } from "./+types/webhooks.couriers";
import { getDb } from "~/db/db.server";
import { receiveTrackingWebhook } from "~/modules/flows/shipment-tracked.server";
import { afterOrdersWritten } from "~/modules/order-days/order-days.server";
import { logger } from "~/utils/logger.server";

/**
 * POST /webhooks/couriers/:courier — a courier's tracking push. No session and no origin check: the signature is the
 * authentication, and the events are confirmed with the courier's own tracking API before anything changes.
 * 200 for an accepted push (also a replay, which changes nothing); 401 for a forged one; 404 for an unknown courier.
 */
export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const raw = await request.text();
  if (raw.length > 256 * 1024) return Response.json({ received: false }, { status: 413 });
  try {
    const token = new URL(request.url).searchParams.get("token");
    const result = await receiveTrackingWebhook(getDb(), params.courier, raw, request.headers, new Date(), token);
    // a parcel delivered days after its order was placed: that day's sums are summed again here, not by the owner's next page
    if (result.status === 200) await afterOrdersWritten(getDb(), `tracking webhook ${params.courier}`);
    return Response.json({ received: result.status === 200, message: result.message }, { status: result.status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // The courier's confirmation call failed: 503 so the courier sends it again later (nothing was applied).
    logger.warn({ err: error, courier: params.courier }, "couriers: webhook could not be confirmed; the courier will retry");
    return Response.json({ received: false }, { status: 503 });
  }
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
