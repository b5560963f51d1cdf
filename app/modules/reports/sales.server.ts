/**
 * The sales dashboard's figures (issue 20 point 4), aggregated in the database: every query is a GROUP BY over the
 * range's per-day sums (settled days stored, the last days summed from the orders: sales-totals.server.ts, docs/
 * decisions/034), and no order row ever comes to JavaScript. A sale is what salesTotals counts (PAID: the
 * payment is completed), and the headline totals are salesTotals' own, so the dashboard and the accountant's export
 * agree to the cent; days are South African days (UTC+2), as reports.logic.ts has them.
 *
 * Each dataset is its own function so the CSV download runs only the query it needs.
 */
import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import type { OrderStatus } from "~/db/schema";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "~/modules/orders/order-admin.logic";
import { paymentMethodShort } from "~/modules/payments/payment-methods";
import { dayCoupons, dayReturning, daySellers, dayTotals, ensureOrderDays, PAID, salesTotals, sellersSelect, splitRange, TOP_SELLERS_PER_DAY } from "./sales-totals.server";
import type { DayRange } from "./reports.logic";
import { averageOrderCents, rollUp, type DayFigures, type SalesBucket, type SalesRange } from "./sales.logic";

/** How many best sellers, and at most how many coupon codes, a chart shows. */
export const BEST_SELLERS = 10;
export const COUPON_ROWS = 25;

const n = (v: unknown) => Number(v ?? 0);

// ---------------------------------------------------------------- paid orders per day

/** The range's and the previous period's paid orders per South African day and payment method. */
export interface PaidDayRow {
  day: string;
  method: string;
  orders: number;
  revenueCents: number;
  /** of those orders, the ones with a coupon, and their discount */
  couponOrders: number;
  discountCents: number;
}

/**
 * The paid orders of both periods (the range and the one before) per South African day and payment method, from the
 * day sums: revenue over time, the payment methods and the coupon totals all come from these rows (at most
 * 3 × 2 × the range's days), so the orders are read once, not once per chart.
 */
export async function paidDays(db: Queryable, range: SalesRange): Promise<PaidDayRow[]> {
  const { rows } = await sql<{ day: string; payment_method: string; orders: number; revenue: number; coupon_orders: number; discount: number }>`
    select day, payment_method, sum(orders) as orders, sum(revenue) as revenue, sum(coupon_orders) as coupon_orders, sum(coupon_discount) as discount
    from ${await dayTotals(db, { from: range.previous.from, to: range.to })} t
    where payment_status = ${PAID}
    group by day, payment_method
  `.execute(db);
  return rows.map((r) => ({ day: r.day, method: r.payment_method, orders: n(r.orders), revenueCents: n(r.revenue), couponOrders: n(r.coupon_orders), discountCents: n(r.discount) }));
}

/** The rows of the range itself (not its previous period). */
const inRange = (range: SalesRange, rows: PaidDayRow[]) => rows.filter((r) => r.day >= range.from && r.day <= range.to);

// ---------------------------------------------------------------- revenue over time

export interface RevenueFigures {
  buckets: SalesBucket[];
  revenueCents: number;
  orders: number;
  averageCents: number;
  /** refunded on the range's paid orders (salesTotals) */
  refundedCents: number;
  previous: { revenueCents: number; orders: number; averageCents: number };
}

/**
 * Paid orders per bucket against the previous period; the totals of both periods are salesTotals' (the buckets add up
 * to them: the same orders by the same rule).
 */
export async function revenueFigures(db: Queryable, range: SalesRange, days: Promise<PaidDayRow[]> = paidDays(db, range)): Promise<RevenueFigures> {
  const [rows, now, before] = await Promise.all([days, salesTotals(db, range), salesTotals(db, range.previous)]);
  const perDay = new Map<string, DayFigures>();
  for (const r of rows) {
    const d = perDay.get(r.day) ?? { day: r.day, orders: 0, revenueCents: 0 };
    d.orders += r.orders;
    d.revenueCents += r.revenueCents;
    perDay.set(r.day, d);
  }
  return {
    buckets: rollUp(range, [...perDay.values()]),
    revenueCents: now.revenueCents,
    orders: now.orders,
    averageCents: averageOrderCents(now.revenueCents, now.orders),
    refundedCents: now.refundedCents,
    previous: { revenueCents: before.revenueCents, orders: before.orders, averageCents: averageOrderCents(before.revenueCents, before.orders) },
  };
}

