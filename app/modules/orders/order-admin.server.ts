/**
 * The owner's orders (SPEC §2 Orders, §4, §7 orders / order_metrics): the list by status tab, its figures, and the
 * order's own writes for a change the owner makes (lockOrder, writeTransition, writeOrderEdit). The change itself —
 * with its coupon, sample credits, gift cards, stock, invoice number and messages — is a flow:
 * flows/order-changed-by-owner.server.ts. The rules are the pure functions of order-admin.logic.
 */
import { lineNameSql } from "~/modules/catalog/sizes.server";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Queryable, Trx } from "~/db/db.server";
import { isPostgres } from "~/db/db.server";
import { customersWithEmailContaining } from "~/modules/accounts/email-search.server";
import { pageOfCounted, paginate, type Page } from "~/db/paginate.server";
import type { Database, OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import {
  changePayment,
  changeStatus,
  confirmsPayment,
  editedTotals,
  metricsOf,
  ORDER_ADMIN_MESSAGES,
  ORDER_STATUSES,
  orderIdPrefix,
  SEARCH_COUNT_BOUND,
  summarizeMetrics,
  type MetricsSummary,
  type Transition,
} from "./order-admin.logic";
import type { OrderEditInput } from "./order-admin.schema";

import { allOrderDays, daySums, liveFrom } from "~/modules/order-days/order-days.server";
import { rangeBounds } from "~/utils/sa-days";
import { keptWhileUnchanged } from "~/db/kept-reads.server";

export const ADMIN_ORDERS_PAGE_SIZE = 20;

export interface AdminOrderLine {
  id: string;
  productId: string | null;
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
  /** units the payment could not take from stock (docs/decisions/020): the owner's flag */
  stockShort: number;
}

export interface AdminOrder {
  id: string;
  customerEmail: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalAmountCents: number;
  originalTotalCents: number | null;
  couponCode: string | null;
  shippingAddress: ShippingAddress;
  paymentProvider: string | null;
  paymentMethod: string;
  paymentId: string | null;
  notes: string | null;
  trackingNumber: string | null;
  createdAt: string;
  updatedAt: string;
  processingStartedAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  /** allocated when the payment was confirmed (docs/decisions/019) */
  invoiceNumber: number | null;
  lines: AdminOrderLine[];
}

/** How a search narrows the orders (the same for the tabs' counts and the page's rows). */
interface OrderSearch {
  /** what was searched for, and under which limits (what its kept reads are known by) */
  key: string;
  where: (eb: ExpressionBuilder<Database, "orders">) => Expression<SqlBool>;
  /**
   * The same orders, with the customers tested row by row instead of looked up by index: so the database walks a tab's
   * (status, created_at, id) index newest first and stops at the page, when the matches are dense in that tab (a
   * common surname: 3 % of the delivered tab) rather than reading and sorting every match (see listAdminOrders).
   */
  walking: (eb: ExpressionBuilder<Database, "orders">) => Expression<SqlBool>;
  /** more customers match than SearchLimits.customers (a common name): the tabs' counts are bounded */
  broad: boolean;
}

/**
 * orders.user_id is one of these customers (a long list as one parameter: SQLite's json_each, PostgreSQL's array).
 * `walking`: written so no index on user_id can serve it (SQLite's unary +, PostgreSQL's coalesce), each row tested.
 */
function customerIn(db: Queryable, ids: string[], walking = false) {
  if (isPostgres(db)) return walking ? sql<boolean>`coalesce(orders.user_id, '') = any(${ids}::text[])` : sql<boolean>`orders.user_id = any(${ids}::text[])`;
  return walking
    ? sql<boolean>`+orders.user_id in (select value from json_each(${JSON.stringify(ids)}))`
    : sql<boolean>`orders.user_id in (select value from json_each(${JSON.stringify(ids)}))`;
}

/**
 * Orders matching the search box: an id prefix (as shown, 8 characters or more) or part of the customer's e-mail.
 * The customers are looked up once (one pass over the users), so both halves of the search then use an index on
 * orders: (user_id, status, created_at, id), migration 0028, counts a customer's orders of a tab from the index alone.
 */
function orderSearch(db: Queryable, q: string, limits: SearchLimits = SEARCH_LIMITS): Promise<OrderSearch> {
  // Kept until an order or a customer changes (docs/decisions/042): paging through a search, or coming back to it,
  // does not scan the customers again. A broad search's thousands of ids are not kept.
  return keptWhileUnchanged(db, `search:${limits.customers}:${q}`, () => readOrderSearch(db, q, limits), { topics: ["orders", "customers"], keep: (s) => !s.broad });
}

async function readOrderSearch(db: Queryable, q: string, limits: SearchLimits): Promise<OrderSearch> {
  // The matching customers depend on the customers alone: kept until one changes, not until an order does (a scan of
  // every e-mail, ~20 ms at 100 000 customers). A broad search's thousands of ids are not kept.
  const customers = await keptWhileUnchanged(
    db,
    `search-customers:${q}`,
    async () => (await customersWithEmailContaining(db, q)).ids,
    { topics: ["customers"], keep: (ids) => ids.length <= limits.customers },
  );
  const broad = customers.length > limits.customers;
  const byEmail = customers.length === 0 ? null : customers.length > MAX_LISTED_CUSTOMERS ? customerIn(db, customers) : sql<boolean>`orders.user_id in (${sql.join(customers)})`;
  const byEmailWalking = customers.length === 0 ? null : customerIn(db, customers, true);
  const prefix = orderIdPrefix(q);
  const key = `${limits.customers}:${q}`;
  if (!prefix) return { key, broad, where: () => byEmail ?? sql<boolean>`1 = 0`, walking: () => byEmailWalking ?? sql<boolean>`1 = 0` };
  // The range on the id's hex head lets the primary key find the prefix on both databases (whatever their collation);
  // LIKE then checks the whole prefix. The ids are looked up first (a few orders for a typed order number), so the
  // page and the counts then read those orders by id instead of walking a whole tab to test each id.
  const head = prefix.split("-")[0]!;
  const idMatches = await db
    .selectFrom("orders")
    .select("id")
    .where((eb) => eb.and([eb("orders.id", ">=", head), eb("orders.id", "<", `${head}g`), eb("orders.id", "like", `${prefix}%`)]))
    .limit(MAX_SEARCHED_ORDERS + 1)
    .execute();
  const byId = (eb: ExpressionBuilder<Database, "orders">) =>
    idMatches.length > MAX_SEARCHED_ORDERS
      ? eb.and([eb("orders.id", ">=", head), eb("orders.id", "<", `${head}g`), eb("orders.id", "like", `${prefix}%`)])
      : idMatches.length > 0
        ? eb("orders.id", "in", idMatches.map((o) => o.id))
        : sql<boolean>`1 = 0`;
  return {
    key,
    broad: broad || idMatches.length > MAX_SEARCHED_ORDERS,
    where: (eb) => (byEmail ? eb.or([byId(eb), byEmail]) : byId(eb)),
    walking: (eb) => (byEmailWalking ? eb.or([byId(eb), byEmailWalking]) : byId(eb)),
  };
}
const MAX_SEARCHED_ORDERS = 500;
/**
 * Up to `customers` matching customers a search's counts are exact: one grouped count over their orders' index entries
 * (a common surname at a million orders, 3 300 customers and 33 000 orders, ~15 ms on SQLite; the five tabs counted to
 * the bound one by one cost four times that, each probing every customer). Beyond, each tab is counted up to
 * `countBound`, so a search matching most customers (one letter) never counts a million orders. (Tests pass small
 * limits to see both on a small shop.)
 */
export interface SearchLimits {
  customers: number;
  countBound: number;
}
const SEARCH_LIMITS: SearchLimits = { customers: 5_000, countBound: SEARCH_COUNT_BOUND };
/** More than this many customers' ids go to the database as one parameter rather than one each. */
const MAX_LISTED_CUSTOMERS = 500;

/** One status tab, newest first, with each order's lines and customer (two queries for the page). */
export async function listAdminOrders(
  db: Queryable,
  input: { status: OrderStatus; q: string; page: number },
  known?: { matching: number; search: OrderSearch | null; tabSize?: number },
): Promise<Page<AdminOrder>> {
  // The page's ids first, from the (status, created_at, id) index alone however deep the page (migration 0006);
  // then only those orders' rows, customers and lines. The tab's size is the one its tab shows (the day sums without
  // a search, migration 0027; the search's count, bounded for a broad search, with one), so it is not counted twice.
  const search = known ? known.search : input.q ? await orderSearch(db, input.q) : null;
  const matching = known ? known.matching : search ? (await searchCounts(db, search)).counts[input.status] : (await orderFigures(db)).counts[input.status];
  // A search's page: its matches read by customer and sorted (cost: every match), or the tab walked newest first until
  // the page is full (cost: the page's reach times how many of the tab's orders there are per match), the cheaper.
  const reach = Math.min(Math.max(1, Math.floor(input.page) || 1), Math.max(1, Math.ceil(matching / ADMIN_ORDERS_PAGE_SIZE))) * ADMIN_ORDERS_PAGE_SIZE;
  const walk = search !== null && known?.tabSize !== undefined && matching > 0 && (reach * known.tabSize) / matching < matching / 4;
  const base = db.selectFrom("orders").where("orders.status", "=", input.status);
  const ordered = (search ? base.where(walk ? search.walking : search.where) : base).select("orders.id").orderBy("orders.created_at", "desc").orderBy("orders.id", "desc");
  const page = await pageOfCounted(ordered, { matching, page: input.page, pageSize: ADMIN_ORDERS_PAGE_SIZE });
  const ids = page.rows.map((o) => o.id);
  if (ids.length === 0) return { ...page, rows: [] };
  const [orders, lines] = await Promise.all([
    db.selectFrom("orders").leftJoin("users", "users.id", "orders.user_id").selectAll("orders").select("users.email as customer_email").where("orders.id", "in", ids).execute(),
    db
      .selectFrom("order_lines")
      .select(["id", "order_id", "product_id", "quantity", "unit_price_cents", "total_price_cents", "stock_short"])
      .select(lineNameSql("order_lines").as("name"))
      .where("order_id", "in", ids)
      .orderBy("position")
      .orderBy("id")
      .execute(),
  ]);
  const byId = new Map(orders.map((o) => [o.id, o]));
  return {
    ...page,
    rows: ids.flatMap((id) => byId.get(id) ?? []).map((o) => ({
      id: o.id,
      customerEmail: o.customer_email,
      status: o.status,
      paymentStatus: o.payment_status,
      subtotalCents: Number(o.subtotal_cents),
      discountCents: Number(o.discount_amount_cents),
      shippingCents: Number(o.shipping_cents),
      totalAmountCents: Number(o.total_amount_cents),
      originalTotalCents: o.original_total_cents === null ? null : Number(o.original_total_cents),
      couponCode: o.coupon_code,
      shippingAddress: o.shipping_address,
      paymentProvider: o.payment_provider,
      paymentMethod: o.payment_method,
      paymentId: o.payment_id,
      notes: o.notes,
      trackingNumber: o.tracking_number,
      createdAt: o.created_at,
      updatedAt: o.updated_at,
      processingStartedAt: o.processing_started_at,
      shippedAt: o.shipped_at,
      deliveredAt: o.actual_delivery_date,
      invoiceNumber: o.invoice_number === null ? null : Number(o.invoice_number),
      lines: lines
        .filter((l) => l.order_id === o.id)
        .map((l) => ({
          id: l.id,
          productId: l.product_id,
          name: l.name,
          quantity: Number(l.quantity),
          unitPriceCents: Number(l.unit_price_cents),
          totalPriceCents: Number(l.total_price_cents),
          stockShort: Number(l.stock_short),
        })),
    })),
  };
}

const noCounts = () => Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;

/**
 * A search's orders per tab: exact for a narrow search (one grouped count over a few thousand index entries); for a
 * broad one (more customers than SearchLimits.customers, a common name) each tab is counted up to the bound only, and
 * `over` names the tabs that hold more (the page shows "1 000+").
 */
async function searchCounts(db: Queryable, search: OrderSearch, bound = SEARCH_COUNT_BOUND): Promise<{ counts: Record<OrderStatus, number>; over: OrderStatus[] }> {
  if (!search.broad) return { counts: await exactSearchCounts(db, search), over: [] };
  const counts = noCounts();
  const over: OrderStatus[] = [];
  await Promise.all(
    ORDER_STATUSES.map(async (status) => {
      const some = db.selectFrom("orders").where(search.where).where("orders.status", "=", status).select(sql<number>`1`.as("one")).limit(bound + 1);
      const row = await db.selectFrom(some.as("t")).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const n = Number(row.n);
      counts[status] = Math.min(n, bound);
      if (n > bound) over.push(status);
    }),
  );
  return { counts, over: ORDER_STATUSES.filter((s) => over.includes(s)) };
}

/** How many orders each tab holds (matching the search, when there is one; exact). */
export async function orderTabCounts(db: Queryable, q: string): Promise<Record<OrderStatus, number>> {
  if (!q) return (await orderFigures(db)).counts;
  return exactSearchCounts(db, await orderSearch(db, q));
}

/** A search's orders per tab, each counted in full (one grouped count). */
async function exactSearchCounts(db: Queryable, search: OrderSearch): Promise<Record<OrderStatus, number>> {
  // In two parts (docs/decisions/043): the orders placed before the live days, kept until one of them changes (each
  // such change marks its day stale: the old-orders count) or a customer does; and the live days' few, counted on
  // every view. An order changed today then costs a count of today's matches, not of every match (33 000 orders of a
  // common surname at a million orders: 40–90 ms).
  const liveStart = rangeBounds({ from: liveFrom(), to: liveFrom() }).start;
  // (the live days' orders walked by their dates, each tested against the customers: cheaper than a look-up per
  // customer). On SQLite the live count groups by `+orders.status`: grouped by the column itself, the planner may walk
  // a status index instead, to spare the group-by a sort, and test every order of the shop (100 000 orders: 205 ms
  // instead of 1.6 ms on the standard bench's data).
  const count = (before: boolean) => {
    const status = before || isPostgres(db) ? sql<OrderStatus>`orders.status` : sql<OrderStatus>`+orders.status`;
    return db
      .selectFrom("orders")
      .where(before ? search.where : search.walking)
      .where("orders.created_at", before ? "<" : ">=", liveStart)
      .select((eb) => [status.as("status"), eb.fn.countAll<number>().as("n")])
      .groupBy(status)
      .execute();
  };
  const [before, live] = await Promise.all([
    keptWhileUnchanged(db, `search-counts:${search.key}:${liveStart}`, () => count(true), { topics: ["old-orders", "customers"] }),
    count(false),
  ]);
  const counts = noCounts();
  for (const r of [...before, ...live]) counts[r.status] += Number(r.n);
  return counts;
}

/** SPEC §9's three figures over order_metrics. */
export async function orderMetrics(db: Queryable): Promise<MetricsSummary> {
  return (await orderFigures(db)).metrics;
}

/**
 * Every order's tab count and SPEC §9's metrics, read together (docs/decisions/034): the settled days from their
 * stored sums (migration 0027: the same numbers a count of the orders gives), the live days from the orders
 * themselves (the dashboard's read of them, summed per hour: docs/decisions/043).
 */
export async function orderFigures(db: Queryable, now = new Date()): Promise<{ counts: Record<OrderStatus, number>; metrics: MetricsSummary }> {
  const days = await allOrderDays(db, now);
  const live = liveFrom(now);
  // The settled days' stored sums, kept until they change; the live days' kept hours (docs/decisions/042, 043): a page
  // after an order changed reads that order's hour.
  const rows = await daySums(db, { from: days.from, to: days.to < live ? live : days.to }, "order_day_totals", {
    group: ["status"],
    sums: ["orders", "metrics_rows", "processing_n", "processing_sum", "delivery_n", "delivery_sum"],
  });
  const counts = noCounts();
  const total = { rows: 0, processingN: 0, processingSum: 0, deliveryN: 0, deliverySum: 0 };
  for (const r of rows) {
    if (r.status in counts) counts[r.status as OrderStatus] += r.orders;
    total.rows += Number(r.metrics_rows);
    total.processingN += Number(r.processing_n);
    total.processingSum += Number(r.processing_sum);
    total.deliveryN += Number(r.delivery_n);
    total.deliverySum += Number(r.delivery_sum);
  }
  return {
    counts,
    metrics: summarizeMetrics({
      rows: total.rows,
      withDelivery: total.deliveryN,
      avgProcessingSeconds: total.processingN > 0 ? total.processingSum / total.processingN : null,
      avgDeliverySeconds: total.deliveryN > 0 ? total.deliverySum / total.deliveryN : null,
    }),
  };
}

/** What the orders page shows: one tab's page, every tab's count (bounded for a broad search) and the metrics. */
export interface AdminOrdersView {
  list: Page<AdminOrder>;
  counts: Record<OrderStatus, number>;
  /** tabs holding more than SEARCH_COUNT_BOUND orders matching a broad search (their count shows as "1 000+") */
  over: OrderStatus[];
  metrics: MetricsSummary;
}

/** The orders page's reads, each once: the figures, the search (customers looked up once), then the tab's page. */
export async function adminOrdersView(db: Queryable, input: { status: OrderStatus; q: string; page: number }, limits: SearchLimits = SEARCH_LIMITS): Promise<AdminOrdersView> {
  const [figures, searchedTabs] = await Promise.all([
    orderFigures(db),
    input.q ? orderSearch(db, input.q, limits).then(async (search) => ({ search, ...(await searchCounts(db, search, limits.countBound)) })) : null,
  ]);
  const counts = searchedTabs ? searchedTabs.counts : figures.counts;
  const over = searchedTabs?.over ?? [];
  const list = await listAdminOrders(db, input, { matching: counts[input.status], search: searchedTabs?.search ?? null, tabSize: figures.counts[input.status] });
  return { list, counts, over, metrics: figures.metrics };
}

// ---------------------------------------------------------------- changes (the flows in app/modules/flows compose them)

/** The order's row, locked until the commit on PostgreSQL (SQLite: one writer at a time); 404 when it is gone. */
export async function lockOrder(trx: Trx, id: string) {
  let query = trx.selectFrom("orders").selectAll().where("id", "=", id);
  // SQLite runs one writer at a time (and has no FOR UPDATE); PostgreSQL locks the row until the commit.
  if (isPostgres(trx)) query = query.forUpdate();
  const order = await query.executeTakeFirst();
  if (!order) throw new DomainError(ORDER_ADMIN_MESSAGES.notFound, 404);
  return order;
}

/** Writes an order's order_metrics row from its stamps: a row once it has shipped (SPEC §9 counts those rows). */
async function recordMetrics(trx: Trx, orderId: string) {
  const o = await trx.selectFrom("orders").select(["processing_started_at", "shipped_at", "actual_delivery_date"]).where("id", "=", orderId).executeTakeFirstOrThrow();
  const m = metricsOf({ processingStartedAt: o.processing_started_at, shippedAt: o.shipped_at, deliveredAt: o.actual_delivery_date });
  if (m.processingTime === null && m.deliveryTime === null) {
    await trx.deleteFrom("order_metrics").where("order_id", "=", orderId).execute();
    return;
  }
  await trx
    .insertInto("order_metrics")
    .values({ order_id: orderId, processing_time: m.processingTime, delivery_time: m.deliveryTime })
    .onConflict((oc) => oc.column("order_id").doUpdateSet({ processing_time: m.processingTime, delivery_time: m.deliveryTime }))
    .execute();
}

export type LockedOrder = Awaited<ReturnType<typeof lockOrder>>;

/** Writes a transition's status, payment status and stamps on the order, and its metrics row when a stamp changed. */
export async function writeTransition(trx: Trx, orderId: string, next: Transition, now: Date): Promise<void> {
  await trx
    .updateTable("orders")
    .set({ status: next.status, payment_status: next.paymentStatus, ...next.stamps, updated_at: now.toISOString() })
    .where("id", "=", orderId)
    .execute();
  if (Object.keys(next.stamps).length > 0) await recordMetrics(trx, orderId);
}

/**
 * The inline edit's write (SPEC §4): lines' quantity and unit price, address, notes, tracking; totals recomputed
 * here. The lines must be the order's lines as stored, or nothing changes (409).
 */
export async function writeOrderEdit(trx: Trx, order: LockedOrder, input: OrderEditInput, now: Date): Promise<void> {
  const stored = await trx.selectFrom("order_lines").select("id").where("order_id", "=", order.id).execute();
  const known = new Set(stored.map((l) => l.id));
  const edited = new Map(input.lines.map((l) => [l.id, l]));
  if (edited.size !== input.lines.length || stored.length !== edited.size || [...edited.keys()].some((lineId) => !known.has(lineId))) {
    throw new DomainError("The order's lines changed while you were editing: reload the page and try again", 409);
  }
  const totals = editedTotals(input.lines, {
    discountCents: Number(order.discount_amount_cents),
    shippingCents: Number(order.shipping_cents),
    hadCoupon: order.coupon_code !== null,
  });
  for (const [index, line] of input.lines.entries()) {
    await trx
      .updateTable("order_lines")
      .set({ quantity: line.quantity, unit_price_cents: line.unitPriceCents, total_price_cents: totals.lineTotals[index]! })
      .where("id", "=", line.id)
      .where("order_id", "=", order.id)
      .execute();
  }
  const { id: _id, intent: _intent, lines: _lines, notes, trackingNumber, ...address } = input;
  await trx
    .updateTable("orders")
    .set({
      subtotal_cents: totals.subtotalCents,
      discount_amount_cents: totals.discountCents,
      total_amount_cents: totals.totalAmountCents,
      original_total_cents: totals.originalTotalCents,
      shipping_address: JSON.stringify(address satisfies ShippingAddress),
      notes,
      tracking_number: trackingNumber,
      updated_at: now.toISOString(),
    })
    .where("id", "=", order.id)
    .execute();
}
