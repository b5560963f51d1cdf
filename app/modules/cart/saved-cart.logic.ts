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

/**
 * A cart changed on two sides since they last agreed (`base`): this device's cart (`mine`) and the server's, changed by
 * another device meanwhile (`theirs`). Per line (product and size): a side that did not change it takes the other's
 * change, a removal included; both changed it: the larger quantity, and a line removed on one side but changed on the
 * other stays (a conflict keeps the item). This device's order first, then the server's new lines.
 */
export function rebaseCartLines(base: readonly SavedCartLine[], mine: readonly SavedCartLine[], theirs: readonly SavedCartLine[]): SavedCartLine[] {
  const quantities = (lines: readonly SavedCartLine[]) => new Map(lines.map((l) => [cartLineKey(l), l.quantity]));
  const [b, m, t] = [quantities(base), quantities(mine), quantities(theirs)];
  const out: SavedCartLine[] = [];
  const seen = new Set<string>();
  for (const line of [...mine, ...theirs]) {
    const key = cartLineKey(line);
    if (seen.has(key)) continue;
    seen.add(key);
    const was = b.get(key) ?? 0;
    const here = m.get(key) ?? 0;
    const there = t.get(key) ?? 0;
    const quantity = here === was ? there : there === was ? here : Math.max(here, there);
    if (quantity > 0) out.push({ ...line, quantity: Math.min(quantity, MAX_LINE_QUANTITY) });
  }
  return out.slice(0, MAX_CART_LINES);
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
  /**
   * the lines of that version as this browser last had them from the server; with an older version they tell what
   * each side changed since (rebaseCartLines). Absent (a browser synced before they were kept): it merges.
   */
  baseLines?: SavedCartLine[] | null;
  /** the owner tag of its last sync (cartOwnerTag); another shopper's, or none: it merges */
  owner: string | null;
}
