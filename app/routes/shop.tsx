import { data, isRouteErrorResponse, Link, useNavigation } from "react-router";
import type { Route } from "./+types/shop";
import { Breadcrumbs, breadcrumbJsonLd, type Crumb } from "~/components/breadcrumbs";
import { JsonLd } from "~/components/json-ld";
import { Pagination } from "~/components/pagination";
import { ProductGrid } from "~/components/product-card";
import { ClearAllFilters, ShopFilterBar } from "~/components/shop-filter-bar";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { loadShopPage, ShopLoadError } from "~/modules/catalog/catalog.server";
import { PAGE_SIZE, clearFilters, isFilterActive, parseShopFilters, shopHref, withFilter } from "~/modules/catalog/shop-filters.logic";
import { absoluteUrl, seoMeta } from "~/modules/seo/seo";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { logger } from "~/utils/logger.server";
import { readQuery } from "~/utils/request.server";

export const SHOP_LOAD_FAILED = "Failed to load shop data";

export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseShopFilters(readQuery(request));
  try {
    return await loadShopPage(getDb(), filters);
  } catch (error) {
    logger.error({ err: error instanceof ShopLoadError ? error.cause : error }, "shop: load failed");
    const message = error instanceof ShopLoadError ? error.message : SHOP_LOAD_FAILED;
    throw data({ message }, { status: 500 });
  }
}

function crumbsFor(category: { name: string; slug: string } | null): Crumb[] {
  const crumbs: Crumb[] = [
    { label: "Home", to: "/" },
    { label: "Shop", to: "/shop" },
  ];
  if (category) crumbs.push({ label: category.name, to: shopHref({ category: category.slug }) });
  return crumbs;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const { baseUrl, shop } = rootDataOf(matches);
  const shopName = shop.name;
  if (!loaderData) return [{ title: `Unable to Load Shop | ${shopName}` }, { name: "robots", content: "noindex" }];
  const { category, filters } = loaderData;
  const title = category ? `${category.name} Fragrances | ${shopName}` : `Shop Designer-Inspired Fragrances | ${shopName}`;
  const description = category
    ? `Browse ${category.name.toLowerCase()} designer-inspired perfumes at ${shopName}: long-lasting fragrances at fair prices, delivered across South Africa.`
    : `Browse every ${shopName} fragrance: designer-inspired perfumes for her, for him and to share, priced in rand and delivered across South Africa.`;
  // Canonical: the shop, or the shop within one category; search, price and page are noise for search engines.
  const canonical = absoluteUrl(baseUrl, shopHref({ category: category?.slug ?? "" }));
  const tags = seoMeta({ title, description, path: "/shop", baseUrl, siteName: shopName }).map((tag) => {
    if ("tagName" in tag && tag.rel === "canonical") return { ...tag, href: canonical };
    if ("property" in tag && tag.property === "og:url") return { ...tag, content: canonical };
    return tag;
  });
  if (filters.q || filters.house || filters.maxPrice !== null || filters.family || filters.note) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { products, matching, total, page, pageCount, categories, houses, category, filters } = loaderData;
  const { baseUrl } = useRootData();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/shop";
  const crumbs = crumbsFor(category);
  const from = matching === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const to = from === 0 ? 0 : from + products.length - 1;

  return (
    <main className="pb-24">
      <section className="relative overflow-hidden">
        <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0 opacity-80" />
        {/* On a phone the hero keeps to its title (the line below shows from 640 px), so a whole card — picture, name
            and price — is in the first screen at 360 × 740. */}
        <div className="container-page relative pt-22 pb-6 sm:pt-32 sm:pb-14">
          <Breadcrumbs items={crumbs} />
          <p className="eyebrow mt-5 sm:mt-8">{category ? "The Collection" : "Scentara Parfums"}</p>
          <h1 className="mt-2 text-[2.75rem] leading-[1.05] sm:mt-3 sm:text-6xl">{category ? category.name : "The Shop"}</h1>
          <p className="mt-3 hidden max-w-xl text-sm text-ink-soft sm:mt-4 sm:block sm:text-base">
            Designer-inspired fragrances, composed to last from morning to evening. Every bottle priced in rand, delivered across South Africa.
          </p>
        </div>
      </section>

      <div className="container-page">
        {total === 0 ? (
          <EmptyState title="No Products Available" text="Our collection is being prepared. Please come back soon.">
            <ButtonLink to="/">Return Home</ButtonLink>
          </EmptyState>
        ) : (
          <>
            <div className="mt-2 sm:mt-6">
              <ShopFilterBar filters={filters} categories={categories} houses={houses} />
            </div>

            {/* SPEC §2's 'Showing X of Y products': X = products matching the filters (all pages), Y = products in the
                shop. With more than one page, a line of its own says which page this is and which of the X it holds,
                so the two numbers never read as one claim ('Showing 41 … Page 1 of 2 (1–24)' did). */}
            <div className="mt-4 flex flex-wrap items-end justify-between gap-x-6 gap-y-2 text-sm text-ink-soft sm:mt-5">
              <div aria-live="polite">
                <p>
                  Showing <span className="font-medium text-ink tabular-nums">{matching}</span> of{" "}
                  <span className="font-medium text-ink tabular-nums">{total}</span> products
                </p>
                {pageCount > 1 ? (
                  <p className="mt-0.5 text-xs text-muted tabular-nums">
                    Page {page} of {pageCount} · products {from}–{to} on this page
                  </p>
                ) : null}
              </div>
              <div className="flex items-center gap-x-6">
                {/* issue 22: a way in for whoever doesn't know where to start */}
                <Link to="/scent-finder" prefetch="intent" className="whitespace-nowrap text-xs font-medium uppercase tracking-[0.16em] text-ink underline decoration-gold-light underline-offset-[6px] hover:text-gold">
                  Scent Finder
                </Link>
                <ClearAllFilters filters={filters} />
              </div>
            </div>

            <div className={`mt-6 sm:mt-10 transition-opacity duration-200 ${loading ? "opacity-50" : "opacity-100"}`} aria-busy={loading || undefined}>
              {products.length === 0 ? (
                <EmptyState text="No products found matching your criteria.">
                  <ButtonLink to={shopHref(clearFilters(filters.sort))} variant="secondary" preventScrollReset>
                    Clear Filters
                  </ButtonLink>
                </EmptyState>
              ) : (
                <ProductGrid products={products} eagerCount={page === 1 ? 4 : 0} headingLevel={2} />
              )}
            </div>

            <Pagination page={page} pageCount={pageCount} hrefFor={(p) => shopHref(withFilter(filters, { page: p }))} label="Shop pages" />
            {isFilterActive(filters) ? null : <JsonLd data={breadcrumbJsonLd(crumbs, baseUrl, "/shop")} />}
          </>
        )}
      </div>
    </main>
  );
}