// ---------------------------------------------------------------- orders by status

export interface StatusRow {
  status: OrderStatus;
  label: string;
  orders: number;
}

/**
 * Every order placed in the range (paid or not) by its status; each status present, in the order's life order.
 */
export async function ordersByStatus(db: Queryable, range: SalesRange): Promise<StatusRow[]> {
  const { rows } = await sql<{ status: OrderStatus; orders: number }>`select status, sum(orders) as orders from ${await dayTotals(db, range)} t group by status`.execute(db);
  const counts = new Map(rows.map((r) => [r.status, n(r.orders)]));
  return ORDER_STATUSES.map((status) => ({ status, label: ORDER_STATUS_LABELS[status], orders: counts.get(status) ?? 0 }));
}

// ---------------------------------------------------------------- best sellers

export interface SellerRow {
  /** the product's id, or the line's name once the product is gone */
  key: string;
  name: string;
  units: number;
  /** the lines' totals at the prices charged (before an order's coupon discount) */
  revenueCents: number;
}

const byUnitsOrder = (a: SellerRow, b: SellerRow) => b.units - a.units || b.revenueCents - a.revenueCents || a.name.localeCompare(b.name) || a.key.localeCompare(b.key);
const byRevenueOrder = (a: SellerRow, b: SellerRow) => b.revenueCents - a.revenueCents || b.units - a.units || a.name.localeCompare(b.name) || a.key.localeCompare(b.key);

/**
 * The ten best sellers of the range's paid orders by units and the ten by revenue; names as the order lines have them.
 * A tie goes to the other figure, then the name.
 *
 * Exact without adding up every product of the range (a year is 650 000 product-days at 100 000 products): the
 * candidates are the products on some day's top list (order_day_top_sellers, TOP_SELLERS_PER_DAY by units and by
 * revenue) and the live days' best; everything else sold at most the sum of the days' cutoffs (the most any product off
 * a day's list sold that day) plus the live days' cutoff. The candidates' own sums are read exactly; when the tenth
 * candidate is above that bound, nothing else can be in the top ten. When it is not (few sales, close long tails) the
 * range is added up in full, as before.
 */
export async function bestSellers(db: Queryable, range: SalesRange): Promise<BestSellers> {
  return (await bestSellersFromTopLists(db, range)) ?? bestSellersOfAll(db, range);
}

export interface BestSellers {
  byUnits: SellerRow[];
  byRevenue: SellerRow[];
}

