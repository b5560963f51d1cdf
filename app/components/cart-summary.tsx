import type { CartQuote } from "~/modules/orders/cart-quote";
import { couponDiscountCents } from "~/modules/pricing/totals.logic";
import { formatRand } from "~/utils/money";
import type { DiscountType } from "~/modules/coupons/coupons.logic";
import { creditLabel } from "~/modules/samples/samples.logic";

const DISCOUNT_LABEL: Record<DiscountType, string> = { percentage: "Discount", fixed_amount: "Discount", free_delivery: "Free delivery" };

/** The free-delivery nudge: 'Spend R X more for free delivery' with a fine progress line, or the good news. */
export function FreeDeliveryHint({ quote }: { quote: CartQuote }) {
  if (quote.subtotalCents === 0) return null;
  if (quote.freeDeliveryRemainingCents > 0) {
    const done = Math.min(100, Math.max(4, Math.round(((quote.freeThresholdCents - quote.freeDeliveryRemainingCents) / Math.max(1, quote.freeThresholdCents)) * 100)));
    return (
      <div className="space-y-2" data-testid="free-delivery-hint">
        <p className="text-sm text-ink">
          Spend <span className="font-semibold">{formatRand(quote.freeDeliveryRemainingCents)}</span> more for free delivery
        </p>
        <div className="h-px w-full bg-line" aria-hidden="true">
          <div className="h-px bg-gold" style={{ width: `${done}%` }} />
        </div>
      </div>
    );
  }
  if (quote.deliveryFree) {
    return (
      <p className="text-sm text-success" data-testid="free-delivery-hint">
        You qualify for free delivery
      </p>
    );
  }
  return null;
}

/** Subtotal, discount, shipping, total and the VAT it includes — the server's numbers, never the browser's. */
export function CartTotals({ quote, shippingLabel = "Shipping" }: { quote: CartQuote; shippingLabel?: string }) {
  const couponCents = couponDiscountCents({ discountCents: quote.discountCents, sampleCreditCents: quote.sampleCreditCents, pointsCents: quote.points?.cents, referralCents: quote.friendReward?.cents });
  return (
    <dl className="space-y-3 text-sm" aria-label="Order totals">
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">Subtotal</dt>
        <dd className="text-ink" data-testid="subtotal">
          {formatRand(quote.subtotalCents)}
        </dd>
      </div>
      {quote.coupon && couponCents > 0 ? (
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">
            {DISCOUNT_LABEL[quote.coupon.discountType]} <span className="text-xs tracking-[0.08em] text-gold">({quote.coupon.code})</span>
          </dt>
          <dd className="text-success" data-testid="discount">
            −{formatRand(couponCents)}
          </dd>
        </div>
      ) : null}
      {quote.sampleCreditCents ? (
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">{creditLabel((quote.sampleCredits ?? []).map((c) => c.name))}</dt>
          <dd className="text-success" data-testid="sample-credit">
            −{formatRand(quote.sampleCreditCents)}
          </dd>
        </div>
      ) : null}
      {quote.friendReward?.cents ? (
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">Friend&rsquo;s welcome reward</dt>
          <dd className="text-success" data-testid="friend-reward">
            −{formatRand(quote.friendReward.cents)}
          </dd>
        </div>
      ) : null}
      {quote.friendReward?.refusal ? (
        <p className="text-xs text-muted" data-testid="friend-reward-note">
          {quote.friendReward.refusal}
        </p>
      ) : null}
      {quote.points?.cents ? (
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">
            Reward points <span className="text-xs text-muted">({quote.points.used.toLocaleString("en-ZA")})</span>
          </dt>
          <dd className="text-success" data-testid="points-discount">
            −{formatRand(quote.points.cents)}
          </dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">{shippingLabel}</dt>
        <dd className="text-ink" data-testid="shipping">
          {quote.shippingCents === 0 ? "Free" : formatRand(quote.shippingCents)}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-4 border-t border-line pt-4">
        <dt className="text-xs font-medium uppercase tracking-[0.18em] text-ink">Total</dt>
        <dd className="font-display text-3xl text-ink" data-testid="total">
          {formatRand(quote.totalCents)}
        </dd>
      </div>
      <div className="flex justify-between gap-4 text-xs text-muted">
        <dt>VAT included (15%)</dt>
        <dd data-testid="vat">{formatRand(quote.vatIncludedCents)}</dd>
      </div>
    </dl>
  );
}
