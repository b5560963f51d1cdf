import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { addToCart } from "~/modules/cart/cart.browser";
import type { ProductTier } from "~/modules/catalog/catalog.types";
import { lineName } from "~/modules/catalog/sizes.logic";
import { PRODUCT_QUANTITIES, tierRangeLabel } from "~/modules/catalog/product.logic";
import { isOutOfStock, OUT_OF_STOCK_REASON, quantitiesWithin } from "~/modules/catalog/stock.logic";
import { tierFor } from "~/modules/pricing/tiers.logic";
import { formatRand } from "~/utils/money";
import { buttonClass } from "./ui/button";
import { ChevronDownIcon } from "./layout/icons";
import { AddedToCartNotice } from "~/components/added-to-cart-notice";

const noop = () => () => {};

/**
 * Quantity (1–6, 10, 20, 50, 100) and Add to Cart. The cart lives in the browser (localStorage 'cart'); adding a
 * product already there (in the same size) adds to its quantity. The price stored is the size's base price, for
 * display only: the server reprices every line (tiers included) at checkout. A polite status message confirms with a
 * link to the cart. `product` carries the chosen size's price and stock; without `size` (the finder's picks) the
 * server takes the product's first size.
 */
export function AddToCart({
  product,
  size,
  tiers,
}: {
  product: { id: string; name: string; priceCents: number; stock?: number | null };
  size?: { id: string; label: string } | null;
  tiers: ProductTier[];
}) {
  const id = useId();
  const reasonId = useId();
  // Out of stock: nothing to add, and the shopper reads why (the checkout refuses it too, decision 020).
  const soldOut = isOutOfStock(product.stock);
  const quantities = soldOut ? [1] : quantitiesWithin(PRODUCT_QUANTITIES, product.stock);
  const [quantity, setQuantity] = useState(1);
  const select = useRef<HTMLSelectElement>(null);
  // On a slow phone the shopper may pick a quantity before the script has loaded: take what the select shows.
  useEffect(() => {
    const shown = Number(select.current?.value);
    if (shown) setQuantity(shown);
  }, []);
  const [added, setAdded] = useState<{ quantity: number; n: number } | null>(null);
  const hydrated = useSyncExternalStore(noop, () => true, () => false);
  const tier = tierFor(tiers, quantity);

  return (
    <div>
      <div className="flex items-end gap-3">
        <div className="w-28 shrink-0">
          <label htmlFor={id} className="filter-label">
            Quantity
          </label>
          <div className="relative mt-2">
            <select
              ref={select}
              id={id}
              name="quantity"
              value={quantity}
              onChange={(e) => setQuantity(Number(e.target.value))}
              disabled={soldOut}
              className="block h-12 w-full appearance-none rounded-none border border-ink/30 bg-white pr-8 pl-4 text-base text-ink focus:border-gold focus:outline-none"
            >
              {quantities.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
            <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 h-3.5 w-3.5 -translate-y-1/2 text-ink-soft" />
          </div>
        </div>
        <button
          type="button"
          disabled={!hydrated || soldOut}
          aria-describedby={soldOut ? reasonId : hydrated ? undefined : `${id}-why`}
          onClick={() => {
            // What the select shows is what goes in the cart, whatever the state says.
            const chosen = Number(select.current?.value) || quantity;
            addToCart({ id: product.id, size: size?.id, sizeLabel: size?.label, name: product.name, price: product.priceCents, quantity: chosen });
            setAdded((prev) => ({ quantity: chosen, n: (prev?.n ?? 0) + 1 }));
          }}
          className={buttonClass("primary", "lg", "h-12 flex-1")}
        >
          {soldOut ? "Out of Stock" : "Add to Cart"}
        </button>
      </div>

      {hydrated || soldOut ? null : <NotReadyYet id={`${id}-why`} />}
      {soldOut ? (
        <p id={reasonId} className="mt-3 text-sm font-medium text-danger">
          {OUT_OF_STOCK_REASON}
        </p>
      ) : null}

      {tier && !soldOut ? (
        <p className="mt-3 text-sm text-ink-soft">
          Bulk price for {tierRangeLabel(tier)}: <span className="font-medium text-ink">{formatRand(tier.priceCents)}</span> each, applied at checkout.
        </p>
      ) : null}

      <AddedToCartNotice addedKey={added?.n} className="min-h-6 mt-3">
        Added {added?.quantity} × {lineName(product.name, size?.label)} to your cart.
      </AddedToCartNotice>
    </div>
  );
}

/**
 * Before the page's script has run the button is disabled; this says why (issue 13): with JavaScript off, that the
 * cart needs it; on a slow connection, after a few seconds and by CSS alone, that it is still loading.
 */
function NotReadyYet({ id }: { id: string }) {
  const off = <p className="mt-3 text-sm text-ink-soft">Add to Cart needs JavaScript, which is off in this browser: turn it on and reload, or order through WhatsApp.</p>;
  return (
    <div id={id}>
      <p className="js-only reveal-late mt-3 text-sm text-ink-soft" data-testid="add-to-cart-loading">
        Add to Cart works once the page has finished loading.{" "}
        <a href="" className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
          Reload
        </a>
      </p>
      <noscript className="no-js-fallback">{off}</noscript>
      <div className="no-js-only">{off}</div>
    </div>
  );
}
