/**
 * Closing one unpaid order costs the same at a million orders as at a thousand (issue 39 point 4, migration 0052).
 *
 * The triggers that mark a changed order's day stale also mark the days of the customer's later orders, which may
 * stop or start being "returning". They marked every later order, for every change: the expiry job closing an unpaid
 * order of a customer with a long history re-marked all their later days (~125 ms a close at a million orders). Now
 * an order unpaid before and after marks only its own day, and a paid order appearing, disappearing or moving marks
 * the customer's next two paid orders' days: the cost does not grow with the history. Measured here in rows written
 * (SQLite's total_changes(), PostgreSQL's pg_stat_xact_user_tables, which also counts the orders' rows read) and in
 * days marked, for a customer with 4 later paid orders and one with 120; then the figures are checked to stay the
 * orders' own through random changes.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { getDb, isPostgres, type Queryable } from "~/db/db.server";
import { closeUnpaidOrder } from "~/modules/flows/order-closed-unpaid.server";
import { salesRange } from "~/modules/reports/sales.logic";
import { salesDashboard } from "~/modules/reports/sales.server";
import { addDays, saDay } from "~/utils/sa-days";
import { insertOrder } from "../../../tests/factories/orders";
import { insertProduct } from "../../../tests/factories/catalog";
import { createUser } from "../../../tests/factories/users";
import { DAY_TABLES, storedDays, summedFromScratch } from "../../../tests/setup/order-day-sums";
import { allOrderDays, ensureOrderDays, splitRange } from "./order-days.server";
import { prng } from "~/modules/demo/seed.server";

const db = () => getDb();
const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Rows written so far in this transaction (with what triggers wrote), and on PostgreSQL the orders' rows read. */
async function counters(trx: Queryable): Promise<{ written: number; read: number }> {
  if (isPostgres(trx)) {
    const { rows } = await sql<{ written: unknown; read: unknown }>`
      select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as written,
        coalesce(sum(case when relname = 'orders' then seq_tup_read + coalesce(idx_tup_fetch, 0) end), 0) as read
      from pg_stat_xact_user_tables
    `.execute(trx);
    return { written: Number(rows[0]!.written), read: Number(rows[0]!.read) };
  }
  const { rows } = await sql<{ written: unknown }>`select total_changes() as written`.execute(trx);
  return { written: Number(rows[0]!.written), read: 0 };
}

/** What `change` cost inside one transaction: rows written, rows read (PostgreSQL) and days marked stale. */
async function costOf(change: (trx: Queryable) => Promise<unknown>) {
  await sql`delete from order_days_stale`.execute(db());
  return db()
    .transaction()
    .execute(async (trx) => {
      // plans as on a shop's big tables: this test's few hundred orders would otherwise be read whole, now and then
      if (isPostgres(trx)) await sql`set local enable_seqscan = off`.execute(trx);
      const before = await counters(trx);
      await change(trx);
      const after = await counters(trx);
      const marked = (await sql<{ day: string }>`select day from order_days_stale order by day`.execute(trx)).rows.map((r) => r.day);
      return { written: after.written - before.written, read: after.read - before.read, marked };
    });
}

/** A customer whose `laterPaid` paid orders, one a day over the last `laterPaid` + 2 days, follow an unpaid bank transfer placed before them all. */
async function customerWithHistory(laterPaid: number, productId: string) {
  const user = (await createUser(db())).id;
  const line = [{ productId, unitPriceCents: 20_000 }];
  const unpaidAt = ago((laterPaid + 10) * DAY);
  const unpaid = await insertOrder(db(), { userId: user, status: "pending", paymentStatus: "pending", createdAt: unpaidAt, lines: line });
  await db().updateTable("orders").set({ payment_provider: "eft", payment_method: "eft" }).where("id", "=", unpaid.id).execute();
  await insertOrder(db(), { userId: user, status: "delivered", paymentStatus: "completed", createdAt: ago((laterPaid + 20) * DAY), lines: line });
  const later: string[] = [];
  for (let i = 0; i < laterPaid; i++) {
    later.push(ago((laterPaid + 2 - i) * DAY + 3_600_000));
    await insertOrder(db(), { userId: user, status: "delivered", paymentStatus: "completed", createdAt: later[i]!, lines: line });
  }
  return { user, unpaid: unpaid.id, unpaidAt, later };
}

