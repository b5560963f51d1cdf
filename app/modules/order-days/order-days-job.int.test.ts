/**
 * The job that sums past order days in the background (sumSettledOrderDays, job "sum-order-days", docs/decisions/034),
 * on SQLite and PostgreSQL: days not summed yet (a shop upgraded with its orders, a restore) are summed a span at a
 * time, newest first, stopping at its time budget and going on at the next run; a day changed since is summed again;
 * the figures read afterwards are the orders' own; and the server schedules it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { getDb } from "~/db/db.server";
import { startJobs } from "../../../server/jobs";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import { countEventLoopTurns } from "../../../tests/setup/event-loop-turns";
import { addDays, saDay } from "~/utils/sa-days";
import { sumSettledOrderDays } from "~/modules/order-days/order-days.server";
import { salesTotals } from "~/modules/reports/sales-totals.server";

const db = () => getDb();
const today = saDay(new Date());
const at = (daysAgo: number) => `${addDays(today, -daysAgo)}T10:00:00.000Z`;
const summedDays = async () => (await sql<{ day: string }>`select day from order_days order by day`.execute(db())).rows.map((r) => r.day);
const ids: string[] = [];

beforeAll(async () => {
  // 20 past days with an order each (each its own customer's), and today's (a live day: never stored)
  for (let daysAgo = 0; daysAgo <= 20; daysAgo++) ids.push((await insertOrder(db(), { userId: (await createUser(db())).id, status: "delivered", paymentStatus: "completed", createdAt: at(daysAgo) })).id);
});

describe("the past order days summed in the background", () => {
  it("sums the missing days a span at a time, newest first, and goes on where its budget stopped it", async () => {
    expect(await summedDays()).toEqual([]);
    // a budget already spent: one span, then it stops and says there is more
    const first = await sumSettledOrderDays(db(), { spanDays: 5, budgetMs: -1 });
    expect(first).toEqual({ summed: 5, more: true });
    expect(await summedDays()).toEqual([2, 3, 4, 5, 6].map((d) => addDays(today, -d)).sort());
    const rest = await sumSettledOrderDays(db(), { spanDays: 5 });
    expect(rest.more).toBe(false);
    // every settled day from the first order's to the day before yesterday (yesterday and today are live)
    expect(await summedDays()).toEqual(Array.from({ length: 19 }, (_, i) => addDays(today, -20 + i)));
    expect(await sumSettledOrderDays(db())).toEqual({ summed: 0, more: false });
  });

  it("sums a changed day again, and the figures are the orders' own", async () => {
    const range = { from: addDays(today, -20), to: today };
    const before = await salesTotals(db(), range);
    await db().updateTable("orders").set({ payment_status: "failed" }).where("id", "=", ids[10]!).execute();
    expect(await sumSettledOrderDays(db())).toEqual({ summed: 1, more: false });
    // (yesterday's orders are marked too, being older than 20 hours: a live day's marks wait until it is settled)
    const stale = await sql<{ n: number }>`select count(*) as n from order_days_stale where day < ${addDays(today, -1)}`.execute(db());
    expect(Number(stale.rows[0]!.n)).toBe(0);
    const after = await salesTotals(db(), range);
    expect(after.orders).toBe(before.orders - 1);
  });

  it("forgets the live hours' counts of changes once their days are past (migration 0031)", async () => {
    const hours = async () => (await sql<{ hour: string }>`select distinct hour from order_hour_changes order by hour`.execute(db())).rows.map((r) => r.hour);
    // the orders of the last three days (by the clock) counted their hours when they were written: those of today and
    // the two days before, and the one of three days ago when it is less than 72 hours old (its 10:00 UTC is, from
    // 22:00 to 10:00 UTC); none older
    const recent = await hours();
    for (const d of [2, 1, 0]) expect(recent).toContain(at(d).slice(0, 13));
    expect([3, 2, 1, 0].map((d) => at(d).slice(0, 13))).toEqual(expect.arrayContaining(recent));
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 13);
    await sql`insert into order_hour_changes (hour, slot, n) values (${weekAgo}, 0, 3)`.execute(db());
    expect(await hours()).toEqual([weekAgo, ...recent]);
    await sumSettledOrderDays(db());
    expect(await hours()).toEqual(recent);
  });

  it("a page that finds many days to sum sums them a few at a time, letting the process answer in between", async () => {
    await sql`delete from order_days`.execute(db());
    // the dashboard's figures over the 19 settled days: every day summed before they are read (on SQLite, whose
    // statements block the process, one transaction for all of them gave no turn to a waiting request)
    const turns = countEventLoopTurns();
    await salesTotals(db(), { from: addDays(today, -20), to: today });
    expect(turns.stop()).toBeGreaterThan(0);
    expect(await summedDays()).toHaveLength(19);
  });

  it("is scheduled by the server and runs in the lease holder", async () => {
    await sql`delete from order_days`.execute(db());
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
    const jobs = startJobs({ UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0, JOBS_EVERY_SECONDS: 1, DATABASE_URL: "the test's" }, db, logger, "server-a");
    try {
      expect(jobs.jobs.map((j) => j.name)).toContain("sum-order-days");
      await expect.poll(async () => (await summedDays()).length, { timeout: 8000 }).toBe(19);
    } finally {
      await jobs.stopAll();
    }
  });
});
