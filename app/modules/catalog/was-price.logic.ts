/**
 * The "was price" (issue 32, docs/decisions/044): the price a product had before a sale, shown struck through beside
 * its price. Stored as the owner typed it (or as a WooCommerce export's regular price); shown only while it is higher
 * than the price, so a was price left behind after a price rise never reads as a discount.
 */
export function shownWasPrice(priceCents: number, wasPriceCents: number | null | undefined): number | null {
  return wasPriceCents != null && wasPriceCents > priceCents ? wasPriceCents : null;
}
