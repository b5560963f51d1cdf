import { loginPath } from "~/modules/accounts/redirect";
import type { ReviewSummary } from "~/modules/reviews/reviews.logic";
import type { ScentProfile } from "~/modules/scent/scent.logic";
import { getBaseUrl, getShopInfo } from "~/modules/settings/settings.server";
import type { ProductDetail } from "./catalog.types";
import { productJsonLd, productSeoText, splitScentNotes } from "./product.logic";
import { scentPyramidView } from "./scent-pyramid.logic";
import { shopHref } from "./shop-filters.logic";
import type { SizeRow } from "./sizes.server";
import { chooseSize } from "./sizes.logic";

/**
 * What the product page (app/routes/product.tsx) shows of a product, made on the server: the words and links the
 * browser would otherwise need the vocabulary, the shop's filter code and the SEO rules for (the product page's
 * script stays within its 130 KB budget with the size choice, issue 33).
 */
export function productPageView(product: ProductDetail, sizeRows: readonly SizeRow[], scent: ScentProfile | null, reviews: ReviewSummary | null, sizeParam: string | null) {
  // The visible sizes, with what the page and its structured data show of each; `?size=` picks one (an unknown or
  // hidden size's code: the first). The page cache keys a copy by the whole URL, so each size has its own copy.
  const sizes = sizeRows.map(({ id, code, label, sizeMl, priceCents, wasPriceCents, stock, sku }) => ({ id, code, label, sizeMl, priceCents, wasPriceCents, stock, sku }));
  const chosen = chooseSize(sizes, sizeParam)?.code ?? "";
  // The meta text and the structured data are made here, for crawlers and the <head>: the browser never needs their code.
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
  return { product: shownProduct, sizes, chosen, seo, jsonLd, paragraphs, notes, pyramid, categoryHref, signInHref };
}
