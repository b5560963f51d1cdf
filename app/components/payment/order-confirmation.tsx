import { OrderSummary } from "~/components/payment/order-summary";
import { StatusPanel } from "~/components/payment/status-panel";
import { TrackingTimeline, type TrackingView } from "~/components/tracking-timeline";
import { ButtonLink } from "~/components/ui/button";
import { formatDateZA } from "~/modules/catalog/product.logic";
import type { ChosenDeliveryView } from "~/modules/couriers/shipments.server";
import type { OrderView } from "~/modules/samples/order-view.server";
import { formatRand } from "~/utils/money";

/** The order confirmation page's views (app/routes/order-confirmation.tsx): the order found, the test order, loading. */

/** A paid order's invoice: its number and its PDF (docs/decisions/019). */
export type Invoice = { number: string; href: string };

export function TestOrderView() {
  return (
    <StatusPanel
      tone="success"
      eyebrow="Test order"
      title="Thank You for Your Order!"
      actions={
        <>
          <ButtonLink to="/shop" size="lg">
            Continue Shopping
          </ButtonLink>
          <ButtonLink to="/profile" variant="secondary" size="lg">
            View Order Status
          </ButtonLink>
        </>
      }
    >
      <p>
        Order <span className="font-medium text-ink">#test</span>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        <span className="text-success">Paid</span>
      </p>
      <p className="mt-3">This is the shop's test order: nothing was charged and nothing will be delivered.</p>
    </StatusPanel>
  );
}

export function LoadingView() {
  return (
    <StatusPanel tone="pending" eyebrow="Order confirmation" title="Loading your order…" live>
      <p>One moment while we fetch your order details.</p>
    </StatusPanel>
  );
}

const PAYMENT_LABEL: Record<OrderView["paymentStatus"], string> = {
  pending: "Awaiting payment confirmation",
  completed: "Paid",
  failed: "Payment failed",
  cancelled: "Cancelled",
};

/** A gift card the order bought, as its buyer sees it. */
export interface SoldCardView {
  last4: string;
  amountCents: number;
  to: string | null;
  sendOn: string | null;
  emailed: boolean;
  /** its printable card; null once cancelled */
  pdf: string | null;
}

