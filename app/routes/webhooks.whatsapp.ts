import type { Route } from "./+types/webhooks.whatsapp";
import { getDb } from "~/db/db.server";
import { handleWhatsappWebhook, verifySubscription } from "~/modules/whatsapp/webhook.server";

/**
 * /webhooks/whatsapp — Meta's WhatsApp webhooks (docs/decisions/055). No session and no origin check: GET is the
 * subscription check (the verify token), POST is authenticated by its X-Hub-Signature-256 (the raw body is read once,
 * inside handleWhatsappWebhook). A resource route: no page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const challenge = verifySubscription(new URL(request.url));
  if (challenge === null) return new Response("Forbidden", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "GET, POST" } });
  const outcome = await handleWhatsappWebhook(getDb(), request);
  return Response.json({ received: outcome.status === 200 }, { status: outcome.status, headers: { "Cache-Control": "no-store" } });
}
