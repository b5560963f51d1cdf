import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * An update of an order, a line or a metrics row marks its day stale (migration 0027) and counts in its hour
 * (migration 0031) only when it changes a column the day's sums read (docs/decisions/043, last addendum). Before, any
 * column did: a courier booked for yesterday's order (its tracking number), an invoice number, a note, a checkout token
 * cleared, a customer's erasure of their old orders' notes, the stock a line took: each made the next page (or the
 * writer) sum the order's whole day again (a day of a million-order shop: ~100 ms on SQLite), for sums that could not
 * have moved.
 *
 * The columns are what order-days/order-days.server.ts sums (its four day tables and the live hours) and what an orders search
 * counts by (status, customer, date): a new column summed there must be added here. Inserts and deletes still mark
 * as before. PostgreSQL's statement-level triggers (transition tables allow no column list) compare each row's old
 * and new values by id; SQLite's row triggers name the columns (`update of`) and compare them (`when`), so an update
 * that writes a column with its own value marks nothing either.
 */
export const ORDER_SUMMED_COLUMNS = ["user_id", "status", "payment_status", "payment_method", "total_amount_cents", "subtotal_cents", "discount_amount_cents", "shipping_cents", "coupon_code", "created_at"] as const;
export const LINE_SUMMED_COLUMNS = ["order_id", "product_id", "name", "quantity", "total_price_cents"] as const;
export const METRICS_SUMMED_COLUMNS = ["order_id", "processing_time", "delivery_time"] as const;

const rowOf = (alias: string, columns: readonly string[]) => `(${columns.map((c) => `${alias}.${c}`).join(", ")})`;
const changed = (columns: readonly string[]) => `${rowOf("b", columns)} is distinct from ${rowOf("a", columns)}`;
const sqliteChanged = (columns: readonly string[]) => columns.map((c) => `old.${c} is not new.${c}`).join(" or ");

// SQLite: a day marked stale (migration 0027), an hour counted (migration 0031), for the order whose created_at is `ref`
const sqliteDay = (ref: string) => `date(${ref}, '+2 hours')`;
const SQLITE_SETTLED = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 hours')`;
const SQLITE_RECENT = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days')`;
const sqliteMark = (ref: string) =>
  `insert into order_days_stale (day, changes) select ${sqliteDay(ref)}, 1 where ${ref} < ${SQLITE_SETTLED} on conflict (day) do update set changes = changes + 1;`;
const sqliteCount = (ref: string) =>
  `insert into order_hour_changes (hour, slot, n) select substr(${ref}, 1, 13), 0, 1 where ${ref} >= ${SQLITE_RECENT} on conflict (hour, slot) do update set n = n + 1;`;
/** The same for the order of a line's or a metrics row's `row` (old or new). */
const sqliteMarkOrderOf = (row: "old" | "new") =>
  `insert into order_days_stale (day, changes) select ${sqliteDay("o.created_at")}, 1 from orders o where o.id = ${row}.order_id and o.created_at < ${SQLITE_SETTLED} on conflict (day) do update set changes = changes + 1;`;
const sqliteCountOrderOf = (row: "old" | "new") =>
  `insert into order_hour_changes (hour, slot, n) select substr(o.created_at, 1, 13), 0, 1 from orders o where o.id = ${row}.order_id and o.created_at >= ${SQLITE_RECENT} and true on conflict (hour, slot) do update set n = n + 1;`;

