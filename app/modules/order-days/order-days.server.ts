/**
 * The shop's orders summed per South African day (migration 0027, docs/decisions/034 and 043): the settled days' sums
 * kept in the database and summed again when marked stale, the live days' read per hour, and the sums of a range read
 * from both. The reports, the dashboard, the orders list and the jobs read their figures through here.
 *
 * A sale is an order whose payment is completed (PAID), counted on the day it was placed (created_at, South African
 * time). Every amount is in cents and VAT-inclusive, as stored on the order.
 */
import { sql, type RawBuilder } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import { keptWhileUnchanged, sharedWhileInFlight } from "~/db/kept-reads.server";
import { logger, requestScope } from "~/utils/logger.server";
import { addDays, rangeBounds, saDay, type DayRange } from "~/utils/sa-days";
import { yieldToEventLoop } from "~/utils/event-loop";

/** The condition "a sale": the payment is completed. */
export const PAID = "completed" as const;

/**
 * The orders of a range, summed per South African day (docs/decisions/034). Settled days (before the last LIVE_DAYS)
 * are summed once into order_day_totals / order_day_coupons / order_day_sellers and read from there; the last
 * LIVE_DAYS days are summed from the orders at every read (they change all the time, and checkouts then never touch
 * the sums). A settled day is summed again when the database's triggers have marked it stale (one of its orders, its
 * lines or metrics changed; or an earlier order of the same customer), before it is read. The figures are therefore
 * exactly the orders' own, as if read from the orders table.
 *
 * Two live days (today and yesterday): every view reads them, so fewer is cheaper; the triggers mark the days of orders
 * older than 20 hours, so the oldest live order (yesterday's midnight) is 24 hours old at the earliest, and the clocks
 * of the database and the app may differ by up to 4 hours without a change going unmarked.
 */
export const LIVE_DAYS = 2;

/** The South African day of orders.created_at (column of the alias `o`) as YYYY-MM-DD text, on either database. */
export function saDaySql(db: Queryable, column = "o.created_at"): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`to_char((${sql.ref(column)} at time zone 'UTC') + interval '2 hours', 'YYYY-MM-DD')`
    : sql<string>`date(${sql.ref(column)}, '+2 hours')`;
}

/** The first day read live (today and the LIVE_DAYS - 1 before), by the server's clock. */
export function liveFrom(now = new Date()): string {
  return addDays(saDay(now), -(LIVE_DAYS - 1));
}

/** A range cut in its settled part (stored sums) and its live part (read from the orders). */
export function splitRange(range: DayRange, now = new Date()): { settled: DayRange | null; live: DayRange | null } {
  const live = liveFrom(now);
  return {
    settled: range.from < live ? { from: range.from, to: range.to < live ? range.to : addDays(live, -1) } : null,
    live: range.to >= live ? { from: range.from > live ? range.from : live, to: range.to } : null,
  };
}

/** Per day, status, payment status and method: the sums order_day_totals holds, straight from the orders. */
function totalsSelect(db: Queryable, range: DayRange): RawBuilder<unknown> {
  const { start, end } = rangeBounds(range);
  const day = saDaySql(db);
  const isNew = sql`case when o.payment_status = ${PAID} and not exists (
      select 1 from orders p where p.user_id = o.user_id and p.payment_status = ${PAID} and p.created_at < o.created_at
    ) then 1 else 0 end`;
  const metrics = sql`count(m.order_id) as metrics_rows, count(m.processing_time) as processing_n, coalesce(sum(m.processing_time), 0) as processing_sum,
    count(m.delivery_time) as delivery_n, coalesce(sum(m.delivery_time), 0) as delivery_sum`;
  return sql`
    select x.day, x.status, x.payment_status, x.payment_method, count(*) as orders,
      sum(x.total_amount_cents) as revenue, sum(x.subtotal_cents) as subtotal, sum(x.discount_amount_cents) as discount,
      sum(x.shipping_cents) as shipping, sum((6 * cast(x.total_amount_cents as bigint) + 23) / 46) as vat,
      sum(case when x.coupon_code is not null then 1 else 0 end) as coupon_orders,
      sum(case when x.coupon_code is not null then x.discount_amount_cents else 0 end) as coupon_discount,
      sum(x.is_new) as new_orders, count(distinct case when x.is_new = 1 then x.user_id end) as new_customers,
      sum(case when x.is_new = 1 then x.total_amount_cents else 0 end) as new_revenue,
      ${metrics}
    from (
      select o.id, o.user_id, o.status, o.payment_status, o.payment_method, o.total_amount_cents, o.subtotal_cents, o.discount_amount_cents,
        o.shipping_cents, o.coupon_code, ${day} as day, ${isNew} as is_new
      from orders o
      where o.created_at >= ${start} and o.created_at < ${end}
    ) x
    left join order_metrics m on m.order_id = x.id
    group by x.day, x.status, x.payment_status, x.payment_method
  `;
}

