import { Link } from "react-router";
import { AddToCart } from "~/components/add-to-cart";
import { WhatsAppIcon } from "~/components/layout/icons";
import { StockStatus, stockStatusOf } from "~/components/stock-status";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { inspiredByShort } from "~/modules/catalog/inspired-by.logic";
import { pricedFrom } from "~/modules/catalog/sizes.logic";
import { PLACEHOLDER_IMAGE, sizedImage, srcSetFor } from "~/modules/media/images";

export interface PickCard extends ProductSummary {
  reason: string;
  named: boolean;
  /** the size Add to Cart adds (its cheapest); null: the server takes the product's first */
  size: { id: string; label: string; stock: number | null } | null;
}

/** The finder's answer: up to three picks, each with its one line on why, its price and Add to Cart. */
export function FinderPicks({ picks }: { picks: PickCard[] }) {
  return (
    <ol className="grid gap-4 md:grid-cols-3 md:gap-6" aria-label="Your picks">
      {picks.map((p, i) => (
        <li key={p.id} className="flex flex-col border border-line bg-white/80 p-3 sm:p-4" data-testid="finder-pick">
          <div className="flex gap-3 md:flex-col md:gap-4">
            <Link to={`/products/${p.slug}`} className="block w-24 shrink-0 self-start bg-sand sm:w-28 md:w-full" tabIndex={-1} aria-hidden="true">
              <img
                src={p.image ? sizedImage(p.image, 400) : PLACEHOLDER_IMAGE}
                srcSet={p.image ? srcSetFor(p.image) : undefined}
                sizes="(min-width: 768px) 320px, 112px"
                alt=""
                width={400}
                height={500}
                loading={i === 0 ? "eager" : "lazy"}
                decoding="async"
                className="aspect-[4/5] h-auto w-full object-cover"
              />
            </Link>
            <div className="min-w-0 flex-1">
              <p className="eyebrow text-[0.62rem]">{i === 0 ? "Best match" : i === 1 ? "Also for you" : "Worth a try"}</p>
              <h3 className="mt-1 font-display text-[1.45rem] leading-tight text-ink">
                <Link to={`/products/${p.slug}`} className="hover:text-gold focus-visible:underline">
                  {p.name}
                </Link>
              </h3>
              {inspiredByShort({ house: p.inspiredHouse, fragrance: p.inspiredFragrance }) ? (
                <p className="mt-0.5 text-xs text-ink-soft">{inspiredByShort({ house: p.inspiredHouse, fragrance: p.inspiredFragrance })}</p>
              ) : null}
              <p className="mt-2 text-sm leading-snug text-ink" data-testid="pick-reason">
                {p.reason}
              </p>
              <div className="mt-1.5 flex flex-wrap items-baseline gap-x-3">
                {/* sold in sizes at different prices: which bottle the price and Add to Cart are for */}
                {p.size?.label && pricedFrom(p.priceCents, p.maxPriceCents) ? <p className="text-sm text-ink-soft lining-nums">{p.size.label}</p> : null}
                <StockStatus {...stockStatusOf(p.size ? p.size.stock : p.stock)} />
              </div>
            </div>
          </div>
          {/* the shop's Add to Cart, its button's side padding eased so the label keeps to one line in a phone's card */}
          <div className="mt-3 md:mt-auto md:pt-4 [&_button]:px-4">
            {/* the cheapest size: the one the pick's price and the budget answer are of */}
            <AddToCart product={p.size ? { ...p, stock: p.size.stock } : p} size={p.size} tiers={[]} />
          </div>
        </li>
      ))}
    </ol>
  );
}

/** WhatsApp: the result's own link with a short message (the picks are the same for whoever opens it). */
export function ShareOnWhatsApp({ url, names, shopName }: { url: string; names: string[]; shopName: string }) {
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0] ?? "";
  const text = `My ${shopName} scent finder picks: ${list}. Find yours: ${url}`;
  return (
    <a
      href={`https://wa.me/?text=${encodeURIComponent(text)}`}
      target="_blank"
      rel="noopener noreferrer"
      // ink text, green mark: WhatsApp's green as text on ivory is under AA contrast for small type
      className="inline-flex h-11 items-center gap-2 border border-ink/30 bg-white/70 px-4 text-sm font-medium uppercase tracking-[0.14em] text-ink transition-colors hover:border-whatsapp"
    >
      <WhatsAppIcon className="h-5 w-5 text-whatsapp" />
      Share on WhatsApp
    </a>
  );
}
