/**
 * The quote the server sends to the cart and checkout pages (browser-safe types and the URL that asks for it).
 * The browser shows it; it decides nothing.
 */
import type { AppliedCoupon } from "~/modules/coupons/coupons.schema";

export interface CartQuoteLine {
  productId: string;
  /** the size this line buys, and its label ("50 ml"; '' for a product's one unstated size) */
  sizeId: string;
  sizeLabel: string;
  /** the size's URL code (the product page's `?size=`) */
  sizeCode: string;
  /** the line as the browser keyed it (cartLineKey): how it finds its own line in the quote */
  key: string;
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
  /** a 2 ml sample or a discovery set (docs/decisions/054); absent on a bottle */
  sampleKind?: "sample" | "set";
  /** a gift card (docs/decisions/053 "Selling gift cards"): no VAT, no delivery, no coupon; absent on everything else */
  isGiftCard?: boolean;
}

export interface CartQuote {
  lines: CartQuoteLine[];
  /** the keys (cartLineKey) of lines whose product or size is no longer sold */
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
  /** the part of discountCents that is sample credit, and the credits behind it (docs/decisions/054) */
  sampleCreditCents?: number;
  sampleCredits?: Array<{ name: string; amountCents: number }>;
  /**
   * a signed-in member's reward points (docs/decisions/062): what they have, the most this cart may spend, what it
   * spends (its worth in cents is a part of discountCents) and why what was asked can't be spent; absent: off or not a member
   */
  points?: { available: number; most: number; used: number; cents: number; refusal: string | null };
  /** a friend's reward on a first order (docs/decisions/063): its worth here (a part of discountCents), or why not */
  friendReward?: { cents: number; refusal: string | null };
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

/**
 * A cart line's key: the product, and the size when the line names one ("p1@s2"). Lines saved before sizes name only
 * the product and keep the bare id.
 */
export function cartLineKey(line: { productId: string; sizeId?: string | null }): string {
  return line.sizeId ? `${line.productId}@${line.sizeId}` : line.productId;
}

/** What the browser posts for its lines: product, size when chosen, quantity (never a price). */
export function linesInput(lines: ReadonlyArray<{ id: string; size?: string; quantity: number }>): Array<{ productId: string; sizeId?: string; quantity: number }> {
  return lines.map((l) => (l.size ? { productId: l.id, sizeId: l.size, quantity: l.quantity } : { productId: l.id, quantity: l.quantity }));
}

/** The URL that asks the cart loader for a quote of these lines (ids and quantities: the server decides prices). */
export function quoteUrl(lines: ReadonlyArray<{ id: string; size?: string; quantity: number }>, couponCode?: string | null, zoneId?: string | null, rewardPoints?: number): string {
  const params = new URLSearchParams({ quote: JSON.stringify(linesInput(lines)) });
  if (couponCode) params.set("coupon", couponCode);
  if (zoneId) params.set("zone", zoneId);
  if (rewardPoints) params.set("points", String(rewardPoints));
  return `/cart?${params}`;
}
