import { useEffect, useMemo, useState } from "react";
import { useFetcher } from "react-router";
import { quoteUrl, type CartQuote, type CartQuoteAnswer, type CartQuoteLine } from "~/modules/orders/cart-quote";
import { MAX_LINE_QUANTITY } from "~/modules/orders/orders.logic";
import { clearAppliedCoupon, readAppliedCoupon, writeAppliedCoupon } from "./applied-coupon.browser";
import { lineKeyOf, readCart, writeCart, type CartLine } from "./cart.browser";

/** The quote for the stored cart and coupon, refreshed whenever either changes. Shared with /checkout. */
export function useCartQuote(lines: CartLine[], couponCode: string | null, zoneId?: string | null, rewardPoints?: number) {
  const fetcher = useFetcher<CartQuoteAnswer>();
  const url = quoteUrl(lines, couponCode, zoneId, rewardPoints);
  const tooMany = lines.some((l) => l.quantity > MAX_LINE_QUANTITY);
  useEffect(() => {
    // Adding the same product repeatedly can pass the per-line limit: bring the stored line back to 100.
    if (tooMany) writeCart(readCart().map((l) => ({ ...l, quantity: Math.min(l.quantity, MAX_LINE_QUANTITY) })));
    else if (lines.length > 0) fetcher.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, lines.length, tooMany]);
  const data = fetcher.data;
  const quote = data?.quote ?? null;
  const error = fetcher.state === "idle" && data && !data.quote ? (data.error ?? "Unable to calculate your total") : null;
  return { quote, error, loading: fetcher.state !== "idle" || (!quote && !error && lines.length > 0) };
}

/**
 * What the quote tells the browser to fix in its storage: products that no longer exist leave the cart; a coupon
 * that no longer applies is dropped with the reason; the stored discount follows the server's figure.
 */
export function useReconcileCart(quote: CartQuote | null) {
  const [notice, setNotice] = useState<string | null>(null);
  const [couponNotice, setCouponNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!quote) return;
    if (quote.missingProductIds.length) {
      const gone = new Set(quote.missingProductIds);
      writeCart(readCart().filter((l) => !gone.has(lineKeyOf(l))));
      setNotice("Some items in your cart are no longer available and have been removed.");
    }
    const stored = readAppliedCoupon();
    if (stored && quote.couponError) {
      clearAppliedCoupon();
      setCouponNotice(`Coupon ${stored.code} was removed: ${quote.couponError}.`);
    } else if (stored && quote.coupon && quote.coupon.code === stored.code && quote.coupon.discountAmount !== stored.discountAmount) {
      writeAppliedCoupon({ ...stored, discountAmount: quote.coupon.discountAmount });
    }
  }, [quote]);
  return { notice, couponNotice, setCouponNotice };
}

/**
 * The cart page's lines (app/routes/cart.tsx) in the order the shopper added them: the server's figures once they
 * match what is stored, until then the stored line at its stored price, marked pending.
 */
export function useShownLines(lines: CartLine[], quote: CartQuote | null): Array<{ line: CartQuoteLine; pending: boolean }> {
  return useMemo(() => {
    const quoted = new Map((quote?.lines ?? []).map((l) => [l.key, l]));
    return lines.map((l) => {
      const q = quoted.get(lineKeyOf(l));
      return q && q.quantity === l.quantity ? { line: q, pending: false } : { line: { ...pendingLine(l), slug: q?.slug ?? "", image: q?.image ?? null }, pending: true };
    });
  }, [lines, quote]);
}

function pendingLine(l: CartLine): CartQuoteLine {
  return {
    productId: l.id,
    sizeId: l.size ?? "",
    sizeLabel: l.sizeLabel ?? "",
    sizeCode: "",
    key: lineKeyOf(l),
    name: l.name,
    slug: "",
    image: null,
    quantity: l.quantity,
    basePriceCents: l.price,
    wasPriceCents: null,
    unitPriceCents: l.price,
    lineTotalCents: l.price * l.quantity,
    tierApplied: false,
    nextTier: null,
    stockLeft: null,
    stockProblem: null,
  };
}
