import type { Route } from "./+types/admin.coupons";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { FormDialog } from "~/components/admin/form-dialog";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { hasActiveFilters, listHref, parseListQuery, type ListQuery } from "~/modules/admin/list-query";
import { deleteCoupon, listAdminCoupons, saveCoupon, setCouponActive } from "~/modules/coupons/coupons-admin.server";
import { ADMIN_COUPON_CODE_MAX, COUPON_ADMIN_MESSAGES, couponAdminIntent } from "~/modules/coupons/coupons-admin.schema";
import { COUPON_STATUS_FILTERS, couponDisplayStatus, sastDay, type CouponDisplayStatus } from "~/modules/coupons/coupons.logic";
import { formatAmount, formatRand } from "~/utils/money";
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

const STATUS_STYLE: Record<CouponDisplayStatus, string> = {
  Active: "bg-success/10 text-success",
  Scheduled: "bg-blush text-ink",
  Inactive: "bg-sand text-ink-soft",
  Expired: "bg-line text-muted",
};

/** What the coupon gives, as the owner reads it. */
function valueText(c: Pick<Row, "discountType" | "discountValue">): string {
  if (c.discountType === "percentage") return `${c.discountValue}% off`;
  if (c.discountType === "fixed_amount") return `${formatRand(c.discountValue)} off`;
  return c.discountValue > 0 ? `Free delivery from ${formatRand(c.discountValue)}` : "Free delivery";
}

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
    { header: "Discount", cell: (c) => valueText(c) },
    { header: "Min. spend", cell: (c) => (c.minimumSpendCents ? formatRand(c.minimumSpendCents) : "–"), className: "whitespace-nowrap tabular-nums" },
    { header: "Used", cell: (c) => `${c.timesRedeemed}${c.maxRedemptions === null ? "" : ` / ${c.maxRedemptions}`}`, className: "tabular-nums" },
    { header: "Valid", cell: (c) => `${c.start} – ${c.end}`, className: "whitespace-nowrap", phone: "hide" },
    { header: "Status", cell: (c) => <span className={`inline-block px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${STATUS_STYLE[c.status]}`}>{c.status}</span> },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (c) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          <CouponDialog coupon={c} query={query} defaults={defaults} />
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
      actions={<CouponDialog coupon={null} query={query} defaults={defaults} />}
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

function ToggleActive({ id, isActive, code, action }: { id: string; isActive: boolean; code: string; action: string }) {
  const fetcher = useAdminFetcher();
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="isActive" value={isActive ? "false" : "true"} />
      <button type="submit" className="text-xs font-medium uppercase tracking-[0.14em] text-ink underline-offset-4 hover:underline">
        {isActive ? "Deactivate" : "Activate"}
        <span className="sr-only"> {code}</span>
      </button>
    </fetcher.Form>
  );
}

function CouponDialog({ coupon, query, defaults }: { coupon: Row | null; query: ListQuery; defaults: { startDate: string; endDate: string } }) {
  const key = coupon?.id ?? "new";
  const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
  const value = coupon ? (coupon.discountType === "percentage" ? String(coupon.discountValue) : formatAmount(coupon.discountValue)) : "";
  return (
    <FormDialog
      title={coupon ? `Edit coupon ${coupon.code}` : "New coupon"}
      trigger={
        coupon ? (
          <>
            Edit<span className="sr-only"> {coupon.code}</span>
          </>
        ) : (
          "New Coupon"
        )
      }
      triggerClassName={coupon ? "text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline" : buttonClass("primary", "md")}
      openHref={listHref(PATH, query, { edit: key })}
      closeHref={listHref(PATH, query)}
      openOnLoad={query.edit === key}
      submitLabel={coupon ? "Save Coupon" : "Create Coupon"}
    >
      <input type="hidden" name="intent" value="save" />
      {coupon ? <input type="hidden" name="id" value={coupon.id} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={label}>
          Code
          <input name="code" defaultValue={coupon?.code ?? ""} maxLength={ADMIN_COUPON_CODE_MAX} required autoCapitalize="characters" className={`${controlClass} mt-1 font-mono uppercase`} />
        </label>
        <label className={label}>
          Discount type
          <select name="discountType" defaultValue={coupon?.discountType ?? "percentage"} className={`${controlClass} mt-1`}>
            <option value="percentage">Percentage off</option>
            <option value="fixed_amount">Rand off</option>
            <option value="free_delivery">Free delivery</option>
          </select>
        </label>
        <label className={label}>
          Value
          <input name="discountValue" defaultValue={value} inputMode="decimal" required placeholder="10" className={`${controlClass} mt-1`} />
          <span className="mt-1 block text-xs normal-case tracking-normal text-muted">Percent 0–100; rand off; for free delivery, the spend that qualifies (R).</span>
        </label>
        <label className={label}>
          Minimum spend (R)
          <input name="minimumSpend" defaultValue={coupon ? formatAmount(coupon.minimumSpendCents) : "0"} inputMode="decimal" className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          Max redemptions
          <input name="maxRedemptions" defaultValue={coupon?.maxRedemptions ?? ""} inputMode="numeric" placeholder="unlimited" className={`${controlClass} mt-1`} />
        </label>
        <span aria-hidden="true" className="hidden sm:block" />
        <label className={label}>
          Start date
          <input type="date" name="startDate" defaultValue={coupon?.start ?? defaults.startDate} required className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          End date (to the end of that day)
          <input type="date" name="endDate" defaultValue={coupon?.end ?? defaults.endDate} required className={`${controlClass} mt-1`} />
        </label>
      </div>
      <label className={label}>
        Description (optional)
        <input name="description" defaultValue={coupon?.description ?? ""} maxLength={300} className={`${controlClass} mt-1 normal-case tracking-normal`} />
      </label>
    </FormDialog>
  );
}
