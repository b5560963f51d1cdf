import { PostgresAdapter, sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The admin at a million orders (issue 20 point 5, docs/decisions/034). The dashboard's sales over a year read every
 * paid order of two years (18 s on SQLite at 1 000 000 orders) and each order tab counted its status (850 000 index
 * entries for Delivered). Now the orders of each settled South African day are summed once into small tables, and
 * pages add those rows up; the last few days are always read from the orders themselves.
 *
 * - `order_day_totals`: per day, order status, payment status and payment method: orders, money, coupon use, new
 *   customers' orders (their first paid order) and the order_metrics sums. Serves the tab counts, the sales totals,
 *   revenue by day, payment methods, orders by status, the metrics.
 * - `order_day_coupons`: per day and coupon code, the paid orders that used it.
 * - `order_day_sellers`: per day and product (or line name once the product is gone), paid units and revenue.
 * - `order_day_returning`: per day, the paid orders of returning customers by the day of the customer's previous paid
 *   order (and whether that one was their first): distinct returning customers of any range add up from it.
 * - `order_days`: the days summed (a day without orders has a row too); `order_days_stale`: days whose orders changed
 *   since. Triggers on orders and order_metrics mark a day stale when one of its orders (older than 20 hours: today's
 *   and yesterday's orders are read live and never stored; the 4 hours between are the tolerance for the clocks of the
 *   database and the app servers) is added, changed or deleted, and the days of that customer's later orders when a payment
 *   or customer changes (they may stop or start being "returning"). The next page to need a stale day sums it again.
 *   The mark is an upsert that bumps a counter, so a page summing the day waits for an in-flight change to commit and
 *   keeps the day stale when it changed meanwhile (see order-days/order-days.server.ts sumDays).
 *
 * Two indexes: orders (user_id, payment_status, created_at) answers "had this customer paid before?" from the index
 * alone (new and returning customers); review_requests (user_id, sent_at) lets the dashboard count the requests that
 * became reviews from the reviews' side. Nothing here changes what an order is; dropping the tables loses nothing
 * (they are sums of orders).
 */
export async function up(db: Kysely<any>) {
  const t = columnTypes(db);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const money = postgres ? "bigint" : "integer";
  await db.schema
    .createTable("order_day_totals")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("payment_status", "text", (c) => c.notNull())
    .addColumn("payment_method", "text", (c) => c.notNull())
    .addColumn("orders", "integer", (c) => c.notNull())
    .addColumn("revenue", money, (c) => c.notNull())
    .addColumn("subtotal", money, (c) => c.notNull())
    .addColumn("discount", money, (c) => c.notNull())
    .addColumn("shipping", money, (c) => c.notNull())
    .addColumn("vat", money, (c) => c.notNull())
    .addColumn("coupon_orders", "integer", (c) => c.notNull())
    .addColumn("coupon_discount", money, (c) => c.notNull())
    .addColumn("new_orders", "integer", (c) => c.notNull())
    .addColumn("new_customers", "integer", (c) => c.notNull())
    .addColumn("new_revenue", money, (c) => c.notNull())
    .addColumn("metrics_rows", "integer", (c) => c.notNull())
    .addColumn("processing_n", "integer", (c) => c.notNull())
    .addColumn("processing_sum", money, (c) => c.notNull())
    .addColumn("delivery_n", "integer", (c) => c.notNull())
    .addColumn("delivery_sum", money, (c) => c.notNull())
    .addPrimaryKeyConstraint("order_day_totals_pk", ["day", "status", "payment_status", "payment_method"])
    .execute();
  await db.schema
    .createTable("order_day_coupons")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("coupon_code", "text", (c) => c.notNull())
    .addColumn("orders", "integer", (c) => c.notNull())
    .addColumn("discount", money, (c) => c.notNull())
    .addColumn("revenue", money, (c) => c.notNull())
    .addPrimaryKeyConstraint("order_day_coupons_pk", ["day", "coupon_code"])
    .execute();
  await db.schema
    .createTable("order_day_sellers")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("k", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("units", "integer", (c) => c.notNull())
    .addColumn("revenue", money, (c) => c.notNull())
    .addPrimaryKeyConstraint("order_day_sellers_pk", ["day", "k"])
    .execute();
  await db.schema
    .createTable("order_day_returning")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("prev_day", "text", (c) => c.notNull())
    .addColumn("second", "integer", (c) => c.notNull())
    .addColumn("orders", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("order_day_returning_pk", ["day", "prev_day", "second"])
    .execute();
  // One product's sums over a range (the best sellers look up the live days' products: sales.server.ts bestSellers).
  await db.schema.createIndex("order_day_sellers_k_idx").on("order_day_sellers").columns(["k", "day", "units", "revenue"]).execute();
  await db.schema
    .createTable("order_days")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("summed_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("order_days_stale")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("changes", "integer", (c) => c.notNull())
    .execute();

  // "Had this customer paid for an earlier order?" (new and returning customers) from the index alone.
  await db.schema.createIndex("orders_user_paid_created_idx").on("orders").columns(["user_id", "payment_status", "created_at"]).execute();
  // The review requests that became reviews are counted from the reviews, each looking up its customer's requests.
  await db.schema.createIndex("review_requests_user_idx").on("review_requests").columns(["user_id", "sent_at"]).execute();

  if (postgres) {
    await sql`
      create function order_day_of(at timestamptz) returns text language sql immutable as
        $$ select to_char((at at time zone 'UTC') + interval '2 hours', 'YYYY-MM-DD') $$
    `.execute(db);
    // Statement-level triggers with transition tables: one set-based statement per INSERT/UPDATE/DELETE however many
    // rows it touches (a row-level trigger ran a query per row: a bulk insert of 50 000 orders took over 600 s).
    // `settled`: older than 20 hours by the database's clock (now(): the transaction's start): orders of the stored days.
    // The days are marked with distinct rows (ON CONFLICT DO UPDATE cannot touch one row twice in a statement). A
    // customer's later orders are found from their earliest written order, one index range (orders (user_id,
    // created_at)) per customer: a join per written row was quadratic for a bulk load of one customer's orders.
    await sql`
      create function order_days_mark(days text[]) returns void language sql as $$
        insert into order_days_stale (day, changes) select distinct d, 1 from unnest(days) d where d is not null
        on conflict (day) do update set changes = order_days_stale.changes + 1
      $$
    `.execute(db);
    // Orders written or deleted: their own days, and the days of their customers' later orders (which may stop or
    // start being a customer's first paid one). The same function over the statement's new or old rows.
    for (const [name, rows] of [["orders_inserted_mark", "new_rows"], ["orders_deleted_mark", "old_rows"]] as const) {
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
          declare settled timestamptz := now() - interval '20 hours';
          begin
            perform order_days_mark(array(
              select order_day_of(w.created_at) from ${rows} w where w.created_at < settled
              union
              select order_day_of(o.created_at)
                from (select user_id, min(created_at) as since from ${rows} where user_id is not null group by user_id) c
                join orders o on o.user_id = c.user_id and o.created_at > c.since
                where o.created_at < settled
            ));
            return null;
          end $$`,
        )
        .execute(db);
    }
    await sql`
      create function orders_updated_mark() returns trigger language plpgsql as $$
      declare settled timestamptz := now() - interval '20 hours';
      begin
        perform order_days_mark(array(
          with moved as (
            select b.user_id as old_user, a.user_id as new_user, least(b.created_at, a.created_at) as since
            from old_rows b join new_rows a on a.id = b.id
            where b.payment_status is distinct from a.payment_status or b.user_id is distinct from a.user_id or b.created_at is distinct from a.created_at
          )
          select order_day_of(b.created_at) from old_rows b where b.created_at < settled
          union
          select order_day_of(a.created_at) from new_rows a where a.created_at < settled
          union
          -- a payment, customer or date that changed: that customer's later orders may stop or start being "returning"
          select order_day_of(o.created_at)
            from (
              select user_id, min(since) as since from (select old_user as user_id, since from moved union all select new_user, since from moved) u
              where user_id is not null group by user_id
            ) c
            join orders o on o.user_id = c.user_id and o.created_at > c.since
            where o.created_at < settled
        ));
        return null;
      end $$
    `.execute(db);
    await sql`create trigger orders_day_stale_insert after insert on orders referencing new table as new_rows for each statement execute function orders_inserted_mark()`.execute(db);
    await sql`create trigger orders_day_stale_update after update on orders referencing old table as old_rows new table as new_rows for each statement execute function orders_updated_mark()`.execute(db);
    await sql`create trigger orders_day_stale_delete after delete on orders referencing old table as old_rows for each statement execute function orders_deleted_mark()`.execute(db);
    // An order's lines and metrics: the days of their orders. One function for the three events (plpgsql plans a
    // statement when it runs, so each branch names only the transition tables its event has).
    await sql`
      create function order_children_mark() returns trigger language plpgsql as $$
      declare settled timestamptz := now() - interval '20 hours';
      begin
        if tg_op = 'INSERT' then
          perform order_days_mark(array(select order_day_of(o.created_at) from orders o where o.id in (select order_id from new_rows) and o.created_at < settled));
        elsif tg_op = 'DELETE' then
          perform order_days_mark(array(select order_day_of(o.created_at) from orders o where o.id in (select order_id from old_rows) and o.created_at < settled));
        else
          perform order_days_mark(array(select order_day_of(o.created_at) from orders o
            where o.id in (select order_id from new_rows union select order_id from old_rows) and o.created_at < settled));
        end if;
        return null;
      end $$
    `.execute(db);
    for (const table of ["order_lines", "order_metrics"]) {
      await sql.raw(`create trigger ${table}_day_stale_insert after insert on ${table} referencing new table as new_rows for each statement execute function order_children_mark()`).execute(db);
      await sql.raw(`create trigger ${table}_day_stale_update after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function order_children_mark()`).execute(db);
      await sql.raw(`create trigger ${table}_day_stale_delete after delete on ${table} referencing old table as old_rows for each statement execute function order_children_mark()`).execute(db);
    }
  } else {
    const day = (ref: string) => `date(${ref}, '+2 hours')`;
    const settled = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 hours')`;
    const mark = (ref: string) =>
      `insert into order_days_stale (day, changes) select ${day(ref)}, 1 where ${ref} < ${settled} on conflict (day) do update set changes = changes + 1;`;
    const later = (user: string, after: string) =>
      `insert into order_days_stale (day, changes) select distinct ${day("o.created_at")}, 1 from orders o where o.user_id = ${user} and o.created_at > ${after} and o.created_at < ${settled} and true on conflict (day) do update set changes = changes + 1;`;
    await sql.raw(`create trigger orders_day_stale_insert after insert on orders begin ${mark("new.created_at")} ${later("new.user_id", "new.created_at")} end`).execute(db);
    await sql.raw(`create trigger orders_day_stale_delete after delete on orders begin ${mark("old.created_at")} ${later("old.user_id", "old.created_at")} end`).execute(db);
    await sql.raw(`create trigger orders_day_stale_update after update on orders begin ${mark("old.created_at")} ${mark("new.created_at")} end`).execute(db);
    await sql
      .raw(
        `create trigger orders_day_stale_customer after update of payment_status, user_id, created_at on orders
         when old.payment_status is not new.payment_status or old.user_id is not new.user_id or old.created_at is not new.created_at
         begin ${later("old.user_id", "min(old.created_at, new.created_at)")} ${later("new.user_id", "min(old.created_at, new.created_at)")} end`,
      )
      .execute(db);
    for (const [table, op, ref] of [["order_metrics", "insert", "new"], ["order_metrics", "update", "new"], ["order_metrics", "delete", "old"], ["order_lines", "insert", "new"], ["order_lines", "update", "new"], ["order_lines", "delete", "old"]] as const) {
      await sql
        .raw(
          `create trigger ${table}_day_stale_${op} after ${op} on ${table} begin
             insert into order_days_stale (day, changes) select ${day("o.created_at")}, 1 from orders o where o.id = ${ref}.order_id and o.created_at < ${settled}
             on conflict (day) do update set changes = changes + 1;
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
      for (const op of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists ${table}_day_stale_${op} on ${table}`).execute(db);
    }
    await sql`drop function if exists orders_inserted_mark(), orders_updated_mark(), orders_deleted_mark(), order_children_mark(), order_days_mark(text[]), order_day_of(timestamptz)`.execute(db);
  } else {
    for (const name of ["orders_day_stale_insert", "orders_day_stale_delete", "orders_day_stale_update", "orders_day_stale_customer", ...["insert", "update", "delete"].flatMap((op) => [`order_metrics_day_stale_${op}`, `order_lines_day_stale_${op}`])]) {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.schema.dropIndex("review_requests_user_idx").ifExists().execute();
  await db.schema.dropIndex("orders_user_paid_created_idx").ifExists().execute();
  for (const table of ["order_days_stale", "order_days", "order_day_returning", "order_day_sellers", "order_day_coupons", "order_day_totals"]) await db.schema.dropTable(table).ifExists().execute();
}
