import type { AdminOrder } from "~/modules/orders/order-admin.server";
import { paymentMethodShort } from "~/modules/payments/payment-methods";
import { formatRand } from "~/utils/money";
import { Fold } from "./fold";

/** What the owner reads of one order: the admin orders list's row (the module's AdminOrder), with its short id and its stamps. */
export type OrderForOwner = AdminOrder & { shortId: string; stamps: Array<{ label: string; at: string | null }> };

const label = "text-[0.68rem] font-medium uppercase tracking-[0.16em] text-muted";

/**
 * An order's detail under its row (SPEC §2: lines, address, coupon, discount, shipping, payment id, timestamps,
 * notes, tracking number): a native <details>, so it opens without JavaScript and stays out of the way until asked.
 */
export function OrderDetail({
  order,
  hint,
  invoice,
}: {
  order: OrderForOwner;
  /** a yellow hint beside the summary (SPEC §2: the EFT one) */
  hint?: string;
  /** the paid order's invoice: its number and where its PDF is downloaded (docs/decisions/019) */
  invoice?: { number: string; href: string };
}) {
  const a = order.shippingAddress;
  const items = order.lines.reduce((n, l) => n + l.quantity, 0);
  return (
    <Fold
      label="Details"
      summaryClassName="flex-wrap gap-x-3 gap-y-1"
      note={
        <>
          <span>
            {items} {items === 1 ? "item" : "items"} · {a.city}, {a.province}
            {order.trackingNumber ? ` · tracking ${order.trackingNumber}` : ""}
          </span>
          <span className="sr-only"> of order {order.shortId}</span>
          {hint ? <span className="basis-full bg-amber-50 px-2 py-1 text-amber-900 ring-1 ring-amber-200 sm:ml-auto sm:basis-auto">{hint}</span> : null}
        </>
      }
    >
      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0">
          <table className="w-full text-sm">
            <caption className={`${label} pb-2 text-left`}>Items</caption>
            <thead className="sr-only">
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Quantity and price</th>
                <th scope="col">Line total</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((l) => (
                <tr key={l.id} className="border-b border-line/70">
                  <td className="py-2 pr-3 text-ink">
                    {l.name}
                    {l.stockShort ? <span className="block text-xs text-danger">Short of stock: {l.stockShort} not in stock when paid</span> : null}
                  </td>
                  <td className="whitespace-nowrap py-2 pr-3 text-ink-soft tabular-nums">
                    {l.quantity} × {formatRand(l.unitPriceCents)}
                  </td>
                  <td className="whitespace-nowrap py-2 text-right tabular-nums">{formatRand(l.totalPriceCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="mt-3 space-y-1 text-sm">
            <Money term="Subtotal" cents={order.subtotalCents} />
            {order.discountCents > 0 || order.couponCode ? <Money term={`Discount${order.couponCode ? ` (${order.couponCode})` : ""}`} cents={-order.discountCents} /> : null}
            <Money term="Delivery" cents={order.shippingCents} free />
            <div className="flex justify-between border-t border-ink/70 pt-2 font-semibold text-ink">
              <dt>Total</dt>
              <dd className="tabular-nums">{formatRand(order.totalAmountCents)}</dd>
            </div>
            {order.originalTotalCents !== null ? <p className="text-xs text-muted">Before the coupon: {formatRand(order.originalTotalCents)}</p> : null}
          </dl>
        </div>
        <div className="grid min-w-0 gap-5 sm:grid-cols-2 lg:grid-cols-1">
          <div>
            <p className={label}>Deliver to</p>
            <address className="mt-1 text-sm not-italic leading-relaxed text-ink">
              {a.name}
              <br />
              {a.street}, {a.suburb}
              <br />
              {a.city} {a.postalCode}, {a.province}
              <br />
              <a href={`tel:${a.telephone}`} className="underline-offset-4 hover:underline">
                {a.telephone}
              </a>
            </address>
          </div>
          <div>
            <p className={label}>Payment</p>
            <p className="mt-1 break-all text-sm text-ink">
              {paymentMethodShort(order.paymentMethod)}
              {order.paymentProvider && order.paymentProvider !== "eft" ? <span className="text-ink-soft"> via {order.paymentProvider}</span> : null}
              {order.paymentId ? <span className="block font-mono text-xs text-ink-soft">{order.paymentId}</span> : null}
            </p>
            {invoice ? (
              <p className="mt-1 text-sm">
                <a href={invoice.href} download className="text-gold underline underline-offset-4 hover:text-ink">
                  Invoice {invoice.number} <span className="text-xs text-ink-soft">(PDF)</span>
                </a>
              </p>
            ) : null}
          </div>
          <div>
            <p className={label}>Tracking number</p>
            <p className="mt-1 break-all font-mono text-sm text-ink">{order.trackingNumber ?? <span className="font-sans text-muted">Not yet</span>}</p>
          </div>
          <div>
            <p className={label}>Timeline</p>
            <dl className="mt-1 space-y-0.5 text-xs">
              {order.stamps.map((s) => (
                <div key={s.label} className="flex justify-between gap-3">
                  <dt className="text-ink-soft">{s.label}</dt>
                  <dd className="tabular-nums text-ink">{s.at ?? "–"}</dd>
                </div>
              ))}
            </dl>
          </div>
          <div className="sm:col-span-2 lg:col-span-1">
            <p className={label}>Notes</p>
            <p className="mt-1 whitespace-pre-line break-words text-sm text-ink">{order.notes ?? <span className="text-muted">None</span>}</p>
          </div>
        </div>
      </div>
    </Fold>
  );
}

function Money({ term, cents, free = false }: { term: string; cents: number; free?: boolean }) {
  return (
    <div className="flex justify-between gap-3 text-ink-soft">
      <dt>{term}</dt>
      <dd className="tabular-nums">{free && cents === 0 ? "Free" : formatRand(cents)}</dd>
    </div>
  );
}
