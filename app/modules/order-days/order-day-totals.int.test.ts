/**
 * The day sums (migration 0027, docs/decisions/034) give exactly what the orders give, on SQLite and PostgreSQL: after
 * they were summed, an order changed by the owner, a payment set back, an order deleted, a line edited, a customer
 * deleted, an old order written directly: every figure is the orders' own again at the next read. So are today's orders,
 * whose read the dashboard keeps until an order changes (migration 0030), per hour (migration 0031). Each figure is
 * checked against a count made here from the orders' rows, and the whole sales dashboard against a read inside a
 * transaction (which keeps nothing).
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, openDatabase } from "~/db/db.server";
import type { OrderStatus, PaymentStatus } from "~/db/schema";
import { deleteOrder, setOrderStatus, setPaymentStatus } from "~/modules/flows/order-changed-by-owner.server";
import { orderMetrics, orderTabCounts } from "~/modules/orders/order-admin.server";
import { dashboardFigures } from "~/modules/reports/dashboard.server";
import { summarizeMetrics } from "~/modules/orders/order-admin.logic";
import { insertOrder } from "../../../tests/factories/orders";
import { insertProduct } from "../../../tests/factories/catalog";
import { createUser } from "../../../tests/factories/users";
import { addDays, rangeBounds, saDay } from "~/utils/sa-days";
import { salesTotals } from "~/modules/reports/sales-totals.server";
import { dataChanges, keptWhileUnchanged } from "~/db/kept-reads.server";
import { LINE_SUMMED_COLUMNS, METRICS_SUMMED_COLUMNS, ORDER_SUMMED_COLUMNS } from "~/db/migrations/0032_order_marks_on_summed_columns";
import { salesRange } from "~/modules/reports/sales.logic";
import { bestSellers, newAndReturning, ordersByStatus, salesDashboard } from "~/modules/reports/sales.server";

const db = () => getDb();
const average = (values: Array<number | null>) => {
  const known = values.filter((v): v is number => v !== null).map(Number);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
};
const DAY = 86_400_000;
const today = saDay(new Date());
// 40 days up to today: settled days (stored sums) and the live last days
const RANGE = salesRange({ from: addDays(today, -39), to: today }, "day");
const ids: string[] = [];
const users: string[] = [];

/** The figures counted here from the orders' rows, by the definitions of sales.server / order-admin.server. */
async function expected() {
  const { start, end } = rangeBounds(RANGE);
  const orders = await db().selectFrom("orders").select(["id", "user_id", "status", "payment_status", "total_amount_cents", "created_at"]).execute();
  const paid = orders.filter((o) => o.payment_status === "completed");
  const inRange = (o: { created_at: string }) => o.created_at >= start && o.created_at < end;
  const returning = (o: (typeof orders)[number]) => o.user_id !== null && paid.some((p) => p.user_id === o.user_id && p.created_at < o.created_at);
  const tabs = Object.fromEntries((["pending", "processing", "shipped", "delivered", "cancelled"] as const).map((s) => [s, orders.filter((o) => o.status === s).length]));
  const paidInRange = paid.filter(inRange);
  const lines = await db()
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .select(["l.product_id", "l.name", "l.quantity"])
    .where("o.payment_status", "=", "completed")
    .where("o.created_at", ">=", start)
    .where("o.created_at", "<", end)
    .execute();
  const units = new Map<string, number>();
  for (const l of lines) units.set(l.product_id ?? l.name, (units.get(l.product_id ?? l.name) ?? 0) + Number(l.quantity));
  const metrics = await db().selectFrom("order_metrics").selectAll().execute();
  return {
    tabs,
    all: orders.length,
    revenue: paidInRange.reduce((s, o) => s + Number(o.total_amount_cents), 0),
    paidOrders: paidInRange.length,
    byStatus: Object.fromEntries((["pending", "processing", "shipped", "delivered", "cancelled"] as const).map((s) => [s, orders.filter((o) => inRange(o) && o.status === s).length])),
    newOrders: paidInRange.filter((o) => !returning(o)).length,
    newCustomers: new Set(paidInRange.filter((o) => !returning(o) && o.user_id).map((o) => o.user_id)).size,
    returningCustomers: new Set(paidInRange.filter((o) => returning(o)).map((o) => o.user_id)).size,
    topUnits: Math.max(0, ...units.values()),
    metrics: summarizeMetrics({
      rows: metrics.length,
      withDelivery: metrics.filter((m) => m.delivery_time !== null).length,
      avgProcessingSeconds: average(metrics.map((m) => m.processing_time)),
      avgDeliverySeconds: average(metrics.map((m) => m.delivery_time)),
    }),
  };
}

