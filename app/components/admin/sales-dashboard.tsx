/**
 * The dashboard's sales (issue 20 point 4): a range picker (a GET form: works without JavaScript, bookmarkable), the
 * range's headline figures against the previous period, and one card per chart with its numbers as a table and a
 * CSV of them. Everything is drawn on the server (./charts.tsx).
 */
import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { controlClass, Notice } from "~/components/ui/field";
import type { SalesDashboard } from "~/modules/reports/sales.server";
import {
  averageOrderCents,
  changePercent,
  formatChange,
  formatCountUnbroken,
  formatRandShort,
  GROUPING_LABELS,
  GROUPINGS,
  rangeLabel,
  salesQueryString,
  shareLabel,
  type SalesDataset,
  type SalesPreset,
  type SalesRange,
} from "~/modules/reports/sales.logic";
import { formatRand } from "~/utils/money";
import { BarList, CHART_COLORS, Donut, TrendChart } from "./charts";

const GROUPING_WORDS = { day: "per day", week: "per week", month: "per month" } as const;

/** Amounts and counts never break across lines (their thousands are separated by spaces). */
const money = (cents: number) => formatRand(cents).replace(/ /g, "\u00a0");
const num = formatCountUnbroken;

/** A change against the previous period for a table: "+12%", "new", or "–" when both are nothing. */
const changeLabel = (now: number, before: number) => (now === 0 && before === 0 ? "–" : formatChange(changePercent(now, before)));

/** The previous period said by its length: "day", "30 days". */
const daysWord = (range: SalesRange) => (range.days === 1 ? "day" : `${range.days} days`);

