import { PostgresAdapter, sql, type Kysely } from "kysely";
import { ORDER_SUMMED_COLUMNS } from "./0032_order_marks_on_summed_columns";

/**
 * Closing one unpaid order costs the same at a million orders as at a thousand (issue 39 point 4); and two indexes for
 * the admin at scale (issue 39 point 5: the order lines' sizes for the product form, the users' marketing choice for
 * Admin → Marketing; below).
 *
 * Migrations 0027 and 0031 mark the days (and count the hours) of a customer's *later orders* when an order of theirs
 * is added or deleted, or its payment status, customer or date changes: those orders may stop or start being
 * "returning". They marked every later order of the customer, for every such change. The expiry job closing an
 * unpaid order (payment pending → cancelled) therefore re-marked all of that customer's later days: for a customer
 * with thousands of orders, hundreds of days marked stale and summed again, ~125 ms a close, growing with the shop.
 *
 * What a later order's figures read of the customer's history (order-days.server.ts: is_new, and the returning rows'
 * previous paid order and whether that one was the first) is only ever about *paid* orders, and about the two nearest
 * before it: an order is "new" when no paid order of the customer precedes it, its previous paid order is the nearest
 * one, and "second" asks whether another precedes that one. So:
 *
 * - a change that leaves the order unpaid on both sides (pending → cancelled, pending → failed) changes no other
 *   order's figures: only its own day is marked (as migration 0032's update triggers do), nothing later;
 * - a paid order appearing or disappearing at time T (inserted, deleted, paid, unpaid, moved, given to another
 *   customer) changes only the customer's paid orders whose two nearest paid predecessors include it: those at the
 *   first two distinct times of their paid orders after T (two orders of the same instant share a day and an hour).
 *   Those days are marked: one ordered index range of orders (user_id, payment_status, created_at) that stops at its
 *   second time, whatever the customer's history.
 *
 * The same for the hours counted (migration 0031). The triggers keep their names (the bulk order load suspends them by
 * name: bulk-order-load.server.ts); PostgreSQL's stay statement-level.
 */
const PAID = "'completed'";

// SQLite ------------------------------------------------------------------------------------------------------------
const SQLITE_SETTLED = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 hours')`;
const SQLITE_RECENT = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days')`;
const sqliteDay = (ref: string) => `date(${ref}, '+2 hours')`;

/**
 * The first two distinct times of the customer's paid orders after `row`'s, when `row` is paid (SQLite; as `o`): the
 * days and hours of the orders whose figures `row` may change.
 */
const sqliteNextPaid = (row: "old" | "new") =>
  `(select distinct p.created_at from orders p
    where ${row}.payment_status = ${PAID} and p.user_id = ${row}.user_id and p.payment_status = ${PAID} and p.created_at > ${row}.created_at
    order by p.created_at limit 2) o`;

/** Marks the days (older than 20 hours) of the orders after `row`'s, when `row` is paid. */
const sqliteMarkLater = (row: "old" | "new") =>
  `insert into order_days_stale (day, changes) select distinct ${sqliteDay("o.created_at")}, 1 from ${sqliteNextPaid(row)}
   where o.created_at < ${SQLITE_SETTLED} and true
   on conflict (day) do update set changes = changes + 1;`;
const sqliteCountLater = (row: "old" | "new") =>
  `insert into order_hour_changes (hour, slot, n) select distinct substr(o.created_at, 1, 13), 0, 1 from ${sqliteNextPaid(row)}
   where o.created_at >= ${SQLITE_RECENT} and true
   on conflict (hour, slot) do update set n = n + 1;`;
const sqliteMarkOwn = (ref: string) =>
  `insert into order_days_stale (day, changes) select ${sqliteDay(ref)}, 1 where ${ref} < ${SQLITE_SETTLED} on conflict (day) do update set changes = changes + 1;`;
const sqliteCountOwn = (ref: string) =>
  `insert into order_hour_changes (hour, slot, n) select substr(${ref}, 1, 13), 0, 1 where ${ref} >= ${SQLITE_RECENT} on conflict (hour, slot) do update set n = n + 1;`;
const SQLITE_MOVED = "old.payment_status is not new.payment_status or old.user_id is not new.user_id or old.created_at is not new.created_at";
const SQLITE_PAID_SIDE = `(old.payment_status = ${PAID} or new.payment_status = ${PAID})`;

