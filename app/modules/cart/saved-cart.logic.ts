/**
 * The rules of a cart kept on the server for a signed-in shopper (docs/decisions/056), without I/O: browser-safe, and
 * shared by the server (saved-cart.server.ts) and the unit tests.
 */
import type { SavedCartLine } from "~/db/schema";
import { cartLineKey } from "~/modules/orders/cart-quote";
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from "~/modules/orders/orders.logic";

/**
 * Two carts as one: every line of both (the first's order, then the second's new ones), and a product in a size that
 * both hold at the larger of the two quantities — not their sum: the same scent added on a phone and on a laptop is
 * one wish, not two bottles. Nothing is dropped below the cart's own limits.
 */
export function mergeCartLines(first: readonly SavedCartLine[], second: readonly SavedCartLine[]): SavedCartLine[] {
  const merged = new Map<string, SavedCartLine>();
  for (const line of [...first, ...second]) {
    const key = cartLineKey(line);
    const had = merged.get(key);
    merged.set(key, had ? { ...had, quantity: Math.max(had.quantity, line.quantity) } : { ...line });
  }
  return [...merged.values()].slice(0, MAX_CART_LINES).map((l) => ({ ...l, quantity: Math.min(l.quantity, MAX_LINE_QUANTITY) }));
}

/** The same lines in the same order and quantities (a sync that changes nothing writes nothing). */
export function sameCartLines(a: readonly SavedCartLine[], b: readonly SavedCartLine[]): boolean {
  return a.length === b.length && a.every((l, i) => cartLineKey(l) === cartLineKey(b[i]!) && l.quantity === b[i]!.quantity);
}

/** What a browser sends: `lines` as the quote takes them, and whose cart at which version it last saw. */
export interface CartSyncRequest {
  lines: SavedCartLine[];
  /** the server cart's version this browser last saw; null: none (it merges) */
  baseVersion: number | null;
  /** the owner tag of its last sync (cartOwnerTag); another shopper's, or none: it merges */
  owner: string | null;
}
