/**
 * The browser's half of keeping a signed-in shopper's cart on the server (docs/decisions/056; the server's half is
 * saved-cart.server.ts behind POST /api/cart). Browser only, and only after hydration: storefront pages are shared
 * copies (server/page-cache.ts) whose loaders never read the session, so the page knows only the role, and the cart
 * travels by this script's own request.
 *
 * The browser remembers whose cart it last synced (an opaque tag from the server), the version it saw and that
 * version's lines, and sends them with its cart; the server decides:
 * - mergeCartAtSignIn, the first sync of a page a signed-in shopper opens: when this browser has not synced for this
 *   shopper before (the sign-in, on this device) the server merges — every item of both, a product in a size both hold
 *   at the larger quantity — and the merged cart replaces the browser's;
 * - otherwise (that first sync and every later change, debounced) it replaces the server's copy when this browser saw
 *   its latest version, and when another device changed the cart since, this browser's changes since the version it
 *   saw go over the other device's: removals on either device stick (rebaseCartLines).
 */
import { CART_EVENT, readCart, writeCart, type CartLine } from "./cart.browser";
import { readCartSyncState, writeCartSyncState } from "./cart-sync-state.browser";
import { linesInput } from "~/modules/orders/cart-quote";
import type { SavedCartLine } from "~/db/schema";
import { rebaseCartLines } from "./saved-cart.logic";

export const CART_SYNC_PATH = "/api/cart";
/** Changes within this long go in one request (a quantity stepped up five times is one save). */
const CART_SYNC_DEBOUNCE_MS = 800;

interface SyncAnswer {
  owner: string;
  version: number;
  lines: CartLine[];
}

/** What the server compares: product, size and quantity (names and prices are the server's to say). */
export function cartSyncKey(lines: readonly CartLine[]): string {
  return JSON.stringify(linesInput(lines));
}

let inFlight: Promise<void> | null = null;
let lastSynced: string | null = null;

async function post(): Promise<void> {
  const sentKey = cartSyncKey(readCart());
  const state = readCartSyncState();
  const body = new FormData();
  body.set("lines", sentKey);
  body.set("baseVersion", state ? String(state.version) : "");
  body.set("owner", state?.owner ?? "");
  body.set("baseLines", state?.lines ? JSON.stringify(state.lines) : "");
  const response = await fetch(CART_SYNC_PATH, { method: "POST", body, credentials: "same-origin" });
  if (!response.ok) return; // signed out meanwhile, or a hiccup: the next change tries again
  const answer = (await response.json()) as SyncAnswer;
  const agreed = linesInput(answer.lines);
  writeCartSyncState({ owner: answer.owner, version: answer.version, lines: agreed });
  lastSynced = cartSyncKey(answer.lines);
  const now = readCart();
  if (cartSyncKey(now) === sentKey) {
    if (lastSynced !== sentKey) writeCart(answer.lines);
    return;
  }
  // Changed again while this was on its way: this tab's newer changes go over the answer, and are saved next (their
  // change event) against the version just answered.
  const rebased = rebaseCartLines(JSON.parse(sentKey) as SavedCartLine[], linesInput(now), agreed);
  if (JSON.stringify(rebased) !== JSON.stringify(linesInput(now))) writeCart(asCartLines(rebased, [...now, ...answer.lines]));
}

/** Lines back in the browser's shape, each named and priced as this tab or the server last had it. */
function asCartLines(lines: readonly SavedCartLine[], known: readonly CartLine[]): CartLine[] {
  return lines.flatMap((l) => {
    const had = known.find((k) => k.id === l.productId && (k.size ?? undefined) === l.sizeId);
    return had ? [{ ...had, quantity: l.quantity }] : [];
  });
}

function queue(): Promise<void> {
  const run = (inFlight ?? Promise.resolve()).then(post).catch(() => undefined);
  inFlight = run.finally(() => {
    if (inFlight === run) inFlight = null;
  });
  return run;
}

/**
 * Keeps a signed-in shopper's cart in step from now on: the sign-in merge (see the file's comment), the first sync of a
 * page they open, then every change of this tab's cart (another open tab saves its own), debounced. Returns the stop.
 */
export function keepCartInSync(): () => void {
  void mergeCartAtSignIn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void saveCartToServer(), CART_SYNC_DEBOUNCE_MS);
  };
  window.addEventListener(CART_EVENT, changed);
  return () => {
    clearTimeout(timer);
    window.removeEventListener(CART_EVENT, changed);
  };
}

/** The sign-in merge (see the file's comment): the first sync of a page a signed-in shopper opens. */
function mergeCartAtSignIn(): Promise<void> {
  return queue();
}

/** A change of the browser's cart, saved unless it is what the server last answered. */
function saveCartToServer(): Promise<void> {
  if (cartSyncKey(readCart()) === lastSynced) return Promise.resolve();
  return queue();
}

/** Signed out: the browser's cart stays the browser's; whoever signs in next merges it into their own. */
export function forgetCartSync() {
  lastSynced = null;
  writeCartSyncState(null);
}
