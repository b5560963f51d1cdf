import { useLocation } from "react-router";
import { useWishlist } from "~/modules/wishlist/wishlist.browser";
import { useRootData } from "~/modules/settings/root-data";

/**
 * The wishlist heart (docs/decisions/057), on product cards and the product page. Its HTML is the same for everyone of
 * a role, so cached pages stay shared (decisions 008, 023): it starts "not saved" and learns its state after
 * hydration (the browser's list, or the signed-in shopper's from /api/wishlist).
 * Without JavaScript it is a form: a signed-in shopper's post saves it and comes back here; a visitor is asked to sign
 * in (their list lives in the browser, which needs the script).
 */
export function WishlistHeart({ productId, productName, variant = "card" }: { productId: string; productName: string; variant?: "card" | "page" }) {
  const signedIn = useRootData().user !== null;
  const { ids, toggle } = useWishlist(signedIn);
  const location = useLocation();
  const saved = ids.includes(productId);
  const label = saved ? `Remove ${productName} from your wishlist` : `Save ${productName} to your wishlist`;
  const card = variant === "card";
  return (
    <form
      method="post"
      action="/wishlist"
      className={card ? "absolute top-2 right-2 z-10" : "inline-flex"}
      onSubmit={(event) => {
        event.preventDefault();
        void toggle(productId);
      }}
    >
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirect" value={`${location.pathname}${location.search}`} />
      <button
        type="submit"
        aria-pressed={saved}
        aria-label={label}
        title={label}
        data-testid="wishlist-heart"
        className={
          card
            ? "grid h-10 w-10 place-items-center rounded-full bg-ivory/85 text-ink shadow-sm backdrop-blur-sm transition-colors hover:bg-ivory hover:text-gold focus-visible:outline-2 focus-visible:outline-gold"
            : "inline-flex h-12 items-center gap-2 border border-ink/30 px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink transition-colors hover:border-gold hover:text-gold focus-visible:outline-2 focus-visible:outline-gold"
        }
      >
        <HeartIcon filled={saved} />
        {card ? null : <span>{saved ? "Saved" : "Wishlist"}</span>}
      </button>
    </form>
  );
}

function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={`h-5 w-5 ${filled ? "text-gold" : ""}`} fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth="1.5">
      <path strokeLinejoin="round" d="M12 20.5s-7.5-4.6-7.5-10.3A4.2 4.2 0 0 1 12 7.6a4.2 4.2 0 0 1 7.5 2.6c0 5.7-7.5 10.3-7.5 10.3z" />
    </svg>
  );
}
