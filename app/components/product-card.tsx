import { Link } from "react-router";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { inspiredByShort } from "~/modules/catalog/inspired-by.logic";
import { pricedFrom } from "~/modules/catalog/sizes.logic";
import { isOutOfStock, OUT_OF_STOCK } from "~/modules/catalog/stock.logic";
import { PLACEHOLDER_IMAGE, inlineOnPhone, sizedImage, srcSetFor } from "~/modules/media/images";
import { PriceWithWas } from "./price";
import { WishlistHeart } from "./wishlist-heart";

/** Card widths at the grid's breakpoints: 2 columns on phones, 3 on tablets, 4 on desktop (max-w-6xl). */
const CARD_SIZES = "(min-width: 1024px) 270px, (min-width: 640px) 33vw, 50vw";

/**
 * A product in a grid: a 4:5 image on sand, the category as a small label, the name in the display serif,
 * the price ("from R…" when its sizes' prices differ). The whole card is one link to the product page (one tab
 * stop, one accessible name).
 */
export function ProductCard({
  product,
  eager = false,
  largest = false,
  headingLevel = 3,
}: {
  product: ProductSummary;
  /** the first cards above the fold load eagerly; the rest lazily */
  eager?: boolean;
  /** the page's largest paint on a phone: its phone rendition may travel inside a cached page (images.ts) */
  largest?: boolean;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const image = product.image;
  const inspired = inspiredByShort({ house: product.inspiredHouse, fragrance: product.inspiredFragrance });
  const soldOut = isOutOfStock(product.stock);
  return (
    <article className="group relative flex flex-col">
      <div className="relative aspect-[4/5] overflow-hidden bg-sand">
        {image ? (
          <img
            src={sizedImage(image, 400)}
            srcSet={srcSetFor(image)}
            sizes={CARD_SIZES}
            alt=""
            width={400}
            height={500}
            loading={eager ? "eager" : "lazy"}
            fetchPriority={eager ? "high" : undefined}
            {...(largest ? inlineOnPhone(image, 400) : {})}
            decoding="async"
            className="h-full w-full object-cover transition-transform duration-700 ease-out group-hover:scale-[1.04] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
          />
        ) : (
          <img
            src={PLACEHOLDER_IMAGE}
            alt=""
            width={400}
            height={500}
            loading={eager ? "eager" : "lazy"}
            decoding="async"
            className="h-full w-full object-cover opacity-90"
          />
        )}
        <span
          aria-hidden="true"
          className="pointer-events-none absolute inset-3 border border-ivory/0 transition-colors duration-500 group-hover:border-ivory/70"
        />
        {soldOut ? (
          <span className="absolute top-3 left-3 bg-ink px-2 py-1 text-[0.62rem] font-semibold uppercase tracking-[0.14em] text-ivory">{OUT_OF_STOCK}</span>
        ) : null}
        <WishlistHeart productId={product.id} productName={product.name} />
      </div>
      <div className="flex flex-1 flex-col items-center px-2 pt-4 pb-2 text-center">
        {product.categoryName ? <p className="eyebrow text-[0.65rem]">{product.categoryName}</p> : null}
        <Heading className="mt-1.5 font-display text-xl leading-snug text-ink sm:text-[1.35rem]">
          <Link
            to={`/products/${product.slug}`}
            prefetch="intent"
            className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none group-focus-within:underline group-focus-within:decoration-gold group-focus-within:underline-offset-4"
          >
            {product.name}
          </Link>
        </Heading>
        {inspired ? <p className="mt-1 text-xs leading-snug text-ink-soft">{inspired}</p> : null}
        <span aria-hidden="true" className="my-2.5 block h-px w-8 bg-gold-light/70" />
        <p className="flex flex-wrap items-baseline justify-center gap-x-2 text-sm tracking-wide text-ink-soft tabular-nums">
          {/* sizes at different prices: the cheapest, said as such (issue 33) */}
          {pricedFrom(product.priceCents, product.maxPriceCents) ? <span className="text-xs text-muted">from </span> : null}
          <PriceWithWas priceCents={product.priceCents} wasPriceCents={product.wasPriceCents} wasClassName="text-xs" />
        </p>
      </div>
      {/* keyboard focus ring for the whole card (the link's ::after covers the card) */}
      <span
        aria-hidden="true"
        className="pointer-events-none absolute -inset-1 hidden outline-2 outline-offset-0 outline-gold group-has-[:focus-visible]:block"
      />
    </article>
  );
}

/** A responsive grid of product cards; the first `eagerCount` images load eagerly. */
export function ProductGrid({
  products,
  eagerCount = 4,
  headingLevel = 3,
}: {
  products: ProductSummary[];
  eagerCount?: number;
  headingLevel?: 2 | 3;
}) {
  // On a phone (two columns) the first eager card is the largest paint above the fold.
  return (
    <ul role="list" className="grid grid-cols-2 gap-x-4 gap-y-10 sm:grid-cols-3 sm:gap-x-6 lg:grid-cols-4 lg:gap-x-8 lg:gap-y-14">
      {products.map((p, i) => (
        <li key={p.id}>
          <ProductCard product={p} eager={i < eagerCount} largest={i === 0 && eagerCount > 0} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
