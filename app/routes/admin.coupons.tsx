import type { Route } from "./+types/admin.coupons";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { CouponDialog, COUPON_STATUS_STYLE, couponValueText, ToggleActive } from "~/components/admin/coupon-form";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { hasActiveFilters, listHref, parseListQuery } from "~/modules/admin/list-query";
import { deleteCoupon, listAdminCoupons, saveCoupon, setCouponActive } from "~/modules/coupons/coupons-admin.server";
import { COUPON_ADMIN_MESSAGES, couponAdminIntent } from "~/modules/coupons/coupons-admin.schema";
import { COUPON_STATUS_FILTERS, couponDisplayStatus, sastDay } from "~/modules/coupons/coupons.logic";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/coupons";
const filters = { q: { kind: "text" }, status: { kind: "choice", values: COUPON_STATUS_FILTERS } } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "coupons");
  const query = parseListQuery(readQuery(request), filters);
  const list = await listAdminCoupons(getDb(), { ...query.filters, page: query.page });
  const now = Date.now();
  return {
    query,
    // SPEC §9 defaults for a new coupon: start today, end 30 days ahead (South African calendar days)
    defaults: { startDate: sastDay(new Date(now).toISOString()), endDate: sastDay(new Date(now + 30 * DAY_MS).toISOString()) },
    list: {
      ...list,
      stats: { ...list.stats, discountGiven: formatRand(list.stats.discountGivenCents) },
      rows: list.rows.map((c) => ({ ...c, status: couponDisplayStatus(c, now), start: sastDay(c.startDate), end: sastDay(c.endDate) })),
    },
  };
}

export const action = adminAction(
  couponAdminIntent,
  {
    save: async (db, input, { admin }) => ((await saveCoupon(db, input, admin.id)).created ? COUPON_ADMIN_MESSAGES.created : COUPON_ADMIN_MESSAGES.updated),
    toggle: async (db, { id, isActive }) => (await setCouponActive(db, id, isActive), isActive ? COUPON_ADMIN_MESSAGES.activated : COUPON_ADMIN_MESSAGES.deactivated),
    delete: async (db, { id }) => (await deleteCoupon(db, id), COUPON_ADMIN_MESSAGES.deleted),
  },
  { permission: "coupons", record: { type: "coupon", find: "code" }, failure: { save: COUPON_ADMIN_MESSAGES.failedSave, toggle: COUPON_ADMIN_MESSAGES.failedStatus, delete: COUPON_ADMIN_MESSAGES.failedDelete } },
);

export function meta() {
  return [{ title: "Coupons | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

export default function Coupons({ loaderData: d }: Route.ComponentProps) {
  const { query, list, defaults } = d;
  const here = listHref(PATH, query);
  const columns: Column<Row>[] = [
    {
      header: "Code",
      cell: (c) => (
        <span className="block">
          <span className="font-mono font-semibold tracking-wide text-ink">{c.code}</span>
          {c.description ? <span className="block text-xs text-muted">{c.description}</span> : null}
        </span>
      ),
    },
    { header: "Discount", cell: (c) => couponValueText(c) },
    { header: "Min. spend", cell: (c) => (c.minimumSpendCents ? formatRand(c.minimumSpendCents) : "–"), className: "whitespace-nowrap tabular-nums" },
    { header: "Used", cell: (c) => `${c.timesRedeemed}${c.maxRedemptions === null ? "" : ` / ${c.maxRedemptions}`}`, className: "tabular-nums" },
    { header: "Valid", cell: (c) => `${c.start} – ${c.end}`, className: "whitespace-nowrap", phone: "hide" },
    { header: "Status", cell: (c) => <span className={`inline-block px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${COUPON_STATUS_STYLE[c.status]}`}>{c.status}</span> },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (c) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          <CouponDialog path={PATH} coupon={c} query={query} defaults={defaults} />
          <ToggleActive id={c.id} isActive={c.isActive} code={c.code} action={here} />
          <ConfirmDelete id={c.id} name={c.code} what="coupon" confirmHref={listHref(PATH, query, { confirm: c.id })} cancelHref={here} openOnLoad={query.confirm === c.id} note="Orders that used it keep the code and the discount they were given." />
        </span>
      ),
    },
  ];
  return (
    <AdminPage
      title="Coupons"
      description="Promotions: percentage or rand off, or free delivery, for a while and for a number of uses."
      actions={<CouponDialog path={PATH} coupon={null} query={query} defaults={defaults} />}
      stats={[
        { label: "Coupons", value: list.stats.total },
        { label: "Active", value: list.stats.active, to: listHref(PATH, query, { status: "active" }) },
        { label: "Scheduled", value: list.stats.scheduled },
        { label: "Expired", value: list.stats.expired, to: listHref(PATH, query, { status: "expired" }) },
        { label: "Redemptions", value: list.stats.redemptions },
        { label: "Discount given", value: list.stats.discountGiven },
      ]}
      status={<AdminStatus />}
    >
      <FilterBar
        path={PATH}
        query={query}
        fields={[
          { name: "q", label: "Search", kind: "search", placeholder: "Code or description" },
          { name: "status", label: "Status", kind: "select", allLabel: "All", options: [{ value: "active", label: "Active" }, { value: "inactive", label: "Inactive" }, { value: "expired", label: "Expired" }] },
        ]}
      />
      <DataTable<Row>
        rows={list.rows}
        columns={columns}
        rowKey={(c) => c.id}
        caption="Coupons"
        empty={<p className="font-display text-2xl text-ink">{hasActiveFilters(query) ? COUPON_ADMIN_MESSAGES.noMatches : COUPON_ADMIN_MESSAGES.none}</p>}
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
      />
    </AdminPage>
  );
}