/** The best sellers from the top lists and their bound (see bestSellers); null when the bound does not settle them. */
export async function bestSellersFromTopLists(db: Queryable, range: DayRange): Promise<BestSellers | null> {
  const { settled, live } = splitRange(range);
  if (settled) await ensureOrderDays(db, settled);
  const liveRows = live
    ? (await sql<{ k: string; name: string; units: number; revenue: number }>`
        select k, max(name) as name, sum(units) as units, sum(revenue) as revenue from (${sellersSelect(db, live)}) s group by k
      `.execute(db)).rows.map(seller)
    : [];
  // the live days' own top lists and the most any other product sold in them
  const liveTop = new Set([...liveRows].sort(byUnitsOrder).slice(0, TOP_SELLERS_PER_DAY).map((r) => r.key));
  for (const r of [...liveRows].sort(byRevenueOrder).slice(0, TOP_SELLERS_PER_DAY)) liveTop.add(r.key);
  const liveRest = liveRows.filter((r) => !liveTop.has(r.key));
  const bound = { units: Math.max(0, ...liveRest.map((r) => r.units)), revenueCents: Math.max(0, ...liveRest.map((r) => r.revenueCents)) };

  const candidates = new Map<string, SellerRow>();
  for (const r of liveRows) if (liveTop.has(r.key)) candidates.set(r.key, { ...r });
  if (settled) {
    const [tops, cutoffs] = await Promise.all([
      sql<{ k: string }>`select distinct k from order_day_top_sellers where day >= ${settled.from} and day <= ${settled.to}`.execute(db),
      sql<{ units: number; revenue: number }>`
        select coalesce(sum(units_cutoff), 0) as units, coalesce(sum(revenue_cutoff), 0) as revenue from order_days where day >= ${settled.from} and day <= ${settled.to}
      `.execute(db),
    ]);
    bound.units += n(cutoffs.rows[0]?.units);
    bound.revenueCents += n(cutoffs.rows[0]?.revenue);
    const keys = [...new Set([...tops.rows.map((r) => r.k), ...candidates.keys()])];
    if (keys.length > MAX_CANDIDATES) return null;
    const stored = keys.length
      ? (await sql<{ k: string; name: string; units: number; revenue: number }>`
          select k, max(name) as name, sum(units) as units, sum(revenue) as revenue
          from order_day_sellers where day >= ${settled.from} and day <= ${settled.to} and k in (${sql.join(keys)})
          group by k
        `.execute(db)).rows
      : [];
    for (const r of stored) {
      const c = candidates.get(r.k);
      if (!c) candidates.set(r.k, seller(r));
      else {
        c.units += n(r.units);
        c.revenueCents += n(r.revenue);
        if (String(r.name) > c.name) c.name = String(r.name);
      }
    }
  }
  // the live figures of settled-day candidates that were not on a live top list
  for (const r of liveRest) {
    const c = candidates.get(r.key);
    if (!c) continue;
    c.units += r.units;
    c.revenueCents += r.revenueCents;
    if (r.name > c.name) c.name = r.name;
  }
  const all = [...candidates.values()];
  const byUnits = [...all].sort(byUnitsOrder).slice(0, BEST_SELLERS);
  const byRevenue = [...all].sort(byRevenueOrder).slice(0, BEST_SELLERS);
  // Exact when nothing off the lists sold (bound 0), or the tenth is strictly above what anything off them can reach.
  const holds = (top: SellerRow[], value: (r: SellerRow) => number, limit: number) => limit === 0 || (top.length === BEST_SELLERS && value(top[BEST_SELLERS - 1]!) > limit);
  return holds(byUnits, (r) => r.units, bound.units) && holds(byRevenue, (r) => r.revenueCents, bound.revenueCents) ? { byUnits, byRevenue } : null;
}

/** Beyond this many candidates the range is added up in full (the lists would not be the cheaper way). */
const MAX_CANDIDATES = 5000;

const seller = (r: { k: string; name: string; units: number; revenue: number }): SellerRow => ({ key: r.k, name: String(r.name), units: n(r.units), revenueCents: n(r.revenue) });

/** The best sellers from every product of the range: one pass over the day sums, both rankings from one table. */
export async function bestSellersOfAll(db: Queryable, range: DayRange): Promise<BestSellers> {
  const { rows } = await sql<{ ranking: "units" | "revenue"; k: string; name: string; units: number; revenue: number }>`
    with g as (
      select k, max(name) as name, sum(units) as units, sum(revenue) as revenue
      from ${await daySellers(db, range)} s
      group by k
    )
    select 'units' as ranking, u.* from (select * from g order by units desc, revenue desc, name, k limit ${BEST_SELLERS}) u
    union all
    select 'revenue' as ranking, r.* from (select * from g order by revenue desc, units desc, name, k limit ${BEST_SELLERS}) r
  `.execute(db);
  // each half keeps its order through union all; sorted again so no database's plan can change it
  const byUnits = rows.filter((r) => r.ranking === "units").map(seller).sort(byUnitsOrder);
  const byRevenue = rows.filter((r) => r.ranking === "revenue").map(seller).sort(byRevenueOrder);
  return { byUnits, byRevenue };
}

// ---------------------------------------------------------------- payment methods

export interface MethodRow {
  method: string;
  label: string;
  orders: number;
  revenueCents: number;
}

/** The range's paid orders by how they were paid (card, instant EFT, bank transfer), most orders first. */
export async function paymentMethods(db: Queryable, range: SalesRange, days: Promise<PaidDayRow[]> = paidDays(db, range)): Promise<MethodRow[]> {
  const byMethod = new Map<string, MethodRow>();
  for (const r of inRange(range, await days)) {
    const m = byMethod.get(r.method) ?? { method: r.method, label: paymentMethodShort(r.method), orders: 0, revenueCents: 0 };
    m.orders += r.orders;
    m.revenueCents += r.revenueCents;
    byMethod.set(r.method, m);
  }
  return [...byMethod.values()].sort((a, b) => b.orders - a.orders || b.revenueCents - a.revenueCents || a.method.localeCompare(b.method));
}

