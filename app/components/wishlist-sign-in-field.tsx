import { useSyncExternalStore } from "react";
import { readLocalWishlist } from "~/modules/wishlist/wishlist.browser";

const noop = () => () => {};
const EMPTY = "[]";

/**
 * The sign-in form's hidden copy of the wishlist this browser kept while signed out (docs/decisions/057): the login
 * action merges it into the account's (mergeWishlistAtSignIn), every item of both kept. Empty before hydration.
 */
export function WishlistSignInField() {
  const value = useSyncExternalStore(noop, () => JSON.stringify(readLocalWishlist()), () => EMPTY);
  return <input type="hidden" name="wishlist" value={value} />;
}
