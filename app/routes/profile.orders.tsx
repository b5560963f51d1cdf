/** /profile/orders: the person's orders, and apart, folded, the payment attempts that didn't go through. */
import { Link } from "react-router";
import type { Route } from "./+types/profile.orders";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { countOwnClosedAttempts, listOwnOrders, type OwnOrder } from "~/modules/orders/order-read.server";
import { returnPath } from "~/modules/returns/returns.logic";
import { formatDateZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { formatRand } from "~/utils/money";
import { SampleCredits } from "~/components/samples/sample-credits";
import { customerCredits } from "~/modules/samples/sample-orders.server";

const ATTEMPTS_SHOWN = 20;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const db = getDb();
  const [orders, attempts, attemptCount, credits] = await Promise.all([
    listOwnOrders(db, user.id),
    // Payment attempts that didn't go through are listed apart, folded, newest few (docs/decisions/015).
    listOwnOrders(db, user.id, ATTEMPTS_SHOWN, "attempts"),
    countOwnClosedAttempts(db, user.id),
    // the credits their samples earned (docs/decisions/054)
    customerCredits(db, user.id),
  ]);
  return {
    orders: orders.map(orderRow),
    attempts: { rows: attempts.map(orderRow), count: attemptCount },
    credits: credits.map((c) => ({ id: c.id, name: c.name, slug: c.slug, amount: formatRand(c.amountCents), until: formatDateZA(c.expiresAt), state: c.state })),
    openCreditCents: credits.filter((c) => c.state === "open").reduce((s, c) => s + c.amountCents, 0),
  };
}

function orderRow(o: OwnOrder) {
  return {
    id: o.id,
    shortId: shortOrderId(o.id),
    date: formatDateZA(o.createdAt),
    status: o.status,
    paymentStatus: o.paymentStatus,
    total: formatRand(o.totalCents),
    // A paid order's invoice, downloadable from its row (docs/decisions/019).
    invoice: o.paymentStatus === "completed" && o.invoiceNumber !== null ? { number: formatInvoiceNumber(o.invoiceNumber, env().INVOICE_PREFIX), href: invoicePath(o.id) } : null,
    // A delivered, paid order's items can be sent back from here (docs/decisions/041); the page says until when.
    returnHref: o.paymentStatus === "completed" && o.status === "delivered" ? returnPath(o.id) : null,
  };
}
type OrderRow = ReturnType<typeof orderRow>;

export default function ProfileOrders({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <OrdersTab orders={loaderData.orders} attempts={loaderData.attempts} />
      <SampleCredits credits={loaderData.credits} totalOpenCents={loaderData.openCreditCents} />
    </>
  );
}

function OrdersTab({ orders, attempts }: { orders: OrderRow[]; attempts: { rows: OrderRow[]; count: number } }) {
  return (
    <div>
      <h2 id="profile-section-title" className="text-2xl text-ink">Order History</h2>
      {orders.length === 0 ? (
        <div className="mt-8 border border-line bg-white/60 px-6 py-12 text-center">
          <p className="font-display text-2xl text-ink">No orders found</p>
          <p className="mt-2 text-sm text-ink-soft">When you place an order it will appear here.</p>
          <ButtonLink to="/shop" className="mt-6">
            Start Shopping
          </ButtonLink>
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-line border-y border-line">
          {orders.map((o) => (
            <OrderItem key={o.id} order={o} label={statusLabel(o.status)} />
          ))}
        </ul>
      )}
      {attempts.count > 0 ? (
        <details className="group mt-8">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 text-sm text-ink-soft hover:text-ink [&::-webkit-details-marker]:hidden">
            <span>Payment attempts that didn't go through ({attempts.count})</span>
            <span aria-hidden="true" className="text-gold transition-transform group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-4 max-w-xl text-sm leading-relaxed text-ink-soft">
            These checkouts were closed before a payment was completed: cancelled on the payment page, declined, left
            unpaid for too long, or replaced by a later attempt. Any coupon they held has been released.
          </p>
          <ul className="mt-4 divide-y divide-line border-y border-line text-ink-soft">
            {attempts.rows.map((o) => (
              <OrderItem key={o.id} order={o} label={o.paymentStatus === "failed" ? "Payment failed" : "Not paid"} muted />
            ))}
          </ul>
          {attempts.count > attempts.rows.length ? (
            <p className="mt-3 text-xs text-muted">The {attempts.rows.length} most recent are shown.</p>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}

function OrderItem({ order: o, label, muted = false }: { order: OrderRow; label: string; muted?: boolean }) {
  return (
    <li>
      <Link
        to={`/order-confirmation?id=${encodeURIComponent(o.id)}`}
        className="grid grid-cols-2 gap-x-4 gap-y-1 py-4 hover:bg-sand/60 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-center sm:px-2"
        aria-label={`${muted ? "Payment attempt" : "Order"} ${o.shortId}, ${o.date}, ${label}, ${o.total}`}
      >
        <span className={`font-mono text-sm ${muted ? "text-ink-soft" : "text-ink"}`}>#{o.shortId}</span>
        <span className={`text-right text-sm sm:order-4 ${muted ? "text-ink-soft" : "font-medium text-ink"}`}>{o.total}</span>
        <span className="text-sm text-ink-soft">{o.date}</span>
        <span className="text-right sm:text-left">
          <span
            className={`inline-block border px-2 py-0.5 text-[0.7rem] uppercase tracking-[0.14em] ${
              muted ? "border-line text-muted" : "border-gold/40 text-gold"
            }`}
          >
            {label}
          </span>
        </span>
      </Link>
      {o.invoice || o.returnHref ? (
        <p className="-mt-2 flex flex-wrap gap-x-5 gap-y-1 pb-4 text-xs sm:px-2">
          {o.invoice ? (
            // A file, not a page (and not inside the row's link): the browser downloads it.
            <a href={o.invoice.href} download className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink">
              Invoice {o.invoice.number}
              <span className="sr-only"> for order {o.shortId}, as a PDF</span>
              <span aria-hidden="true" className="text-ink-soft"> (PDF)</span>
            </a>
          ) : null}
          {o.returnHref ? (
            <Link to={o.returnHref} className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink">
              Return items<span className="sr-only"> from order {o.shortId}</span>
            </Link>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

function statusLabel(status: string) {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

