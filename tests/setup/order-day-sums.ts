/**
 * The stored day sums (the four order_day_* tables and order_days) compared with what the shop's own summing code
 * computes from scratch: what a bulk load, or a trigger that marks days, must leave (order-days/*.int.test.ts).
 */
import { sql } from "kysely";
import { getDb, type Queryable } from "~/db/db.server";
import { allOrderDays, ensureOrderDays, splitRange } from "~/modules/order-days/order-days.server";

export const DAY_TABLES = ["order_day_totals", "order_day_coupons", "order_day_sellers", "order_day_returning"] as const;

/** Every stored day row, as sorted text (the drivers give sums and stored integers as different types). */
export async function storedDays(q: Queryable = getDb()) {
  const out: Record<string, string[]> = {};
  for (const table of DAY_TABLES) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(q);
    out[table] = rows.map((r) => JSON.stringify(Object.keys(r).sort().map((k) => [k, r[k] === null ? null : String(r[k])]))).sort();
  }
  out.order_days = (await sql<{ day: string }>`select day from order_days order by day`.execute(q)).rows.map((r) => r.day);
  return out;
}

/** The same rows as the shop's summing code computes them with nothing summed before (in a transaction rolled back). */
export async function summedFromScratch(db: Queryable = getDb()) {
  const { settled } = splitRange(await allOrderDays(db));
  let fresh: Record<string, string[]> = {};
  const rollback = new Error("rolled back");
  await db
    .transaction()
    .execute(async (trx) => {
      for (const table of [...DAY_TABLES, "order_days", "order_days_stale"]) await sql`delete from ${sql.table(table)}`.execute(trx);
      await ensureOrderDays(trx, settled!);
      fresh = await storedDays(trx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return fresh;
}
