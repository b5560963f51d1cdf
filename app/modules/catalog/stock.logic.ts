/**
 * Stock as shoppers see it (issue 13, docs/decisions/020). Pure and browser-safe: the card, the product page, Add to
 * Cart, the cart quote and the checkout's refusal all word it here, so they say the same thing.
 *
 * A product's stock is null when the shop doesn't count it (always available), otherwise the bottles left (≥ 0).
 */

/** At or below this many bottles the product page says how many are left. */
export const LOW_STOCK_AT = 5;

export type StockState = { kind: "untracked" } | { kind: "in_stock"; left: number } | { kind: "low"; left: number } | { kind: "out" };

export function stockState(stock: number | null | undefined): StockState {
  if (stock === null || stock === undefined) return { kind: "untracked" };
  if (stock <= 0) return { kind: "out" };
  return stock <= LOW_STOCK_AT ? { kind: "low", left: stock } : { kind: "in_stock", left: stock };
}

export function isOutOfStock(stock: number | null | undefined): boolean {
  return stockState(stock).kind === "out";
}

export const OUT_OF_STOCK = "Out of stock";

/** The short label for cards and the product page: 'Out of stock', 'Only 3 left', or null (nothing to say). */
export function stockLabel(stock: number | null | undefined): string | null {
  const s = stockState(stock);
  if (s.kind === "out") return OUT_OF_STOCK;
  if (s.kind === "low") return `Only ${s.left} left`;
  return null;
}

/** Why Add to Cart is disabled for an out-of-stock product (shown beside the button). */
export const OUT_OF_STOCK_REASON = "This fragrance is out of stock, so it can't be added to your cart. Please check back soon.";

/** Does a cart line ask for more than the product has? (An untracked product never runs out.) */
export function exceedsStock(quantity: number, stock: number | null | undefined): boolean {
  return stock !== null && stock !== undefined && quantity > Math.max(0, stock);
}

/**
 * The shopper's message for a cart line above stock, naming the product and how many are left: the cart shows it on
 * the line and the checkout refuses with it.
 */
export function stockShortMessage(name: string, left: number): string {
  if (left <= 0) return `${name} is out of stock: please remove it from your cart to check out.`;
  return `Only ${left} of ${name} ${left === 1 ? "is" : "are"} left: please lower the quantity to ${left} to check out.`;
}

/** The quantities Add to Cart offers: all of them, or only those the stock covers. */
export function quantitiesWithin<T extends number>(quantities: readonly T[], stock: number | null | undefined): T[] {
  if (stock === null || stock === undefined) return [...quantities];
  return quantities.filter((q) => q <= stock);
}

/** schema.org availability for the product's structured data. */
export function schemaAvailability(stock: number | null | undefined): string {
  return isOutOfStock(stock) ? "https://schema.org/OutOfStock" : "https://schema.org/InStock";
}
