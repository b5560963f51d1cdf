import { useEffect } from "react";
import { CART_EVENT } from "~/modules/cart/cart.browser";
import { CART_SYNC_DEBOUNCE_MS, forgetCartSync, mergeCartAtSignIn, saveCartToServer } from "~/modules/cart/cart-sync.browser";
import { useRootData } from "~/modules/settings/root-data";

/**
 * What a signed-in shopper's browser keeps in step with their account, after hydration (never in a page's loader:
 * storefront pages are shared copies). Each thing merges at sign-in in its own clearly named function, side by side
 * here: the cart (mergeCartAtSignIn); the wishlist's merge sits beside it.
 */
export function SignedInSync() {
  const signedIn = useRootData().user !== null;
  useEffect(() => {
    if (!signedIn) {
      forgetCartSync();
      return;
    }
    void mergeCartAtSignIn();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void saveCartToServer(), CART_SYNC_DEBOUNCE_MS);
    };
    // this tab's changes (another open tab saves its own)
    window.addEventListener(CART_EVENT, changed);
    return () => {
      clearTimeout(timer);
      window.removeEventListener(CART_EVENT, changed);
    };
  }, [signedIn]);
  return null;
}