async function check() {
  const want = await expected();
  const [tabs, totals, statuses, customers, best, figures, metrics] = await Promise.all([
    orderTabCounts(db(), ""),
    salesTotals(db(), RANGE),
    ordersByStatus(db(), RANGE),
    newAndReturning(db(), RANGE),
    bestSellers(db(), RANGE),
    dashboardFigures(db()),
    orderMetrics(db()),
  ]);
  expect(tabs).toEqual(want.tabs);
  expect(figures.counts.orders).toBe(want.all);
  expect(figures.orders).toEqual(want.tabs); // the dashboard's cards by status: the tabs' sizes
  expect(totals.revenueCents).toBe(want.revenue);
  expect(totals.orders).toBe(want.paidOrders);
  expect(Object.fromEntries(statuses.map((s) => [s.status, s.orders]))).toEqual(want.byStatus);
  expect(customers[0]!.orders).toBe(want.newOrders);
  expect(customers[0]!.customers).toBe(want.newCustomers);
  expect(customers[1]!.orders).toBe(want.paidOrders - want.newOrders);
  expect(customers[1]!.customers).toBe(want.returningCustomers);
  expect(best.byUnits[0]?.units ?? 0).toBe(want.topUnits);
  expect(metrics).toEqual(want.metrics);
  // every figure of the sales dashboard (coupons, methods, sellers, revenue by day…) as a read that keeps nothing gives it
  const unkept = await db().transaction().execute((trx) => salesDashboard(trx, RANGE));
  expect(await salesDashboard(db(), RANGE)).toEqual(unkept);
}

beforeAll(async () => {
  for (let i = 0; i < 6; i++) users.push((await createUser(db())).id);
  const products = [await insertProduct(db(), { price_cents: 20_000 }), await insertProduct(db(), { price_cents: 35_000 })];
  const statuses: [OrderStatus, PaymentStatus][] = [["delivered", "completed"], ["shipped", "completed"], ["cancelled", "cancelled"], ["pending", "pending"], ["processing", "completed"]];
  const now = Date.now();
  for (let i = 0; i < 60; i++) {
    const [status, payment] = statuses[i % statuses.length]!;
    const p = products[i % 2]!;
    const o = await insertOrder(db(), {
      userId: i % 11 === 0 ? null : users[i % users.length]!,
      status,
      paymentStatus: payment,
      createdAt: new Date(now - ((i * 37) % 45) * DAY - (i % 7) * 3_600_000).toISOString(),
      lines: [{ productId: p.id, name: "Scale test", unitPriceCents: p.price_cents, quantity: 1 + (i % 3) }],
    });
    ids.push(o.id);
  }
});

