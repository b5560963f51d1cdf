import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * A count of the changes to orders, their lines and their metrics (issue 20 point 5: the dashboard at a million
 * orders). The dashboard reads today's and yesterday's orders live on every view (docs/decisions/034), and with their
 * customers' histories and lines that read is most of the page's time. Now a process keeps what it read until the
 * count moves: any insert, update or delete on those tables, by any process, adds one (triggers), so a kept read is
 * the orders as they are, and an unchanged count costs one small read instead of the live days' orders.
 *
 * `order_changes` has 16 slots: on PostgreSQL each connection adds to its own slot (its backend pid modulo 16, per
 * statement), so two transactions writing orders at once rarely wait on one row; the count is the sum of the slots.
 * SQLite has one writer at a time and adds to slot 0, per row. A backup carries the table as it is, and a restore
 * writes it back with its triggers suspended, like the order-day sums.
 */
export const ORDER_CHANGE_SLOTS = 16;
const TABLES = ["orders", "order_lines", "order_metrics"] as const;

export async function up(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("order_changes")
    .addColumn("slot", "integer", (c) => c.primaryKey())
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto("order_changes")
    .values(Array.from({ length: ORDER_CHANGE_SLOTS }, (_, slot) => ({ slot, n: 0 })))
    .execute();
  if (postgres) {
    await sql
      .raw(
        `create function order_changes_count() returns trigger language plpgsql as $$
         begin
           update order_changes set n = n + 1 where slot = pg_backend_pid() % ${ORDER_CHANGE_SLOTS};
           return null;
         end $$`,
      )
      .execute(db);
    for (const table of TABLES) {
      await sql.raw(`create trigger ${table}_count_changes after insert or update or delete on ${table} for each statement execute function order_changes_count()`).execute(db);
    }
  } else {
    for (const table of TABLES) {
      for (const op of ["insert", "update", "delete"]) {
        await sql.raw(`create trigger ${table}_count_changes_${op} after ${op} on ${table} begin update order_changes set n = n + 1 where slot = 0; end`).execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    for (const table of TABLES) await sql.raw(`drop trigger if exists ${table}_count_changes on ${table}`).execute(db);
    await sql`drop function if exists order_changes_count()`.execute(db);
  } else {
    for (const table of TABLES) for (const op of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists ${table}_count_changes_${op}`).execute(db);
  }
  await db.schema.dropTable("order_changes").ifExists().execute();
}
