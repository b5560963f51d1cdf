import { data, Link } from "react-router";
import type { Route } from "./+types/payment.eft";
import { ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { CopyValue } from "~/components/payment/copy-value";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { staffViewer } from "~/modules/accounts/staff-viewer";
import { bankTransferView } from "~/modules/payments/bank-transfer.server";
import { DomainError } from "~/utils/errors";
import { formatRand } from "~/utils/money";

/**
 * /payment/eft/:orderId — how to pay an order by bank transfer: the shop's account, the amount and the reference,
 * and until when the order is held. The shopper's own order only (an admin may look at any); the same details go
 * out by e-mail when the order is placed.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    return data(await bankTransferView(getDb(), params.orderId, staffViewer(user, "orders.view")), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof DomainError) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

export function meta() {
  return [{ title: "Pay by bank transfer" }, { name: "robots", content: "noindex" }];
}

export default function BankTransfer({ loaderData: d }: Route.ComponentProps) {
  const paid = d.paymentStatus === "completed";
  const open = d.status === "pending" && d.paymentStatus === "pending";
  const rows: Array<[string, string, boolean]> = [
    ["Bank", d.bank.bank, false],
    ["Account name", d.bank.accountName, false],
    ["Account number", d.bank.accountNumber, true],
    ["Branch code", d.bank.branchCode, true],
    ["Account type", d.bank.accountType, false],
  ];
  return (
    <main className="flex-1 bg-sand/60">
      <div className="container-page flex justify-center pt-28 pb-20 sm:pt-32">
        <section aria-labelledby="eft-heading" className="w-full max-w-lg border border-line bg-white px-6 py-8 shadow-[0_24px_60px_-30px_rgb(28_23_20/0.35)] sm:px-10 sm:py-10">
          <p className="eyebrow">Order #{d.shortId}</p>
          <h1 id="eft-heading" className="mt-2 text-3xl sm:text-4xl">
            {paid ? "Payment received" : open ? "Pay by bank transfer" : "This order is closed"}
          </h1>
          {paid ? (
            <div className="mt-6 space-y-5">
              <Notice tone="success">Thank you: your transfer has reached us and your order is being prepared.</Notice>
              <ButtonLink to={`/order-confirmation?id=${d.id}`} className="w-full">
                View Order Details
              </ButtonLink>
            </div>
          ) : open ? (
            <>
              <p className="mt-3 text-sm leading-relaxed text-ink-soft">
                Transfer the amount below from your banking app, with the reference exactly as shown so we can match it. We ship as soon as it reaches us
                (1–2 working days between banks) and e-mail you then.
              </p>
              <div className="mt-7 flex items-end justify-between gap-4 border-y border-ink/80 py-4">
                <span className="text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">Amount</span>
                <span className="font-display text-4xl tabular-nums text-ink">{formatRand(d.amountCents)}</span>
              </div>
              <div className="mt-5 flex items-center justify-between gap-4 bg-blush/60 px-4 py-3">
                <span>
                  <span className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">Your reference</span>
                  <span className="font-mono text-2xl font-semibold tracking-[0.12em] text-ink">{d.reference}</span>
                </span>
                <CopyValue value={d.reference} label="reference" />
              </div>
              <dl className="mt-5 divide-y divide-line text-sm">
                {rows.map(([term, value, copy]) => (
                  <div key={term} className="flex items-center justify-between gap-4 py-3">
                    <dt className="text-ink-soft">{term}</dt>
                    <dd className="flex min-w-0 items-center gap-3 text-right font-medium text-ink">
                      <span className={copy ? "font-mono tabular-nums" : "break-words"}>{value}</span>
                      {copy ? <CopyValue value={value} label={term.toLowerCase()} /> : null}
                    </dd>
                  </div>
                ))}
              </dl>
              <p className="mt-6 border-l-2 border-gold pl-4 text-sm leading-relaxed text-ink-soft">
                We hold your order until <strong className="font-semibold text-ink">{d.heldUntil}</strong>. If no transfer has arrived by then, it is
                cancelled and we let you know. These details are in your e-mail too.
              </p>
            </>
          ) : (
            <div className="mt-6 space-y-5">
              <Notice tone="info">No transfer reached us in time, so this order was cancelled. If you did pay, reply to our e-mail with your proof of payment.</Notice>
              <ButtonLink to="/shop" variant="secondary" className="w-full">
                Continue Shopping
              </ButtonLink>
            </div>
          )}
          <p className="mt-8 text-center text-xs text-muted">
            <Link to="/profile/orders" className="underline underline-offset-4">
              Your orders
            </Link>
          </p>
        </section>
      </div>
    </main>
  );
}