describe("the day sums stay the orders' own", () => {
  it("when first summed", async () => {
    await check();
    await check(); // read back from the stored days
  });

  it("after the owner's changes to old orders, a deletion and direct writes", async () => {
    const old = ids.filter((_, i) => ((i * 37) % 45) >= 5);
    await setPaymentStatus(db(), old[0]!, "completed"); // a delivered order's payment: no change; a pending one's: a sale
    await setPaymentStatus(db(), old[3]!, "completed");
    await setOrderStatus(db(), old[1]!, "cancelled");
    await setOrderStatus(db(), old[5]!, "delivered");
    await check();
    await deleteOrder(db(), old[2]!);
    await check();
    await db().updateTable("order_lines").set({ quantity: 40, total_price_cents: 40 * 20_000 }).where("order_id", "=", old[6]!).execute();
    await db().updateTable("orders").set({ payment_status: "failed", status: "cancelled" }).where("id", "=", old[7]!).execute();
    await check();
    // a customer deleted: their orders stay, without a customer (new customers, returning ones change)
    await db().deleteFrom("users").where("id", "=", users[1]!).execute();
    await check();
    // a status moved on an old paid order: its day is summed again, and only the rows that differ are written — a row
    // or two of the day's totals, none of its sellers (whose kept ranking therefore stays: docs/decisions/043)
    const shipped = await db().selectFrom("orders").select("id").where("status", "=", "shipped").where("payment_status", "=", "completed").where("created_at", "<", new Date(Date.now() - 5 * DAY).toISOString()).where("created_at", ">=", rangeBounds(RANGE).start).executeTakeFirstOrThrow();
    const counts = await dataChanges(db());
    await db().updateTable("orders").set({ status: "delivered" }).where("id", "=", shipped.id).execute();
    await check();
    const after = await dataChanges(db());
    expect(after.sums).not.toBe(counts.sums);
    expect(after.sellers).toBe(counts.sellers);
    // and a line of that old paid order changed: its day's sellers are written again (it is now the best seller)
    await db().updateTable("order_lines").set({ quantity: 500, total_price_cents: 500 * 20_000 }).where("order_id", "=", shipped.id).execute();
    await check();
    expect((await bestSellers(db(), RANGE)).byUnits[0]!.units).toBeGreaterThanOrEqual(500);
    expect((await dataChanges(db())).sellers).not.toBe(counts.sellers);
    // an old order written directly (an import, a restore)
    await insertOrder(db(), { userId: users[2]!, status: "delivered", paymentStatus: "completed", createdAt: new Date(Date.now() - 30 * DAY).toISOString() });
    await check();
  });

  it("and today's orders, kept between reads only until an order, a line or a metric changes (by any connection)", async () => {
    await check();
    // each kind of change to the live days' orders shows at the next read: kept reads are dropped by the count of changes
    const fresh = await insertOrder(db(), { userId: users[3]!, status: "processing", paymentStatus: "completed", createdAt: new Date(Date.now() - 60_000).toISOString() });
    await check();
    await setOrderStatus(db(), fresh.id, "shipped"); // its metrics row (processing time) is written
    await check();
    await db().updateTable("order_lines").set({ quantity: 60, total_price_cents: 60 * 34_999 }).where("order_id", "=", fresh.id).execute();
    await check();
    await db().updateTable("order_metrics").set({ processing_time: 7 }).where("order_id", "=", fresh.id).execute();
    await check();
    await deleteOrder(db(), fresh.id);
    await check();

    // unchanged orders: the kept read is given again, without reading
    let reads = 0;
    const read = async () => ++reads;
    expect(await keptWhileUnchanged(db(), "test", read)).toBe(1);
    expect(await keptWhileUnchanged(db(), "test", read)).toBe(1);
    await insertOrder(db(), { userId: null, status: "pending", paymentStatus: "pending" });
    expect(await keptWhileUnchanged(db(), "test", read)).toBe(2);
    // inside a transaction it always reads (what the transaction wrote is nobody else's yet)
    await db().transaction().execute(async (trx) => {
      expect(await keptWhileUnchanged(trx, "test", read)).toBe(3);
    });
    expect(await keptWhileUnchanged(db(), "test", read)).toBe(2);
    await check();
    if (isPostgres(db())) {
      // another process's change (another connection pool on the same database) moves the count too; on SQLite the
      // count lives in the shared file the same way, and this test's database is one process's memory
      const other = openDatabase(process.env.DATABASE_URL!, 2);
      try {
        await other.db.updateTable("orders").set({ notes: "changed elsewhere" }).where("id", "=", ids[0]!).execute();
      } finally {
        await other.close();
      }
      expect(await keptWhileUnchanged(db(), "test", read)).toBe(4);
      await check();
    }
  });

  it("and today's orders kept per hour: a change reads its hour again, and the hours of that customer's later orders", async () => {
    const HOUR = 3_600_000;
    const customer = (await createUser(db())).id;
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    // today's orders change nothing of the past: the count of changes to old orders stays (the search counts keep theirs)
    const oldOrders = (await dataChanges(db()))["old-orders"];
    // a customer's first paid order three hours ago, their second an hour ago (a returning customer's)
    const first = await insertOrder(db(), { userId: customer, status: "processing", paymentStatus: "completed", createdAt: ago(3 * HOUR) });
    const second = await insertOrder(db(), { userId: customer, status: "pending", paymentStatus: "completed", createdAt: ago(HOUR) });
    await check();
    expect((await dataChanges(db()))["old-orders"]).toBe(oldOrders);
    // the first payment fails after all: the second order is now the customer's first paid one (another hour's order)
    await db().updateTable("orders").set({ payment_status: "failed" }).where("id", "=", first.id).execute();
    await check();
    await db().updateTable("orders").set({ payment_status: "completed" }).where("id", "=", first.id).execute();
    await check();
    // an old order of theirs arrives (a settled day): both of today's orders are a returning customer's
    const old = await insertOrder(db(), { userId: customer, status: "delivered", paymentStatus: "completed", createdAt: ago(20 * DAY) });
    await check();
    await deleteOrder(db(), old.id);
    await check();
    // an order moved to another hour, and one given to another customer
    await db().updateTable("orders").set({ created_at: ago(5 * HOUR) }).where("id", "=", second.id).execute();
    await check();
    await db().updateTable("orders").set({ user_id: users[4]! }).where("id", "=", first.id).execute();
    await check();
  });

  it("marks a day stale, or counts an hour, only when a column its sums read changes (migration 0032)", async () => {
    const marks = async () => {
      const stale = (await sql<{ day: string; changes: unknown }>`select day, changes from order_days_stale order by day`.execute(db())).rows;
      const hours = (await sql<{ n: unknown }>`select sum(n) as n from order_hour_changes`.execute(db())).rows[0];
      return JSON.stringify({ stale: stale.map((r) => [r.day, Number(r.changes)]), hours: Number(hours?.n ?? 0), old: (await dataChanges(db()))["old-orders"] });
    };
    await check(); // every stale day summed: no mark left
    const old = await insertOrder(db(), { userId: users[0]!, status: "shipped", paymentStatus: "completed", createdAt: new Date(Date.now() - 8 * DAY).toISOString() });
    const recent = await insertOrder(db(), { userId: users[5]!, status: "processing", paymentStatus: "completed", createdAt: new Date(Date.now() - 3_600_000).toISOString() });
    await db().insertInto("order_metrics").values([{ order_id: old.id, processing_time: 100, delivery_time: null }, { order_id: recent.id, processing_time: 50, delivery_time: null }]).execute();
    await check();
    const before = await marks();
    // what a courier booking, an invoice, a note, a checkout, an erasure or the stock writes: no sum reads it
    for (const id of [old.id, recent.id]) {
      await db().updateTable("orders").set({ tracking_number: "TRK123", notes: null, checkout_token: null, invoice_number: null, updated_at: new Date().toISOString() }).where("id", "=", id).execute();
      await db().updateTable("order_lines").set({ stock_taken: 0, stock_short: 1 }).where("order_id", "=", id).execute();
      // a summed column written with its own value
      await db().updateTable("orders").set((eb) => ({ status: eb.ref("status"), total_amount_cents: eb.ref("total_amount_cents") })).where("id", "=", id).execute();
    }
    expect(await marks()).toBe(before);
    // each summed column changed marks the old order's day and counts the recent order's hour
    const values: Record<(typeof ORDER_SUMMED_COLUMNS)[number], (o: Record<string, unknown>) => unknown> = {
      user_id: (o) => (o.user_id === users[2] ? users[3] : users[2]),
      status: (o) => (o.status === "delivered" ? "shipped" : "delivered"),
      payment_status: (o) => (o.payment_status === "completed" ? "failed" : "completed"),
      payment_method: (o) => (o.payment_method === "eft" ? "card" : "eft"),
      total_amount_cents: (o) => Number(o.total_amount_cents) + 1,
      subtotal_cents: (o) => Number(o.subtotal_cents) + 1,
      discount_amount_cents: (o) => Number(o.discount_amount_cents) + 1,
      shipping_cents: (o) => Number(o.shipping_cents) + 1,
      coupon_code: (o) => (o.coupon_code === "WINTER" ? null : "WINTER"),
      created_at: (o) => new Date(Date.parse(String(o.created_at)) + 60_000).toISOString(),
    };
    const changes = [
      ...ORDER_SUMMED_COLUMNS.map((c) => ["orders", "id", c, values[c]] as const),
      ...LINE_SUMMED_COLUMNS.filter((c) => c !== "order_id").map((c) => ["order_lines", "order_id", c, (l: Record<string, unknown>) => (c === "product_id" ? null : c === "name" ? `${String(l.name)} II` : Number(l[c]) + 1)] as const),
      ...METRICS_SUMMED_COLUMNS.filter((c) => c !== "order_id").map((c) => ["order_metrics", "order_id", c, (m: Record<string, unknown>) => Number(m[c] ?? 0) + 1] as const),
    ];
    for (const [i, [table, key, column, next]] of changes.entries()) {
      for (const id of [old.id, recent.id]) {
        const row = (await db().selectFrom(table as "orders").selectAll().where(key as "id", "=", id).executeTakeFirstOrThrow()) as Record<string, unknown>;
        const was = await marks();
        await db().updateTable(table as "orders").set({ [column]: next(row) }).where(key as "id", "=", id).execute();
        expect(await marks(), `${table}.${column} of the ${id === old.id ? "old" : "recent"} order`).not.toBe(was);
      }
      // the figures are the orders' own again once each table's columns have changed
      if (changes[i + 1]?.[0] !== table) await check();
    }
  });
});
