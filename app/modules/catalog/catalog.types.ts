/** Catalogue shapes shared by the server module and the components (browser-safe: types only). */

/** A product as lists show it (home, shop): enough for a card, nothing more. */
export interface ProductSummary {
  id: string;
  name: string;
  slug: string;
  /** the cheapest visible size's price (the product row's summary of its sizes, docs/decisions/049) */
  priceCents: number;
  /** the price before a sale (shown struck through only when higher: shownWasPrice); null = none */
  wasPriceCents: number | null;
  /** the dearest visible size's price: above priceCents, the card says "from R…" (pricedFrom); null = not known */
  maxPriceCents: number | null;
  /** First image URL, or null: the card then shows a placeholder. */
  image: string | null;
  categoryName: string | null;
  categorySlug: string | null;
  /** bottles left; null = not tracked (always available) */
  stock: number | null;
  /** the designer fragrance it is inspired by ("Dior", "Sauvage"); null = none */
  inspiredHouse: string | null;
  inspiredFragrance: string | null;
}

/** An inspired-by house in the shop's house filter. */
export interface HouseOption {
  /** the house as the catalogue spells it */
  name: string;
  /** products of this house matching the other filters */
  count: number;
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
  /** the size it prices (docs/decisions/049); null on a tier written before sizes: the product's first size */
  sizeId?: string | null;
}

export interface ProductDetail {
  id: string;
  name: string;
  slug: string;
  description: string;
  priceCents: number;
  /** the price before a sale (shown struck through only when higher: shownWasPrice); null = none */
  wasPriceCents: number | null;
  images: string[];
  categoryName: string | null;
  categorySlug: string | null;
  metaTitle: string | null;
  metaDesc: string | null;
  createdAt: string;
  stock: number | null;
  inspiredHouse: string | null;
  inspiredFragrance: string | null;
  /** bottle size in ml; null = not stated */
  sizeMl: number | null;
}
