import { Link } from "react-router";
import { controlClass } from "~/components/ui/field";
import type { OrderStatus } from "~/db/schema";
import { listHref, type ListQuery } from "~/modules/admin/list-query";
import { ORDER_STATUS_LABELS, ORDER_STATUSES, PAYMENT_STATUSES, paymentStatusLabel, tabCountLabel } from "~/modules/orders/order-admin.logic";
import { formatRand } from "~/utils/money";
import { useAdminFetcher } from "./admin-status";
import { ConfirmDelete } from "./confirm-delete";
import type { Column } from "./data-table";
import type { OrderForOwner } from "./order-detail";
import { EditLink } from "./row-editor";

/** The admin orders list's pieces (app/routes/admin.orders.tsx): its columns, the status tabs, the row's controls. */

type OrderRowBase = OrderForOwner & { created: string };

/**
 * The list's columns. Only what the person's role allows is offered (the action checks again): a packer changes the
 * status and e-mails it; payments, edits and deleting are someone else's.
 */
export function orderColumns<R extends OrderRowBase>({ path, query, here, fulfil, money, onEdit }: { path: string; query: ListQuery; here: string; fulfil: boolean; money: boolean; onEdit: (id: string) => void }): Column<R>[] {
  const columns: Column<R>[] = [
    {
      header: "Order",
      cell: (o) => (
        <span className="block">
          <span className="font-mono font-semibold tracking-wide text-ink">#{o.shortId}</span>
          <span className="block text-xs text-muted">{o.created}</span>
        </span>
      ),
    },
    {
      header: "Customer",
      cell: (o) => (
        <span className="block">
          <span className="block text-ink">{o.shippingAddress.name}</span>
          <span className="block max-w-[12rem] truncate text-xs text-muted max-md:max-w-[55vw]" title={o.customerEmail ?? undefined}>
            {o.customerEmail ?? "Account deleted"}
          </span>
        </span>
      ),
    },
    { header: "Total", cell: (o) => formatRand(o.totalAmountCents), className: "whitespace-nowrap tabular-nums md:text-right" },
    { header: "Status", cell: (o) => (fulfil ? <StatusSelect order={o} action={here} /> : <span className="text-sm text-ink">{ORDER_STATUS_LABELS[o.status]}</span>) },
    { header: "Payment", cell: (o) => (money ? <PaymentSelect order={o} action={here} /> : <span className="text-sm text-ink">{paymentStatusLabel(o.paymentStatus)}</span>) },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (o) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          {fulfil ? <SendStatusEmail id={o.id} shortId={o.shortId} action={here} /> : null}
          {money ? <EditLink href={listHref(path, query, { edit: o.id })} onEdit={() => onEdit(o.id)} label={`order ${o.shortId}`} /> : null}
          {money ? (
            <ConfirmDelete
              id={o.id}
              name={`Order #${o.shortId}, ${formatRand(o.totalAmountCents)}, ${o.shippingAddress.name}`}
              what="order"
              confirmHref={listHref(path, query, { confirm: o.id })}
              cancelHref={here}
              openOnLoad={query.confirm === o.id}
              note={o.couponCode && o.status !== "cancelled" ? `Its use of coupon ${o.couponCode} goes back to the coupon.` : undefined}
            />
          ) : null}
        </span>
      ),
    },
  ];
  return columns;
}

export function StatusTabs({ path, query, tab, counts, over }: { path: string; query: ListQuery; tab: OrderStatus; counts: Record<OrderStatus, number>; over: OrderStatus[] }) {
  return (
    <nav aria-label="Order status" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 border-b border-line">
        {ORDER_STATUSES.map((status) => {
          const current = status === tab;
          return (
            <li key={status}>
              <Link
                to={listHref(path, query, { status })}
                aria-current={current ? "page" : undefined}
                className={`-mb-px inline-flex items-center gap-2 border-b-2 px-3 py-3 text-xs font-medium uppercase tracking-[0.14em] transition-colors ${
                  current ? "border-gold text-ink" : "border-transparent text-muted hover:text-ink"
                }`}
              >
                {ORDER_STATUS_LABELS[status]}
                <span className={`min-w-6 px-1.5 py-0.5 text-center text-[0.68rem] tabular-nums ${current ? "bg-ink text-white" : "bg-sand text-ink-soft"}`}>{tabCountLabel(counts[status], over.includes(status))}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * A dropdown that saves when changed (through the page's fetcher); without JavaScript a Save button posts it.
 * While the change is on its way the dropdown shows the new value.
 */
function AutoSubmitSelect({
  id,
  intent,
  name,
  value,
  options,
  label,
  action,
}: {
  id: string;
  intent: string;
  name: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  label: string;
  action: string;
}) {
  const fetcher = useAdminFetcher();
  const pending = fetcher.state !== "idle" && fetcher.formData?.get("id") === id && fetcher.formData?.get("intent") === intent;
  const shown = pending ? String(fetcher.formData?.get(name)) : value;
  const known = options.some((o) => o.value === value);
  return (
    <fetcher.Form method="post" action={action} className="flex items-center gap-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <select
        name={name}
        value={shown}
        aria-label={label}
        disabled={pending}
        onChange={(event) => fetcher.submit(event.currentTarget.form)}
        className={`${controlClass} !w-auto py-1.5 pl-2 pr-7 text-sm`}
      >
        {known ? null : <option value={value}>Unknown</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline">
          Save
        </button>
      </noscript>
    </fetcher.Form>
  );
}

const STATUS_OPTIONS = ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] }));
const PAYMENT_OPTIONS = PAYMENT_STATUSES.map((s) => ({ value: s, label: paymentStatusLabel(s) }));

function StatusSelect({ order, action }: { order: OrderRowBase; action: string }) {
  return <AutoSubmitSelect id={order.id} intent="status" name="status" value={order.status} options={STATUS_OPTIONS} label={`Status of order ${order.shortId}`} action={action} />;
}

function PaymentSelect({ order, action }: { order: OrderRowBase; action: string }) {
  return <AutoSubmitSelect id={order.id} intent="payment" name="paymentStatus" value={order.paymentStatus} options={PAYMENT_OPTIONS} label={`Payment of order ${order.shortId}`} action={action} />;
}

function SendStatusEmail({ id, shortId, action }: { id: string; shortId: string; action: string }) {
  const fetcher = useAdminFetcher();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("id") === id && fetcher.formData?.get("intent") === "email";
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value="email" />
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={busy} className="text-xs font-medium uppercase tracking-[0.14em] text-ink underline-offset-4 hover:underline disabled:opacity-60">
        {busy ? "Sending…" : "Email status"}
        <span className="sr-only"> of order {shortId}</span>
      </button>
    </fetcher.Form>
  );
}