export async function up(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    // orders: the rows whose summed columns changed, then what 0027's and 0031's functions did with every row
    for (const [name, mark, bound, recent] of [
      ["orders_updated_summed_mark", "order_days_mark", "settled timestamptz := now() - interval '20 hours'", false],
      ["orders_updated_summed_hours", "order_hours_count", "recent timestamptz := now() - interval '3 days'", true],
    ] as const) {
      const keep = (column: string) => (recent ? `${column} >= recent` : `${column} < settled`);
      const slot = recent ? "order_hour_of" : "order_day_of";
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
          declare ${bound};
          begin
            perform ${mark}(array(
              with pairs as (
                select b.created_at as old_at, a.created_at as new_at, b.user_id as old_user, a.user_id as new_user,
                  b.payment_status is distinct from a.payment_status or b.user_id is distinct from a.user_id or b.created_at is distinct from a.created_at as moved
                from old_rows b join new_rows a on a.id = b.id
                where ${changed(ORDER_SUMMED_COLUMNS)}
              )
              select ${slot}(old_at) from pairs where ${keep("old_at")}
              union
              select ${slot}(new_at) from pairs where ${keep("new_at")}
              union
              -- a payment, customer or date that changed: that customer's later orders may stop or start being "returning"
              select ${slot}(o.created_at)
                from (
                  select user_id, min(since) as since from (
                    select old_user as user_id, least(old_at, new_at) as since from pairs where moved
                    union all select new_user, least(old_at, new_at) from pairs where moved
                  ) u
                  where user_id is not null group by user_id
                ) c
                join orders o on o.user_id = c.user_id and o.created_at > c.since
                where ${keep("o.created_at")}
            ));
            return null;
          end $$`,
        )
        .execute(db);
    }
    // lines and metrics: the orders of the rows whose summed columns changed (old and new order, should it move)
    for (const [table, key, columns] of [
      ["order_lines", "id", LINE_SUMMED_COLUMNS],
      ["order_metrics", "order_id", METRICS_SUMMED_COLUMNS],
    ] as const) {
      for (const [suffix, mark, bound, keep, slot] of [
        ["mark", "order_days_mark", "settled timestamptz := now() - interval '20 hours'", "o.created_at < settled", "order_day_of"],
        ["hours", "order_hours_count", "recent timestamptz := now() - interval '3 days'", "o.created_at >= recent", "order_hour_of"],
      ] as const) {
        await sql
          .raw(
            `create function ${table}_updated_summed_${suffix}() returns trigger language plpgsql as $$
            declare ${bound};
            begin
              perform ${mark}(array(
                select ${slot}(o.created_at) from orders o
                where o.id in (
                  select x.order_id from (
                    select b.order_id as old_order, a.order_id as new_order from old_rows b join new_rows a on a.${key} = b.${key} where ${changed(columns)}
                  ) p cross join lateral (values (p.old_order), (p.new_order)) x(order_id)
                ) and ${keep}
              ));
              return null;
            end $$`,
          )
          .execute(db);
      }
    }
    for (const [table, mark, hours] of [
      ["orders", "orders_updated_summed_mark", "orders_updated_summed_hours"],
      ["order_lines", "order_lines_updated_summed_mark", "order_lines_updated_summed_hours"],
      ["order_metrics", "order_metrics_updated_summed_mark", "order_metrics_updated_summed_hours"],
    ] as const) {
      await retrigger(db, `${table}_day_stale_update`, table, mark);
      await retrigger(db, `${table}_hours_update`, table, hours);
    }
  } else {
    const of = (columns: readonly string[]) => `update of ${columns.join(", ")}`;
    const orders = `after ${of(ORDER_SUMMED_COLUMNS)} on orders when ${sqliteChanged(ORDER_SUMMED_COLUMNS)}`;
    await sqliteRetrigger(db, "orders_day_stale_update", `${orders} begin ${sqliteMark("old.created_at")} ${sqliteMark("new.created_at")} end`);
    await sqliteRetrigger(db, "orders_hours_update", `${orders} begin ${sqliteCount("old.created_at")} ${sqliteCount("new.created_at")} end`);
    for (const [table, columns] of [
      ["order_lines", LINE_SUMMED_COLUMNS],
      ["order_metrics", METRICS_SUMMED_COLUMNS],
    ] as const) {
      // the order's day (or hour) before and after, should the row move to another order
      const rows = `after ${of(columns)} on ${table} when ${sqliteChanged(columns)}`;
      await sqliteRetrigger(db, `${table}_day_stale_update`, `${rows} begin ${sqliteMarkOrderOf("old")} ${sqliteMarkOrderOf("new")} end`);
      await sqliteRetrigger(db, `${table}_hours_update`, `${rows} begin ${sqliteCountOrderOf("old")} ${sqliteCountOrderOf("new")} end`);
    }
  }
}

/** PostgreSQL: the update trigger `name` on `table` runs `fn` (statement-level, with both transition tables). */
async function retrigger(db: Kysely<any>, name: string, table: string, fn: string) {
  await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
  await sql.raw(`create trigger ${name} after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function ${fn}()`).execute(db);
}

async function sqliteRetrigger(db: Kysely<any>, name: string, definition: string) {
  await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql.raw(`create trigger ${name} ${definition}`).execute(db);
}

/** Back to migrations 0027's and 0031's update triggers: every update marks. */
export async function down(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await retrigger(db, "orders_day_stale_update", "orders", "orders_updated_mark");
    await retrigger(db, "orders_hours_update", "orders", "orders_updated_hours");
    for (const table of ["order_lines", "order_metrics"]) {
      await retrigger(db, `${table}_day_stale_update`, table, "order_children_mark");
      await retrigger(db, `${table}_hours_update`, table, "order_children_hours");
    }
    await sql`drop function if exists orders_updated_summed_mark(), orders_updated_summed_hours(), order_lines_updated_summed_mark(), order_lines_updated_summed_hours(), order_metrics_updated_summed_mark(), order_metrics_updated_summed_hours()`.execute(db);
  } else {
    await sqliteRetrigger(db, "orders_day_stale_update", `after update on orders begin ${sqliteMark("old.created_at")} ${sqliteMark("new.created_at")} end`);
    await sqliteRetrigger(db, "orders_hours_update", `after update on orders begin ${sqliteCount("old.created_at")} ${sqliteCount("new.created_at")} end`);
    for (const table of ["order_lines", "order_metrics"]) {
      await sqliteRetrigger(db, `${table}_day_stale_update`, `after update on ${table} begin ${sqliteMarkOrderOf("new")} end`);
      await sqliteRetrigger(db, `${table}_hours_update`, `after update on ${table} begin ${sqliteCountOrderOf("new")} end`);
    }
  }
}
