import { Suspense, useState } from "react";
import { data, isRouteErrorResponse, redirect } from "react-router";
import type { Route } from "./+types/product";
import { AddToCart } from "~/components/add-to-cart";
import { Breadcrumbs, breadcrumbJsonLd, type Crumb } from "~/components/breadcrumbs";
import { JsonLd } from "~/components/json-ld";
import { ProductGallery } from "~/components/product-gallery";
import { ProductReviews } from "~/components/product-reviews";
import { ProductTiers } from "~/components/product-tiers";
import { ShareMenu } from "~/components/share-menu";
import { DeliveryPromises, DeliveryWindow, ProductError, ProductFragrance, ProductHeading } from "~/components/product-page-parts";
import { getDb } from "~/db/db.server";
import { currentSlugOf, getProductBySlug, listProductTiers, productParams } from "~/modules/catalog/catalog.server";
import { productPageView } from "~/modules/catalog/product-page.server";
import { absoluteUrl, seoMeta } from "~/modules/seo/seo";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { deliveryWindow } from "~/modules/shipping/delivery-window.logic";
import { toDecimalString } from "~/utils/money";
import { logger } from "~/utils/logger.server";
import { readQuery } from "~/utils/request.server";
import { requestInfoContext } from "~/context";
import { getProductReviews } from "~/modules/reviews/reviews.server";
import { productReviewForm } from "~/modules/reviews/product-review-form.server";
import { SimilarScents } from "~/components/scent/similar-scents";
import { getScentProfile, similarScents } from "~/modules/scent-finder/scent-finder.server";
import { SampleOffer } from "~/components/samples/sample-offer";
import { sampleOfferFor } from "~/modules/samples/samples.server";
import { lazyComponent } from "~/components/ui/lazy-component";
import { WishlistHeart } from "~/components/wishlist-heart";
import { SizeChoice } from "~/components/size-choice";
import { listSizes, renamedSizeCode } from "~/modules/catalog/sizes.server";
import { lineName, pathWithSize } from "~/modules/catalog/sizes.logic";

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
  // scent catalogue (app/modules/scent/scent.server.ts); neither (nor the 2 ml sample offer, docs/decisions/054) ever
  // breaks the page
  const [tiers, sizeRows, scent, similar, sample] = await Promise.all([
    listProductTiers(db, product.id),
    listSizes(db, [product.id]),
    orElse(getScentProfile(db, product.id), null, "the scent profile", product.id),
    orElse(similarScents(db, product.id), [], "similar scents", product.id),
    orElse(sampleOfferFor(db, product.id), null, "the sample offer", product.id),
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
  const reviews = await orElse(getProductReviews(db, product.id), null, "reviews", product.id);
  const { audience } = context.get(requestInfoContext);
  const { signIn, personal, reviewForm } = await productReviewForm(db, request, { audience, product, search });
  if (signIn) throw redirect(signIn);
  // made here, not in the browser: the same text on the server and after hydration (South African dates)
  const delivery = deliveryWindow(new Date());
  const view = productPageView(product, sizeRows, scent, reviews, search.get("size"));
  // A page opened through a personal link, or with the shopper's own form, is this browser's only: no shared cache
  // in front may keep it.
  return data({ ...view, tiers, reviews, reviewForm, delivery, similar, sample }, personal ? { headers: { "Cache-Control": "private, no-store" } } : undefined);
}

/** A part of the page that never breaks it: its failure is logged, and the page shows it empty. */
function orElse<T>(work: Promise<T>, fallback: T, what: string, productId: string): Promise<T> {
  return work.catch((error: unknown) => {
    logger.error({ err: error, productId }, `product: loading ${what} failed`);
    return fallback;
  });
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
            <ProductHeading product={product} categoryHref={categoryHref} reviews={reviews} shown={shown} sizeLabel={size?.label} />
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
              <DeliveryWindow text={delivery.text} />
            </div>

            <div className="flex flex-col max-md:order-2">
            <ProductTiers tiers={sizeTiers} basePriceCents={shown.priceCents} productName={size?.label ? `${product.name}, ${size.label}` : product.name} />

            <ProductFragrance rest={rest} notes={notes} pyramid={pyramid} />
            <DeliveryPromises freeDeliveryThresholdCents={shop.freeDeliveryThresholdCents} />

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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ProductError notFound={isRouteErrorResponse(error) && error.status === 404} notFoundTitle={PRODUCT_NOT_FOUND} />;
}