function EmptyState({ title, text, children }: { title?: string; text: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center py-20 text-center">
      <span aria-hidden="true" className="mb-6 block h-10 w-px bg-gold-light" />
      {title ? <h2 className="text-3xl sm:text-4xl">{title}</h2> : null}
      <p className={title ? "mt-3 text-ink-soft" : "font-display text-2xl text-ink sm:text-3xl"}>{text}</p>
      <div className="mt-8">{children}</div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message =
    isRouteErrorResponse(error) && error.data && typeof error.data === "object" && typeof (error.data as { message?: unknown }).message === "string"
      ? (error.data as { message: string }).message
      : SHOP_LOAD_FAILED;
  return (
    <main className="container-page flex min-h-[70vh] flex-col items-center justify-center pt-32 pb-20 text-center">
      <p className="eyebrow">The Shop</p>
      <h1 className="mt-4 text-4xl sm:text-5xl">Unable to Load Shop</h1>
      <span aria-hidden="true" className="my-6 block h-px w-12 bg-gold-light" />
      <p role="alert" className="max-w-md text-ink-soft">
        {message}
      </p>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <button type="button" onClick={() => window.location.reload()} className={buttonClass("primary")}>
          Try Again
        </button>
        <ButtonLink to="/" variant="secondary" reloadDocument>
          Go Home
        </ButtonLink>
      </div>
    </main>
  );
}
