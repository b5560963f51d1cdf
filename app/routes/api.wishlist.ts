/**
 * /api/wishlist — the hearts' and the visitor's /wishlist page's data (docs/decisions/057); JSON, never cached.
 *   GET            signed in: `{ ids }`, their list; a visitor: 401.
 *   GET ?ids=a,b   anyone: `{ products }`, those products as cards show them (a visitor's list lives in the browser).
 *   POST intent=add|remove productId, or intent=merge ids=[…]: the signed-in shopper's list, answered with `{ ids }`.
 */
import { data } from "react-router";
import type { Route } from "./+types/api.wishlist";
import { getDb } from "~/db/db.server";
import { getSessionUser, requireUserAction } from "~/modules/accounts/session.server";
import { parseWishlistIds } from "~/modules/wishlist/wishlist.logic";
import { changeWishlist, productsByIds, wishlistIds } from "~/modules/wishlist/wishlist.server";
import { readFields, readQuery } from "~/utils/request.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request }: Route.LoaderArgs) {
  const query = readQuery(request);
  if (query.has("ids")) return data({ products: await productsByIds(getDb(), parseWishlistIds(query.get("ids"))) }, { headers: PRIVATE });
  const user = await getSessionUser(request);
  if (!user) return data({ ids: [] as string[] }, { status: 401, headers: PRIVATE });
  return data({ ids: await wishlistIds(getDb(), user.id) }, { headers: PRIVATE });
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const changed = await changeWishlist(getDb(), user.id, await readFields(request));
  if (!changed) return data({ ok: false, error: "Unknown wishlist change", fieldErrors: {} }, { status: 400, headers: PRIVATE });
  return data({ ok: true, ids: await wishlistIds(getDb(), user.id) }, { headers: PRIVATE });
}
