/**
 * Product image URLs (browser-safe). A product image stored in products.images is the URL of its largest
 * rendition, e.g. `/media/products/velvet-oud-3f9a2c1b-1200.webp`; the same image exists at the widths in
 * IMAGE_WIDTHS with the width swapped in the name (`…-400.webp`, `…-800.webp`).
 */

/** Shown when a product has no image (a static file, cached by the browser). */
export const PLACEHOLDER_IMAGE = "/images/placeholder.svg";

/** Rendition widths, smallest first; the last one is the URL stored in products.images. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const RENDITION = /^(.*)-(400|800|1200)\.webp$/;

function renditionBase(url: string): string | undefined {
  // Query strings or fragments would make the URL something we didn't store: leave those alone.
  if (url.includes("?") || url.includes("#")) return undefined;
  return RENDITION.exec(url)?.[1];
}

/** The rendition of `url` at `width` (400, 800 or 1200); URLs that don't follow the convention come back unchanged. */
export function sizedImage(url: string, width: ImageWidth | number): string {
  const base = renditionBase(url);
  if (base === undefined || !(IMAGE_WIDTHS as readonly number[]).includes(width)) return url;
  return `${base}-${width}.webp`;
}

/** A `srcset` listing every rendition, or undefined for URLs that don't follow the convention. */
export function srcSetFor(url: string): string | undefined {
  const base = renditionBase(url);
  if (base === undefined) return undefined;
  return IMAGE_WIDTHS.map((w) => `${base}-${w}.webp ${w}w`).join(", ");
}

/**
 * Put on a page's largest image (the first card of the shop, a product's main image), naming the rendition a phone
 * shows (412 px at 1.75 dppx picks 400w for a half-width card, 800w for a full-width image). A cached page carries
 * that rendition inside its HTML when it is small (server/page-lcp-image.ts): a phone then paints it with the page
 * instead of one round trip later.
 */
export const INLINE_ON_PHONE_ATTRIBUTE = "data-inline-on-phone";

/** The attribute for `<img>`: the phone's rendition of `url` at `width`, or nothing for URLs off the convention. */
export function inlineOnPhone(url: string, width: ImageWidth): { [INLINE_ON_PHONE_ATTRIBUTE]?: string } {
  return renditionBase(url) === undefined ? {} : { [INLINE_ON_PHONE_ATTRIBUTE]: sizedImage(url, width) };
}

/** The rendition URLs for a stored base name, e.g. `/media/products/velvet-oud-3f9a2c1b`. */
export function renditionUrl(baseUrl: string, width: ImageWidth): string {
  return `${baseUrl}-${width}.webp`;
}

/** Default product images (static files following the rendition convention), for products saved without images. */
export const DEFAULT_PRODUCT_IMAGES = {
  men: "/images/default-him-1200.webp",
  ladies: "/images/default-her-1200.webp",
} as const;

/**
 * SPEC §5: with no images, a product gets its category's default image: the ladies image when the category slug
 * speaks of women (female, women, ladies, or a 'her' segment as in 'for-her'), otherwise the men's image. Ladies is
 * checked first because 'female' contains 'male' and 'women' contains 'men'.
 */
export function defaultProductImage(categorySlug: string | null | undefined): string {
  const slug = (categorySlug ?? "").toLowerCase();
  if (/female|women|ladies|(^|-)her(-|$)/.test(slug)) return DEFAULT_PRODUCT_IMAGES.ladies;
  return DEFAULT_PRODUCT_IMAGES.men;
}