describe("the days a change marks do not grow with the customer's history (migration 0052)", () => {
  it("an unpaid order closed by the expiry job marks its own day and writes the same rows, with 4 later paid orders or 120", { timeout: 60_000 }, async () => {
    const product = await insertProduct(db(), { price_cents: 20_000 });
    const small = await customerWithHistory(4, product.id);
    const big = await customerWithHistory(120, product.id);
    const closing = (id: string) => costOf(async (trx) => expect((await closeUnpaidOrder(trx, id, "expired")).closed).toBe(true));
    const [a, b] = [await closing(small.unpaid), await closing(big.unpaid)];
    expect(a.marked).toEqual([saDay(small.unpaidAt)]);
    expect(b.marked).toEqual([saDay(big.unpaidAt)]);
    expect(b.written).toBe(a.written);
    // on PostgreSQL the rows read too (SQLite keeps no such count)
    if (isPostgres(db())) expect(b.read).toBeLessThanOrEqual(a.read + 2);
  });

  it("a late payment (and its undoing) marks its own day and the next two paid orders' days, with 4 later paid orders or 120", { timeout: 60_000 }, async () => {
    const product = await insertProduct(db(), { price_cents: 20_000 });
    const small = await customerWithHistory(4, product.id);
    const big = await customerWithHistory(120, product.id);
    const settle = (id: string, paid: boolean) =>
      costOf((trx) => trx.updateTable("orders").set(paid ? { status: "processing", payment_status: "completed" } : { status: "cancelled", payment_status: "cancelled" }).where("id", "=", id).execute());
    for (const paid of [true, false]) {
      const [a, b] = [await settle(small.unpaid, paid), await settle(big.unpaid, paid)];
      expect(a.marked).toEqual([saDay(small.unpaidAt), saDay(small.later[0]!), saDay(small.later[1]!)].sort());
      expect(b.marked).toEqual([saDay(big.unpaidAt), saDay(big.later[0]!), saDay(big.later[1]!)].sort());
      expect(b.written).toBe(a.written);
      if (isPostgres(db())) expect(b.read).toBeLessThanOrEqual(a.read + 4);
    }
  });

  it("keeps every figure the orders' own through a customer's random payments, new and deleted orders, dates and customers moved", { timeout: 120_000 }, async () => {
    const rng = prng(39);
    const product = await insertProduct(db(), { price_cents: 20_000 });
    const customers = [(await createUser(db())).id, (await createUser(db())).id];
    const ids: string[] = [];
    // two customers' orders over 30 days (never two at the very same instant: the settled and the live sums count a
    // customer's two paid orders of one millisecond differently, and no checkout makes them)
    const at = () => ago(5 * 60_000 + Math.floor(rng() * 30 * DAY));
    const place = async () => {
      const paid = rng() < 0.6;
      const o = await insertOrder(db(), {
        userId: customers[Math.floor(rng() * 2)]!,
        status: paid ? "delivered" : "pending",
        paymentStatus: paid ? "completed" : "pending",
        createdAt: at(),
        lines: [{ productId: product.id, unitPriceCents: 20_000, quantity: 1 + Math.floor(rng() * 3) }],
      });
      ids.push(o.id);
    };
    for (let i = 0; i < 24; i++) await place();
    const today = saDay(new Date());
    const range = salesRange({ from: addDays(today, -34), to: today }, "day");
    const expectTheOrdersOwn = async (what: string) => {
      const { settled } = splitRange(await allOrderDays(db()));
      await ensureOrderDays(db(), settled!);
      const [stored, fresh] = [await storedDays(), await summedFromScratch()];
      for (const table of [...DAY_TABLES, "order_days"]) expect(stored[table], `${table} after ${what}`).toEqual(fresh[table]);
      // the live days too: what the dashboard keeps per hour, against a read that keeps nothing
      const unkept = await db().transaction().execute((trx) => salesDashboard(trx, range));
      expect(await salesDashboard(db(), range), what).toEqual(unkept);
    };
    await expectTheOrdersOwn("the first orders");
    for (let step = 0; step < 40; step++) {
      const id = ids[Math.floor(rng() * ids.length)]!;
      const r = rng();
      let what: string;
      if (r < 0.4) {
        const paid = rng() < 0.5;
        await db().updateTable("orders").set({ payment_status: paid ? "completed" : rng() < 0.5 ? "cancelled" : "failed" }).where("id", "=", id).execute();
        what = `a payment set ${paid ? "completed" : "not completed"}`;
      } else if (r < 0.55) {
        await place();
        what = "a new order";
      } else if (r < 0.7) {
        await db().deleteFrom("orders").where("id", "=", id).execute();
        ids.splice(ids.indexOf(id), 1);
        what = "an order deleted";
      } else if (r < 0.85) {
        await db().updateTable("orders").set({ created_at: at() }).where("id", "=", id).execute();
        what = "an order moved in time";
      } else {
        await db().updateTable("orders").set({ user_id: rng() < 0.2 ? null : customers[Math.floor(rng() * 2)]! }).where("id", "=", id).execute();
        what = "an order given to another customer";
      }
      await expectTheOrdersOwn(`step ${step}: ${what}`);
    }
  });
});