const SQLITE_TRIGGERS: Record<string, string> = {
  orders_day_stale_insert: `after insert on orders begin ${sqliteMarkOwn("new.created_at")} ${sqliteMarkLater("new")} end`,
  orders_day_stale_delete: `after delete on orders begin ${sqliteMarkOwn("old.created_at")} ${sqliteMarkLater("old")} end`,
  orders_day_stale_customer: `after update of payment_status, user_id, created_at on orders when (${SQLITE_MOVED}) and ${SQLITE_PAID_SIDE}
    begin ${sqliteMarkLater("old")} ${sqliteMarkLater("new")} end`,
  orders_hours_insert: `after insert on orders begin ${sqliteCountOwn("new.created_at")} ${sqliteCountLater("new")} end`,
  orders_hours_delete: `after delete on orders begin ${sqliteCountOwn("old.created_at")} ${sqliteCountLater("old")} end`,
  orders_hours_customer: `after update of payment_status, user_id, created_at on orders when (${SQLITE_MOVED}) and ${SQLITE_PAID_SIDE}
    begin ${sqliteCountLater("old")} ${sqliteCountLater("new")} end`,
};

// PostgreSQL --------------------------------------------------------------------------------------------------------
const changed = (columns: readonly string[]) => `(${columns.map((c) => `b.${c}`).join(", ")}) is distinct from (${columns.map((c) => `a.${c}`).join(", ")})`;

/** The statement-level functions, by what they mark (days older than 20 hours) or count (hours of the last 3 days). */
function postgresFunctions(): Record<string, string> {
  const kinds = [
    { suffix: "mark", fn: "order_days_mark", slot: "order_day_of", bound: "settled timestamptz := now() - interval '20 hours'", keep: (c: string) => `${c} < settled` },
    { suffix: "hours", fn: "order_hours_count", slot: "order_hour_of", bound: "recent timestamptz := now() - interval '3 days'", keep: (c: string) => `${c} >= recent` },
  ];
  const out: Record<string, string> = {};
  for (const k of kinds) {
    for (const [name, rows] of [[`orders_inserted_${k.suffix}`, "new_rows"], [`orders_deleted_${k.suffix}`, "old_rows"]] as const) {
      out[name] = `declare ${k.bound};
        begin
          perform ${k.fn}(array(
            select ${k.slot}(w.created_at) from ${rows} w where ${k.keep("w.created_at")}
            union
            -- a paid order added or removed: the customer's next two paid orders may stop or start being "returning"
            select ${k.slot}(l.at) from ${rows} w cross join lateral order_next_paid(w.user_id, w.created_at) l
              where w.payment_status = ${PAID} and ${k.keep("l.at")}
          ));
          return null;
        end`;
    }
    out[`orders_updated_summed_${k.suffix}`] = `declare ${k.bound};
      begin
        perform ${k.fn}(array(
          with pairs as (
            select b.created_at as old_at, a.created_at as new_at, b.user_id as old_user, a.user_id as new_user,
              b.payment_status = ${PAID} as old_paid, a.payment_status = ${PAID} as new_paid,
              b.payment_status is distinct from a.payment_status or b.user_id is distinct from a.user_id or b.created_at is distinct from a.created_at as moved
            from old_rows b join new_rows a on a.id = b.id
            where ${changed(ORDER_SUMMED_COLUMNS)}
          )
          select ${k.slot}(old_at) from pairs where ${k.keep("old_at")}
          union
          select ${k.slot}(new_at) from pairs where ${k.keep("new_at")}
          union
          -- a paid order that stopped being one, or moved: the next two paid orders after where it was
          select ${k.slot}(l.at) from pairs p cross join lateral order_next_paid(p.old_user, p.old_at) l where p.moved and p.old_paid and ${k.keep("l.at")}
          union
          -- a paid order that became one, or moved: the next two paid orders after where it is
          select ${k.slot}(l.at) from pairs p cross join lateral order_next_paid(p.new_user, p.new_at) l where p.moved and p.new_paid and ${k.keep("l.at")}
        ));
        return null;
      end`;
  }
  return out;
}

