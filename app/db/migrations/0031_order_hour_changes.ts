import { PostgresAdapter, sql, type Kysely } from "kysely";
import { DATA_CHANGE_SLOTS } from "./0030_data_changes";

/**
 * Counts of the changes to the recent orders, per hour in which an order was placed (issue 20 point 5: the first
 * dashboard after an order changed, at a million orders; docs/decisions/043). The dashboard reads the last two days'
 * orders live (migration 0027 stores only the days before); it keeps what it read per hour and, when an order changes,
 * reads only the hours whose count moved (about sixty orders) instead of all two days (about three thousand).
 *
 * A change counts in the hour of the order's created_at (UTC, "YYYY-MM-DDTHH") when that order is at most three days
 * old by the database's clock (older days are stored sums, marked stale by migration 0027's triggers); the count moves
 * on any insert, update or delete of an order, its lines or its metrics. When an order's payment status, customer or
 * date changes (or a customer's order is added or deleted), the hours of that customer's later recent orders count too:
 * those may stop or start being the customer's first paid order (new and returning customers).
 *
 * As in data_changes (migration 0030), PostgreSQL counts once per statement in the writer's slot (backend pid modulo
 * 16), so concurrent checkouts rarely wait on one row; SQLite counts per row in slot 0. Old hours are removed by the
 * order-days job (order-days/order-days.server.ts). Dropping the table loses nothing: the dashboard reads every live hour again.
 *
 * And two topics of data_changes (migration 0030) for the stored sums of the settled days: `sums` (order_day_totals,
 * order_day_coupons, order_day_returning) and `sellers` (order_day_sellers). What a page adds up from the settled days
 * is kept until those change, not until any order does (an order of today changes no stored sum; a status changed on
 * an old order changes its day's totals, not its sellers: sumDays writes only the rows that differ). And a third,
 * `old-orders`: a change to an order older than 20 hours (migration 0027's mark of its day as stale, on any column):
 * what a page counts of the orders before the live days (an orders search's tab counts) is kept until then.
 */