/** Per day and coupon code, the paid orders that used it. */
function couponsSelect(db: Queryable, range: DayRange): RawBuilder<unknown> {
  const { start, end } = rangeBounds(range);
  const day = saDaySql(db);
  return sql`
    select ${day} as day, o.coupon_code, count(*) as orders, sum(o.discount_amount_cents) as discount, sum(o.total_amount_cents) as revenue
    from orders o
    where o.payment_status = ${PAID} and o.created_at >= ${start} and o.created_at < ${end} and o.coupon_code is not null
    group by ${day}, o.coupon_code
  `;
}

/** Per day and product (its line name once the product is gone), the paid units and the lines' totals. */
export function sellersSelect(db: Queryable, range: DayRange): RawBuilder<unknown> {
  const { start, end } = rangeBounds(range);
  const day = saDaySql(db);
  return sql`
    select ${day} as day, coalesce(l.product_id, l.name) as k, max(l.name) as name, sum(l.quantity) as units, sum(l.total_price_cents) as revenue
    from order_lines l
    inner join orders o on o.id = l.order_id
    where o.payment_status = ${PAID} and o.created_at >= ${start} and o.created_at < ${end}
    group by ${day}, coalesce(l.product_id, l.name)
  `;
}

/**
 * Per day, the paid orders of returning customers (an earlier paid order exists) by the day of the customer's previous
 * paid order, and whether that previous one was the customer's first. The distinct returning customers of a range
 * [s, e] are then: its returning orders whose previous paid order is before s (each customer's first returning order in
 * the range), plus its second paid orders whose first is in the range (returning from an order of the range itself).
 */
function returningSelect(db: Queryable, range: DayRange): RawBuilder<unknown> {
  const { start, end } = rangeBounds(range);
  return sql`
    select day, prev_day, second, count(*) as orders from (
      select y.day, ${saDaySql(db, "y.prev")} as prev_day,
        case when exists (select 1 from orders q where q.user_id = y.user_id and q.payment_status = ${PAID} and q.created_at < y.prev) then 0 else 1 end as second
      from (
        select o.user_id, ${saDaySql(db)} as day,
          (select max(p.created_at) from orders p where p.user_id = o.user_id and p.payment_status = ${PAID} and p.created_at < o.created_at) as prev
        from orders o
        where o.payment_status = ${PAID} and o.created_at >= ${start} and o.created_at < ${end} and o.user_id is not null
      ) y
      where y.prev is not null
    ) z
    group by day, prev_day, second
  `;
}

const TOTAL_COLUMN_NAMES = [
  "day", "status", "payment_status", "payment_method", "orders", "revenue", "subtotal", "discount", "shipping", "vat", "coupon_orders", "coupon_discount",
  "new_orders", "new_customers", "new_revenue", "metrics_rows", "processing_n", "processing_sum", "delivery_n", "delivery_sum",
] as const;
export type TotalsRow = Record<(typeof TOTAL_COLUMN_NAMES)[number], string | number | null>;
const COUPON_COLUMN_NAMES = ["day", "coupon_code", "orders", "discount", "revenue"] as const;
type CouponsRow = Record<(typeof COUPON_COLUMN_NAMES)[number], string | number | null>;

/** A stored day-sums table: how its rows are summed from the orders, its columns, and how many of them (the first) are its key. */
type DayTable = "order_day_totals" | "order_day_coupons" | "order_day_sellers" | "order_day_returning";
const DAY_TABLES: Record<DayTable, { select: (db: Queryable, range: DayRange) => RawBuilder<unknown>; names: readonly string[]; keys: number; columns: RawBuilder<unknown> }> = {
  order_day_totals: { select: totalsSelect, ...tableColumns(TOTAL_COLUMN_NAMES, 4) },
  order_day_coupons: { select: couponsSelect, ...tableColumns(COUPON_COLUMN_NAMES, 2) },
  order_day_sellers: { select: sellersSelect, ...tableColumns(["day", "k", "name", "units", "revenue"], 2) },
  order_day_returning: { select: returningSelect, ...tableColumns(["day", "prev_day", "second", "orders"], 3) },
};
function tableColumns(names: readonly string[], keys: number) {
  return { names, keys, columns: sql.raw(names.join(", ")) };
}

/** The live days' figures, each as its stored table would hold them; `returning` as returningSelect's rows. */
interface LiveSnapshot {
  totals: TotalsRow[];
  coupons: CouponsRow[];
  returning: ReturningRow[];
  /** paid units and revenue per day and product key, as order_day_sellers holds them */
  sellers: SellerRow[];
}
type ReturningRow = { day: string; prev_day: string; second: number; orders: number };
type SellerRow = { day: string; k: string; name: string; units: number; revenue: number };

/**
 * The live days' orders: every figure of a view (tabs, sales, orders by status, new and returning customers, coupons,
 * metrics, best sellers) comes from them. Within a request every figure shares one read (the request's scope holds it
 * until the request is gone); outside one (jobs, scripts, tests), the calls made while a read is in flight share it.
 * Inside a transaction it is always read afresh.
 */
