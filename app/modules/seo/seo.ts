import type { MetaDescriptor } from "react-router";

/**
 * Search and social metadata for a page (browser-safe). Every page gets a title, a description, a canonical URL,
 * Open Graph and a Twitter card built from the same few facts, so they never disagree.
 */
export interface SeoInput {
  title: string;
  description: string;
  /** The page's path ('/shop', '/products/oud-noir'); query strings are dropped from the canonical URL. */
  path: string;
  /** The public origin of the shop (PUBLIC_BASE_URL), from the root loader. */
  baseUrl: string;
  /** Absolute URL or a path on the shop. */
  image?: string;
  /** Open Graph type: 'website' (default), 'product', 'article'. */
  type?: string;
  siteName?: string;
  /** true on pages that must not be indexed (404, account pages). */
  noindex?: boolean;
}

export const DEFAULT_SITE_NAME = "Scentara";
/** A path on the shop used when a page has no image of its own. */
export const DEFAULT_OG_IMAGE = "/og-image.png";

/** Joins the shop's base URL and a path into one absolute URL, without doubled or missing slashes. */
export function absoluteUrl(baseUrl: string, path = "/"): string {
  if (/^https?:\/\//i.test(path)) return path;
  const base = (baseUrl || "").replace(/\/+$/, "");
  const rest = path.startsWith("/") ? path : `/${path}`;
  return `${base}${rest}`;
}

/** The canonical form of a path: no query, no fragment, no trailing slash (except the root). */
export function canonicalPath(path: string): string {
  const bare = path.split(/[?#]/)[0] || "/";
  const withSlash = bare.startsWith("/") ? bare : `/${bare}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, "") || "/" : withSlash;
}

/** Cuts a description to what search results show (≈160 characters), at a word boundary. */
export function truncateDescription(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, "")}…`;
}

export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const siteName = input.siteName || DEFAULT_SITE_NAME;
  const description = truncateDescription(input.description);
  const url = absoluteUrl(input.baseUrl, canonicalPath(input.path));
  const image = absoluteUrl(input.baseUrl, input.image || DEFAULT_OG_IMAGE);
  const type = input.type || "website";
  const meta: MetaDescriptor[] = [
    { title: input.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: input.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: type },
    { property: "og:image", content: image },
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: "en_ZA" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (input.noindex) meta.push({ name: "robots", content: "noindex, follow" });
  return meta;
}
