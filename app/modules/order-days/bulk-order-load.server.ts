/**
 * Orders written in bulk (the benchmark seed, issue 32 point 6; docs/decisions/043, last addendum): one transaction
 * with the orders tables' marking insert triggers and secondary indexes suspended, the indexes built and the day and
 * hour marks of migrations 0027 and 0031 written once before it commits, the day sums computed once after.
 *
 * The insert triggers that mark an order's day stale and count its hour also mark the days of that customer's later
 * orders (they may stop or start being "returning"). For a shop's checkouts that is a short index range; for a load of
 * a million orders by 25 generated customers it is quadratic: every inserted row scans its customer's later orders
 * (SQLite per row, PostgreSQL per statement of 500), and `npm run seed -- --orders 300000` took 16 minutes. Without
 * them, the random inserts into the orders' eleven indexes were most of what was left.
 *
 * SQLite drops and recreates the triggers and indexes. PostgreSQL drops and recreates the indexes, and either skips
 * every trigger and foreign-key check for the transaction (`session_replication_role = replica`, when the role may) or
 * disables the marking triggers and the orders' two update triggers of migration 0032: all transactional, so a failed
 * load leaves the shop as it was. The marks are what the triggers would have written for the orders themselves; the
 * later orders of the same customers are orders of the load itself (the seed's customers are new), so their days are
 * marked too. The counts of changes (migration 0030) still move: a running server sees the orders changed.
 */
import { sql } from "kysely";
import { isPostgres, type DB, type Queryable, type Trx } from "~/db/db.server";
import { suspendSecondaryIndexes } from "~/db/suspended-indexes.server";
import { allOrderDays, ensureOrderDays, splitRange } from "./order-days.server";

/** Migrations 0027's and 0031's insert triggers (named the same on both databases). */
const MARKING_INSERT_TRIGGERS = [
  ["orders", "orders_day_stale_insert"],
  ["orders", "orders_hours_insert"],
  ["order_lines", "order_lines_day_stale_insert"],
  ["order_lines", "order_lines_hours_insert"],
  ["order_metrics", "order_metrics_day_stale_insert"],
  ["order_metrics", "order_metrics_hours_insert"],
] as const;

/**
 * The created_at (ISO text, UTC) of the orders written, kept as each hour's earliest and latest: a day is marked when
 * one of its orders is older than 20 hours (then its hour's earliest is), an hour counted when one of its orders is at
 * most 3 days old (then its latest is). A year of orders is at most ~17 500 values, however many orders.
 */
class OrderTimes {
  private readonly hours = new Map<string, { first: string; last: string }>();

  add(createdAt: string): void {
    const hour = createdAt.slice(0, 13);
    const seen = this.hours.get(hour);
    if (!seen) this.hours.set(hour, { first: createdAt, last: createdAt });
    else if (createdAt < seen.first) seen.first = createdAt;
    else if (createdAt > seen.last) seen.last = createdAt;
  }

  /** The times that decide the marks (each hour's earliest and latest). */
  representatives(): string[] {
    return [...this.hours.values()].flatMap(({ first, last }) => (first === last ? [first] : [first, last]));
  }
}

/**
 * Marks the days (older than 20 hours by the database's clock) and counts the hours (at most 3 days old) of orders
 * placed at `times`, as migrations 0027's and 0031's insert triggers do for each order.
 */
async function markOrderTimes(db: Queryable, times: OrderTimes): Promise<void> {
  const at = times.representatives();
  if (at.length === 0) return;
  if (isPostgres(db)) {
    // the migrations' own functions: the same day and hour, the same clock, the writer's slot
    await sql`select order_days_mark(array(select order_day_of(t) from unnest(${at}::timestamptz[]) t where t < now() - interval '20 hours'))`.execute(db);
    await sql`select order_hours_count(array(select order_hour_of(t) from unnest(${at}::timestamptz[]) t where t >= now() - interval '3 days'))`.execute(db);
    return;
  }
  const json = JSON.stringify(at);
  await sql`
    insert into order_days_stale (day, changes)
    select distinct date(value, '+2 hours'), 1 from json_each(${json}) where value < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 hours')
    on conflict (day) do update set changes = changes + 1
  `.execute(db);
  await sql`
    insert into order_hour_changes (hour, slot, n)
    select distinct substr(value, 1, 13), 0, 1 from json_each(${json}) where value >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days')
    on conflict (hour, slot) do update set n = n + 1
  `.execute(db);
}

export interface BulkOrderLoad {
  /**
   * How the orders tables' triggers are held off: "all" (PostgreSQL, a role that may set `session_replication_role`:
   * the foreign-key checks and every trigger, the statement triggers fired once at the end) or "marking" (the six
   * marking insert triggers and, on PostgreSQL, the two update triggers; foreign keys checked row by row).
   */
  readonly triggersSkipped: "all" | "marking";
  /** An order written in this transaction, placed at `createdAt` (ISO text). */
  add(createdAt: string): void;
  /**
   * The transaction's last step: rebuilds the indexes, marks the added orders' days and hours, restores the triggers.
   * `phaseDone` is told each step's name as it ends (the seed's timings).
   */
  finish(phaseDone?: (name: string) => void): Promise<void>;
}

/** The tables a bulk load of orders writes. */
const ORDER_TABLES = ["orders", "order_lines", "order_metrics"] as const;

