import { useCallback, useEffect, useSyncExternalStore } from "react";
import { parseWishlistIds, WISHLIST_KEY } from "./wishlist.logic";

/**
 * The wishlist in the browser (docs/decisions/057). Every page renders the same HTML for everyone of a role (the page
 * cache, decisions 008 and 023); the hearts learn their state here, after hydration:
 * - a visitor's list is in localStorage (`wishlist`: product ids), like the cart, in sync across tabs;
 * - a signed-in shopper's is on the server: fetched once per page load from /api/wishlist (private, no-store), changed
 *   by posting to /wishlist. A list this browser still holds from before signing in is merged into it then (the
 *   login form also carries it: mergeWishlistAtSignIn) and forgotten here.
 */
const EVENT = "scentara:wishlist";
const EMPTY: string[] = [];

let cachedRaw: string | null | undefined;
let cachedLocal: string[] = EMPTY;

export function readLocalWishlist(): string[] {
  if (typeof window === "undefined") return EMPTY;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(WISHLIST_KEY);
  } catch {
    return EMPTY; // storage disabled
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedLocal = parseWishlistIds(raw);
  }
  return cachedLocal;
}

function writeLocalWishlist(ids: string[]) {
  try {
    if (ids.length === 0) window.localStorage.removeItem(WISHLIST_KEY);
    else window.localStorage.setItem(WISHLIST_KEY, JSON.stringify(ids));
  } catch {
    // storage full or disabled: the event still updates this page
  }
  window.dispatchEvent(new Event(EVENT));
}

/** The signed-in shopper's list as the server last answered (null: not asked yet on this page load). */
let server: string[] | null = null;
let loading: Promise<void> | null = null;

function setServer(ids: string[]) {
  server = ids;
  window.dispatchEvent(new Event(EVENT));
}

const account = () => import("./wishlist-account.browser");

function loadServerList(): Promise<void> {
  loading ??= (async () => {
    // what this browser kept while signed out joins the account's list, then lives there only
    const answer = await (await account()).readAccountWishlist(readLocalWishlist());
    if (!answer) return;
    if (answer.merged) writeLocalWishlist([]);
    setServer(answer.ids);
  })().catch(() => {
    loading = null; // a failed look-up is tried again by the next heart that mounts
  });
  return loading;
}

function subscribe(onChange: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === WISHLIST_KEY) onChange();
  };
  window.addEventListener(EVENT, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener("storage", onStorage);
  };
}

export interface WishlistState {
  /** the product ids saved; empty until known */
  ids: readonly string[];
  /** false until the list is known (before hydration; a signed-in list still loading) */
  ready: boolean;
  toggle(productId: string): Promise<void>;
}

/** The wishlist for this page: the browser's for a visitor, the server's for a signed-in shopper. */
export function useWishlist(signedIn: boolean): WishlistState {
  useEffect(() => {
    if (signedIn) void loadServerList();
  }, [signedIn]);
  const snapshot = useCallback(() => (signedIn ? (server ?? EMPTY) : readLocalWishlist()), [signedIn]);
  const ids = useSyncExternalStore(subscribe, snapshot, () => EMPTY);
  const ready = useSyncExternalStore(
    subscribe,
    () => !signedIn || server !== null,
    () => false,
  );
  const toggle = useCallback(
    async (productId: string) => {
      if (!signedIn) {
        const local = readLocalWishlist();
        writeLocalWishlist(local.includes(productId) ? local.filter((id) => id !== productId) : [productId, ...local]);
        return;
      }
      const current = server ?? EMPTY;
      const saved = current.includes(productId);
      // at once on screen; the server's answer (its whole list) then stands, or the old list if it failed
      setServer(saved ? current.filter((id) => id !== productId) : [productId, ...current]);
      const answer = await account()
        .then(({ postWishlist }) => postWishlist({ intent: saved ? "remove" : "add", productId }))
        .catch(() => null);
      setServer(answer ?? current);
    },
    [signedIn],
  );
  return { ids, ready, toggle };
}
