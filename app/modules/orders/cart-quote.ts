/**
 * The quote the server sends to the cart and checkout pages (browser-safe types and the URL that asks for it).
 * The browser shows it; it decides nothing.
 */
import type { AppliedCoupon } from "~/modules/coupons/coupons.schema";

export interface CartQuoteLine {
  productId: string;
  name: string;
  slug: string;
  image: string | null;
  quantity: number;
  basePriceCents: number;
  /** the product's price before a sale when it is higher than its price (shownWasPrice); null = not on sale */
  wasPriceCents: number | null;
  unitPriceCents: number;
  lineTotalCents: number;
  tierApplied: boolean;
  nextTier: { minQuantity: number; priceCents: number } | null;
  /** bottles left when the product counts its stock; null = not tracked */
  stockLeft: number | null;
  /** the line asks for more than is left: what to tell the shopper (checkout refuses it); null when fine */
  stockProblem: string | null;
}

export interface CartQuote {
  lines: CartQuoteLine[];
  missingProductIds: string[];
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  vatIncludedCents: number;
  freeDeliveryRemainingCents: number;
  freeThresholdCents: number;
  deliveryFree: boolean;
  coupon: AppliedCoupon | null;
  couponError: string | null;
  /** every zone with what delivery to it costs this cart (0: free) */
  zones: { id: string; name: string; provinces: string[]; deliveryCents: number }[];
  zoneId: string | null;
  error?: string;
}

/** The cart route's loader answers a quote for these lines (GET, so asking never revalidates the page). */
/** The cart loader's answer to quoteUrl (what useCartQuote reads). */
export interface CartQuoteAnswer {
  quote: CartQuote | null;
  error?: string;
}

/** The URL that asks the cart loader for a quote of these lines (ids and quantities: the server decides prices). */
export function quoteUrl(lines: ReadonlyArray<{ id: string; quantity: number }>, couponCode?: string | null, zoneId?: string | null): string {
  const params = new URLSearchParams({ quote: JSON.stringify(lines.map((l) => ({ productId: l.id, quantity: l.quantity }))) });
  if (couponCode) params.set("coupon", couponCode);
  if (zoneId) params.set("zone", zoneId);
  return `/cart?${params}`;
}
