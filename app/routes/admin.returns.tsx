/**
 * /admin/returns — the owner's returns (issue 21 point 8, docs/decisions/041): what waits on the shop, the refund due
 * soonest first (ECTA s44(3): 30 days after the request), overdue ones flagged, and each status's tab. A row opens the
 * return (/admin/returns/:id), where the steps are.
 */
import { Link } from "react-router";
import type { Route } from "./+types/admin.returns";
import { AdminPage } from "~/components/admin/admin-page";
import { DataTable, type Column } from "~/components/admin/data-table";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { listAdminReturns, returnTabCounts } from "~/modules/returns/returns-admin.server";
import { daysUntil, formatDay, KIND_LABELS, reasonLabel, RETURN_STATUS_LABELS, RETURN_TABS, type ReturnTab } from "~/modules/returns/returns.logic";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/returns";
const filters = { tab: { kind: "choice", values: RETURN_TABS } } as const;
const TAB_LABELS: Record<ReturnTab, string> = { open: "To do", overdue: "Overdue", requested: "Requested", approved: "Approved", received: "Received", refunded: "Refunded", declined: "Declined" };

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "orders.view");
  const query = parseListQuery(readQuery(request), filters);
  const tab = (query.filters.tab || "open") as ReturnTab;
  const db = getDb();
  const now = new Date();
  const [list, counts] = await Promise.all([listAdminReturns(db, { tab, page: query.page }, now), returnTabCounts(db, now)]);
  return {
    query,
    tab,
    counts,
    list: {
      ...list,
      rows: list.rows.map((r) => {
        const days = daysUntil(r.refundDueAt, now);
        return {
          ...r,
          requestedOn: formatDay(new Date(r.requestedAt)),
          dueOn: formatDay(new Date(r.refundDueAt)),
          dueText: r.status === "refunded" || r.status === "declined" ? null : days < 0 ? `${-days} ${days === -1 ? "day" : "days"} overdue` : days === 0 ? "due today" : `in ${days} ${days === 1 ? "day" : "days"}`,
          reasonText: reasonLabel(r.reason),
        };
      }),
    },
  };
}

export function meta() {
  return [{ title: "Returns | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

export default function Returns({ loaderData: d }: Route.ComponentProps) {
  const columns: Column<Row>[] = [
    {
      header: "Order",
      cell: (r) => (
        <Link to={`${PATH}/${r.id}`} aria-label={`Open the return for order ${r.shortOrderId}`} className="font-mono font-medium text-ink underline-offset-4 hover:underline">
          #{r.shortOrderId}
        </Link>
      ),
    },
    {
      header: "Customer",
      cell: (r) => (
        <span>
          <span className="block text-ink">{r.customerName}</span>
          {r.customerEmail ? <span className="block break-all text-xs text-muted">{r.customerEmail}</span> : null}
        </span>
      ),
    },
    {
      header: "Return",
      cell: (r) => (
        <span>
          <span className="block text-ink">
            {r.items} {r.items === 1 ? "item" : "items"} · {reasonLabelShort(r.reasonText)}
          </span>
          <span className="block text-xs text-muted">{KIND_LABELS[r.kind]}</span>
        </span>
      ),
    },
    { header: "Requested", cell: (r) => r.requestedOn, className: "whitespace-nowrap" },
    {
      header: "Refund due",
      cell: (r) =>
        r.dueText ? (
          <span className={r.overdue ? "font-medium text-danger" : "text-ink"}>
            {r.dueOn}
            <span className="block text-xs">{r.overdue ? <span className="inline-block bg-danger px-1.5 py-0.5 text-[0.62rem] font-semibold uppercase tracking-[0.14em] text-white">Overdue</span> : null} {r.dueText}</span>
          </span>
        ) : r.refundCents !== null ? (
          <span className="tabular-nums text-ink">
            {formatRand(r.refundCents)}
            {r.payoutStatus === "pending" ? <span className="block text-xs text-gold">awaiting the provider</span> : r.payoutStatus === "failed" ? <span className="block text-xs text-danger">provider refund failed</span> : null}
          </span>
        ) : (
          <span className="text-muted">–</span>
        ),
    },
    {
      header: "Status",
      cell: (r) => (
        <span className={`inline-block border px-2 py-0.5 text-[0.68rem] uppercase tracking-[0.14em] ${r.status === "declined" ? "border-line text-muted" : r.status === "refunded" ? "border-success/40 text-success" : "border-gold/40 text-gold"}`}>
          {RETURN_STATUS_LABELS[r.status]}
        </span>
      ),
    },
  ];
  return (
    <AdminPage
      title="Returns"
      description="Returns customers asked for from their order history. A refund is due within 30 days of the request (ECTA s44(3)); overdue ones are flagged."
      stats={[
        { label: "To do", value: d.counts.open, to: listHref(PATH, d.query, { tab: "" }) },
        { label: "Overdue", value: d.counts.overdue, to: listHref(PATH, d.query, { tab: "overdue" }), hint: d.counts.overdue ? "refund past its due date" : undefined },
        { label: "Refunded", value: d.counts.refunded, to: listHref(PATH, d.query, { tab: "refunded" }) },
      ]}
    >
      <nav aria-label="Return status" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex min-w-max gap-1 border-b border-line">
          {RETURN_TABS.map((tab) => {
            const current = tab === d.tab;
            return (
              <li key={tab}>
                <Link
                  to={listHref(PATH, d.query, { tab: tab === "open" ? "" : tab })}
                  aria-current={current ? "page" : undefined}
                  className={`-mb-px inline-flex items-center gap-2 border-b-2 px-3 py-3 text-xs font-medium uppercase tracking-[0.14em] transition-colors ${current ? "border-gold text-ink" : "border-transparent text-muted hover:text-ink"}`}
                >
                  {TAB_LABELS[tab]}
                  <span className={`min-w-6 px-1.5 py-0.5 text-center text-[0.68rem] tabular-nums ${current ? "bg-ink text-white" : tab === "overdue" && d.counts.overdue ? "bg-danger text-white" : "bg-sand text-ink-soft"}`}>{d.counts[tab]}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <DataTable<Row>
        rows={d.list.rows}
        columns={columns}
        rowKey={(r) => r.id}
        caption={`Returns: ${TAB_LABELS[d.tab]}`}
        empty={<p className="font-display text-2xl text-ink">{d.tab === "open" ? "No returns to deal with" : `No ${TAB_LABELS[d.tab].toLowerCase()} returns`}</p>}
        page={{ page: d.list.page, pageCount: d.list.pageCount, hrefFor: (page) => listHref(PATH, d.query, { page }) }}
      />
    </AdminPage>
  );
}

/** The list's short form of a reason: its first words, before a colon. */
function reasonLabelShort(text: string) {
  return text.split(":")[0];
}
