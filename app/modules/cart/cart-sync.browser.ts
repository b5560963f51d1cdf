/**
 * The browser's half of keeping a signed-in shopper's cart on the server (docs/decisions/056; the server's half is
 * saved-cart.server.ts behind POST /api/cart). Browser only, and only after hydration: storefront pages are shared
 * copies (server/page-cache.ts) whose loaders never read the session, so the page knows only the role, and the cart
 * travels by this script's own request.
 *
 * The browser remembers whose cart it last synced (an opaque tag from the server) and the version it saw, and sends both
 * with its lines; the server decides:
 * - mergeCartAtSignIn, the first sync of a page a signed-in shopper opens: when this browser has not synced for this
 *   shopper before (the sign-in, on this device) or another device changed the cart since, the server merges — every
 *   item of both, a product in a size both hold at the larger quantity — and the merged cart replaces the browser's;
 * - saveCartToServer, every later change (debounced): it replaces the server's copy when this browser saw its latest
 *   version (so a removal sticks), and merges the same way otherwise.
 */
import { readCart, writeCart, type CartLine } from "./cart.browser";
import { linesInput } from "~/modules/orders/cart-quote";

const SYNC_KEY = "cart-sync";
export const CART_SYNC_PATH = "/api/cart";
/** Changes within this long go in one request (a quantity stepped up five times is one save). */
export const CART_SYNC_DEBOUNCE_MS = 800;

interface SyncState {
  owner: string;
  version: number;
}

interface SyncAnswer extends SyncState {
  lines: CartLine[];
}

function readState(): SyncState | null {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(SYNC_KEY) ?? "null") as SyncState | null;
    return parsed && typeof parsed.owner === "string" && Number.isSafeInteger(parsed.version) ? parsed : null;
  } catch {
    return null;
  }
}

function writeState(state: SyncState | null) {
  try {
    if (state) window.localStorage.setItem(SYNC_KEY, JSON.stringify(state));
    else window.localStorage.removeItem(SYNC_KEY);
  } catch {
    // storage disabled: every page's first sync merges, which keeps every item anyway
  }
}

/** What the server compares: product, size and quantity (names and prices are the server's to say). */
export function cartSyncKey(lines: readonly CartLine[]): string {
  return JSON.stringify(linesInput(lines));
}

let inFlight: Promise<void> | null = null;
let lastSynced: string | null = null;

async function post(): Promise<void> {
  const sentKey = cartSyncKey(readCart());
  const state = readState();
  const body = new FormData();
  body.set("lines", sentKey);
  body.set("baseVersion", state ? String(state.version) : "");
  body.set("owner", state?.owner ?? "");
  const response = await fetch(CART_SYNC_PATH, { method: "POST", body, credentials: "same-origin" });
  if (!response.ok) return; // signed out meanwhile, or a hiccup: the next change tries again
  const answer = (await response.json()) as SyncAnswer;
  // Changed again while this was on its way: keep the browser's lines and the old version, so the next save merges.
  if (cartSyncKey(readCart()) !== sentKey) return;
  writeState({ owner: answer.owner, version: answer.version });
  lastSynced = cartSyncKey(answer.lines);
  if (lastSynced !== sentKey) writeCart(answer.lines);
}

function queue(): Promise<void> {
  const run = (inFlight ?? Promise.resolve()).then(post).catch(() => undefined);
  inFlight = run.finally(() => {
    if (inFlight === run) inFlight = null;
  });
  return run;
}

/** The sign-in merge (see the file's comment): the first sync of a page a signed-in shopper opens. */
export function mergeCartAtSignIn(): Promise<void> {
  return queue();
}

/** A change of the browser's cart, saved unless it is what the server last answered. */
export function saveCartToServer(): Promise<void> {
  if (cartSyncKey(readCart()) === lastSynced) return Promise.resolve();
  return queue();
}

/** Signed out: the browser's cart stays the browser's; whoever signs in next merges it into their own. */
export function forgetCartSync() {
  lastSynced = null;
  writeState(null);
}
