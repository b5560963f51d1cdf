/**
 * POST /api/gift-cards/check — the checkout's "Apply" for a gift card code (signed-in shoppers only; checkout is too).
 * Answers the card's last four and balance, or why it can't pay. Throttled against guessing (gift-card-orders.server.ts):
 * the same counters as the checkout's own look-up. The code is never echoed back beyond its normalised form.
 */
import { data } from "react-router";
import type { Route } from "./+types/api.gift-cards.check";
import { getDb } from "~/db/db.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { lookUpGiftCard } from "~/modules/gift-cards/gift-card-orders.server";
import type { GiftCardCheck } from "~/modules/gift-cards/gift-card-payments.logic";
import { readFields } from "~/utils/request.server";

const answer = (body: GiftCardCheck, status = 200) => data<GiftCardCheck>(body, { status, headers: { "Cache-Control": "no-store" } });

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (!user) return answer({ ok: false, error: "Please sign in to continue" }, 401);
  const fields = await readFields(request);
  const typed = typeof fields.code === "string" ? fields.code.slice(0, 100) : "";
  const found = await lookUpGiftCard(getDb(), typed, { userId: user.id, ip: requestMeta(request, context).ip });
  if (!found.ok) return answer({ ok: false, error: found.error }, found.status);
  return answer({ ok: true, code: found.code, last4: found.card.last4, balanceCents: found.card.balanceCents, expiresAt: found.card.expiresAt });
}

export async function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
