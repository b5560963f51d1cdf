import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import type { AdminReturnPage } from "~/modules/returns/return-page.server";
import { OWNER_MESSAGE_MAX, reasonLabel } from "~/modules/returns/returns.logic";
import { formatAmount, formatRand } from "~/utils/money";
import { useAdminFetcher } from "./admin-status";
import { MoneyInput } from "./money-input";
import { useAdminPermissions, useCan } from "./use-admin-permissions";

/**
 * The pieces of Admin → Returns → one return (app/routes/admin.returns.$id.tsx): what came back, its order, the next
 * step (approve or decline, receive, refund) and the refund once made.
 */

type Data = AdminReturnPage;

const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
/** A section's title in the admin's label style (headings take the display face otherwise). */
const sectionTitle = `${label} font-sans`;

/** The lines returned (with what went back to stock), the reason, the condition, and the messages both ways. */
export function ReturnedItems({ ret }: { ret: Data["ret"] }) {
  return (
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
  );
}

/** The order it came from: its number, total and coupon, its invoice, how it was paid, and where it went. */
export function ReturnOrder({ d }: { d: Pick<Data, "order" | "invoice" | "capability"> }) {
  return (
    <section aria-labelledby="order-heading" className="min-w-0 border border-line bg-white p-5 text-sm">
      <h2 id="order-heading" className={sectionTitle}>
        The order
      </h2>
      <p className="mt-2 text-ink">
        <Link to={`/admin/orders?status=${d.order.status}&q=${d.order.shortId}`} className="font-mono underline-offset-4 hover:underline">
          #{d.order.shortId}
        </Link>{" "}
        · total {formatRand(d.order.totalCents)}
        {d.order.couponCode ? ` · coupon ${d.order.couponCode}` : ""}
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
        {d.order.address.name}
        <br />
        {d.order.address.street}, {d.order.address.suburb}
        <br />
        {d.order.address.city} {d.order.address.postalCode}, {d.order.address.province}
      </address>
    </section>
  );
}

export function NextStep({ d }: { d: Data }) {
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

export function RefundDone({ d }: { d: Data }) {
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