const liveReads = new WeakMap<object, Map<string, Promise<LiveSnapshot>>>();
function liveOrders(db: Queryable, live: DayRange): Promise<LiveSnapshot> {
  if (db.isTransaction) return readLiveOrders(db, live);
  const scope = requestScope.getStore();
  let reads = liveReads.get(scope ?? db);
  if (!reads) liveReads.set(scope ?? db, (reads = new Map()));
  const key = `${live.from}:${live.to}`;
  const inFlight = reads.get(key);
  if (inFlight) return inFlight;
  const read = readLiveOrders(db, live);
  reads.set(key, read);
  const done = () => reads.delete(key);
  if (scope) read.catch(done);
  else read.then(done, done);
  return read;
}

/** The live days' paid units and revenue per product key (the best sellers' live part). */
export async function liveSellers(db: Queryable, live: DayRange): Promise<Array<{ k: string; name: string; units: number; revenue: number }>> {
  const byKey = new Map<string, { k: string; name: string; units: number; revenue: number }>();
  for (const r of (await liveOrders(db, live)).sellers) {
    const into = byKey.get(r.k);
    if (!into) byKey.set(r.k, { k: r.k, name: r.name, units: r.units, revenue: r.revenue });
    else {
      into.units += r.units;
      into.revenue += r.revenue;
      if (r.name > into.name) into.name = r.name;
    }
  }
  return [...byKey.values()];
}

/**
 * A read of a settled range's stored sums (its stale days summed first), kept in this process until the stored sums it
 * reads change (the count of changes of `sums`, or of `sellers` for order_day_sellers: migration 0031), not until any
 * order changes: today's orders change no stored sum. `key` names what `read` computes from them.
 */
export async function keptWhileSettled<T>(db: Queryable, settled: DayRange, key: string, read: () => Promise<T>, topic: "sums" | "sellers" = "sums"): Promise<T> {
  await ensureOrderDays(db, settled);
  return keptWhileUnchanged(db, `settled:${settled.from}:${settled.to}:${key}`, read, { topics: [topic] });
}

type SummedTable = "order_day_totals" | "order_day_coupons";
type SummedColumn<T extends SummedTable> = T extends "order_day_totals" ? (typeof TOTAL_COLUMN_NAMES)[number] : (typeof COUPON_COLUMN_NAMES)[number];

/**
 * A range's day sums grouped by `group` (text columns) with `sums` added up (`paidOnly`: the paid orders' rows, of
 * order_day_totals), as `select group, sum(…) from dayTotals(range) group by group` gives them, in two parts added here:
 * the settled days' from the stored table (kept until the stored sums change: keptWhileSettled) and the live days' from
 * their kept hours (liveOrders). Every column summed is a sum or a count, so the parts add up; the first view after an
 * order changed then reads that order's hour and nothing of the settled days (docs/decisions/043).
 */
