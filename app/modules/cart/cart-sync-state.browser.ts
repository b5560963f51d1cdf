/**
 * What this browser remembers of its cart's sync with a signed-in shopper's account (cart-sync.browser.ts): whose
 * cart it last synced, the version and that version's lines. Apart from the sync itself so that signing out can
 * forget it on a visitor's page, which never downloads the sync (see SignedInSync).
 */
import type { SavedCartLine } from "~/db/schema";

const SYNC_KEY = "cart-sync";

export interface CartSyncState {
  owner: string;
  version: number;
  /** that version's lines (absent in a state kept before they were: the server then merges) */
  lines?: SavedCartLine[];
}

export function readCartSyncState(): CartSyncState | null {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(SYNC_KEY) ?? "null") as CartSyncState | null;
    return parsed && typeof parsed.owner === "string" && Number.isSafeInteger(parsed.version) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeCartSyncState(state: CartSyncState | null) {
  try {
    if (state) window.localStorage.setItem(SYNC_KEY, JSON.stringify(state));
    else window.localStorage.removeItem(SYNC_KEY);
  } catch {
    // storage disabled: every page's first sync merges, which keeps every item anyway
  }
}
