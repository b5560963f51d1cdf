import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Counts of the changes to what the admin's heaviest pages read (issue 20 point 5: the admin at a million orders;
 * docs/decisions/042). A process keeps what such a page read until the count of its topic moves; a topic counts any
 * insert, update or delete on its tables:
 * - `orders`: orders, order_lines, order_metrics, returns (the dashboard's sales, the order tabs' counts, a search's);
 * - `customers`: users (a search's customers, found by e-mail; the dashboard's people);
 * - `reviews`: reviews, review_requests (the dashboard's review figures);
 * - `catalog`: products, categories, coupons, shipping_zones (the dashboard's catalogue counts).
 * Triggers add one, for changes made by any process, so a kept read is the data as it is, and an unchanged count costs
 * one small read instead of the page's.
 *
 * Each topic has 16 slots: on PostgreSQL a connection adds to its own slot (its backend pid modulo 16, once per
 * statement), so two transactions writing orders at once rarely wait on one row; a topic's count is its slots' sum.
 * SQLite has one writer at a time and adds to slot 0, per row. A backup carries the table as it is, and a restore
 * writes it back with its triggers suspended, like the order-day sums.
 */
export const DATA_CHANGE_SLOTS = 16;
const TOPICS = {
  orders: ["orders", "order_lines", "order_metrics", "returns"],
  customers: ["users"],
  reviews: ["reviews", "review_requests"],
  catalog: ["products", "categories", "coupons", "shipping_zones"],
} as const;

export async function up(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("data_changes")
    .addColumn("topic", "text", (c) => c.notNull())
    .addColumn("slot", "integer", (c) => c.notNull())
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("data_changes_pk", ["topic", "slot"])
    .execute();
  await db
    .insertInto("data_changes")
    .values(Object.keys(TOPICS).flatMap((topic) => Array.from({ length: DATA_CHANGE_SLOTS }, (_, slot) => ({ topic, slot, n: 0 }))))
    .execute();
  for (const [topic, tables] of Object.entries(TOPICS)) {
    if (postgres) {
      await sql
        .raw(
          `create function ${topic}_changes_count() returns trigger language plpgsql as $$
           begin
             update data_changes set n = n + 1 where topic = '${topic}' and slot = pg_backend_pid() % ${DATA_CHANGE_SLOTS};
             return null;
           end $$`,
        )
        .execute(db);
      for (const table of tables) {
        await sql.raw(`create trigger ${table}_count_changes after insert or update or delete on ${table} for each statement execute function ${topic}_changes_count()`).execute(db);
      }
    } else {
      for (const table of tables) {
        for (const op of ["insert", "update", "delete"]) {
          await sql.raw(`create trigger ${table}_count_changes_${op} after ${op} on ${table} begin update data_changes set n = n + 1 where topic = '${topic}' and slot = 0; end`).execute(db);
        }
      }
    }
  }
}

export async function down(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [topic, tables] of Object.entries(TOPICS)) {
    if (postgres) {
      for (const table of tables) await sql.raw(`drop trigger if exists ${table}_count_changes on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${topic}_changes_count()`).execute(db);
    } else {
      for (const table of tables) for (const op of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists ${table}_count_changes_${op}`).execute(db);
    }
  }
  await db.schema.dropTable("data_changes").ifExists().execute();
}
