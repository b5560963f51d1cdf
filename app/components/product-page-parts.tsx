import { Link } from "react-router";
import { PriceWithWas } from "~/components/price";
import { ScentPyramid } from "~/components/scent/scent-pyramid";
import { Stars } from "~/components/stars";
import { StockStatus, stockStatusOf } from "~/components/stock-status";
import { ButtonLink } from "~/components/ui/button";
import { inspiredByLong } from "~/modules/catalog/inspired-by.logic";
import type { ScentNote } from "~/modules/catalog/product.logic";
import type { ScentPyramidView } from "~/modules/catalog/scent-pyramid.logic";
import { freeDeliveryText } from "~/modules/shipping/shipping.logic";

/** The product page's own pieces (app/routes/product.tsx). */

/** The product's category (or "Eau de Parfum"), name, what it is inspired by, its rating, and the shown size's price and stock. */
export function ProductHeading({
  product,
  categoryHref,
  reviews,
  shown,
  sizeLabel,
}: {
  product: { name: string; categoryName: string | null; inspiredHouse: string | null; inspiredFragrance: string | null };
  categoryHref: string | null;
  reviews: { average: number | null; count: number } | null;
  shown: { priceCents: number; wasPriceCents: number | null; sizeMl: number | null; stock: number | null };
  sizeLabel: string | undefined;
}) {
  const inspired = inspiredByLong({ house: product.inspiredHouse, fragrance: product.inspiredFragrance });
  return (
    <>
      {product.categoryName && categoryHref ? (
        <Link to={categoryHref} className="eyebrow self-start hover:text-ink">
          {product.categoryName}
        </Link>
      ) : (
        <p className="eyebrow">Eau de Parfum</p>
      )}
      <h1 className="mt-3 text-[2.5rem] leading-[1.02] sm:text-6xl">{product.name}</h1>
      {inspired ? <p className="mt-2 text-sm text-ink-soft">{inspired}</p> : null}
      {reviews && reviews.average !== null ? <RatingSummary average={reviews.average} count={reviews.count} /> : null}
      <div className="mt-4 flex flex-wrap items-baseline gap-x-4 gap-y-1 sm:mt-5">
        <p className="font-display text-3xl text-ink lining-nums tabular-nums" data-testid="product-price">
          <PriceWithWas priceCents={shown.priceCents} wasPriceCents={shown.wasPriceCents} wasClassName="mr-1 text-xl" />
        </p>
        {shown.sizeMl ? <p className="text-sm text-ink-soft lining-nums">{sizeLabel || `${shown.sizeMl} ml`}</p> : null}
        <StockStatus {...stockStatusOf(shown.stock)} />
      </div>
      <p className="mt-1 text-xs uppercase tracking-[0.16em] text-muted">VAT included</p>
    </>
  );
}

/** Average stars and the review count beside the title; a link down to the reviews. */
export function RatingSummary({ average, count }: { average: number; count: number }) {
  return (
    <a href="#reviews-heading" className="mt-3 inline-flex items-center gap-2 self-start text-sm text-ink-soft hover:text-ink" data-testid="rating-summary">
      <Stars rating={average} size="sm" />
      <span>
        {average.toFixed(1)} <span aria-hidden="true">·</span> <span className="underline decoration-line underline-offset-4">{count === 1 ? "1 review" : `${count} reviews`}</span>
      </span>
    </a>
  );
}

/** When it would arrive if ordered now (made on the server: the same text after hydration). */
export function DeliveryWindow({ text }: { text: string }) {
  return (
    <p className="mt-1 flex gap-2 text-sm text-ink" data-testid="delivery-window">
      <TruckIcon />
      <span>
        {text}
        <span className="block text-xs text-muted">Estimate: 2 to 7 working days, weekends and public holidays excluded</span>
      </span>
    </p>
  );
}

function TruckIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 h-4 w-4 shrink-0 text-gold" fill="none" stroke="currentColor" strokeWidth="1.4">
      <path d="M3 6.5h11v9H3zM14 9.5h3.6l3.4 3.4v2.6h-7" strokeLinejoin="round" />
      <circle cx="7" cy="17" r="1.6" />
      <circle cx="17.5" cy="17" r="1.6" />
    </svg>
  );
}

/** "The fragrance": the description after its lead, then the profile's pyramid or the notes written in the description. */
export function ProductFragrance({ rest, notes, pyramid }: { rest: string[]; notes: ScentNote[]; pyramid: ScentPyramidView | null }) {
  if (!rest.length && !notes.length && !pyramid) return null;
  return (
    <section aria-labelledby="about-heading" className="mt-10">
      <h2 id="about-heading" className="filter-label font-sans">
        The fragrance
      </h2>
      {rest.length ? (
        <div className="mt-3 space-y-4 leading-relaxed text-ink-soft">
          {rest.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
      ) : null}
      {pyramid ? (
        <div className="mt-6">
          <ScentPyramid pyramid={pyramid} />
        </div>
      ) : notes.length ? (
        <dl className="mt-6 divide-y divide-line border-y border-line">
          {notes.map((n) => (
            <div key={n.label} className="grid grid-cols-[6.5rem_1fr] gap-4 py-3 sm:grid-cols-[7.5rem_1fr]">
              <dt className="font-display text-lg text-ink">{n.label}</dt>
              <dd className="self-center text-sm text-ink-soft">{n.notes.join(" · ")}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}

/** Free delivery above the shop's threshold, and where and how fast it delivers. */
export function DeliveryPromises({ freeDeliveryThresholdCents }: { freeDeliveryThresholdCents: number }) {
  return (
    <ul className="mt-8 space-y-2 text-sm text-ink-soft">
      <li className="flex gap-3">
        <span aria-hidden="true" className="text-gold">
          ◆
        </span>
        {freeDeliveryText(freeDeliveryThresholdCents)}
      </li>
      <li className="flex gap-3">
        <span aria-hidden="true" className="text-gold">
          ◆
        </span>
        Delivered across South Africa in 2 to 7 working days
      </li>
    </ul>
  );
}

/** The product page's error boundary: an unknown product (404), or one that failed to load. */
export function ProductError({ notFound, notFoundTitle }: { notFound: boolean; notFoundTitle: string }) {
  return (
    <main className="relative overflow-hidden">
      <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0" />
      <div className="container-page relative flex min-h-[70vh] flex-col items-center justify-center pt-32 pb-20 text-center">
        <p className="eyebrow">{notFound ? "Error 404" : "Error"}</p>
        <h1 className="mt-4 text-4xl sm:text-5xl">{notFound ? notFoundTitle : "Unable to load this fragrance"}</h1>
        <span aria-hidden="true" className="my-6 block h-px w-12 bg-gold-light" />
        <p className="max-w-md text-ink-soft">
          {notFound
            ? "This fragrance may have left the collection, or the link is mistyped. The rest of the collection is waiting in the shop."
            : "Please try again in a moment."}
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <ButtonLink to="/shop">Back to the Shop</ButtonLink>
          <ButtonLink to="/" variant="secondary">
            Return Home
          </ButtonLink>
        </div>
      </div>
    </main>
  );
}
