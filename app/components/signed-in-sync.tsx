import { useEffect } from "react";
import { writeCartSyncState } from "~/modules/cart/cart-sync-state.browser";
import { useRootData } from "~/modules/settings/root-data";

type CartSync = typeof import("~/modules/cart/cart-sync.browser");
let cartSync: Promise<CartSync> | undefined;

/**
 * The sync is downloaded only once a signed-in shopper's page asks for it: visitors, whose pages are the cached ones,
 * never need it (the storefront's JavaScript budget, DESIGN.md). A failed download is tried again by the next page.
 */
function loadCartSync(): Promise<CartSync> {
  cartSync ??= import("~/modules/cart/cart-sync.browser").catch((error: unknown) => {
    cartSync = undefined;
    throw error;
  });
  return cartSync;
}

/**
 * What a signed-in shopper's browser keeps in step with their account, after hydration (never in a page's loader:
 * storefront pages are shared copies). Each thing merges at sign-in in its own clearly named function, side by side
 * here: the cart (mergeCartAtSignIn, started by keepCartInSync); the wishlist's merge sits beside it.
 */
export function SignedInSync() {
  const signedIn = useRootData().user !== null;
  useEffect(() => {
    if (!signedIn) {
      // Signed out: the browser's cart stays the browser's; whoever signs in next merges it into their own.
      writeCartSyncState(null);
      if (cartSync) void cartSync.then((sync) => sync.forgetCartSync(), () => undefined);
      return;
    }
    let live = true;
    let stop: (() => void) | undefined;
    loadCartSync().then(
      (sync) => {
        if (live) stop = sync.keepCartInSync();
      },
      () => undefined, // offline or a new release meanwhile: the cart stays in this browser until the next page
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [signedIn]);
  return null;
}
