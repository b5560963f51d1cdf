/**
 * /admin/returns/:id — one return and its next step (issue 21 point 8, docs/decisions/041): approve or decline it with a
 * message to the customer, mark it received (putting bottles back in stock), refund it (through the payment provider
 * where its API allows it, otherwise recorded as paid out by EFT) with its credit note. Every step e-mails the customer.
 */
import { useAdminPermissions, useCan } from "~/components/admin/use-admin-permissions";
import { data, Link } from "react-router";
import type { Route } from "./+types/admin.returns.$id";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { MoneyInput } from "~/components/admin/money-input";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { can } from "~/modules/accounts/permissions";
import { INVOICE_PERMISSIONS } from "~/modules/accounts/staff-viewer";
import { adminAction } from "~/modules/admin/admin-action.server";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { approveReturn, declineReturn, getAdminReturn, markPaidByEft, receiveReturn, refundReturn } from "~/modules/returns/returns-admin.server";
import { daysUntil, KIND_LABELS, nextSteps, OWNER_MESSAGE_MAX, reasonLabel, RETURN_MESSAGES, RETURN_STATUS_LABELS } from "~/modules/returns/returns.logic";
import { gather, returnAdminIntent } from "~/modules/returns/returns.schema";
import { env } from "~/utils/env.server";
import { formatDateZA } from "~/utils/dates";
import { formatAmount, formatRand } from "~/utils/money";

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "orders.view");
  // The invoice and the credit note are the bookkeeper's and the refunder's; a packer sees the return without them.
  const invoices = can(admin.permissions, INVOICE_PERMISSIONS);
  const now = new Date();
  const detail = await getAdminReturn(getDb(), params.id ?? "", now);
  if (!detail) throw data({ message: RETURN_MESSAGES.returnNotFound }, { status: 404 });
  const { ret } = detail;
  // the stat cards' short dates ("26 Nov 2026"): the long form wraps on a phone in the cards' large figures
  const day = (iso: string | null) => (iso ? formatDateZA(iso) : null);
  return {
    ...detail,
    ret: invoices ? ret : { ...ret, creditNote: null },
    steps: nextSteps(ret.status),
    days: daysUntil(ret.refundDueAt, now),
    dates: { requested: day(ret.requestedAt)!, due: day(ret.refundDueAt)!, decided: day(ret.decidedAt), received: day(ret.receivedAt), refunded: day(ret.refundedAt), delivered: day(detail.order.deliveredAt) },
    invoice: invoices && detail.order.invoiceNumber !== null ? { number: formatInvoiceNumber(detail.order.invoiceNumber, env().INVOICE_PREFIX), href: invoicePath(detail.order.id) } : null,
  };
}

