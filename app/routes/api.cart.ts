/**
 * /api/cart — a signed-in shopper's browser cart, kept on the server too (docs/decisions/056). The browser posts it
 * after hydration and whenever it changes (cart-sync.browser.ts); the answer is the server's cart afterwards, which the
 * browser keeps. POST `lines` (JSON: product, size, quantity — any price is ignored), `baseVersion` and `owner` (the
 * server's version and owner tag of its last sync; another shopper's or none: the server merges, as at sign-in) and
 * `baseLines` (that version's lines as the browser had them: with an older version, each side's changes since are
 * kept, removals too). A visitor's cart stays in their browser: 401, nothing stored.
 */
import { data } from "react-router";
import { z } from "zod";
import { getDb } from "~/db/db.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { syncSavedCart } from "~/modules/cart/saved-cart.server";
import { cartLinesJsonSchema } from "~/modules/orders/orders.schema";
import { readFields } from "~/utils/request.server";
import type { Route } from "./+types/api.cart";

const NO_STORE = { "Cache-Control": "private, no-store" };
const baseVersionSchema = z.union([z.literal("").transform(() => null), z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]);

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (!user) return data({ error: "Sign in to keep your cart on your account" }, { status: 401, headers: NO_STORE });
  const form = await readFields(request);
  const lines = cartLinesJsonSchema.safeParse(form.lines);
  const baseVersion = baseVersionSchema.safeParse(form.baseVersion ?? "");
  const baseLines = form.baseLines ? cartLinesJsonSchema.safeParse(form.baseLines) : null;
  if (!lines.success || !baseVersion.success || baseLines?.success === false) return data({ error: "Invalid cart" }, { status: 400, headers: NO_STORE });
  const owner = typeof form.owner === "string" && form.owner.length <= 100 ? form.owner : null;
  const synced = await syncSavedCart(getDb(), user.id, { lines: lines.data, baseVersion: baseVersion.data, baseLines: baseLines?.data ?? null, owner });
  return data(synced, { headers: NO_STORE });
}
