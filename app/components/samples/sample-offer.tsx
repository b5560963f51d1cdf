import { useState, useSyncExternalStore } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { addToCart } from "~/modules/cart/cart.browser";
import { discoverySetHref, SAMPLE_LABEL, SAMPLE_ML, SAMPLE_SIZE_ID, type SampleOffer as Offer } from "~/modules/samples/samples.logic";
import { formatRand } from "~/utils/money";
import { AddedToCartNotice } from "~/components/added-to-cart-notice";

const noop = () => () => {};

/**
 * "Try a 2 ml sample" beside Add to Cart (docs/decisions/054): one tap puts the product's sample in the cart at the
 * sample price (the server prices it again), and says that price comes off a full bottle later. A discovery set is
 * one link away, with this scent already chosen (that page works without JavaScript).
 */
export function SampleOffer({ product, offer }: { product: { id: string; slug: string; name: string }; offer: Offer }) {
  const hydrated = useSyncExternalStore(noop, () => true, () => false);
  const [added, setAdded] = useState(0);
  const soldOut = offer.left === 0;
  return (
    <div className="mt-4 border border-line bg-white/70 px-4 py-3.5" data-testid="sample-offer">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p className="min-w-0 text-sm text-ink">
          <span className="font-display text-lg">Not sure yet?</span>{" "}
          <span className="text-ink-soft">
            {soldOut ? "Samples of this scent are sold out for now." : `Its ${formatRand(offer.priceCents)} comes off a full bottle within ${offer.creditDays} days.`}
          </span>
        </p>
        <button
          type="button"
          disabled={!hydrated || soldOut}
          onClick={() => {
            addToCart({ id: product.id, size: SAMPLE_SIZE_ID, sizeLabel: SAMPLE_LABEL, name: product.name, price: offer.priceCents, quantity: 1 });
            setAdded((n) => n + 1);
          }}
          className={buttonClass("secondary", "md", "h-11 shrink-0 px-4 disabled:opacity-40")}
        >
          Try a {SAMPLE_ML} ml sample — {formatRand(offer.priceCents)}
        </button>
      </div>
      <AddedToCartNotice addedKey={added} className="mt-2">
        Added a {SAMPLE_LABEL} of {product.name} to your cart.
      </AddedToCartNotice>
      <p className="mt-1.5 text-xs text-ink-soft">
        Or{" "}
        <Link to={discoverySetHref([product.slug])} className="text-ink underline decoration-gold-light underline-offset-4 hover:text-gold">
          build a discovery set
        </Link>{" "}
        with this scent in it.
      </p>
    </div>
  );
}
