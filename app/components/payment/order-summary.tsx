import { couponDiscountCents } from "~/modules/pricing/totals.logic";
import { formatRand } from "~/utils/money";

export interface SummaryLine {
  /** a gift card sold (docs/decisions/053): not subject to VAT when sold */
  isGiftCard?: boolean;
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
}

export interface SummaryTotals {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalAmountCents: number;
  couponCode: string | null;
  /** the part of discountCents that is sample credit, with its label (docs/decisions/054) */
  sampleCreditCents?: number;
  sampleCreditLabel?: string | null;
  /** reward points spent, the part of discountCents they paid (docs/decisions/062) */
  pointsUsed?: number;
  pointsCents?: number;
  /** a friend's reward on their first order (docs/decisions/063) */
  referralCents?: number;
}

/** What the VAT line says: a gift card is not subject to VAT when sold (VAT Act s10(18)); what it buys later is. */
export function vatNote(lines: ReadonlyArray<Pick<SummaryLine, "isGiftCard">>): string {
  const cards = lines.filter((l) => l.isGiftCard).length;
  if (cards === 0) return "VAT included at 15%";
  if (cards === lines.length) return "Gift cards carry no VAT when sold: VAT is charged on what they buy";
  return "VAT included at 15%, except on gift cards";
}

/**
 * An order's lines (name, quantity x unit price, line total) and its totals, as stored on the server; gift cards that
 * paid it are payments received, listed below the total (docs/decisions/053), never a discount.
 */
export function OrderSummary({ lines, totals, giftCardPayments = [] }: { lines: SummaryLine[]; totals: SummaryTotals; giftCardPayments?: Array<{ last4: string; amountCents: number }> }) {
  const byCards = giftCardPayments.reduce((s, p) => s + p.amountCents, 0);
  return (
    <div>
      <ul className="divide-y divide-line border-y border-line">
        {lines.map((line, i) => (
          <li key={i} className="flex items-baseline justify-between gap-4 py-4">
            <div className="min-w-0">
              <p className="font-display text-xl leading-snug text-ink">{line.name}</p>
              <p className="mt-0.5 text-sm text-muted">
                {line.quantity} x {formatRand(line.unitPriceCents)}
              </p>
            </div>
            <p className="shrink-0 text-sm font-medium tabular-nums text-ink">{formatRand(line.totalPriceCents)}</p>
          </li>
        ))}
      </ul>
      <dl className="mt-5 space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">Subtotal</dt>
          <dd className="tabular-nums">{formatRand(totals.subtotalCents)}</dd>
        </div>
        {couponDiscountCents(totals) > 0 ? (
          <div className="flex justify-between gap-4 text-success">
            <dt>Discount{totals.couponCode ? ` (${totals.couponCode})` : ""}</dt>
            <dd className="tabular-nums">-{formatRand(couponDiscountCents(totals))}</dd>
          </div>
        ) : null}
        {totals.referralCents ? (
          <div className="flex justify-between gap-4 text-success" data-testid="friend-reward">
            <dt>Friend&rsquo;s welcome reward</dt>
            <dd className="tabular-nums">-{formatRand(totals.referralCents)}</dd>
          </div>
        ) : null}
        {totals.pointsCents ? (
          <div className="flex justify-between gap-4 text-success" data-testid="points-discount">
            <dt>Reward points ({(totals.pointsUsed ?? 0).toLocaleString("en-ZA")})</dt>
            <dd className="tabular-nums">-{formatRand(totals.pointsCents)}</dd>
          </div>
        ) : null}
        {totals.sampleCreditCents ? (
          <div className="flex justify-between gap-4 text-success" data-testid="sample-credit">
            <dt>{totals.sampleCreditLabel ?? "Sample credit"}</dt>
            <dd className="tabular-nums">-{formatRand(totals.sampleCreditCents)}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="text-ink-soft">Shipping</dt>
          <dd className="tabular-nums">{totals.shippingCents === 0 ? "Free" : formatRand(totals.shippingCents)}</dd>
        </div>
        <div className="flex items-baseline justify-between gap-4 border-t border-line pt-4">
          <dt className="eyebrow text-ink">Total amount</dt>
          <dd className="font-display text-3xl tabular-nums text-ink">{formatRand(totals.totalAmountCents)}</dd>
        </div>
        {giftCardPayments.map((p) => (
          <div key={p.last4} className="flex justify-between gap-4" data-testid="gift-card-payment">
            <dt className="text-ink-soft">Paid by gift card ending {p.last4}</dt>
            <dd className="tabular-nums">-{formatRand(p.amountCents)}</dd>
          </div>
        ))}
        {byCards > 0 && byCards < totals.totalAmountCents ? (
          <div className="flex justify-between gap-4">
            <dt className="text-ink-soft">Rest of the payment</dt>
            <dd className="tabular-nums">{formatRand(totals.totalAmountCents - byCards)}</dd>
          </div>
        ) : null}
      </dl>
      <p className="mt-2 text-right text-xs text-muted">{vatNote(lines)}</p>
    </div>
  );
}
