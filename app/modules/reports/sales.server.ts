/**
 * The sales dashboard's figures (issue 20 point 4), aggregated in the database: every query is a GROUP BY over the
 * range's per-day sums (settled days stored, the last days summed from the orders: order-days/order-days.server.ts, docs/
 * decisions/034), and no order row ever comes to JavaScript. A sale is what salesTotals counts (PAID: the
 * payment is completed), and the headline totals are salesTotals' own, so the dashboard and the accountant's export
 * agree to the cent; days are South African days (UTC+2), as reports.logic.ts has them.
 *
 * Each dataset is its own function so the CSV download runs only the query it needs.
 */
import { sql } from "kysely";
import { keptWhileUnchanged } from "~/db/kept-reads.server";
import type { Queryable } from "~/db/db.server";
import type { OrderStatus } from "~/db/schema";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "~/modules/orders/order-admin.logic";
import { paymentMethodShort } from "~/modules/payments/payment-methods";
import { daySellers, daySums, keptWhileSettled, liveSellers, PAID, returningCustomers, splitRange } from "~/modules/order-days/order-days.server";
import { salesTotals } from "./sales-totals.server";
import type { DayRange } from "~/utils/sa-days";
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
  const rows = await daySums(db, { from: range.previous.from, to: range.to }, "order_day_totals", {
    group: ["day", "payment_method"],
    sums: ["orders", "revenue", "coupon_orders", "coupon_discount"],
    paidOnly: true,
  });
  return rows
    .map((r) => ({ day: r.day, method: r.payment_method, orders: r.orders, revenueCents: r.revenue, couponOrders: r.coupon_orders, discountCents: r.coupon_discount }))
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
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
  const rows = await daySums(db, range, "order_day_totals", { group: ["status"], sums: ["orders"] });
  const counts = new Map(rows.map((r) => [r.status, r.orders]));
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
 * Adding up every product of the range on each view is what a million orders cannot afford (30 days: 65 000
 * product-days, 38 000 products; a year: 650 000). The settled days' sellers only change when a day's are summed again
 * differently, so their ranking is kept in this process until then (settledRanking: docs/decisions/043): the
 * first RANKED of each figure and the next value after them, an exact bound on every product further down. Each view
 * adds the live days' products to it; a live product off the kept list has its settled sum looked up when it could
 * reach the top ten. When the bound does not settle the tenth place (a flat long tail) the range is added up in full.
 */
export async function bestSellers(db: Queryable, range: SalesRange): Promise<BestSellers> {
  return (await bestSellersFromRanking(db, range)) ?? bestSellersOfAll(db, range);
}

export interface BestSellers {
  byUnits: SellerRow[];
  byRevenue: SellerRow[];
}

/** How many of each figure the settled ranking keeps. */
const RANKED = 100;

interface SettledRanking {
  /** by key: the RANKED first by units and the RANKED first by revenue */
  rows: Map<string, SellerRow>;
  /** the units of the first product after the RANKED by units (0: none), and the same for revenue */
  unitsBound: number;
  revenueBound: number;
}

/** The settled days' ranking, read again only when their stored sellers changed (see bestSellers). */
function settledRanking(db: Queryable, settled: DayRange): Promise<SettledRanking> {
  return keptWhileSettled(db, settled, "ranking", () => readSettledRanking(db, settled), "sellers");
}

async function readSettledRanking(db: Queryable, settled: DayRange): Promise<SettledRanking> {
  const { rows } = await sql<{ ranking: "units" | "revenue"; k: string; name: string; units: number; revenue: number }>`
    with g as (
      select k, max(name) as name, sum(units) as units, sum(revenue) as revenue
      from order_day_sellers where day >= ${settled.from} and day <= ${settled.to}
      group by k
    )
    select 'units' as ranking, u.* from (select * from g order by units desc, revenue desc, k limit ${RANKED + 1}) u
    union all
    select 'revenue' as ranking, r.* from (select * from g order by revenue desc, units desc, k limit ${RANKED + 1}) r
  `.execute(db);
  const units = rows.filter((r) => r.ranking === "units").map(seller).sort(byUnitsOrder);
  const revenue = rows.filter((r) => r.ranking === "revenue").map(seller).sort(byRevenueOrder);
  const kept = new Map<string, SellerRow>();
  for (const r of [...units.slice(0, RANKED), ...revenue.slice(0, RANKED)]) kept.set(r.key, r);
  return { rows: kept, unitsBound: units[RANKED]?.units ?? 0, revenueBound: revenue[RANKED]?.revenueCents ?? 0 };
}

