/** Catalogue shapes shared by the server module and the components (browser-safe: types only). */

/** A product as lists show it (home, shop): enough for a card, nothing more. */
export interface ProductSummary {
  id: string;
  name: string;
  slug: string;
  priceCents: number;
  /** First image URL, or null: the card then shows a placeholder. */
  image: string | null;
  categoryName: string | null;
  categorySlug: string | null;
}

export interface CategoryOption {
  id: string;
  name: string;
  slug: string;
}

export interface ProductTier {
  id: string;
  minQuantity: number;
  /** null: open-ended ('N+') */
  maxQuantity: number | null;
  priceCents: number;
}

export interface ProductDetail {
  id: string;
  name: string;
  slug: string;
  description: string;
  priceCents: number;
  images: string[];
  categoryName: string | null;
  categorySlug: string | null;
  metaTitle: string | null;
  metaDesc: string | null;
  createdAt: string;
}
