/**
 * The benchmark seed loads its orders with the marking triggers suspended and sums the days once after (issue 32
 * point 6, bulk-order-load.server.ts): what it leaves must be what the shop computes itself. Two loads of 1 000 orders
 * over a year, the second onto a shop whose days are already summed; after each, every stored day row (the four
 * order_day_* tables and order_days) is compared with what the shop's summing code computes from scratch, no settled
 * day is left stale, and every hour of the last three days' orders has counted a change (so a running server reads
 * those hours again). Then the orders tables have their indexes, and an order written the ordinary way still marks its
 * day: the triggers are back.
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, type Queryable } from "~/db/db.server";
import { seedLargeCatalogue } from "~/modules/demo/seed.server";
import { insertOrder } from "../../../tests/factories/orders";
import { addDays, saDay } from "~/utils/sa-days";
import { liveFrom } from "./order-days.server";
import { DAY_TABLES, storedDays, summedFromScratch } from "../../../tests/setup/order-day-sums";

const db = () => getDb();
async function expectTheShopsOwnSums() {
  const stored = await storedDays();
  // the seed summed every settled day: from the first order's to the day before the live ones
  const first = saDay((await db().selectFrom("orders").select("created_at").orderBy("created_at").limit(1).executeTakeFirstOrThrow()).created_at);
  expect(stored.order_days![0]).toBe(first);
  expect(stored.order_days!.at(-1)).toBe(addDays(liveFrom(), -1));
  expect((await staleDays()).filter((day) => day < liveFrom())).toEqual([]);
  const fresh = await summedFromScratch();
  for (const table of [...DAY_TABLES, "order_days"]) expect(stored[table], table).toEqual(fresh[table]);
  for (const table of [...DAY_TABLES, "order_days"]) expect(stored[table]!.length, table).toBeGreaterThan(0);
}

/** The changes counted for the orders (migration 0030), over all slots. */
async function ordersChanges() {
  const { rows } = await sql<{ n: unknown }>`select coalesce(sum(n), 0) as n from data_changes where topic = 'orders'`.execute(db());
  return Number(rows[0]!.n);
}

async function staleDays() {
  return (await sql<{ day: string }>`select day from order_days_stale order by day`.execute(db())).rows.map((r) => r.day);
}

/** The changes counted per hour (UTC, "YYYY-MM-DDTHH"). */
async function hourCounts() {
  const counted = new Map<string, number>();
  for (const c of (await sql<{ hour: string; n: number }>`select hour, n from order_hour_changes`.execute(db())).rows) counted.set(c.hour, (counted.get(c.hour) ?? 0) + Number(c.n));
  return counted;
}

/** The hours of the orders placed since `since` and not among `known`. */
async function hoursOfOrders(since: string, known: ReadonlySet<string> = new Set()) {
  const orders = await db().selectFrom("orders").select(["id", "created_at"]).where("created_at", ">=", since).execute();
  return [...new Set(orders.filter((o) => !known.has(o.id)).map((o) => o.created_at.slice(0, 13)))];
}

/** The indexes of the orders tables, by name (the load drops and rebuilds them). */
async function orderIndexes() {
  const { rows } = isPostgres(db())
    ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename in ('orders', 'order_lines', 'order_metrics') order by 1`.execute(db())
    : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in ('orders', 'order_lines', 'order_metrics') order by 1`.execute(db());
  return rows.map((r) => r.name);
}

describe("the benchmark seed's orders, loaded in bulk", () => {
  let indexesBefore: string[] = [];
  beforeAll(async () => {
    indexesBefore = await orderIndexes();
  });

  it("leaves the day sums the shop computes itself, and counts the recent hours, load after load", { timeout: 120_000 }, async () => {
    // a few minutes inside the three days, so the database's clock and this one may differ a little
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000 + 5 * 60_000).toISOString();
    for (const seed of [1, 2]) {
      const known = new Set((await db().selectFrom("orders").select("id").execute()).map((o) => o.id));
      const before = await hourCounts();
      const changesBefore = await ordersChanges();
      const summary = await seedLargeCatalogue(db(), { products: 40, orders: 1000, users: 8, seed });
      expect(summary.orders).toBe(1000);
      // the test server's role is a superuser: PostgreSQL skips the foreign-key checks and every trigger
      expect(summary.triggersSkipped).toBe(isPostgres(db()) ? "all" : undefined);
      await expectTheShopsOwnSums();
      // a running server sees the orders changed
      expect(await ordersChanges()).toBeGreaterThan(changesBefore);
      const after = await hourCounts();
      const hours = await hoursOfOrders(threeDaysAgo, known);
      expect(hours.length).toBeGreaterThan(0);
      for (const hour of hours) expect(after.get(hour) ?? 0, hour).toBeGreaterThan(before.get(hour) ?? 0);
    }
    const daysAndOrders = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(daysAndOrders.n)).toBe(2000);
  });

  it("puts the orders tables' indexes back", async () => {
    expect(indexesBefore.length).toBeGreaterThan(10);
    expect(await orderIndexes()).toEqual(indexesBefore);
  });

  it("puts the marking triggers back: an order written afterwards marks its day and counts its hour", async () => {
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const hour = anHourAgo.slice(0, 13);
    await sql`delete from order_days_stale`.execute(db());
    const before = await hourCounts();
    await insertOrder(db(), { userId: null, createdAt: tenDaysAgo, paymentStatus: "completed" });
    await insertOrder(db(), { userId: null, createdAt: anHourAgo, paymentStatus: "completed" });
    expect(await staleDays()).toEqual([saDay(tenDaysAgo)]);
    expect((await hourCounts()).get(hour) ?? 0).toBeGreaterThan(before.get(hour) ?? 0);
  });

  // SQLite has only the one way, tested above
  if (isPostgres(getDb())) it(
    "on PostgreSQL, with a row trigger on the orders tables (which skipping every trigger would skip), suspends only the marking triggers and still leaves the shop's own sums",
    { timeout: 60_000 },
    async () => {
      await sql`create function bulk_load_test_row() returns trigger language plpgsql as $$ begin return new; end $$`.execute(db());
      await sql`create trigger bulk_load_test_row before insert on order_metrics for each row execute function bulk_load_test_row()`.execute(db());
      try {
        const changesBefore = await ordersChanges();
        const summary = await seedLargeCatalogue(db(), { products: 10, orders: 300, users: 4, seed: 3 });
        expect(summary.triggersSkipped).toBe("marking");
        await expectTheShopsOwnSums();
        expect(await ordersChanges()).toBeGreaterThan(changesBefore);
        expect(await orderIndexes()).toEqual(indexesBefore);
      } finally {
        await sql`drop trigger bulk_load_test_row on order_metrics`.execute(db());
        await sql`drop function bulk_load_test_row()`.execute(db());
      }
    },
  );
});
