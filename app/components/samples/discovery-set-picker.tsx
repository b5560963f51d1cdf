import { useState, useSyncExternalStore } from "react";
import { buttonClass } from "~/components/ui/button";
import { addToCart } from "~/modules/cart/cart.browser";
import { PLACEHOLDER_IMAGE, sizedImage, srcSetFor } from "~/modules/media/images";
import { DISCOVERY_SET_ID, SAMPLE_ML, setLabel, setName, setToken, type SampleableProduct } from "~/modules/samples/samples.logic";
import { useRootData } from "~/modules/settings/root-data";
import { whatsappUrl } from "~/modules/settings/shop";
import { formatRand } from "~/utils/money";
import { AddedToCartNotice } from "~/components/added-to-cart-notice";

const noop = () => () => {};

interface Offer {
  setSize: number;
  setPriceCents: number;
}

interface SetLine {
  id: string;
  size: string;
  sizeLabel: string;
  name: string;
  price: number;
  quantity: number;
}

/**
 * The set's scents as a grid of cards (checkboxes named `pick` in a GET form) and a bar that stays in view: how many
 * are chosen, the price, and Add set to cart. One tap picks a scent; once the set is full the other cards rest until
 * one is let go. Without JavaScript the same form submits the picks and the page answers with the set checked.
 */
export function DiscoverySetPicker({ products, picks, offer, line, shopName }: { products: SampleableProduct[]; picks: string[]; offer: Offer; line: SetLine | null; shopName: string }) {
  const hydrated = useSyncExternalStore(noop, () => true, () => false);
  const [chosen, setChosen] = useState<string[]>(picks);
  const [added, setAdded] = useState(0);
  const full = chosen.length >= offer.setSize;
  const complete = chosen.length === offer.setSize;
  const toggle = (slug: string) => setChosen((c) => (c.includes(slug) ? c.filter((s) => s !== slug) : c.length < offer.setSize ? [...c, slug] : c));
  const bySlug = new Map(products.map((p) => [p.slug, p]));
  const addSet = () => {
    const set = chosen.map((slug) => bySlug.get(slug)!).filter(Boolean);
    if (set.length !== offer.setSize) return;
    addToCart({ id: DISCOVERY_SET_ID, size: setToken(set.map((p) => p.id)), sizeLabel: setLabel(set.length), name: setName(set.map((p) => p.name)), price: offer.setPriceCents, quantity: 1 });
    setAdded((n) => n + 1);
  };
  const left = offer.setSize - chosen.length;

  return (
    <form method="get" action="/discovery-set" aria-labelledby="set-legend">
      <fieldset>
        <legend id="set-legend" className="mb-4 flex w-full items-baseline justify-between gap-4">
          <span className="font-display text-2xl text-ink sm:text-3xl">Choose {offer.setSize} scents</span>
          <span className="text-xs uppercase tracking-[0.18em] text-ink-soft">{products.length} to choose from</span>
        </legend>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-5 lg:grid-cols-4">
          {products.map((p, i) => {
            const on = chosen.includes(p.slug);
            const soldOut = p.left === 0;
            return (
              <li key={p.id}>
                <label
                  className={`group relative flex h-full cursor-pointer flex-col border bg-white/80 transition-colors has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-gold ${
                    on ? "border-gold shadow-[0_0_0_1px_var(--color-gold)]" : "border-line hover:border-ink/40"
                  } ${soldOut || (hydrated && full && !on) ? "cursor-default opacity-45" : ""}`}
                  data-testid="set-scent"
                >
                  <input
                    type="checkbox"
                    name="pick"
                    value={p.slug}
                    checked={on}
                    disabled={soldOut || (hydrated && full && !on)}
                    onChange={() => toggle(p.slug)}
                    className="peer sr-only"
                  />
                  <span className="relative block bg-sand">
                    <img
                      src={p.image ? sizedImage(p.image, 400) : PLACEHOLDER_IMAGE}
                      srcSet={p.image ? srcSetFor(p.image) : undefined}
                      sizes="(min-width: 1024px) 280px, (min-width: 640px) 30vw, 45vw"
                      alt=""
                      width={400}
                      height={400}
                      loading={i < 4 ? "eager" : "lazy"}
                      decoding="async"
                      className="aspect-square h-auto w-full object-cover"
                    />
                    <span
                      aria-hidden="true"
                      className={`absolute top-2 right-2 flex h-7 w-7 items-center justify-center rounded-full border text-sm transition-colors ${
                        on ? "border-gold bg-gold text-white" : "border-white/80 bg-white/70 text-transparent"
                      }`}
                    >
                      ✓
                    </span>
                  </span>
                  <span className="block px-3 pt-2.5 pb-3">
                    <span className="block font-display text-lg leading-tight text-ink sm:text-xl">{p.name}</span>
                    <span className="mt-0.5 block text-xs capitalize text-ink-soft">{soldOut ? "Samples sold out" : (p.family ?? p.inspired ?? `${SAMPLE_ML} ml sample`)}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>

      {!hydrated && line ? <ReadySet line={line} shopName={shopName} /> : null}

      <div className="sticky bottom-0 z-20 -mx-4 mt-8 border-t border-line bg-ivory/95 px-4 py-3 backdrop-blur sm:mx-0 sm:border sm:px-6 sm:py-4" data-testid="set-bar">
        <div className="flex items-center justify-between gap-3">
          <div className="min-w-0" aria-live="polite">
            <p className="whitespace-nowrap text-sm text-ink">
              <span className="font-semibold tabular-nums" data-testid="set-count">
                {chosen.length} of {offer.setSize}
              </span>{" "}
              chosen
            </p>
            <p className="whitespace-nowrap text-xs text-ink-soft">
              {formatRand(offer.setPriceCents)}
              {complete ? "" : ` · ${left} more`}
            </p>
          </div>
          {hydrated ? (
            <button type="button" onClick={addSet} disabled={!complete} className={buttonClass("primary", "lg", "h-12 shrink-0 px-4 tracking-[0.12em] sm:px-6 sm:tracking-[0.18em] disabled:opacity-40")}>
              Add set to cart
            </button>
          ) : (
            <button type="submit" className={buttonClass("primary", "lg", "h-12 shrink-0 px-5")}>
              Check my set
            </button>
          )}
        </div>
        <AddedToCartNotice addedKey={added} className="mt-2">
          Your discovery set is in your cart.
        </AddedToCartNotice>
      </div>
    </form>
  );
}

/** Without JavaScript: the checked set, and how to order it (the cart lives in the browser and needs the script). */
function ReadySet({ line, shopName }: { line: SetLine; shopName: string }) {
  const { shop } = useRootData();
  const text = `Hello ${shopName}, I'd like the discovery set (${line.sizeLabel}): ${line.name.replace(/^Discovery set: /, "")}.`;
  return (
    <section aria-labelledby="ready-heading" className="mt-8 border border-gold/50 bg-white/80 p-5 sm:p-6" data-testid="set-ready">
      <h2 id="ready-heading" className="font-display text-2xl text-ink">
        Your set is ready: {formatRand(line.price)}
      </h2>
      <p className="mt-2 text-sm text-ink">{line.name.replace(/^Discovery set: /, "")}</p>
      <p className="mt-3 text-sm text-ink-soft">
        The cart needs JavaScript, which is off in this browser: turn it on and reload to add the set, or{" "}
        <a href={whatsappUrl(shop.whatsappNumber, text)} className="font-medium text-ink underline decoration-gold underline-offset-4">
          order it on WhatsApp
        </a>
        .
      </p>
    </section>
  );
}