export async function daySums<T extends SummedTable, G extends SummedColumn<T>, S extends SummedColumn<T>>(
  db: Queryable,
  range: DayRange,
  table: T,
  spec: { group: readonly G[]; sums: readonly S[]; paidOnly?: boolean },
): Promise<Array<Record<G, string> & Record<S, number>>> {
  const { settled, live } = splitRange(range);
  const paid = spec.paidOnly && table === "order_day_totals";
  const stored = settled
    ? keptWhileSettled(db, settled, `${table}:${spec.group.join(",")}:${spec.sums.join(",")}:${paid ? "paid" : "all"}`, async () => {
        const groups = spec.group.map((c) => sql.ref(c));
        const { rows } = await sql<Record<string, unknown>>`
          select ${sql.join([...groups, ...spec.sums.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`)])}
          from ${sql.table(table)}
          where day >= ${settled.from} and day <= ${settled.to} ${paid ? sql`and payment_status = ${PAID}` : sql``}
          ${groups.length ? sql`group by ${sql.join(groups)}` : sql``}
        `.execute(db);
        // no group and no row: a sum over nothing (null), as over no live row
        return rows.filter((r) => spec.group.length > 0 || r[spec.sums[0]!] !== null);
      })
    : Promise.resolve([]);
  const fresh = live
    ? liveOrders(db, live).then((snapshot) =>
        ((table === "order_day_totals" ? snapshot.totals : snapshot.coupons) as Array<Record<string, unknown>>).filter((r) => !paid || r.payment_status === PAID),
      )
    : Promise.resolve([]);
  const byGroup = new Map<string, Record<string, unknown>>();
  for (const r of [...(await stored), ...(await fresh)]) {
    const key = spec.group.map((c) => String(r[c])).join("\u0001");
    const into = byGroup.get(key) ?? Object.fromEntries([...spec.group.map((c) => [c, r[c]]), ...spec.sums.map((c) => [c, 0])]);
    byGroup.set(key, into);
    for (const c of spec.sums) into[c] = Number(into[c]) + Number(r[c] ?? 0);
  }
  return [...byGroup.values()] as Array<Record<G, string> & Record<S, number>>;
}

/** The UTC hours ("YYYY-MM-DDTHH", as migration 0031 counts them) from start (included) to end (excluded). */
function hoursBetween(start: string, end: string): string[] {
  const hours: string[] = [];
  for (let t = Date.parse(start); t < Date.parse(end); t += 3_600_000) hours.push(new Date(t).toISOString().slice(0, 13));
  return hours;
}

/** The figures of one hour's orders (the hour in which they were placed). */
type HourPart = LiveSnapshot;
const EMPTY_HOUR: HourPart = { totals: [], coupons: [], returning: [], sellers: [] };

/**
 * Each live hour's figures, kept per database while that hour's count of changes (migration 0031: triggers count every
 * change to an order, its lines or metrics, by any process, in the hour the order was placed, and in the hours of the
 * customer's later orders when its payment or customer changes) stands. A view after an order changed therefore reads
 * that order's hour (about sixty orders at a million a year) instead of the two live days (docs/decisions/043). The
 * counts are read before the orders, so a change that commits meanwhile leaves its hour under the older count and the
 * next view reads it again.
 */
const keptHours = new WeakMap<object, Map<string, { changes: string; part: HourPart }>>();

async function readLiveOrders(db: Queryable, live: DayRange): Promise<LiveSnapshot> {
  const { start, end } = rangeBounds(live);
  const hours = hoursBetween(start, end);
  if (db.isTransaction) return mergeHours([...(await readHours(db, hours)).values()]);
  const { rows } = await sql<{ hour: string; n: unknown }>`
    select hour, sum(n) as n from order_hour_changes where hour >= ${hours[0]} and hour <= ${hours[hours.length - 1]} group by hour
  `.execute(db);
  const counts = new Map(rows.map((r) => [r.hour, String(r.n ?? 0)]));
  let kept = keptHours.get(db);
  if (!kept) keptHours.set(db, (kept = new Map()));
  const changed = hours.filter((h) => kept.get(h)?.changes !== (counts.get(h) ?? "0"));
  if (changed.length) {
    const fresh = await readHours(db, changed);
    for (const h of changed) kept.set(h, { changes: counts.get(h) ?? "0", part: fresh.get(h) ?? EMPTY_HOUR });
  }
  const snapshot = mergeHours(hours.map((h) => kept.get(h)?.part ?? EMPTY_HOUR));
  // the hours before the live days are not asked for again (unless by a caller with its own clock, which reads them)
  const oldest = rangeBounds({ from: liveFrom(), to: liveFrom() }).start.slice(0, 13);
  for (const h of kept.keys()) if (h < oldest) kept.delete(h);
  return snapshot;
}

/** The hours' parts as one snapshot: the rows of the same key added up, as one read of all their orders gives them. */
function mergeHours(parts: HourPart[]): LiveSnapshot {
  const totals = new Map<string, TotalsRow>();
  const coupons = new Map<string, CouponsRow>();
  const returning = new Map<string, ReturningRow>();
  const sellers = new Map<string, SellerRow>();
  const addInto = <R extends Record<string, unknown>>(into: Map<string, R>, key: string, row: R, keys: number) => {
    const have = into.get(key);
    if (!have) return void into.set(key, { ...row });
    const names = Object.keys(row);
    for (let i = keys; i < names.length; i++) (have as Record<string, unknown>)[names[i]!] = Number(have[names[i]!] ?? 0) + Number(row[names[i]!] ?? 0);
  };
  for (const part of parts) {
    for (const r of part.totals) addInto(totals, `${r.day}|${r.status}|${r.payment_status}|${r.payment_method}`, r, 4);
    for (const r of part.coupons) addInto(coupons, `${r.day}|${r.coupon_code}`, r, 2);
    for (const r of part.returning) addInto(returning, `${r.day}|${r.prev_day}|${r.second}`, r, 3);
    for (const r of part.sellers) {
      const key = `${r.day}|${r.k}`;
      const have = sellers.get(key);
      if (!have) sellers.set(key, { ...r });
      else {
        have.units += r.units;
        have.revenue += r.revenue;
        if (r.name > have.name) have.name = r.name;
      }
    }
  }
  return { totals: [...totals.values()], coupons: [...coupons.values()], returning: [...returning.values()], sellers: [...sellers.values()] };
}

/** The UTC hour of orders.created_at ("YYYY-MM-DDTHH"), as migration 0031's triggers name it. */
function hourSql(db: Queryable, column = "o.created_at"): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24')` : sql<string>`substr(${sql.ref(column)}, 1, 13)`;
}

/**
 * The orders placed in the given hours, read once and summed per hour: totals, coupons and returning customers in one
 * pass (the orders materialized once, grouped three ways; only the groups come back: rows to JavaScript cost more than
 * the database's sums), and the paid lines per product. Contiguous hours are one range of created_at.
 */