/**
 * Starts a bulk load of orders in `trx`, to be ended by `finish()` before the commit: the triggers are held off (all of
 * them and the foreign-key checks where PostgreSQL allows, else the marking ones), and the orders tables' secondary
 * indexes are suspended (built again at `finish()` by one sort each, instead of a random insert per row into each of
 * the orders' eleven and the lines' two: at a million orders those cost most of the load). Should the transaction
 * fail, the triggers and indexes come back with its rollback. Until the commit the orders tables are locked against
 * other writers (SQLite: the one writer; PostgreSQL: DROP INDEX takes an ACCESS EXCLUSIVE lock, readers wait too), so
 * this is for a seed, not a shop that is serving.
 */
export async function startBulkOrderLoad(trx: Trx): Promise<BulkOrderLoad> {
  const skipAll = await skipAllTriggers(trx);
  const restoreTriggers = skipAll ?? (await suspendMarkingTriggers(trx));
  const restoreIndexes = await suspendSecondaryIndexes(trx, ORDER_TABLES);
  const times = new OrderTimes();
  return {
    triggersSkipped: skipAll ? "all" : "marking",
    add: (createdAt) => times.add(createdAt),
    async finish(phaseDone = () => {}) {
      await restoreIndexes();
      // The planner's statistics of the tables are the rows before the load until autovacuum comes round; the day
      // sums just after read a customer's earlier paid orders per order, and planned on those statistics one
      // statement of them ran for minutes at a million orders. ANALYZE (sampled: seconds) commits with the load.
      if (isPostgres(trx)) await sql.raw(`analyze ${ORDER_TABLES.join(", ")}`).execute(trx);
      phaseDone("indexes");
      // the triggers first: the marks write order_days_stale, whose own trigger counts the change (skipped under replica)
      await restoreTriggers();
      await markOrderTimes(trx, times);
      phaseDone("marks");
    },
  };
}

/**
 * PostgreSQL: `session_replication_role = replica` for the rest of the transaction, when the role may set it (a
 * superuser, or one granted SET on it) and the orders tables have only statement triggers. Then neither the foreign
 * keys (each line checked its order and product, each order its customer and zone: half the load's time at a million
 * orders) nor any trigger run for the load's rows; the rows are the loader's own, consistent by construction. Returns
 * what puts the role back and fires the tables' insert statement triggers once, for no rows: the counts of changes
 * (migration 0030) move as they would have, the marking triggers see an empty table and mark nothing (`finish()` marks).
 * Undefined where it cannot (SQLite, another role, a row trigger that the load would silently skip).
 */
async function skipAllTriggers(trx: Trx): Promise<(() => Promise<void>) | undefined> {
  if (!isPostgres(trx)) return undefined;
  const tables = sql.join(ORDER_TABLES.map((t) => sql.lit(t)));
  const { rows: rowTriggers } = await sql<{ name: string }>`
    select tgname as name from pg_trigger
    where not tgisinternal and tgrelid in (select oid from pg_class where relname in (${tables}) and relnamespace = current_schema()::regnamespace)
      and (tgtype & 1) = 1
  `.execute(trx);
  if (rowTriggers.length > 0) return undefined;
  // a role without the right makes SET fail, which would abort the transaction: tried under a savepoint
  await sql`savepoint bulk_order_load_role`.execute(trx);
  try {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`release savepoint bulk_order_load_role`.execute(trx);
  } catch {
    await sql`rollback to savepoint bulk_order_load_role`.execute(trx);
    return undefined;
  }
  return async () => {
    await sql`set local session_replication_role = origin`.execute(trx);
    for (const table of ORDER_TABLES) await sql.raw(`insert into ${table} select * from ${table} where false`).execute(trx);
  };
}

/**
 * The marking triggers suspended; on PostgreSQL also the orders' summed-column update triggers (migration 0032), whose
 * comparison of old and new rows cost ~30 µs an order for the invoice numbers' update, which changes no summed column.
 */
const POSTGRES_UPDATE_TRIGGERS = [
  ["orders", "orders_day_stale_update"],
  ["orders", "orders_hours_update"],
] as const;

async function suspendMarkingTriggers(trx: Trx): Promise<() => Promise<void>> {
  if (isPostgres(trx)) {
    const triggers = [...MARKING_INSERT_TRIGGERS, ...POSTGRES_UPDATE_TRIGGERS];
    for (const [table, name] of triggers) await sql.raw(`alter table ${table} disable trigger ${name}`).execute(trx);
    return async () => {
      for (const [table, name] of triggers) await sql.raw(`alter table ${table} enable trigger ${name}`).execute(trx);
    };
  }
  const names = MARKING_INSERT_TRIGGERS.map(([, name]) => name);
  const { rows } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'trigger' and name in (${sql.join(names)})
  `.execute(trx);
  // a trigger renamed by a later migration would otherwise stay and make the load slow again, silently
  const missing = names.filter((n) => !rows.some((r) => r.name === n));
  if (missing.length > 0) throw new Error(`bulk order load: no trigger ${missing.join(", ")} to suspend`);
  for (const { name } of rows) await sql.raw(`drop trigger ${name}`).execute(trx);
  return async () => {
    for (const { sql: definition } of rows) await sql.raw(definition).execute(trx);
  };
}

/**
 * After a bulk load has committed: every settled day summed by the shop's own code (ensureOrderDays: the days never
 * summed and those the load marked stale), so the first admin page finds them summed. Returns how long it took.
 */
export async function sumOrderDaysAfterLoad(db: DB): Promise<{ ms: number }> {
  const started = performance.now();
  const { settled } = splitRange(await allOrderDays(db));
  if (settled) await ensureOrderDays(db, settled);
  return { ms: Math.round(performance.now() - started) };
}