export function SalesSection({ range, notice, presets, sales }: { range: SalesRange; notice: string | null; presets: SalesPreset[]; sales: SalesDashboard }) {
  const query = salesQueryString(range);
  const csv = (dataset: SalesDataset) => `/admin/sales.csv?${query}&dataset=${dataset}`;
  const { revenue } = sales;
  const vsPrevious = (now: number, before: number, show: (v: number) => string) =>
    before > 0 ? `${formatChange(changePercent(now, before))} on ${show(before)} before` : `nothing in the previous ${daysWord(range)}`;
  const newRow = sales.customers.find((c) => c.kind === "new")!;
  const paidInRange = revenue.orders;
  return (
    <section aria-labelledby="sales-heading" className="space-y-4">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
        <h2 id="sales-heading" className="font-display text-2xl text-ink">
          Sales
        </h2>
        <p className="text-xs text-muted">
          <span className="whitespace-nowrap">{rangeLabel(range)}</span> · <span className="whitespace-nowrap">against {rangeLabel(range.previous)}</span>
        </p>
      </div>
      <RangePicker range={range} presets={presets} />
      {notice ? <Notice tone="info">{notice}</Notice> : null}
      <ul className="grid grid-cols-2 gap-2 xl:grid-cols-4">
        <Headline wide label="Revenue" value={money(revenue.revenueCents)} hint={vsPrevious(revenue.revenueCents, revenue.previous.revenueCents, money)} />
        <Headline label="Paid orders" value={num(revenue.orders)} hint={vsPrevious(revenue.orders, revenue.previous.orders, num)} />
        <Headline label="Average order" value={money(revenue.averageCents)} hint={vsPrevious(revenue.averageCents, revenue.previous.averageCents, money)} />
        <Headline wide label="New customers" value={num(newRow.customers)} hint={`their first paid order: ${shareLabel(newRow.orders, paidInRange)} of paid orders`} />
      </ul>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard
          id="chart-revenue"
          title={`Revenue ${GROUPING_WORDS[range.grouping]}`}
          summary={`${money(revenue.revenueCents)} from ${num(revenue.orders)} paid orders${revenue.refundedCents ? `; ${money(revenue.refundedCents)} of it refunded` : ""}`}
          csv={csv("revenue")}
          className="lg:col-span-2"
          table={
            <NumbersTable
              caption={`Revenue ${GROUPING_WORDS[range.grouping]} and the previous period`}
              headers={["Period", "Revenue", "Orders", "Previous period", "Change"]}
              rows={revenue.buckets.map((b) => [b.label, money(b.revenueCents), num(b.orders), money(b.previousRevenueCents), changeLabel(b.revenueCents, b.previousRevenueCents)])}
              total={["Total", money(revenue.revenueCents), num(revenue.orders), money(revenue.previous.revenueCents), changeLabel(revenue.revenueCents, revenue.previous.revenueCents)]}
            />
          }
        >
          <TrendChart
            label={`Revenue ${GROUPING_WORDS[range.grouping]}, ${rangeLabel(range)}, against the previous period`}
            points={revenue.buckets.map((b) => ({ label: b.label, tick: b.tick, value: b.revenueCents, previous: b.previousRevenueCents }))}
            format={formatRandShort}
          />
        </ChartCard>

        <ChartCard
          id="chart-aov"
          title="Average order value"
          summary={`${money(revenue.averageCents)} over the range · ${money(revenue.previous.averageCents)} before`}
          csv={csv("revenue")}
          table={
            <NumbersTable
              caption="Average order value and the previous period"
              headers={["Period", "Average", "Previous period"]}
              rows={revenue.buckets.map((b) => [b.label, b.orders > 0 ? money(averageOrderCents(b.revenueCents, b.orders)) : "–", b.previousOrders > 0 ? money(averageOrderCents(b.previousRevenueCents, b.previousOrders)) : "–"])}
              total={["Whole range", money(revenue.averageCents), money(revenue.previous.averageCents)]}
            />
          }
        >
          <TrendChart
            kind="line"
            label={`Average order value ${GROUPING_WORDS[range.grouping]} against the previous period`}
            points={revenue.buckets.map((b) => ({
              label: b.label,
              tick: b.tick,
              value: b.orders > 0 ? averageOrderCents(b.revenueCents, b.orders) : null,
              previous: b.previousOrders > 0 ? averageOrderCents(b.previousRevenueCents, b.previousOrders) : null,
            }))}
            format={formatRandShort}
          />
        </ChartCard>

        <ChartCard
          id="chart-status"
          title="Orders by status"
          summary={`${num(sales.statuses.reduce((s, r) => s + r.orders, 0))} orders placed in the range, paid or not`}
          csv={csv("statuses")}
          table={<NumbersTable caption="Orders placed in the range by status" headers={["Status", "Orders"]} rows={sales.statuses.map((s) => [s.label, num(s.orders)])} />}
        >
          <BarList
            label="Orders by status"
            empty="No orders in this range."
            color={CHART_COLORS.inkSoft}
            rows={sales.statuses.map((s) => ({ key: s.status, label: s.label, value: s.orders, display: num(s.orders) }))}
          />
        </ChartCard>

        <ChartCard
          id="chart-best-units"
          title="Best sellers by units"
          summary="The ten most bought, paid orders only"
          csv={csv("best-units")}
          table={<NumbersTable caption="Best sellers by units" headers={["Product", "Units", "Revenue"]} rows={sales.bestByUnits.map((r) => [r.name, num(r.units), money(r.revenueCents)])} />}
        >
          <BarList label="Best sellers by units" empty="Nothing sold in this range." rows={sales.bestByUnits.map((r) => ({ key: r.key, label: r.name, value: r.units, display: num(r.units) }))} />
        </ChartCard>

        <ChartCard
          id="chart-best-revenue"
          title="Best sellers by revenue"
          summary="The ten that brought in most, at the prices charged"
          csv={csv("best-revenue")}
          table={<NumbersTable caption="Best sellers by revenue" headers={["Product", "Revenue", "Units"]} rows={sales.bestByRevenue.map((r) => [r.name, money(r.revenueCents), num(r.units)])} />}
        >
          <BarList label="Best sellers by revenue" empty="Nothing sold in this range." rows={sales.bestByRevenue.map((r) => ({ key: r.key, label: r.name, value: r.revenueCents, display: money(r.revenueCents) }))} />
        </ChartCard>

        <ChartCard
          id="chart-methods"
          title="Payment methods"
          summary="How the range's paid orders were paid"
          csv={csv("payment-methods")}
          table={
            <NumbersTable
              caption="Paid orders by payment method"
              headers={["Method", "Orders", "Share", "Revenue"]}
              rows={sales.methods.map((m) => [m.label, num(m.orders), shareLabel(m.orders, paidInRange), money(m.revenueCents)])}
            />
          }
        >
          <Donut
            label="Paid orders by payment method"
            centre={num(paidInRange)}
            centreNote="paid orders"
            empty="No paid orders in this range."
            slices={sales.methods.map((m) => ({ key: m.method, label: m.label, value: m.orders, display: num(m.orders) }))}
          />
        </ChartCard>

        <ChartCard
          id="chart-customers"
          title="New and returning customers"
          summary="New: the customer's first paid order"
          csv={csv("customers")}
          table={
            <NumbersTable
              caption="Paid orders of new and returning customers"
              headers={["Kind", "Orders", "Customers", "Revenue"]}
              rows={sales.customers.map((c) => [c.label, num(c.orders), num(c.customers), money(c.revenueCents)])}
            />
          }
        >
          <Donut
            label="Paid orders of new and returning customers"
            centre={num(paidInRange)}
            centreNote="paid orders"
            empty="No paid orders in this range."
            slices={sales.customers.map((c) => ({ key: c.kind, label: c.label, value: c.orders, display: `${num(c.orders)} ${c.orders === 1 ? "order" : "orders"}` }))}
          />
        </ChartCard>

        <ChartCard
          id="chart-coupons"
          title="Coupon use"
          summary={`${num(sales.coupons.orders)} paid ${sales.coupons.orders === 1 ? "order" : "orders"} with a coupon (${shareLabel(sales.coupons.orders, paidInRange)}) · ${money(sales.coupons.discountCents)} off`}
          csv={csv("coupons")}
          className="lg:col-span-2"
          table={
            <NumbersTable
              caption="Coupon use by code"
              headers={["Code", "Orders", "Discount", "Revenue"]}
              rows={sales.coupons.rows.map((c) => [c.code, num(c.orders), money(c.discountCents), money(c.revenueCents)])}
              total={["All codes", num(sales.coupons.orders), money(sales.coupons.discountCents), ""]}
            />
          }
        >
          <BarList
            label="Coupon use by code"
            empty="No coupon was used in this range."
            color={CHART_COLORS.goldLight}
            rows={sales.coupons.rows.map((c) => ({ key: c.code, label: c.code, value: c.orders, display: `${num(c.orders)} ${c.orders === 1 ? "order" : "orders"}`, note: `${money(c.discountCents)} off` }))}
          />
        </ChartCard>
      </div>
    </section>
  );
}