async function readHours(db: Queryable, hours: string[]): Promise<Map<string, HourPart>> {
  const spans: Array<{ from: string; to: string }> = [];
  for (const h of [...hours].sort()) {
    const at = `${h}:00:00.000Z`;
    const last = spans[spans.length - 1];
    if (last && last.to === at) last.to = new Date(Date.parse(at) + 3_600_000).toISOString();
    else spans.push({ from: at, to: new Date(Date.parse(at) + 3_600_000).toISOString() });
  }
  const within = sql.join(
    spans.map((s) => sql`(o.created_at >= ${s.from} and o.created_at < ${s.to})`),
    sql` or `,
  );
  const history = sql`o.payment_status = ${PAID} and o.user_id is not null`;
  // `earlier`: the customer's paid orders before this one, counted up to 2 — 0 a new customer's order, 1 the second
  // (its previous is their first), 2 a later one; `prev`: the previous paid order's time.
  const groups = sql<{
    kind: "t" | "c" | "r"; hour: string; day: string; status: string | null; payment_status: string | null; payment_method: string | null; coupon_code: string | null;
    prev_day: string | null; second: number | null; orders: number; revenue: number; subtotal: number; discount: number; shipping: number; vat: number;
    coupon_orders: number; coupon_discount: number; new_orders: number; new_customers: number; new_revenue: number;
    metrics_rows: number; processing_n: number; processing_sum: number; delivery_n: number; delivery_sum: number;
  }>`
    with x as materialized (
      select o.user_id, o.status, o.payment_status, o.payment_method, o.total_amount_cents as total, o.subtotal_cents as subtotal,
        o.discount_amount_cents as discount, o.shipping_cents as shipping, o.coupon_code, ${saDaySql(db)} as day, ${hourSql(db)} as hour,
        m.order_id as metrics_id, m.processing_time, m.delivery_time,
        case when ${history} then (select max(p.created_at) from orders p where p.user_id = o.user_id and p.payment_status = ${PAID} and p.created_at < o.created_at) end as prev,
        case when o.payment_status <> ${PAID} then null when o.user_id is null then 0 else
          (select count(*) from (select 1 from orders q where q.user_id = o.user_id and q.payment_status = ${PAID} and q.created_at < o.created_at limit 2) e) end as earlier
      from orders o left join order_metrics m on m.order_id = o.id
      where ${within}
    )
    select 't' as kind, hour, day, status, payment_status, payment_method, cast(null as text) as coupon_code, cast(null as text) as prev_day, cast(null as integer) as second, count(*) as orders,
      sum(total) as revenue, sum(subtotal) as subtotal, sum(discount) as discount, sum(shipping) as shipping, sum((6 * cast(total as bigint) + 23) / 46) as vat,
      sum(case when coupon_code is not null then 1 else 0 end) as coupon_orders, sum(case when coupon_code is not null then discount else 0 end) as coupon_discount,
      sum(case when earlier = 0 then 1 else 0 end) as new_orders, count(distinct case when earlier = 0 then user_id end) as new_customers,
      sum(case when earlier = 0 then total else 0 end) as new_revenue,
      count(metrics_id) as metrics_rows, count(processing_time) as processing_n, coalesce(sum(processing_time), 0) as processing_sum,
      count(delivery_time) as delivery_n, coalesce(sum(delivery_time), 0) as delivery_sum
    from x group by hour, day, status, payment_status, payment_method
    union all
    select 'c', hour, day, null, null, null, coupon_code, null, null, count(*), sum(total), 0, sum(discount), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    from x where payment_status = ${PAID} and coupon_code is not null group by hour, day, coupon_code
    union all
    select 'r', hour, day, null, null, null, null, prev_day, second, count(*), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    from (select hour, day, ${saDaySql(db, "x.prev")} as prev_day, case when earlier = 1 then 1 else 0 end as second from x where prev is not null) y
    group by hour, day, prev_day, second
  `.execute(db);
  const lines = sql<{ hour: string; day: string; k: string; name: string; units: number; revenue: number }>`
    select ${hourSql(db)} as hour, ${saDaySql(db)} as day, coalesce(l.product_id, l.name) as k, max(l.name) as name, sum(l.quantity) as units, sum(l.total_price_cents) as revenue
    from order_lines l
    inner join orders o on o.id = l.order_id
    where o.payment_status = ${PAID} and (${within})
    group by ${hourSql(db)}, ${saDaySql(db)}, coalesce(l.product_id, l.name)
  `.execute(db);
  const [{ rows }, sold] = await Promise.all([groups, lines]);
  const num = (v: unknown) => Number(v ?? 0);
  const parts = new Map<string, HourPart>();
  const partOf = (hour: string) => {
    let part = parts.get(hour);
    if (!part) parts.set(hour, (part = { totals: [], coupons: [], returning: [], sellers: [] }));
    return part;
  };
  for (const r of rows) {
    const part = partOf(r.hour);
    if (r.kind === "t") {
      part.totals.push(Object.fromEntries(TOTAL_COLUMN_NAMES.map((c, i) => [c, i < 4 ? r[c] : num(r[c])])) as TotalsRow);
    } else if (r.kind === "c") {
      part.coupons.push({ day: r.day, coupon_code: r.coupon_code, orders: num(r.orders), discount: num(r.discount), revenue: num(r.revenue) });
    } else {
      part.returning.push({ day: r.day, prev_day: String(r.prev_day), second: num(r.second), orders: num(r.orders) });
    }
  }
  for (const r of sold.rows) partOf(r.hour).sellers.push({ day: r.day, k: String(r.k), name: r.name, units: num(r.units), revenue: num(r.revenue) });
  return parts;
}