export const action = adminAction(
  returnAdminIntent,
  {
    approve: (db, { id, message }) => approveReturn(db, id, message),
    decline: (db, { id, message }) => declineReturn(db, id, message),
    receive: (db, { id, restock }) => receiveReturn(db, id, restock),
    refund: (db, { id, amount, method, reference }) => refundReturn(db, id, { amountCents: amount, method, reference }),
    eftPaid: (db, { id, reference }) => markPaidByEft(db, id, reference),
  },
  {
    // Receiving the parcel (and putting bottles back) is the packer's; approving and refunding are money.
    permission: { approve: "orders.money", decline: "orders.money", receive: "orders.fulfil", refund: "orders.money", eftPaid: "orders.money" },
    // money leaves the shop: the password or a passkey again when the last proof is over 10 minutes old
    sensitive: ["refund"],
    record: { type: "return", outside: true },
    failure: { approve: RETURN_MESSAGES.failed, decline: RETURN_MESSAGES.failed, receive: RETURN_MESSAGES.failed, refund: RETURN_MESSAGES.failedRefund, eftPaid: RETURN_MESSAGES.failed },
    // Bottles put back on the shelf change what the storefront shows (receiveReturn announces it after its commit).
    prepare: (fields) => gather(fields, "restock", "restock"),
  },
);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Return for order ${loaderData.order.shortId} | Admin | Scentara` : "Return | Admin | Scentara" }];
}

type Data = Route.ComponentProps["loaderData"];

const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
/** A section's title in the admin's label style (headings take the display face otherwise). */
const sectionTitle = `${label} font-sans`;

export default function ReturnDetail({ loaderData: d }: Route.ComponentProps) {
  const { ret, order } = d;
  const open = d.steps.length > 0;
  return (
    <AdminPage
      title={`Return for order #${order.shortId}`}
      description={`${order.address.name}${order.customerEmail ? ` · ${order.customerEmail}` : ""} · ${KIND_LABELS[ret.kind]}`}
      actions={
        <Link to="/admin/returns" className={buttonClass("ghost", "md")}>
          ← All returns
        </Link>
      }
      stats={[
        { label: "Status", value: RETURN_STATUS_LABELS[ret.status] },
        { label: "Requested", value: d.dates.requested, hint: d.dates.delivered ? `delivered ${d.dates.delivered}` : undefined },
        open
          ? { label: "Refund due", value: d.dates.due, hint: d.overdue ? `Overdue by ${-d.days} ${d.days === -1 ? "day" : "days"}` : d.days === 0 ? "due today" : `in ${d.days} ${d.days === 1 ? "day" : "days"}` }
          : { label: ret.status === "refunded" ? "Refunded" : "Decided", value: (ret.status === "refunded" ? d.dates.refunded : d.dates.decided) ?? "–" },
      ]}
      status={<AdminStatus />}
    >
      {d.overdue ? (
        <p role="alert" className="border border-danger/40 bg-danger/5 px-4 py-3 text-sm text-danger">
          The refund was due on {d.dates.due} (30 days after the request, ECTA s44(3)). Refund it now.
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="items-heading" className="min-w-0 border border-line bg-white p-5">
          <h2 id="items-heading" className={sectionTitle}>
            Items returned
          </h2>
          <table className="mt-3 w-full text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Quantity and price</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {ret.lines.map((l) => (
                <tr key={l.id} className="border-b border-line/70">
                  <td className="py-2 pr-3 text-ink">
                    {l.name}
                    {l.restocked ? <span className="block text-xs text-success">{l.restocked} back in stock</span> : null}
                  </td>
                  <td className="whitespace-nowrap py-2 pr-3 text-ink-soft tabular-nums">
                    {l.quantity} × {formatRand(l.unitPriceCents)}
                  </td>
                  <td className="whitespace-nowrap py-2 text-right tabular-nums">{formatRand(l.quantity * l.unitPriceCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className={label}>Reason</dt>
              <dd className="mt-1 text-ink">{reasonLabel(ret.reason)}</dd>
            </div>
            <div>
              <dt className={label}>Condition</dt>
              <dd className="mt-1 text-ink">{ret.opened ? "Opened, the customer says" : "Unopened, the customer says"}</dd>
            </div>
            {ret.note ? (
              <div className="sm:col-span-2">
                <dt className={label}>The customer's note</dt>
                <dd className="mt-1 whitespace-pre-wrap break-words text-ink">{ret.note}</dd>
              </div>
            ) : null}
            {ret.ownerMessage ? (
              <div className="sm:col-span-2">
                <dt className={label}>Your message to the customer</dt>
                <dd className="mt-1 whitespace-pre-wrap break-words text-ink">{ret.ownerMessage}</dd>
              </div>
            ) : null}
          </dl>
        </section>

        <section aria-labelledby="order-heading" className="min-w-0 border border-line bg-white p-5 text-sm">
          <h2 id="order-heading" className={sectionTitle}>
            The order
          </h2>
          <p className="mt-2 text-ink">
            <Link to={`/admin/orders?status=${order.status}&q=${order.shortId}`} className="font-mono underline-offset-4 hover:underline">
              #{order.shortId}
            </Link>{" "}
            · total {formatRand(order.totalCents)}
            {order.couponCode ? ` · coupon ${order.couponCode}` : ""}
          </p>
          {d.invoice ? (
            <p className="mt-1">
              <a href={d.invoice.href} download className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink">
                Invoice {d.invoice.number}
              </a>
            </p>
          ) : null}
          <p className="mt-1 text-ink-soft">Paid with: {d.capability.label}</p>
          <address className="mt-3 not-italic leading-relaxed text-ink-soft">
            {order.address.name}
            <br />
            {order.address.street}, {order.address.suburb}
            <br />
            {order.address.city} {order.address.postalCode}, {order.address.province}
          </address>
        </section>
      </div>

      <NextStep d={d} />
      {ret.status === "refunded" ? <RefundDone d={d} /> : null}
    </AdminPage>
  );
}

function NextStep({ d }: { d: Data }) {
  const { ret } = d;
  const fetcher = useAdminFetcher();
  // Receiving the parcel is the packer's (orders.fulfil); approving, declining and refunding are money: a step the
  // person's role can't take isn't offered.
  const staff = useAdminPermissions();
  const money = staff.can("orders.money");
  const fulfil = staff.can("orders.fulfil");
  if (d.steps.length === 0) return null;
  if (!(money || (fulfil && ret.status === "approved"))) return null;
  return (
    <section aria-labelledby="step-heading" className="border border-gold/40 bg-white p-5 sm:p-6">
      <h2 id="step-heading" className="text-2xl text-ink">
        {ret.status === "requested" ? "Approve or decline" : ret.status === "approved" ? "When the parcel arrives" : "Refund"}
      </h2>
      {ret.status === "requested" ? (
        <fetcher.Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="id" value={ret.id} />
          <label className={label}>
            Message to the customer
            <textarea name="message" rows={3} maxLength={OWNER_MESSAGE_MAX} className={`${controlClass} mt-1.5 normal-case tracking-normal`} placeholder="How to send the items back, or why the return is declined" />
          </label>
          <div className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value="approve" className={buttonClass("primary", "md")}>
              Approve return
            </button>
            <button type="submit" name="intent" value="decline" className={buttonClass("secondary", "md")}>
              Decline
            </button>
          </div>
          <p className="text-xs text-muted">Declining needs a message: the customer reads it.</p>
        </fetcher.Form>
      ) : null}

      {ret.status === "approved" ? (
        <>
          {fulfil ? (
            <fetcher.Form method="post" className="mt-4 space-y-4">
              <input type="hidden" name="intent" value="receive" />
              <input type="hidden" name="id" value={ret.id} />
              <p className="text-sm text-ink-soft">Count what arrived, and how many bottles can be sold again: those go back into stock.</p>
              <ul className="divide-y divide-line border-y border-line">
                {ret.lines.map((l) => (
                  <li key={l.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                    <span className="text-sm text-ink">
                      {l.quantity} × {l.name}
                    </span>
                    <label className="flex items-center gap-2 text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
                      Back to stock
                      <input type="number" name={`restock.${l.id}`} min={0} max={l.quantity} defaultValue={ret.opened || ret.kind === "faulty" ? 0 : l.quantity} className={`${controlClass} w-20 tabular-nums`} />
                    </label>
                  </li>
                ))}
              </ul>
              <button type="submit" className={buttonClass("primary", "md")}>
                Mark received
              </button>
            </fetcher.Form>
          ) : null}
          {money ? (
            <fetcher.Form method="post" className="mt-6 space-y-3 border-t border-line pt-5">
              <input type="hidden" name="intent" value="decline" />
              <input type="hidden" name="id" value={ret.id} />
              <label className={label}>
                Or decline it, with a message to the customer
                <textarea name="message" rows={2} maxLength={OWNER_MESSAGE_MAX} required className={`${controlClass} mt-1.5 normal-case tracking-normal`} />
              </label>
              <button type="submit" className={buttonClass("secondary", "sm")}>
                Decline
              </button>
            </fetcher.Form>
          ) : null}
        </>
      ) : null}

      {ret.status === "received" ? <RefundForm d={d} /> : null}
    </section>
  );
}

function RefundForm({ d }: { d: Data }) {
  const fetcher = useAdminFetcher();
  const { refund, capability, ret } = d;
  const row = (term: string, cents: number, strong = false) => (
    <div className={`flex justify-between gap-4 ${strong ? "border-t border-ink/70 pt-2 font-semibold text-ink" : "text-ink-soft"}`}>
      <dt>{term}</dt>
      <dd className="tabular-nums">{formatRand(cents)}</dd>
    </div>
  );
  return (
    <fetcher.Form method="post" className="mt-4 grid gap-6 md:grid-cols-2">
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="id" value={ret.id} />
      <div>
        <dl className="space-y-1 text-sm">
          {row("Goods returned", refund.goodsCents)}
          {refund.discountCents ? row(`Less their discount${d.order.couponCode ? ` (${d.order.couponCode})` : ""}`, -refund.discountCents) : null}
          {refund.deliveryCents ? row("Delivery (the whole order came back)", refund.deliveryCents) : null}
          {row("Suggested refund", refund.amountCents, true)}
        </dl>
        <p className="pt-2 text-xs text-muted">At most {formatRand(refund.maxCents)}: what the customer paid, less earlier refunds.</p>
      </div>
      <div className="space-y-4">
        <div>
          <label htmlFor="refund-amount" className={label}>
            Amount to refund
          </label>
          <MoneyInput id="refund-amount" name="amount" defaultValue={formatAmount(refund.amountCents)} required className="mt-1.5" />
        </div>
        {d.giftCards.refundTo === "gift_card" ? (
          <p className="border-l-2 border-gold bg-sand/60 px-3 py-2 text-sm text-ink" data-testid="refund-to-gift-card">
            The customer chose a new gift card: the refund is issued as one and its code e-mailed to them.
          </p>
        ) : d.giftCards.paidByCards ? (
          <p className="border-l-2 border-gold bg-sand/60 px-3 py-2 text-sm text-ink" data-testid="refund-split">
            {d.giftCards.providerLeftCents > 0
              ? `Paid partly by gift card: up to ${formatRand(d.giftCards.providerLeftCents)} is paid back below, the rest goes back to the gift card.`
              : "Paid by gift card: the refund goes back to the gift card it was paid with."}
          </p>
        ) : null}
        <fieldset className={`space-y-2 ${d.giftCards.refundTo === "gift_card" || (d.giftCards.paidByCards && d.giftCards.providerLeftCents === 0) ? "hidden" : ""}`}>
          <legend className={label}>Paid back</legend>
          <label className={`flex items-start gap-3 text-sm ${capability.provider ? "text-ink" : "text-muted"}`}>
            <input type="radio" name="method" value="provider" defaultChecked={!!capability.provider} disabled={!capability.provider} className="mt-1 h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
            <span>
              Through {capability.label}, to the card or account they paid with
              {capability.why ? <span className="block text-xs">{capability.why}</span> : null}
            </span>
          </label>
          <label className="flex items-start gap-3 text-sm text-ink">
            <input type="radio" name="method" value="eft" defaultChecked={!capability.provider} className="mt-1 h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
            <span>I have paid it by EFT</span>
          </label>
        </fieldset>
        <label className={label}>
          EFT reference <span className="normal-case tracking-normal text-muted">(optional)</span>
          <input name="reference" maxLength={100} className={`${controlClass} mt-1.5 normal-case tracking-normal`} />
        </label>
        <button type="submit" className={buttonClass("primary", "md")}>
          Refund and issue credit note
        </button>
      </div>
    </fetcher.Form>
  );
}

function RefundDone({ d }: { d: Data }) {
  const fetcher = useAdminFetcher();
  const money = useCan("orders.money");
  const { ret } = d;
  return (
    <section aria-labelledby="refund-heading" className="border border-line bg-white p-5 text-sm sm:p-6">
      <h2 id="refund-heading" className="text-2xl text-ink">
        Refunded {formatRand(ret.refundCents ?? 0)}
      </h2>
      <p className="mt-2 text-ink-soft">
        {ret.refundMethod === "provider" ? `Through ${d.capability.label}` : ret.refundMethod === null ? "To gift card" : "Paid out by EFT"}
        {ret.refundReference ? <span className="font-mono text-xs"> · {ret.refundReference}</span> : null} on {d.dates.refunded}.
        {ret.payoutStatus === "pending" ? <span className="block text-gold">Waiting for the provider to confirm it has paid the refund.</span> : null}
      </p>
      {ret.creditNote ? (
        <p className="mt-3">
          <a href={ret.creditNote.href} download className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink">
            Credit note {ret.creditNote.number}
            <span aria-hidden="true" className="text-ink-soft"> (PDF)</span>
          </a>
        </p>
      ) : null}
      {money && ret.payoutStatus === "failed" ? (
        <fetcher.Form method="post" className="mt-5 space-y-3 border-t border-line pt-5">
          <p role="alert" className="text-danger">
            The payment provider could not pay this refund. Pay it by EFT, then record it here.
          </p>
          <input type="hidden" name="intent" value="eftPaid" />
          <input type="hidden" name="id" value={ret.id} />
          <label className={label}>
            EFT reference <span className="normal-case tracking-normal text-muted">(optional)</span>
            <input name="reference" maxLength={100} className={`${controlClass} mt-1.5 normal-case tracking-normal`} />
          </label>
          <button type="submit" className={buttonClass("primary", "sm")}>
            Mark paid out by EFT
          </button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
