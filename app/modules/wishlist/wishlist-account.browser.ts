/**
 * The signed-in half of the browser's wishlist (wishlist.browser.ts): the account's list, read from and changed at
 * /api/wishlist. Downloaded only when a signed-in shopper's page shows a heart: visitors' pages, the cached ones,
 * never need it (the storefront's JavaScript budget, DESIGN.md).
 */
import { parseWishlistIds } from "./wishlist.logic";

/** The account's list after a change (its whole list), or null when the server said no. */
export async function postWishlist(fields: Record<string, string>): Promise<string[] | null> {
  const response = await fetch("/api/wishlist", { method: "POST", body: new URLSearchParams(fields), headers: { Accept: "application/json" } });
  if (!response.ok) return null;
  const body = (await response.json().catch(() => null)) as { ids?: unknown } | null;
  return body && Array.isArray(body.ids) ? parseWishlistIds(body.ids) : null;
}

/**
 * The account's list, with `local` (what this browser kept while signed out) merged into it: `merged` says the
 * server took them, and the browser may forget its own. Null when the list could not be read.
 */
export async function readAccountWishlist(local: readonly string[]): Promise<{ ids: string[]; merged: boolean } | null> {
  const response = await fetch("/api/wishlist", { headers: { Accept: "application/json" } });
  if (!response.ok) return null;
  const body = (await response.json()) as { ids: string[] };
  const ids = parseWishlistIds(body.ids);
  if (!local.length) return { ids, merged: false };
  const merged = await postWishlist({ intent: "merge", ids: JSON.stringify(local) });
  return merged ? { ids: merged, merged: true } : { ids, merged: false };
}