/**
 * The range's paid units and revenue per day and product key, as a derived table: the settled days' stored rows and
 * the live days' summed from their lines (the best sellers when the kept ranking cannot settle them: sales.server.ts).
 */
export async function daySellers(db: Queryable, range: DayRange): Promise<RawBuilder<unknown>> {
  const { settled, live } = splitRange(range);
  if (settled) await ensureOrderDays(db, settled);
  const { columns } = DAY_TABLES.order_day_sellers;
  const parts = [
    settled ? sql`select ${columns} from order_day_sellers where day >= ${settled.from} and day <= ${settled.to}` : null,
    live ? sql`select ${columns} from (${sellersSelect(db, live)}) live` : null,
  ].filter((p): p is RawBuilder<unknown> => p !== null);
  return sql`(${sql.join(parts, sql` union all `)})`;
}

/**
 * The distinct returning customers of the range's paid orders (see returningSelect): its returning orders whose
 * previous paid order is before the range, plus its second paid orders whose first is in the range.
 */
export async function returningCustomers(db: Queryable, range: DayRange): Promise<number> {
  const { settled, live } = splitRange(range);
  const counts = (r: { prev_day: string; second: number }) => r.prev_day < range.from || Number(r.second) === 1;
  const [stored, fresh] = await Promise.all([
    settled
      ? keptWhileSettled(db, settled, `returning:${range.from}`, () =>
          sql<{ n: number }>`
            select coalesce(sum(orders), 0) as n from order_day_returning
            where day >= ${settled.from} and day <= ${settled.to} and (prev_day < ${range.from} or second = 1)
          `.execute(db),
        )
      : null,
    live ? liveOrders(db, live) : null,
  ]);
  return Number(stored?.rows[0]?.n ?? 0) + (fresh?.returning.filter(counts).reduce((sum, r) => sum + r.orders, 0) ?? 0);
}

/** Every order's days: from the first order's day to today (what the all-time counts read). */
export async function allOrderDays(db: Queryable, now = new Date()): Promise<DayRange> {
  const first = await db.selectFrom("orders").select("created_at").orderBy("created_at").limit(1).executeTakeFirst();
  const today = saDay(now);
  const from = first ? saDay(first.created_at) : today;
  return { from: from < today ? from : today, to: today };
}

/** How many days the range has (each page's check: without making two years of day strings). */
function dayCount(range: DayRange): number {
  return Math.round((Date.parse(`${range.to}T00:00:00.000Z`) - Date.parse(`${range.from}T00:00:00.000Z`)) / 86_400_000) + 1;
}

