import { Suspense, useState } from "react";
import { data, isRouteErrorResponse, Link, redirect } from "react-router";
import type { Route } from "./+types/product";
import { AddToCart } from "~/components/add-to-cart";
import { Breadcrumbs, breadcrumbJsonLd, type Crumb } from "~/components/breadcrumbs";
import { JsonLd } from "~/components/json-ld";
import { ProductGallery } from "~/components/product-gallery";
import { ProductReviews } from "~/components/product-reviews";
import { ProductTiers } from "~/components/product-tiers";
import { ShareMenu } from "~/components/share-menu";
import { Stars } from "~/components/stars";
import { StockStatus, stockStatusOf } from "~/components/stock-status";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { currentSlugOf, getProductBySlug, listProductTiers, productParams } from "~/modules/catalog/catalog.server";
import { inspiredByLong } from "~/modules/catalog/inspired-by.logic";
import { productJsonLd, productSeoText, splitScentNotes } from "~/modules/catalog/product.logic";
import { shopHref } from "~/modules/catalog/shop-filters.logic";
import { absoluteUrl, seoMeta } from "~/modules/seo/seo";
import { getBaseUrl, getShopInfo } from "~/modules/settings/settings.server";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { freeDeliveryText } from "~/modules/shipping/shipping.logic";
import { deliveryWindow } from "~/modules/shipping/delivery-window.logic";
import { formatRand, toDecimalString } from "~/utils/money";
import { logger } from "~/utils/logger.server";
import { readQuery } from "~/utils/request.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { requestInfoContext } from "~/context";
import { getProductReviews, getReviewFormState } from "~/modules/reviews/reviews.server";
import { reviewLinkOutcome } from "~/modules/reviews/review-link.server";
import { loginPath } from "~/modules/accounts/redirect";
import { ScentPyramid } from "~/components/scent/scent-pyramid";
import { SimilarScents } from "~/components/scent/similar-scents";
import { scentPyramidView } from "~/modules/catalog/scent-pyramid.logic";
import { getScentProfile, similarScents } from "~/modules/scent-finder/scent-finder.server";
import { PriceWithWas } from "~/components/price";
import { SampleOffer } from "~/components/samples/sample-offer";
import { sampleOfferFor } from "~/modules/samples/samples.server";
import { lazyComponent } from "~/components/ui/lazy-component";
import { WishlistHeart } from "~/components/wishlist-heart";
import { SizeChoice } from "~/components/size-choice";
import { listSizes, renamedSizeCode } from "~/modules/catalog/sizes.server";
import { chooseSize, lineName, pathWithSize } from "~/modules/catalog/sizes.logic";

// Only on a sold-out product or size: whole in the server's HTML, downloaded by the browser when shown (lazyComponent).
const NotifyMe = import.meta.env.SSR
  ? (await import("~/components/notify-me")).NotifyMe
  : lazyComponent(() => import("~/components/notify-me").then((m) => m.NotifyMe));

export const PRODUCT_NOT_FOUND = "Product not found";