/** The best sellers from the settled ranking and the live days (see bestSellers); null when the bound does not settle them. */
export async function bestSellersFromRanking(db: Queryable, range: DayRange): Promise<BestSellers | null> {
  const { settled, live } = splitRange(range);
  const [ranking, liveRows] = await Promise.all([
    settled ? settledRanking(db, settled) : Promise.resolve<SettledRanking>({ rows: new Map(), unitsBound: 0, revenueBound: 0 }),
    // the live days' products (kept per hour until an order of that hour changes: order-days/order-days.server.ts)
    live
      ? liveSellers(db, live).then((rows) => rows.map(seller))
      : Promise.resolve<SellerRow[]>([]),
  ]);
  // exact totals: the kept settled rows plus their live sales
  const exact = new Map<string, SellerRow>([...ranking.rows].map(([k, r]) => [k, { ...r }]));
  const unknown: SellerRow[] = [];
  for (const r of liveRows) {
    const kept = exact.get(r.key);
    if (kept) add(kept, r);
    else unknown.push(r);
  }
  // A live product off the kept lists sold at most the bound in the settled days: look its sum up when that could reach
  // the tenth place of either figure, as it stands.
  const tenth = (order: (a: SellerRow, b: SellerRow) => number) => [...exact.values()].sort(order)[BEST_SELLERS - 1];
  const tenthUnits = tenth(byUnitsOrder)?.units ?? 0;
  const tenthRevenue = tenth(byRevenueOrder)?.revenueCents ?? 0;
  const lookUp = unknown.filter((r) => r.units + ranking.unitsBound >= tenthUnits || r.revenueCents + ranking.revenueBound >= tenthRevenue);
  if (settled && lookUp.length > MAX_LOOKUPS) return null;
  const found =
    settled && lookUp.length
      ? (await sql<{ k: string; name: string; units: number; revenue: number }>`
          select k, max(name) as name, sum(units) as units, sum(revenue) as revenue
          from order_day_sellers where day >= ${settled.from} and day <= ${settled.to} and k in (${sql.join(lookUp.map((r) => r.key))})
          group by k
        `.execute(db)).rows
      : [];
  const settledOf = new Map(found.map((r) => [r.k, seller(r)]));
  for (const r of lookUp) {
    const total = { ...r };
    const before = settledOf.get(r.key);
    if (before) add(total, before);
    exact.set(r.key, total);
  }
  const all = [...exact.values()];
  const byUnits = [...all].sort(byUnitsOrder).slice(0, BEST_SELLERS);
  const byRevenue = [...all].sort(byRevenueOrder).slice(0, BEST_SELLERS);
  // Everything not in `exact` sold at most the bound (the settled days only, or a live product below the tenth place).
  const holds = (top: SellerRow[], value: (r: SellerRow) => number, bound: number) => bound === 0 || (top.length === BEST_SELLERS && value(top[BEST_SELLERS - 1]!) > bound);
  return holds(byUnits, (r) => r.units, ranking.unitsBound) && holds(byRevenue, (r) => r.revenueCents, ranking.revenueBound) ? { byUnits, byRevenue } : null;
}

/** Beyond this many live products to look up, the range is added up in full instead. */
const MAX_LOOKUPS = 2000;

function add(into: SellerRow, more: SellerRow) {
  into.units += more.units;
  into.revenueCents += more.revenueCents;
  if (more.name > into.name) into.name = more.name;
}

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
  // their first paid instant, so on one day); distinct returning customers from order_day_returning (returningCustomers).
  const [[t], returning] = await Promise.all([
    daySums(db, range, "order_day_totals", { group: [], sums: ["orders", "revenue", "new_orders", "new_customers", "new_revenue"], paidOnly: true }),
    returningCustomers(db, range),
  ]);
  const paidOrders = n(t?.orders);
  const newOrders = n(t?.new_orders);
  return [
    { kind: "new", label: "New customers", orders: newOrders, customers: n(t?.new_customers), revenueCents: n(t?.new_revenue) },
    { kind: "returning", label: "Returning customers", orders: paidOrders - newOrders, customers: returning, revenueCents: n(t?.revenue) - n(t?.new_revenue) },
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
  const [codes, paid] = await Promise.all([daySums(db, range, "order_day_coupons", { group: ["coupon_code"], sums: ["orders", "discount", "revenue"] }), days]);
  const rows = codes
    .map((r) => ({ code: String(r.coupon_code), orders: r.orders, discountCents: r.discount, revenueCents: r.revenue }))
    // most used first, then the larger discount, then by code
    .sort((a, b) => b.orders - a.orders || b.discountCents - a.discountCents || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .slice(0, COUPON_ROWS);
  const current = inRange(range, paid);
  return {
    rows,
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

/** Every figure of the range, kept until an order (or its lines, metrics, returns) changes (docs/decisions/042). */
export function salesDashboard(db: Queryable, range: SalesRange): Promise<SalesDashboard> {
  return keptWhileUnchanged(db, `sales:${JSON.stringify(range)}`, () => readSalesDashboard(db, range));
}

async function readSalesDashboard(db: Queryable, range: SalesRange): Promise<SalesDashboard> {
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