function eachDay(range: DayRange): string[] {
  const days: string[] = [];
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** Most days summed in one statement (a first backfill of two years goes by months). */
const SPAN_DAYS = 31;

/** One refresh at a time in this process; the others wait for it and then find their days summed. */
let refreshing: Promise<unknown> = Promise.resolve();

/**
 * Makes sure every settled day of the range is summed and not stale. The quick check (two indexed reads) finds
 * nothing to do on almost every page; otherwise the missing and stale days are summed again (PostgreSQL: under an
 * advisory lock, so two processes never sum the same day at once), a few days per transaction with the process free to
 * answer other requests between two (sumInSteps). A stale mark is removed only if it still has the count of changes
 * read: a change made meanwhile keeps its day stale (on PostgreSQL the removal waits for a change in flight, whose
 * trigger holds the mark's row, to commit).
 */
export async function ensureOrderDays(db: Queryable, range: DayRange): Promise<void> {
  const check = async () => {
    const [present, stale] = await Promise.all([
      sql<{ n: number }>`select count(*) as n from order_days where day >= ${range.from} and day <= ${range.to}`.execute(db),
      sql<{ day: string }>`select day from order_days_stale where day >= ${range.from} and day <= ${range.to} limit 1`.execute(db),
    ]);
    return Number(present.rows[0]?.n ?? 0) === dayCount(range) && stale.rows.length === 0;
  };
  // the figures of one page check the same days at once: one check for them (only while it runs: kept-reads)
  if (await sharedWhileInFlight(db, `order-days:${range.from}:${range.to}`, check)) return;
  const run = refreshing.then(() => (db.isTransaction ? sumDays(db, range) : sumInSteps(db, range)));
  refreshing = run.catch(() => undefined);
  await run;
}

/** The range's days not summed yet or marked stale since, oldest first. */
async function daysToSum(db: Queryable, range: DayRange): Promise<string[]> {
  const [present, stale] = await Promise.all([
    sql<{ day: string }>`select day from order_days where day >= ${range.from} and day <= ${range.to}`.execute(db),
    sql<{ day: string }>`select day from order_days_stale where day >= ${range.from} and day <= ${range.to}`.execute(db),
  ]);
  const done = new Set(present.rows.map((r) => r.day));
  for (const r of stale.rows) done.delete(r.day);
  return eachDay(range).filter((d) => !done.has(d));
}

/** What one step of summing should take at most: on SQLite, how long a waiting request may wait behind it. */
const STEP_MS = 50;

/**
 * The range's missing and stale days summed a few days per transaction, yielding to the event loop between two. On
 * SQLite every statement blocks the process (the driver is synchronous), and a range summed in one transaction held
 * it for all of its days: on a copy of the standard bench's shop (100 000 orders) whose days were not summed yet, the
 * first orders page summed 314 days in one go and a shopper's product page waited 19 s. On SQLite a step starts with
 * one day and doubles (up to SPAN_DAYS) while a step takes under half of STEP_MS, halving when one takes longer: a
 * month of quiet days goes in one step, a day of a million-order shop (~100 ms) alone. The page that asked still waits
 * for all its days; the other requests only for the step in progress.
 */
async function sumInSteps(db: Queryable, range: DayRange): Promise<void> {
  const todo = await daysToSum(db, range);
  // PostgreSQL's driver waits on the network, so a long step holds no other request: a month per step from the start
  let span = isPostgres(db) ? SPAN_DAYS : 1;
  for (let i = 0; i < todo.length; ) {
    if (i > 0) await yieldToEventLoop();
    let j = i + 1;
    while (j < todo.length && j - i < span && todo[j] === addDays(todo[j - 1]!, 1)) j++;
    const started = performance.now();
    await db.transaction().execute((trx) => sumDays(trx, { from: todo[i]!, to: todo[j - 1]! }));
    const ms = performance.now() - started;
    span = ms < STEP_MS / 2 ? Math.min(span * 2, SPAN_DAYS) : ms > STEP_MS ? Math.max(1, Math.floor(span / 2)) : span;
    i = j;
  }
}

async function sumDays(trx: Queryable, range: DayRange): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(2026112605)`.execute(trx);
  const present = new Set(
    ((await sql<{ day: string }>`select day from order_days where day >= ${range.from} and day <= ${range.to}`.execute(trx)).rows).map((r) => r.day),
  );
  const stale = (await sql<{ day: string; changes: number }>`select day, changes from order_days_stale where day >= ${range.from} and day <= ${range.to}`.execute(trx)).rows;
  const staleDays = new Set(stale.map((s) => s.day));
  const todo = eachDay(range).filter((d) => !present.has(d) || staleDays.has(d));
  const now = new Date().toISOString();
  // contiguous spans of at most SPAN_DAYS days
  const spans: DayRange[] = [];
  for (const d of todo) {
    const last = spans[spans.length - 1];
    if (last && addDays(last.to, 1) === d && eachDay(last).length < SPAN_DAYS) last.to = d;
    else spans.push({ from: d, to: d });
  }
  for (const span of spans) {
    const days = eachDay(span);
    if (days.every((d) => present.has(d))) {
      // Days summed before and marked stale since: summed again, and only the rows that differ are written. A status
      // changed on an old order changes a row or two of its day's totals and nothing of its sellers, so what is kept
      // from the sellers (the ranking: sales.server.ts) stays (their count of changes, migration 0031, does not move).
      // The span's orders are read the way the live days are (readHours: one pass, each order's customer history once),
      // not with the four tables' own selects (two to three times the time: their probes run once per table).
      const { start, end } = rangeBounds(span);
      const fresh = mergeHours([...(await readHours(trx, hoursBetween(start, end))).values()]);
      const rows: Record<DayTable, Array<Record<string, unknown>>> = {
        order_day_totals: fresh.totals,
        order_day_coupons: fresh.coupons,
        order_day_sellers: fresh.sellers,
        order_day_returning: fresh.returning,
      };
      for (const table of Object.keys(DAY_TABLES) as DayTable[]) await writeDiffering(trx, table, span, rows[table]);
      await sql`update order_days set summed_at = ${now} where day >= ${span.from} and day <= ${span.to}`.execute(trx);
      continue;
    }
    for (const [table, { select, columns }] of Object.entries(DAY_TABLES)) {
      await sql`delete from ${sql.table(table)} where day >= ${span.from} and day <= ${span.to}`.execute(trx);
      await sql`insert into ${sql.table(table)} (${columns}) ${select(trx, span)}`.execute(trx);
    }
    await sql`delete from order_days where day >= ${span.from} and day <= ${span.to}`.execute(trx);
    for (let i = 0; i < days.length; i += 200) {
      await sql`insert into order_days (day, summed_at) values ${sql.join(days.slice(i, i + 200).map((d) => sql`(${d}, ${now})`))}`.execute(trx);
    }
  }
  for (const s of stale) await sql`delete from order_days_stale where day = ${s.day} and changes = ${s.changes}`.execute(trx);
}

/**
 * A span's rows of one stored table, summed again from the orders (`fresh`), compared with the stored ones: the stored
 * rows no longer summed are deleted (by their key) and the new ones inserted; equal rows are not touched. (Each value
 * is compared as text: the drivers give a sum and a stored integer as different types.)
 */
async function writeDiffering(trx: Queryable, table: DayTable, span: DayRange, fresh: Array<Record<string, unknown>>): Promise<void> {
  const { names, keys, columns } = DAY_TABLES[table];
  const stored = (await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table)} where day >= ${span.from} and day <= ${span.to}`.execute(trx)).rows;
  const text = (r: Record<string, unknown>) => names.map((c) => (r[c] === null || r[c] === undefined ? "\u0000" : String(r[c]))).join("\u0001");
  const freshTexts = new Set(fresh.map(text));
  const storedTexts = new Set(stored.map(text));
  const gone = stored.filter((r) => !freshTexts.has(text(r)));
  const added = fresh.filter((r) => !storedTexts.has(text(r)));
  const key = names.slice(0, keys);
  for (let i = 0; i < gone.length; i += 100) {
    const rows = gone.slice(i, i + 100).map((r) => sql`(${sql.join(key.map((c) => sql`${sql.ref(c)} = ${r[c]}`), sql` and `)})`);
    await sql`delete from ${sql.table(table)} where ${sql.join(rows, sql` or `)}`.execute(trx);
  }
  for (let i = 0; i < added.length; i += 100) {
    const rows = added.slice(i, i + 100).map((r) => sql`(${sql.join(names.map((c) => r[c] ?? null))})`);
    await sql`insert into ${sql.table(table)} (${columns}) values ${sql.join(rows)}`.execute(trx);
  }
}