export async function loader({ params: raw, request, context }: Route.LoaderArgs) {
  const parsed = productParams.safeParse(raw);
  const db = getDb();
  // critical: the product and its tiers (awaited; an unknown slug is a 404)
  const product = parsed.success ? await getProductBySlug(db, parsed.data.slug) : null;
  if (!product) {
    // A link from before the owner changed the product's slug (an e-mail, a WhatsApp share, a search engine): a
    // permanent redirect to its address now, its query kept; not kept by browsers, as a renamed size's below.
    const current = parsed.success ? await currentSlugOf(db, parsed.data.slug) : null;
    if (current) throw redirect(`/products/${current}${new URL(request.url).search}`, { status: 301, headers: { "Cache-Control": "no-cache" } });
    throw data({ message: PRODUCT_NOT_FOUND }, { status: 404 });
  }
  // the scent profile's pyramid and "if you love X, try Y" (issue 22): the similar scents come from the in-memory
  // scent catalogue (app/modules/scent/scent.server.ts); neither ever breaks the page
  const [tiers, sizeRows, scent, similar, sample] = await Promise.all([
    listProductTiers(db, product.id),
    listSizes(db, [product.id]),
    getScentProfile(db, product.id).catch((error: unknown) => {
      logger.error({ err: error, productId: product.id }, "product: loading the scent profile failed");
      return null;
    }),
    similarScents(db, product.id).catch((error: unknown) => {
      logger.error({ err: error, productId: product.id }, "product: loading similar scents failed");
      return [];
    }),
    // the 2 ml sample offer (docs/decisions/054); never breaks the page
    sampleOfferFor(db, product.id).catch((error: unknown) => {
      logger.error({ err: error, productId: product.id }, "product: loading the sample offer failed");
      return null;
    }),
  ]);
  // A link shared before the owner renamed its size (`?size=50ml`, the size now "50 ml EDP"): a permanent redirect to
  // the size's current code (docs/decisions/050 addendum), as the legacy profile links have, so search engines follow
  // and the page cache keeps one copy per size (it never keeps a redirect). Browsers must not keep it: the owner may
  // rename the size back, and a kept redirect would then loop; an unknown code still opens the first size.
  const search = readQuery(request);
  const renamed = await renamedSizeCode(db, product.id, sizeRows, search.get("size"));
  if (renamed) throw redirect(pathWithSize(request.url, renamed), { status: 301, headers: { "Cache-Control": "no-cache" } });
  // the reviews, read here rather than streamed: a streamed part stays hidden without JavaScript (React reveals it with
  // an inline script), and a shopper without it saw no reviews and no rating (docs/decisions/036). A failure shows
  // a note instead of breaking the page (never rejects).
  const reviews = await getProductReviews(db, product.id).catch((error: unknown) => {
    logger.error({ err: error, productId: product.id }, "product: loading reviews failed");
    return null;
  });
  // the review form: may the signed-in user write (bought it, paid) and their own review (visitors: no query). A page
  // shared by all customers or admins (server/page-cache.ts) can't know: null, and the form asks /api/reviews itself.
  const { audience } = context.get(requestInfoContext);
  const user = audience ? null : await getSessionUser(request);
  // The visible sizes, with what the page and its structured data show of each; `?size=` picks one (an unknown or
  // hidden size's code: the first). The page cache keys a copy by the whole URL, so each size has its own copy.
  const sizes = sizeRows.map(({ id, code, label, sizeMl, priceCents, wasPriceCents, stock, sku }) => ({ id, code, label, sizeMl, priceCents, wasPriceCents, stock, sku }));
  const chosen = chooseSize(sizes, search.get("size"))?.code ?? "";
  // A review request e-mail's link (?review=<signed token>). The page cache never shares such a request, so it is
  // rendered here with the session; a shared render (audience set) ignores the token.
  const reviewToken = audience ? null : search.get("review");
  // `?write-review`: the shopper's own review form rendered here (a shared page has none; without JavaScript the
  // page links here instead of loading it). Personal, like the review link, so never shared.
  const personal = reviewToken !== null || (!audience && search.has("write-review"));
  const reviewLink = reviewToken === null ? null : reviewLinkOutcome(reviewToken, { productId: product.id, userId: user?.id ?? null });
  // not signed in: sign in, then back to this very link (only for a valid link: a forged one is just the product page)
  if (reviewLink?.kind === "sign-in") throw redirect(loginPath(`/products/${product.slug}?review=${encodeURIComponent(reviewToken!)}#write-review`));
  const formState =
    audience === "customer" || audience === "admin"
      ? null
      : await getReviewFormState(db, user, product.id).catch((error: unknown) => {
          logger.error({ err: error, productId: product.id }, "product: loading the review form state failed");
          return null;
        });
  // the link's own customer: the form opens ready to rate; anyone else (another account) sees the plain page
  const reviewForm = formState && reviewLink?.kind === "ready" ? { ...formState, requested: true } : formState;
  // made here, not in the browser: the same text on the server and after hydration (South African dates)
  const delivery = deliveryWindow(new Date());
  // A page opened through a personal link, or with the shopper's own form, is this browser's only: no shared cache
  // in front may keep it.
  // The meta text and the structured data are made here, for crawlers and the <head>: the browser never needs their
  // code (the product page's script stays within its 130 KB budget with the size choice, issue 33).
  const shopName = getShopInfo().name;
  const seo = productSeoText(product, shopName);
  const jsonLd = productJsonLd(product, reviews, getBaseUrl(), shopName, sizes);
  // the description's prose and its note lines, split here for the same reason
  const { paragraphs, notes } = splitScentNotes(product.description);
  // the description travels as those parts only, not a second time whole
  const { description: _split, ...shownProduct } = product;
  // the profile's pyramid (words and links made here: the browser needs neither the vocabulary nor the shop's filter
  // code), when the product has notes there; else the page shows the notes written in the description (older products)
  const pyramid = scent ? scentPyramidView(scent) : null;
  // the category's shop link and the review form's sign-in link (back here), made here for the same reason
  const categoryHref = product.categorySlug ? shopHref({ category: product.categorySlug }) : null;
  const signInHref = loginPath(`/products/${product.slug}`);
  return data({ product: shownProduct, sizes, chosen, tiers, reviews, reviewForm, delivery, pyramid, categoryHref, signInHref, similar, sample, seo, jsonLd, paragraphs, notes }, personal ? { headers: { "Cache-Control": "private, no-store" } } : undefined);
}