function SoldCards({ cards }: { cards: SoldCardView[] }) {
  return (
    <section aria-labelledby="gift-cards-heading" className="border border-gold/50 bg-white/80 p-5 sm:p-6" data-testid="sold-gift-cards">
      <h2 id="gift-cards-heading" className="eyebrow font-sans text-ink">
        Your gift cards
      </h2>
      <ul className="mt-4 divide-y divide-line">
        {cards.map((c) => (
          <li key={c.last4} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 text-sm">
            <span className="min-w-0">
              <span className="font-medium text-ink">{formatRand(c.amountCents)}</span>
              <span className="text-ink-soft">{c.to ? ` for ${c.to}` : ""} · ending {c.last4}</span>
              <span className="block text-xs text-muted">{c.emailed ? "E-mailed" : c.sendOn ? `To be e-mailed on ${formatDateZA(`${c.sendOn}T10:00:00.000Z`)}` : ""}</span>
            </span>
            {c.pdf ? (
              <a href={c.pdf} download className="shrink-0 text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink">
                Printable card<span className="sr-only"> ending {c.last4}</span> <span aria-hidden="true" className="text-xs text-ink-soft">(PDF)</span>
              </a>
            ) : (
              <span className="text-xs text-muted">Cancelled</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function FoundView({
  order,
  invoice,
  tracking,
  delivery,
  giftCardPayments,
  soldCards = [],
}: {
  order: OrderView;
  invoice: Invoice | null;
  tracking: TrackingView | null;
  delivery: ChosenDeliveryView | null;
  giftCardPayments: Array<{ last4: string; amountCents: number }>;
  soldCards?: SoldCardView[];
}) {
  const address = order.shippingAddress;
  // An order of gift cards only has nothing to prepare or deliver: its cards are e-mailed (docs/decisions/053).
  const onlyGiftCards = order.lines.length > 0 && order.lines.every((l) => l.isGiftCard);
  return (
    <main className="relative">
      <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-x-0 top-0 h-[30rem] [mask-image:linear-gradient(to_bottom,black_40%,transparent)]" />
      <div className="container-page relative pt-32 pb-20">
        <header className="mx-auto max-w-2xl text-center">
          <p className="eyebrow">Order confirmed</p>
          <h1 className="mt-3 text-4xl leading-tight sm:text-5xl">Thank You for Your Order!</h1>
          <span aria-hidden="true" className="mx-auto my-6 block h-px w-12 bg-gold-light" />
          <p className="text-ink-soft">
            Order <span className="font-medium text-ink">#{order.shortId}</span>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, placed </span>
            <time dateTime={order.createdAt}>{formatDateZA(order.createdAt)}</time>
          </p>
          <p className="mt-2 text-sm">
            <span className={order.paymentStatus === "completed" ? "text-success" : order.paymentStatus === "pending" ? "text-gold" : "text-danger"}>
              {PAYMENT_LABEL[order.paymentStatus]}
            </span>
            {invoice ? (
              <>
                <span aria-hidden="true" className="text-ink-soft"> · </span>
                {/* A file, not a page: the browser downloads it (no client-side navigation). */}
                <a href={invoice.href} download className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink">
                  Download invoice {invoice.number}
                  <span className="sr-only"> as a PDF</span>
                  <span aria-hidden="true" className="text-xs text-ink-soft"> (PDF)</span>
                </a>
              </>
            ) : null}
          </p>
        </header>

        <div className="mx-auto mt-12 grid max-w-5xl gap-10 lg:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)] lg:gap-14">
          <section aria-labelledby="items-heading" className="h-fit border border-line bg-white/80 p-5 sm:p-8">
            <h2 id="items-heading" className="eyebrow font-sans text-ink">
              Your order
            </h2>
            <div className="mt-4">
              <OrderSummary
                lines={order.lines}
                totals={{
                  subtotalCents: order.subtotalCents,
                  discountCents: order.discountCents,
                  shippingCents: order.shippingCents,
                  totalAmountCents: order.totalAmountCents,
                  couponCode: order.couponCode,
                  sampleCreditCents: order.sampleCreditCents,
                  sampleCreditLabel: order.sampleCreditLabel,
                  pointsUsed: order.pointsUsed,
                  pointsCents: order.pointsCents,
                  referralCents: order.referralCents,
                }}
                giftCardPayments={giftCardPayments}
              />
            </div>
          </section>

          <div className="space-y-8">
            {soldCards.length ? <SoldCards cards={soldCards} /> : null}
            {tracking ? <TrackingTimeline tracking={tracking} /> : null}
            <section aria-labelledby="next-heading" className="bg-ink p-6 text-ivory sm:p-8">
              <h2 id="next-heading" className="text-3xl text-ivory">
                What's Next?
              </h2>
              {onlyGiftCards ? (
                <p className="mt-6 text-sm text-ivory/85">
                  Each gift card is e-mailed with its code on the day you chose, to you or to the person you named. Once the payment is confirmed you can also print
                  each card from this page.
                </p>
              ) : (
                <ol className="mt-6 space-y-5 text-sm text-ivory/85">
                  <li className="flex gap-4">
                    <span aria-hidden="true" className="font-display text-2xl leading-none text-gold-light">
                      1
                    </span>
                    <div>
                      <p className="font-medium text-ivory">Order processing</p>
                      <p className="mt-1">We are preparing your fragrances with care and will dispatch them shortly.</p>
                    </div>
                  </li>
                  <li className="flex gap-4">
                    <span aria-hidden="true" className="font-display text-2xl leading-none text-gold-light">
                      2
                    </span>
                    <div>
                      <p className="font-medium text-ivory">Delivery</p>
                      <p className="mt-1">Once your order ships you will receive an e-mail with its tracking number. Delivery takes 2 to 7 working days.</p>
                    </div>
                  </li>
                </ol>
              )}
            </section>

            {delivery?.point ? (
              <section aria-labelledby="collect-heading" className="border-t border-line pt-6">
                <h2 id="collect-heading" className="eyebrow font-sans text-ink">
                  Collect from
                </h2>
                <address className="mt-3 text-sm not-italic leading-relaxed text-ink-soft">
                  <span className="text-ink">{delivery.point.name}</span>
                  <br />
                  {delivery.point.streetAddress}
                  <br />
                  {[delivery.point.suburb, delivery.point.city, delivery.point.postalCode].filter(Boolean).join(", ")}
                </address>
                {delivery.point.hours.length ? <p className="mt-2 text-xs text-muted">{delivery.point.hours.join(" · ")}</p> : null}
              </section>
            ) : delivery?.serviceName ? (
              <p className="border-t border-line pt-6 text-sm text-ink-soft">
                {delivery.serviceName}
                {delivery.window ? ` · ${delivery.window}` : ""}
              </p>
            ) : null}
            <section aria-labelledby="address-heading" className="border-t border-line pt-6">
              <h2 id="address-heading" className="eyebrow font-sans text-ink">
                {delivery?.point || onlyGiftCards ? "Your details" : "Delivering to"}
              </h2>
              <address className="mt-3 text-sm not-italic leading-relaxed text-ink-soft">
                <span className="text-ink">{address.name}</span>
                <br />
                {address.street}
                <br />
                {[address.suburb, address.city].filter(Boolean).join(", ")}
                <br />
                {[address.province, address.postalCode].filter(Boolean).join(" ")}
                <br />
                {address.telephone}
              </address>
            </section>

            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
              <ButtonLink to="/shop" size="lg" className="w-full">
                Continue Shopping
              </ButtonLink>
              <ButtonLink to="/profile" variant="secondary" size="lg" className="w-full">
                View Order Status
              </ButtonLink>
            </div>
          </div>
        </div>
      </div>
    </main>
  );
}
