/**
 * The sales dashboard's figures (issue 20 point 4), aggregated in the database: every query is a GROUP BY over one
 * range of orders.created_at, and no order row ever comes to JavaScript. A sale is what salesTotals counts (PAID: the
 * payment is completed), and the headline totals are salesTotals' own, so the dashboard and the accountant's export
 * agree to the cent; days are South African days (UTC+2), as reports.logic.ts has them.
 *
 * Each dataset is its own function so the CSV download runs only the query it needs.
 */
import { sql, type ExpressionBuilder, type RawBuilder } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import type { Database, OrderStatus } from "~/db/schema";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "~/modules/orders/order-admin.logic";
import { paymentMethodShort } from "~/modules/payments/payment-methods";
import { rangeBounds } from "./reports.logic";
import { PAID, salesTotals } from "./sales-totals.server";
import { averageOrderCents, queryBounds, rollUp, type DayFigures, type SalesBucket, type SalesRange } from "./sales.logic";

/** How many best sellers, and at most how many coupon codes, a chart shows. */
export const BEST_SELLERS = 10;
export const COUPON_ROWS = 25;

/** The South African day of orders.created_at as YYYY-MM-DD text, on either database. */
function saDayOf(db: Queryable): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`to_char((orders.created_at at time zone 'UTC') + interval '2 hours', 'YYYY-MM-DD')`
    : sql<string>`date(orders.created_at, '+2 hours')`;
}

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
 * One scan of the paid orders of both periods (the range and the one before), grouped by South African day and
 * payment method: revenue over time, the payment methods and the coupon totals all come from these rows (at most
 * 3 × 2 × the range's days), so the orders are read once, not once per chart.
 */
export async function paidDays(db: Queryable, range: SalesRange): Promise<PaidDayRow[]> {
  const { start, end } = queryBounds(range);
  const day = saDayOf(db);
  const withCoupon = sql<number>`case when coupon_code is not null then 1 else 0 end`;
  const rows = await db
    .selectFrom("orders")
    .select((eb) => [
      day.as("day"),
      "payment_method",
      eb.fn.countAll<number>().as("orders"),
      eb.fn.sum<number>("total_amount_cents").as("revenue"),
      eb.fn.sum<number>(withCoupon).as("coupon_orders"),
      eb.fn.sum<number>(sql`case when coupon_code is not null then discount_amount_cents else 0 end`).as("discount"),
    ])
    .where("payment_status", "=", PAID)
    .where("created_at", ">=", start)
    .where("created_at", "<", end)
    .groupBy([day, "payment_method"])
    .execute();
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
 * Naming every status lets the database count from its (status, created_at) index alone, one short range per status.
 */
export async function ordersByStatus(db: Queryable, range: SalesRange): Promise<StatusRow[]> {
  const { start, end } = rangeBounds(range);
  const rows = await db
    .selectFrom("orders")
    .select((eb) => ["status", eb.fn.countAll<number>().as("orders")])
    .where("status", "in", [...ORDER_STATUSES])
    .where("created_at", ">=", start)
    .where("created_at", "<", end)
    .groupBy("status")
    .execute();
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

/**
 * The ten best sellers of the range's paid orders by units and the ten by revenue, from one pass over their lines (a
 * common table both rankings read); names as the order lines have them. A tie goes to the other figure, then the name.
 */
export async function bestSellers(db: Queryable, range: SalesRange): Promise<{ byUnits: SellerRow[]; byRevenue: SellerRow[] }> {
  const { start, end } = rangeBounds(range);
  const { rows } = await sql<{ ranking: "units" | "revenue"; k: string; name: string; units: number; revenue: number }>`
    with g as (
      select coalesce(l.product_id, l.name) as k, max(l.name) as name, sum(l.quantity) as units, sum(l.total_price_cents) as revenue
      from order_lines l
      inner join orders o on o.id = l.order_id
      where o.payment_status = ${PAID} and o.created_at >= ${start} and o.created_at < ${end}
      group by coalesce(l.product_id, l.name)
    )
    select 'units' as ranking, u.* from (select * from g order by units desc, revenue desc, name, k limit ${BEST_SELLERS}) u
    union all
    select 'revenue' as ranking, r.* from (select * from g order by revenue desc, units desc, name, k limit ${BEST_SELLERS}) r
  `.execute(db);
  const seller = (r: (typeof rows)[number]): SellerRow => ({ key: r.k, name: String(r.name), units: n(r.units), revenueCents: n(r.revenue) });
  // each half keeps its order through union all; sorted again so no database's plan can change it
  const byUnits = rows.filter((r) => r.ranking === "units").map(seller);
  const byRevenue = rows.filter((r) => r.ranking === "revenue").map(seller);
  byUnits.sort((a, b) => b.units - a.units || b.revenueCents - a.revenueCents || a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  byRevenue.sort((a, b) => b.revenueCents - a.revenueCents || b.units - a.units || a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
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
  const { start, end } = rangeBounds(range);
  const returning = (eb: ExpressionBuilder<Database & { o: Database["orders"] }, "o">) =>
    eb.exists(
      eb
        .selectFrom("orders as p")
        .select(sql<number>`1`.as("one"))
        .whereRef("p.user_id", "=", "o.user_id")
        .where("p.payment_status", "=", PAID)
        .whereRef("p.created_at", "<", "o.created_at"),
    );
  const kind = sql<"new" | "returning">`kind`;
  const rows = await db
    .selectFrom((qb) =>
      qb
        .selectFrom("orders as o")
        .select((eb) => [eb.case().when(returning(eb)).then(sql.lit("returning")).else(sql.lit("new")).end().as("kind"), "o.user_id", "o.total_amount_cents"])
        .where("o.payment_status", "=", PAID)
        .where("o.created_at", ">=", start)
        .where("o.created_at", "<", end)
        .as("k"),
    )
    .select((eb) => [kind.as("kind"), eb.fn.countAll<number>().as("orders"), eb.fn.count<number>("k.user_id").distinct().as("customers"), eb.fn.sum<number>("k.total_amount_cents").as("revenue")])
    .groupBy(kind)
    .execute();
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return (["new", "returning"] as const).map((k) => {
    const r = byKind.get(k);
    return { kind: k, label: k === "new" ? "New customers" : "Returning customers", orders: n(r?.orders), customers: n(r?.customers), revenueCents: n(r?.revenue) };
  });
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
  const { start, end } = rangeBounds(range);
  const [rows, paid] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => [
        "coupon_code",
        eb.fn.countAll<number>().as("orders"),
        eb.fn.sum<number>("discount_amount_cents").as("discount"),
        eb.fn.sum<number>("total_amount_cents").as("revenue"),
      ])
      .where("payment_status", "=", PAID)
      .where("created_at", ">=", start)
      .where("created_at", "<", end)
      .where("coupon_code", "is not", null)
      .groupBy("coupon_code")
      .orderBy(sql`count(*)`, "desc")
      .orderBy(sql`sum(discount_amount_cents)`, "desc")
      .orderBy("coupon_code")
      .limit(COUPON_ROWS)
      .execute(),
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