export async function up(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("order_hour_changes")
    .addColumn("hour", "text", (c) => c.notNull())
    .addColumn("slot", "integer", (c) => c.notNull())
    .addColumn("n", postgres ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("order_hour_changes_pk", ["hour", "slot"])
    .execute();

  const SUMS_TOPICS = { sums: ["order_day_totals", "order_day_coupons", "order_day_returning"], sellers: ["order_day_sellers"], "old-orders": ["order_days_stale"] } as const;
  await db
    .insertInto("data_changes")
    .values(Object.keys(SUMS_TOPICS).flatMap((topic) => Array.from({ length: DATA_CHANGE_SLOTS }, (_, slot) => ({ topic, slot, n: 0 }))))
    .execute();
  for (const [topic, tables] of Object.entries(SUMS_TOPICS)) {
    if (postgres) {
      await sql
        .raw(
          `create function ${topic.replace("-", "_")}_changes_count() returns trigger language plpgsql as $$
           begin
             update data_changes set n = n + 1 where topic = '${topic}' and slot = pg_backend_pid() % ${DATA_CHANGE_SLOTS};
             return null;
           end $$`,
        )
        .execute(db);
      for (const table of tables) {
        // A stale mark counts per row: migration 0027's triggers run their marking statement for every order write,
        // most often marking nothing (a new order), and a statement-level trigger would count those too.
        const marks = topic === "old-orders";
        await sql
          .raw(
            `create trigger ${table}_count_changes after insert or update${marks ? "" : " or delete"} on ${table} for each ${marks ? "row" : "statement"} execute function ${topic.replace("-", "_")}_changes_count()`,
          )
          .execute(db);
      }
    } else {
      for (const table of tables) {
        // a stale mark removed (its day summed again) is no change to an order
        for (const op of topic === "old-orders" ? ["insert", "update"] : ["insert", "update", "delete"]) {
          await sql.raw(`create trigger ${table}_count_changes_${op} after ${op} on ${table} begin update data_changes set n = n + 1 where topic = '${topic}' and slot = 0; end`).execute(db);
        }
      }
    }
  }

  if (postgres) {
    await sql`
      create function order_hour_of(at timestamptz) returns text language sql immutable as
        $$ select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24') $$
    `.execute(db);
    await sql
      .raw(
        `create function order_hours_count(hours text[]) returns void language sql as $$
          insert into order_hour_changes (hour, slot, n) select distinct h, pg_backend_pid() % ${DATA_CHANGE_SLOTS}, 1 from unnest(hours) h where h is not null
          on conflict (hour, slot) do update set n = order_hour_changes.n + 1
        $$`,
      )
      .execute(db);
    // Statement-level, with transition tables, like migration 0027's marks (one statement however many rows).
    for (const [name, rows] of [["orders_inserted_hours", "new_rows"], ["orders_deleted_hours", "old_rows"]] as const) {
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
          declare recent timestamptz := now() - interval '3 days';
          begin
            perform order_hours_count(array(
              select order_hour_of(w.created_at) from ${rows} w where w.created_at >= recent
              union
              select order_hour_of(o.created_at)
                from (select user_id, min(created_at) as since from ${rows} where user_id is not null group by user_id) c
                join orders o on o.user_id = c.user_id and o.created_at > c.since
                where o.created_at >= recent
            ));
            return null;
          end $$`,
        )
        .execute(db);
    }
    await sql`
      create function orders_updated_hours() returns trigger language plpgsql as $$
      declare recent timestamptz := now() - interval '3 days';
      begin
        perform order_hours_count(array(
          with moved as (
            select b.user_id as old_user, a.user_id as new_user, least(b.created_at, a.created_at) as since
            from old_rows b join new_rows a on a.id = b.id
            where b.payment_status is distinct from a.payment_status or b.user_id is distinct from a.user_id or b.created_at is distinct from a.created_at
          )
          select order_hour_of(b.created_at) from old_rows b where b.created_at >= recent
          union
          select order_hour_of(a.created_at) from new_rows a where a.created_at >= recent
          union
          select order_hour_of(o.created_at)
            from (
              select user_id, min(since) as since from (select old_user as user_id, since from moved union all select new_user, since from moved) u
              where user_id is not null group by user_id
            ) c
            join orders o on o.user_id = c.user_id and o.created_at > c.since
            where o.created_at >= recent
        ));
        return null;
      end $$
    `.execute(db);
    await sql`create trigger orders_hours_insert after insert on orders referencing new table as new_rows for each statement execute function orders_inserted_hours()`.execute(db);
    await sql`create trigger orders_hours_update after update on orders referencing old table as old_rows new table as new_rows for each statement execute function orders_updated_hours()`.execute(db);
    await sql`create trigger orders_hours_delete after delete on orders referencing old table as old_rows for each statement execute function orders_deleted_hours()`.execute(db);
    await sql`
      create function order_children_hours() returns trigger language plpgsql as $$
      declare recent timestamptz := now() - interval '3 days';
      begin
        if tg_op = 'INSERT' then
          perform order_hours_count(array(select order_hour_of(o.created_at) from orders o where o.id in (select order_id from new_rows) and o.created_at >= recent));
        elsif tg_op = 'DELETE' then
          perform order_hours_count(array(select order_hour_of(o.created_at) from orders o where o.id in (select order_id from old_rows) and o.created_at >= recent));
        else
          perform order_hours_count(array(select order_hour_of(o.created_at) from orders o
            where o.id in (select order_id from new_rows union select order_id from old_rows) and o.created_at >= recent));
        end if;
        return null;
      end $$
    `.execute(db);
    for (const table of ["order_lines", "order_metrics"]) {
      await sql.raw(`create trigger ${table}_hours_insert after insert on ${table} referencing new table as new_rows for each statement execute function order_children_hours()`).execute(db);
      await sql.raw(`create trigger ${table}_hours_update after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function order_children_hours()`).execute(db);
      await sql.raw(`create trigger ${table}_hours_delete after delete on ${table} referencing old table as old_rows for each statement execute function order_children_hours()`).execute(db);
    }
  } else {
    // created_at is stored as ISO text in UTC ("2026-11-26T14:05:00.000Z"): its first 13 characters are the hour.
    const recent = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days')`;
    const upsert = "on conflict (hour, slot) do update set n = n + 1;";
    const count = (ref: string) => `insert into order_hour_changes (hour, slot, n) select substr(${ref}, 1, 13), 0, 1 where ${ref} >= ${recent} ${upsert}`;
    const later = (user: string, after: string) =>
      `insert into order_hour_changes (hour, slot, n) select distinct substr(o.created_at, 1, 13), 0, 1 from orders o where o.user_id = ${user} and o.created_at > ${after} and o.created_at >= ${recent} and true ${upsert}`;
    await sql.raw(`create trigger orders_hours_insert after insert on orders begin ${count("new.created_at")} ${later("new.user_id", "new.created_at")} end`).execute(db);
    await sql.raw(`create trigger orders_hours_delete after delete on orders begin ${count("old.created_at")} ${later("old.user_id", "old.created_at")} end`).execute(db);
    await sql.raw(`create trigger orders_hours_update after update on orders begin ${count("old.created_at")} ${count("new.created_at")} end`).execute(db);
    await sql
      .raw(
        `create trigger orders_hours_customer after update of payment_status, user_id, created_at on orders
         when old.payment_status is not new.payment_status or old.user_id is not new.user_id or old.created_at is not new.created_at
         begin ${later("old.user_id", "min(old.created_at, new.created_at)")} ${later("new.user_id", "min(old.created_at, new.created_at)")} end`,
      )
      .execute(db);
    for (const [table, op, ref] of [["order_metrics", "insert", "new"], ["order_metrics", "update", "new"], ["order_metrics", "delete", "old"], ["order_lines", "insert", "new"], ["order_lines", "update", "new"], ["order_lines", "delete", "old"]] as const) {
      await sql
        .raw(
          `create trigger ${table}_hours_${op} after ${op} on ${table} begin
             insert into order_hour_changes (hour, slot, n) select substr(o.created_at, 1, 13), 0, 1 from orders o where o.id = ${ref}.order_id and o.created_at >= ${recent} and true ${upsert}
           end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    for (const table of ["orders", "order_lines", "order_metrics"]) {
      for (const op of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists ${table}_hours_${op} on ${table}`).execute(db);
    }
    for (const table of ["order_day_totals", "order_day_coupons", "order_day_returning", "order_day_sellers", "order_days_stale"]) await sql.raw(`drop trigger if exists ${table}_count_changes on ${table}`).execute(db);
    await sql`drop function if exists sums_changes_count(), sellers_changes_count(), old_orders_changes_count()`.execute(db);
    await sql`drop function if exists orders_inserted_hours(), orders_updated_hours(), orders_deleted_hours(), order_children_hours(), order_hours_count(text[]), order_hour_of(timestamptz)`.execute(db);
  } else {
    for (const table of ["order_day_totals", "order_day_coupons", "order_day_returning", "order_day_sellers", "order_days_stale"]) {
      for (const op of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists ${table}_count_changes_${op}`).execute(db);
    }
    for (const name of ["orders_hours_insert", "orders_hours_delete", "orders_hours_update", "orders_hours_customer", ...["insert", "update", "delete"].flatMap((op) => [`order_metrics_hours_${op}`, `order_lines_hours_${op}`])]) {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.deleteFrom("data_changes").where("topic", "in", ["sums", "sellers", "old-orders"]).execute();
  await db.schema.dropTable("order_hour_changes").ifExists().execute();
}
