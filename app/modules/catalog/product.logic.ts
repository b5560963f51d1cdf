/**
 * Pure rules of the product page (browser-safe): quantity choices, tier labels, scent notes in a description,
 * review dates and the product's structured data.
 */
import { toDecimalString } from "~/utils/money";
import type { ReviewSummary } from "~/modules/reviews/reviews.logic";
import type { ProductDetail, ProductTier } from "./catalog.types";
import type { SizeOption } from "./sizes.logic";
import { schemaAvailability } from "./stock.logic";

/** SPEC §5: the product page's quantity choices. */
export const PRODUCT_QUANTITIES = [1, 2, 3, 4, 5, 6, 10, 20, 50, 100] as const;

export function isProductQuantity(value: number): boolean {
  return (PRODUCT_QUANTITIES as readonly number[]).includes(value);
}

/** '5–9' for a bounded tier, '10+' for an open-ended one, '5' when min and max are equal. */
export function tierRangeLabel(tier: Pick<ProductTier, "minQuantity" | "maxQuantity">): string {
  if (tier.maxQuantity === null) return `${tier.minQuantity}+`;
  if (tier.maxQuantity === tier.minQuantity) return `${tier.minQuantity}`;
  return `${tier.minQuantity}–${tier.maxQuantity}`;
}

export interface ScentNote {
  /** 'Top notes', 'Heart notes', 'Base notes' or 'Notes' */
  label: string;
  notes: string[];
}

const NOTE_LINE = /^\s*(top|head|heart|middle|base|key)?\s*(notes)?\s*[:–—-]\s*(.+)$/i;
const LABELS: Record<string, string> = {
  top: "Top notes",
  head: "Top notes",
  heart: "Heart notes",
  middle: "Heart notes",
  base: "Base notes",
  key: "Key notes",
};

/**
 * Splits a description into its prose and its scent-note lines ('Top notes: bergamot, pink pepper'), so the page
 * can show the notes as a pyramid. Lines that are not note lines stay in the prose, in order.
 */
export function splitScentNotes(description: string): { paragraphs: string[]; notes: ScentNote[] } {
  const prose: string[] = [];
  const notes: ScentNote[] = [];
  for (const line of description.replace(/\r\n?/g, "\n").split("\n")) {
    const m = NOTE_LINE.exec(line);
    // a note line needs a position word or the word 'notes' before the colon
    if (m && (m[1] || m[2])) {
      const list = m[3]
        .split(/[,;·•]|\s+and\s+/i)
        .map((s) => s.trim().replace(/\.$/, ""))
        .filter(Boolean);
      if (list.length) {
        notes.push({ label: m[1] ? LABELS[m[1].toLowerCase()] : "Notes", notes: list });
        continue;
      }
    }
    prose.push(line);
  }
  const paragraphs = prose
    .join("\n")
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);
  return { paragraphs, notes };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * A date as en-ZA writes it in full ('5 March 2025'), in South African time (UTC+2, no daylight saving).
 * Written by hand rather than with Intl so the server and every browser print the same text (no hydration mismatch).
 */
export function formatDateZA(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const d = new Date(t + 2 * 60 * 60 * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The ISO date (yyyy-mm-dd) for <time dateTime> and structured data, in South African time. */
export function isoDateZA(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  return new Date(t + 2 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** 'Rated 4.5 out of 5' (whole ratings without a decimal: 'Rated 4 out of 5'). */
export function ratingText(rating: number): string {
  return `Rated ${Number.isInteger(rating) ? rating : rating.toFixed(1)} out of 5`;
}

/** The meta title and description, falling back to the product's name and description. */
export function productSeoText(product: Pick<ProductDetail, "name" | "description" | "metaTitle" | "metaDesc" | "categoryName">, shopName: string) {
  const title = product.metaTitle?.trim() || `${product.name} | ${shopName}`;
  const plain = product.description.replace(/\s+/g, " ").trim();
  const description =
    product.metaDesc?.trim() ||
    plain ||
    `${product.name}${product.categoryName ? `, ${product.categoryName.toLowerCase()}` : ""}: a designer-inspired fragrance from ${shopName}, delivered across South Africa.`;
  return { title, description };
}

function absolute(baseUrl: string, path: string) {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, "")}${path.startsWith("/") ? "" : "/"}${path}`;
}

/**
 * schema.org Product with its real Offer (the base price, ZAR, in stock or out of stock), and — only when there are
 * reviews — an AggregateRating and up to 5 Reviews from the database. The brand is always the shop: a product inspired
 * by a designer fragrance is our own blend, so neither the house nor the fragrance appears here. A product sold in
 * several sizes has one Offer per visible size (its price, SKU, stock and `?size=` link: issue 33); with one size the
 * Offer is the product's, as before sizes.
 */
export function productJsonLd(
  product: ProductDetail,
  reviews: ReviewSummary | null,
  baseUrl: string,
  shopName: string,
  sizes: ReadonlyArray<SizeOption & { sku?: string | null }> = [],
) {
  const url = absolute(baseUrl, `/products/${product.slug}`);
  const offer = (priceCents: number, stock: number | null, at: string, more?: object) => ({
    "@type": "Offer",
    ...more,
    price: toDecimalString(priceCents),
    priceCurrency: "ZAR",
    availability: schemaAvailability(stock),
    url: at,
    seller: { "@type": "Organization", name: shopName },
  });
  const { description } = productSeoText(product, shopName);
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description,
    url,
    sku: product.slug,
    brand: { "@type": "Brand", name: shopName },
    ...(product.images.length ? { image: product.images.map((src) => absolute(baseUrl, src)) } : {}),
    ...(product.categoryName ? { category: product.categoryName } : {}),
    offers:
      sizes.length > 1
        ? sizes.map((s) => offer(s.priceCents, s.stock, `${url}?size=${s.code}`, { name: s.label, sku: s.sku || `${product.slug}-${s.code}` }))
        : offer(product.priceCents, product.stock, url),
  };
  if (reviews && reviews.count > 0 && reviews.average !== null) {
    data.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: reviews.average.toFixed(1),
      reviewCount: reviews.count,
      bestRating: 5,
      worstRating: 1,
    };
    data.review = reviews.reviews.slice(0, 5).map((r) => ({
      "@type": "Review",
      author: { "@type": "Person", name: r.author },
      datePublished: isoDateZA(r.createdAt),
      reviewBody: r.comment,
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    }));
  }
  return data;
}