/**
 * A headline figure. Amounts can be long (R1 234 567.89), so the figure never wraps and its size follows the card's
 * width (container units) between 1.4rem and the stat cards' 1.875rem; on a phone the wide cards take the whole row.
 */
function Headline({ label, value, hint, wide = false }: { label: string; value: string; hint: string; wide?: boolean }) {
  return (
    <li className={`@container border border-line bg-white px-4 py-4 ${wide ? "col-span-2 xl:col-span-1" : ""}`}>
      <span className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-muted">{label}</span>
      <span className="mt-2 block whitespace-nowrap font-display text-[length:clamp(1.4rem,12cqi,1.875rem)] leading-none text-ink tabular-nums">{value}</span>
      <span className="mt-1.5 block text-xs text-muted">{hint}</span>
    </li>
  );
}

/** The date fields are half a phone's width: a little less padding leaves room for the date and the calendar icon. */
const dateControl = controlClass.replace("px-3", "px-2");

function RangePicker({ range, presets }: { range: SalesRange; presets: SalesPreset[] }) {
  return (
    <div className="border border-line bg-white p-4">
      <Form method="get" preventScrollReset className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end" aria-label="Sales range">
        <div className="min-w-0 sm:w-44">
          <label htmlFor="sales-from" className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
            From
          </label>
          <input id="sales-from" type="date" name="from" defaultValue={range.from} required className={`${dateControl} mt-1.5`} key={`from-${range.from}`} />
        </div>
        <div className="min-w-0 sm:w-44">
          <label htmlFor="sales-to" className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
            To
          </label>
          <input id="sales-to" type="date" name="to" defaultValue={range.to} required className={`${dateControl} mt-1.5`} key={`to-${range.to}`} />
        </div>
        <div className="min-w-0 sm:w-36">
          <label htmlFor="sales-grouping" className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
            Group by
          </label>
          <select id="sales-grouping" name="grouping" defaultValue={range.grouping} className={`${controlClass} mt-1.5`} key={`g-${range.grouping}`}>
            {GROUPINGS.map((g) => (
              <option key={g} value={g}>
                {GROUPING_LABELS[g]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass("primary", "md", "self-end")}>
          Apply
        </button>
      </Form>
      <nav aria-label="Quick ranges" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 border-t border-line pt-3">
        {presets.map((p) => {
          const current = p.from === range.from && p.to === range.to;
          return (
            <Link
              key={p.label}
              to={`/admin?from=${p.from}&to=${p.to}`}
              preventScrollReset
              aria-current={current ? "true" : undefined}
              className={`py-1 text-xs font-medium uppercase tracking-[0.14em] transition-colors ${current ? "text-gold underline decoration-gold underline-offset-4" : "text-muted hover:text-ink"}`}
            >
              {p.label}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}

function ChartCard({
  id,
  title,
  summary,
  csv,
  table,
  className = "",
  children,
}: {
  id: string;
  title: string;
  summary?: string;
  csv: string;
  table: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`min-w-0 border border-line bg-white p-4 sm:p-5 ${className}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={id} className="font-display text-xl leading-tight text-ink">
            {title}
          </h3>
          {summary ? <p className="mt-1 text-xs text-muted">{summary}</p> : null}
        </div>
        <a href={csv} download className="shrink-0 py-1 text-[0.68rem] font-medium uppercase tracking-[0.16em] text-gold hover:text-ink">
          CSV<span className="sr-only"> of {title.toLowerCase()}</span>
        </a>
      </div>
      <div className="mt-5">{children}</div>
      <details className="mt-5 border-t border-line pt-3">
        <summary className="cursor-pointer py-1 text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft hover:text-ink">Numbers</summary>
        <div className="mt-3 overflow-x-auto">{table}</div>
      </details>
    </section>
  );
}

function NumbersTable({ caption, headers, rows, total }: { caption: string; headers: string[]; rows: string[][]; total?: string[] }) {
  if (rows.length === 0) return <p className="text-sm text-muted">Nothing to show for this range.</p>;
  const cell = (i: number) => (i === 0 ? "text-left" : "text-right tabular-nums");
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-ink/70">
          {headers.map((h, i) => (
            <th key={`${h}-${i}`} scope="col" className={`whitespace-nowrap px-2 py-2 text-[0.68rem] font-medium uppercase tracking-[0.14em] text-ink-soft first:pl-0 last:pr-0 ${cell(i)}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, ri) => (
          <tr key={`${r[0]}-${ri}`} className="border-b border-line/70">
            {r.map((v, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="min-w-[8.5rem] px-2 py-1.5 text-left font-normal text-ink first:pl-0">
                  {v}
                </th>
              ) : (
                <td key={i} className={`whitespace-nowrap px-2 py-1.5 text-ink last:pr-0 ${cell(i)}`}>
                  {v}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
      {total ? (
        <tfoot>
          <tr>
            {total.map((v, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="px-2 py-2 text-left font-medium text-ink first:pl-0">
                  {v}
                </th>
              ) : (
                <td key={i} className={`whitespace-nowrap px-2 py-2 font-medium text-ink last:pr-0 ${cell(i)}`}>
                  {v}
                </td>
              ),
            )}
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}