/**
 * Sums again the settled days that changes have marked stale (an old order's status, payment or lines), now, so the
 * next page does not: whatever writes orders calls it once it has written (afterOrdersWritten), and pays for the
 * days it changed (a day of a million-order shop: ~50–150 ms) instead of the owner's next view. Days never summed
 * are left to the background job (a first backfill can take minutes). A failure here changes nothing already written:
 * the next page, or the job, sums the day.
 */
export async function sumStaleOrderDays(db: Queryable, now = new Date()): Promise<number> {
  const { rows } = await sql<{ day: string }>`
    select s.day from order_days_stale s inner join order_days d on d.day = s.day where s.day < ${liveFrom(now)} order by s.day limit 31
  `.execute(db);
  for (const { day } of rows) await ensureOrderDays(db, { from: day, to: day });
  return rows.length;
}

/**
 * Called by each of the shop's writers of orders once its write has committed — an admin action, a payment provider's
 * notice (a refund, a late payment), a courier's tracking (a parcel delivered days after the order) — so the days of
 * the old orders it changed are summed by that request or job, not by the owner's next dashboard (decision 043). When
 * nothing is stale this is one indexed read. A failure is logged and changes nothing: the next page, or the
 * order-days job within a minute, sums those days instead.
 */
export async function afterOrdersWritten(db: Queryable, source: string): Promise<void> {
  await sumStaleOrderDays(db).catch((error) => logger.warn({ err: error, source }, "reports: stale order days left to the next page"));
}

/**
 * Sums the settled days that are missing or stale, a few days per transaction with a pause between, until done or
 * `budgetMs` has passed (the job "sum-order-days", server/jobs.ts). After an upgrade, a restore or a bulk import a shop
 * with many orders would otherwise sum every past day inside the first admin page that asks (minutes at a million
 * orders, with SQLite answering nothing else meanwhile); the job does it in the background in short steps, and a page
 * then finds its days summed. Returns how many days it summed and whether some are left.
 */
export async function sumSettledOrderDays(db: Queryable, options: { spanDays?: number; budgetMs?: number; now?: Date } = {}): Promise<{ summed: number; more: boolean }> {
  const spanDays = options.spanDays ?? 7;
  const budgetMs = options.budgetMs ?? 20_000;
  const started = Date.now();
  // the counts of the hours before the live days (migration 0031) are read no more
  const gone = new Date((options.now ?? new Date()).getTime() - 4 * 86_400_000).toISOString().slice(0, 13);
  await sql`delete from order_hour_changes where hour < ${gone}`.execute(db);
  const all = await allOrderDays(db, options.now);
  const { settled } = splitRange(all, options.now);
  if (!settled) return { summed: 0, more: false };
  // newest first: the days the dashboard's ranges reach first
  const todo = (await daysToSum(db, settled)).reverse();
  let summed = 0;
  for (let i = 0; i < todo.length; ) {
    const to = todo[i]!;
    let from = to;
    let j = i + 1;
    while (j < todo.length && j - i < spanDays && todo[j] === addDays(from, -1)) from = todo[j++]!;
    await ensureOrderDays(db, { from, to });
    summed += j - i;
    i = j;
    if (i < todo.length && Date.now() - started > budgetMs) return { summed, more: true };
    // let the process answer its requests between two spans
    await yieldToEventLoop();
  }
  return { summed, more: false };
}