/** The loader's Cache-Control (a personal review link's page); otherwise nothing is added. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const { baseUrl, shop } = rootDataOf(matches);
  const shopName = shop.name;
  if (!loaderData) return [{ title: `${PRODUCT_NOT_FOUND} | ${shopName}` }, { name: "robots", content: "noindex" }];
  const { product, sizes, chosen, seo } = loaderData;
  const { title, description } = seo;
  return [
    ...seoMeta({ title, description, path: `/products/${product.slug}`, baseUrl, image: product.images[0], type: "product", siteName: shopName }),
    { property: "product:price:amount", content: toDecimalString(sizeShown(sizes, chosen)?.priceCents ?? product.priceCents) },
    { property: "product:price:currency", content: "ZAR" },
  ];
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { product, sizes, chosen, tiers, reviews, reviewForm, delivery, pyramid, categoryHref, signInHref, similar, sample, jsonLd, paragraphs, notes } = loaderData;
  // The size shown: the loader's (`?size=`) until the shopper picks one here; then the URL follows without a request,
  // so a shared link opens that size. Kept per product: another product's page starts from its own loader's size.
  const [picked, setPicked] = useState<[string, string]>();
  const size = sizeShown(sizes, picked?.[0] === product.id ? picked[1] : chosen);
  const choose = (code: string) => {
    setPicked([product.id, code]);
    const url = new URL(window.location.href);
    url.searchParams.set("size", code);
    // React Router's own entry state is kept: only the address changes
    window.history.replaceState(window.history.state, "", url);
  };
  // What the price, stock, tiers and Add to Cart show: the chosen size (a product with no visible size: its summary)
  const shown = size ?? product;
  const sizeTiers = size ? tiers.filter((t) => (t.sizeId ?? sizes[0]!.id) === size.id) : tiers;
  const { baseUrl, shop } = useRootData();
  // the first paragraph leads beside the price; the rest (and the notes) follow the Add to Cart
  const [lead, ...rest] = paragraphs;
  const crumbs: Crumb[] = [
    { label: "Home", to: "/" },
    { label: "Shop", to: "/shop" },
    ...(product.categoryName && categoryHref ? [{ label: product.categoryName, to: categoryHref }] : []),
    { label: product.name },
  ];
  const path = `/products/${product.slug}`;
  const inspired = inspiredByLong({ house: product.inspiredHouse, fragrance: product.inspiredFragrance });

  return (
    <main className="pb-24">
      {/* On a phone the price, the size choice and Add to Cart share the first screen (390 × 844) with the photo. */}
      <div className="container-page pt-[5.5rem] sm:pt-32">
        <Breadcrumbs items={crumbs} />

        <div className="mt-5 grid gap-6 sm:mt-8 sm:gap-8 md:grid-cols-2 md:gap-12 lg:gap-20">
          <div className="md:sticky md:top-28 md:self-start">
            <ProductGallery images={product.images} name={product.name} />
          </div>

          <div className="flex flex-col">
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
              {shown.sizeMl ? <p className="text-sm text-ink-soft lining-nums">{size?.label || `${shown.sizeMl} ml`}</p> : null}
              <StockStatus {...stockStatusOf(shown.stock)} />
            </div>
            <p className="mt-1 text-xs uppercase tracking-[0.16em] text-muted">VAT included</p>
            {size && sizes.length > 1 ? <SizeChoice sizes={sizes} chosen={size.code} onChoose={choose} /> : null}

            {/* On a phone, Add to Cart comes straight after the price (first screen); the lead follows it. */}
            <div className="mt-5 max-md:order-1 md:mt-8 md:order-none">
              {lead ? <p className="font-display text-xl leading-snug text-ink-soft sm:text-2xl">{lead}</p> : null}
              <span aria-hidden="true" className="mt-8 hidden h-px w-16 bg-gold-light md:block" />
            </div>

            <div className="mt-5 md:mt-8">
              <AddToCart product={{ id: product.id, name: product.name, priceCents: shown.priceCents, stock: shown.stock }} size={size} tiers={sizeTiers} />
              {sample ? <SampleOffer product={product} offer={sample} /> : null}
              {shown.stock === 0 ? (
                <Suspense fallback={null}>
                  <NotifyMe productId={product.id} sizeId={size && sizes.length > 1 ? size.id : null} productName={lineName(product.name, size?.label)} />
                </Suspense>
              ) : null}
              <div className="mt-3">
                <WishlistHeart productId={product.id} productName={product.name} variant="page" />
              </div>
              <p className="mt-1 flex gap-2 text-sm text-ink" data-testid="delivery-window">
                <TruckIcon />
                <span>
                  {delivery.text}
                  <span className="block text-xs text-muted">Estimate: 2 to 7 working days, weekends and public holidays excluded</span>
                </span>
              </p>
            </div>

            <div className="flex flex-col max-md:order-2">
            <ProductTiers tiers={sizeTiers} basePriceCents={shown.priceCents} productName={size?.label ? `${product.name}, ${size.label}` : product.name} />

            {rest.length || notes.length || pyramid ? (
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
            ) : null}

            <ul className="mt-8 space-y-2 text-sm text-ink-soft">
              <li className="flex gap-3">
                <span aria-hidden="true" className="text-gold">
                  ◆
                </span>
                {freeDeliveryText(shop.freeDeliveryThresholdCents)}
              </li>
              <li className="flex gap-3">
                <span aria-hidden="true" className="text-gold">
                  ◆
                </span>
                Delivered across South Africa in 2 to 7 working days
              </li>
            </ul>

            <div className="mt-6 border-t border-line pt-4">
              <ShareMenu url={absoluteUrl(baseUrl, path)} title={product.name} text={`${product.name} at ${shop.name}`} />
            </div>
            </div>
          </div>
        </div>

        <SimilarScents name={product.name} products={similar} />

        <div className="mt-20 sm:mt-24">
          <ProductReviews reviews={reviews} productId={product.id} productSlug={product.slug} signInHref={signInHref} reviewForm={reviewForm} />
        </div>
      </div>

      <JsonLd data={breadcrumbJsonLd(crumbs, baseUrl, path)} />
      <JsonLd data={jsonLd} />
    </main>
  );
}

