import type { SizeOption } from "~/modules/catalog/sizes.logic";
import { isOutOfStock } from "~/modules/catalog/stock.logic";
import { formatRand } from "~/utils/money";

/**
 * The product page's size choice (issue 33): native radios in a GET form to the same page (`?size=100ml`). Without
 * JavaScript the shopper picks a pill and "Show this size" reloads the page for it; with it, `onChoose` updates the
 * page at once and the button is not shown. Each pill is a label around a visually hidden radio, so arrow keys move
 * between sizes, and the focus ring is drawn on the pill.
 */
export function SizeChoice({ sizes, chosen, onChoose }: { sizes: readonly SizeOption[]; chosen: string; onChoose: (code: string) => void }) {
  return (
    <form method="get" className="mt-4 md:mt-6" onSubmit={(e) => e.preventDefault()} data-testid="size-choice">
      <fieldset>
        {/* on a phone the pills say what they are; the legend stays for screen readers (and Add to Cart stays in the first screen) */}
        <legend className="filter-label max-md:sr-only">Size</legend>
        <div className="flex flex-wrap gap-2 md:mt-2.5">
          {sizes.map((s) => (
            <label key={s.id}>
              <input type="radio" name="size" value={s.code} checked={s.code === chosen} onChange={() => onChoose(s.code)} className="sr-only" />
              {/* drawn by .size-pill in app.css: chosen (ink), keyboard focus (gold ring) */}
              <span className="size-pill">
                <span className="text-sm font-medium tracking-wide lining-nums">{s.label || "Standard"}</span>
                <span className="text-xs tabular-nums opacity-75">{isOutOfStock(s.stock) ? "Sold out" : formatRand(s.priceCents)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="no-js-only mt-3 text-sm font-medium text-ink underline decoration-gold underline-offset-4">
        Show this size
      </button>
    </form>
  );
}