// ---------------------------------------------------------------- new and returning customers

export interface CustomerKindRow {
  kind: "new" | "returning";
  label: string;
  /** paid orders of the range */
  orders: number;
  /** distinct customers behind them (one who ordered for the first time and again in the range counts in both) */
  customers: number;
  revenueCents: number;
}

/**
 * The range's paid orders split by whether their customer had paid for an earlier order (returning) or not (new: the
 * customer's first paid order). An order whose account is gone (user_id null) has no history and counts as new.
 */
export async function newAndReturning(db: Queryable, range: SalesRange): Promise<CustomerKindRow[]> {
  // Orders and revenue add up per day (order_day_totals), and so do new customers (a customer's new orders are all at
  // their first paid instant, so on one day); distinct returning customers come from order_day_returning.
  const [{ rows }, { rows: back }] = await Promise.all([
    dayTotals(db, range, { customers: true }).then((t) =>
      sql<{ orders: number; revenue: number; new_orders: number; new_customers: number; new_revenue: number }>`
        select sum(orders) as orders, sum(revenue) as revenue, sum(new_orders) as new_orders, sum(new_customers) as new_customers, sum(new_revenue) as new_revenue
        from ${t} t
        where payment_status = ${PAID}
      `.execute(db),
    ),
    dayReturning(db, range).then((r) =>
      sql<{ customers: number }>`
        select sum(case when prev_day < ${range.from} or second = 1 then orders else 0 end) as customers from ${r} r
      `.execute(db),
    ),
  ]);
  const returning = back[0];
  const t = rows[0];
  const paidOrders = n(t?.orders);
  const newOrders = n(t?.new_orders);
  return [
    { kind: "new", label: "New customers", orders: newOrders, customers: n(t?.new_customers), revenueCents: n(t?.new_revenue) },
    { kind: "returning", label: "Returning customers", orders: paidOrders - newOrders, customers: n(returning?.customers), revenueCents: n(t?.revenue) - n(t?.new_revenue) },
  ];
}

// ---------------------------------------------------------------- coupons

export interface CouponRow {
  code: string;
  orders: number;
  discountCents: number;
  revenueCents: number;
}

export interface CouponFigures {
  rows: CouponRow[];
  /** over every code, not only the rows shown */
  orders: number;
  discountCents: number;
}

/** The range's paid orders that used a coupon, by code (most used first, at most COUPON_ROWS codes), with totals. */
export async function couponUse(db: Queryable, range: SalesRange, days: Promise<PaidDayRow[]> = paidDays(db, range)): Promise<CouponFigures> {
  const [{ rows }, paid] = await Promise.all([
    dayCoupons(db, range).then((coupons) =>
      sql<{ coupon_code: string; orders: number; discount: number; revenue: number }>`
        select coupon_code, sum(orders) as orders, sum(discount) as discount, sum(revenue) as revenue
        from ${coupons} c
        group by coupon_code
        order by sum(orders) desc, sum(discount) desc, coupon_code
        limit ${COUPON_ROWS}
      `.execute(db),
    ),
    days,
  ]);
  const current = inRange(range, paid);
  return {
    rows: rows.map((r) => ({ code: String(r.coupon_code), orders: n(r.orders), discountCents: n(r.discount), revenueCents: n(r.revenue) })),
    orders: current.reduce((sum, r) => sum + r.couponOrders, 0),
    discountCents: current.reduce((sum, r) => sum + r.discountCents, 0),
  };
}

// ---------------------------------------------------------------- the whole dashboard

export interface SalesDashboard {
  revenue: RevenueFigures;
  statuses: StatusRow[];
  bestByUnits: SellerRow[];
  bestByRevenue: SellerRow[];
  methods: MethodRow[];
  customers: CustomerKindRow[];
  coupons: CouponFigures;
}

export async function salesDashboard(db: Queryable, range: SalesRange): Promise<SalesDashboard> {
  const days = paidDays(db, range);
  const [revenue, statuses, best, methods, customers, coupons] = await Promise.all([
    revenueFigures(db, range, days),
    ordersByStatus(db, range),
    bestSellers(db, range),
    paymentMethods(db, range, days),
    newAndReturning(db, range),
    couponUse(db, range, days),
  ]);
  return { revenue, statuses, bestByUnits: best.byUnits, bestByRevenue: best.byRevenue, methods, customers, coupons };
}