/** The size with this code (the loader's `chosen` is always one of them, or '' with none): a plain look-up, so the
 * browser needs none of chooseSize's reading of a typed code. */
function sizeShown<T extends { code: string }>(sizes: readonly T[], code: string): T | undefined {
  return sizes.find((s) => s.code === code) ?? sizes[0];
}

/** Average stars and the review count beside the title; a link down to the reviews. */
function RatingSummary({ average, count }: { average: number; count: number }) {
  return (
    <a href="#reviews-heading" className="mt-3 inline-flex items-center gap-2 self-start text-sm text-ink-soft hover:text-ink" data-testid="rating-summary">
      <Stars rating={average} size="sm" />
      <span>
        {average.toFixed(1)} <span aria-hidden="true">·</span> <span className="underline decoration-line underline-offset-4">{count === 1 ? "1 review" : `${count} reviews`}</span>
      </span>
    </a>
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="relative overflow-hidden">
      <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0" />
      <div className="container-page relative flex min-h-[70vh] flex-col items-center justify-center pt-32 pb-20 text-center">
        <p className="eyebrow">{notFound ? "Error 404" : "Error"}</p>
        <h1 className="mt-4 text-4xl sm:text-5xl">{notFound ? PRODUCT_NOT_FOUND : "Unable to load this fragrance"}</h1>
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