export async function up(db: Kysely<any>) {
  // And (issue 39 point 5) the sizes ever ordered, which the product form asks for each size (it may be hidden, not
  // deleted): without an index every line of the shop was read, 0.85 s a product form at 1 650 000 lines.
  await db.schema.createIndex("order_lines_size_idx").ifNotExists().on("order_lines").column("size_id").execute();
  // And the customers who agreed to marketing e-mail, which Admin → Marketing counts: every user was read (~290 000).
  await db.schema.createIndex("users_email_marketing_idx").ifNotExists().on("users").column("email_marketing").execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // PL/pgSQL: a SQL function would be inlined into the trigger's query, where the planner may read all of the
    // customer's later paid orders; here it is one ordered index range that stops at its second distinct time.
    await sql
      .raw(
        `create function order_next_paid(customer text, since timestamptz) returns table (at timestamptz) language plpgsql stable as $$
          begin
            return query select distinct p.created_at from orders p
              where p.user_id = customer and p.payment_status = ${PAID} and p.created_at > since order by p.created_at limit 2;
          end $$`,
      )
      .execute(db);
    // the triggers call these by name: replacing the bodies is enough
    for (const [name, body] of Object.entries(postgresFunctions())) {
      await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$ ${body} $$`).execute(db);
    }
    return;
  }
  for (const [name, definition] of Object.entries(SQLITE_TRIGGERS)) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
    await sql.raw(`create trigger ${name} ${definition}`).execute(db);
  }
}

/** Back to marking every later order of the customer (migrations 0027, 0031 and 0032). */
export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("order_lines_size_idx").ifExists().execute();
  await db.schema.dropIndex("users_email_marketing_idx").ifExists().execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [kind, fn, slot, bound, keep] of [
      ["mark", "order_days_mark", "order_day_of", "settled timestamptz := now() - interval '20 hours'", (c: string) => `${c} < settled`],
      ["hours", "order_hours_count", "order_hour_of", "recent timestamptz := now() - interval '3 days'", (c: string) => `${c} >= recent`],
    ] as const) {
      for (const [name, rows] of [[`orders_inserted_${kind}`, "new_rows"], [`orders_deleted_${kind}`, "old_rows"]] as const) {
        await sql
          .raw(
            `create or replace function ${name}() returns trigger language plpgsql as $$
            declare ${bound};
            begin
              perform ${fn}(array(
                select ${slot}(w.created_at) from ${rows} w where ${keep("w.created_at")}
                union
                select ${slot}(o.created_at)
                  from (select user_id, min(created_at) as since from ${rows} where user_id is not null group by user_id) c
                  join orders o on o.user_id = c.user_id and o.created_at > c.since
                  where ${keep("o.created_at")}
              ));
              return null;
            end $$`,
          )
          .execute(db);
      }
      await sql
        .raw(
          `create or replace function orders_updated_summed_${kind}() returns trigger language plpgsql as $$
          declare ${bound};
          begin
            perform ${fn}(array(
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
    await sql`drop function if exists order_next_paid(text, timestamptz)`.execute(db);
    return;
  }
  const laterDays = (user: string, after: string) =>
    `insert into order_days_stale (day, changes) select distinct ${sqliteDay("o.created_at")}, 1 from orders o where o.user_id = ${user} and o.created_at > ${after} and o.created_at < ${SQLITE_SETTLED} and true on conflict (day) do update set changes = changes + 1;`;
  const laterHours = (user: string, after: string) =>
    `insert into order_hour_changes (hour, slot, n) select distinct substr(o.created_at, 1, 13), 0, 1 from orders o where o.user_id = ${user} and o.created_at > ${after} and o.created_at >= ${SQLITE_RECENT} and true on conflict (hour, slot) do update set n = n + 1;`;
  const since = "min(old.created_at, new.created_at)";
  const before: Record<string, string> = {
    orders_day_stale_insert: `after insert on orders begin ${sqliteMarkOwn("new.created_at")} ${laterDays("new.user_id", "new.created_at")} end`,
    orders_day_stale_delete: `after delete on orders begin ${sqliteMarkOwn("old.created_at")} ${laterDays("old.user_id", "old.created_at")} end`,
    orders_day_stale_customer: `after update of payment_status, user_id, created_at on orders when ${SQLITE_MOVED} begin ${laterDays("old.user_id", since)} ${laterDays("new.user_id", since)} end`,
    orders_hours_insert: `after insert on orders begin ${sqliteCountOwn("new.created_at")} ${laterHours("new.user_id", "new.created_at")} end`,
    orders_hours_delete: `after delete on orders begin ${sqliteCountOwn("old.created_at")} ${laterHours("old.user_id", "old.created_at")} end`,
    orders_hours_customer: `after update of payment_status, user_id, created_at on orders when ${SQLITE_MOVED} begin ${laterHours("old.user_id", since)} ${laterHours("new.user_id", since)} end`,
  };
  for (const [name, definition] of Object.entries(before)) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
    await sql.raw(`create trigger ${name} ${definition}`).execute(db);
  }
}
