import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "~/db/schema";
import type { Queryable } from "~/db/db.server";
import { allOrderDays, dayTotals } from "~/modules/reports/sales-totals.server";
import { env } from "~/utils/env.server";
import { percentOf, RECENT_SIGNUP_DAYS } from "./dashboard.logic";


export interface DashboardFigures {
  users: { total: number; admins: number; regular: number; recent: number };
  counts: { products: number; categories: number; coupons: number; zones: number; orders: number; reviews: number };
  inbox: { unread: number };
}

/**
 * The dashboard's figures (SPEC §2), counted in the database: one count per table, all at once. Admins are users with
 * the is_admin flag or an address in ADMIN_EMAILS (they are admins whatever their record says).
 */
export async function dashboardFigures(db: Queryable, now = new Date()): Promise<DashboardFigures> {
  const since = new Date(now.getTime() - RECENT_SIGNUP_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const listed = env().ADMIN_EMAILS;
  const count = (table: "products" | "categories" | "coupons" | "shipping_zones" | "reviews") =>
    db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow().then((r) => Number(r.n));
  const [users, products, categories, coupons, zones, orders, reviews, unread] = await Promise.all([
    db
      .selectFrom("users")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when(isAdmin(eb, listed)).then(1).else(0).end()).as("admins"),
        eb.fn.sum<number>(eb.case().when("created_at", ">=", since).then(1).else(0).end()).as("recent"),
      ])
      .executeTakeFirstOrThrow(),
    count("products"),
    count("categories"),
    count("coupons"),
    count("shipping_zones"),
    // every order, from the day sums (migration 0027: docs/decisions/034), not a count of the orders table
    allOrderDays(db)
      .then((days) => dayTotals(db, days))
      .then((t) => sql<{ n: number }>`select sum(orders) as n from ${t} t`.execute(db))
      .then((r) => Number(r.rows[0]?.n ?? 0)),
    count("reviews"),
    db.selectFrom("contact_messages").select((eb) => eb.fn.countAll<number>().as("n")).where("read_at", "is", null).executeTakeFirstOrThrow().then((r) => Number(r.n)),
  ]);
  const total = Number(users.total);
  const admins = Number(users.admins ?? 0);
  return {
    users: { total, admins, regular: total - admins, recent: Number(users.recent ?? 0) },
    counts: { products, categories, coupons, zones, orders, reviews },
    inbox: { unread },
  };
}

/** The SQL condition "this user is an admin": the flag, or an address in ADMIN_EMAILS. */
function isAdmin(eb: ExpressionBuilder<Database, "users">, listed: string[]) {
  const flag = eb("is_admin", "=", true);
  return listed.length === 0 ? flag : eb.or([flag, eb(sql<string>`lower(email)`, "in", listed)]);
}

export interface ReviewRequestFigures {
  /** requests sent (claimed) */
  sent: number;
  /** requests after which the customer reviewed a product of that order (a review created after the request) */
  reviewed: number;
  /** reviewed / sent as a whole percent; null before any request was sent */
  percent: number | null;
}

/**
 * The review requests (issue 19): how many went out, and how many became reviews: a request counts once its customer
 * has written a review of any product of that order after it was sent (a review edited later keeps its created_at,
 * so an older review never counts). Its own query, so the users page, which shares dashboardFigures, doesn't pay it.
 */
export async function reviewRequestFigures(db: Queryable): Promise<ReviewRequestFigures> {
  // Counted from the reviews' side (fewer than the requests at scale), each looking up its customer's requests sent
  // before it (index review_requests (user_id, sent_at), migration 0027) and whether that order holds the product.
  const [sentRow, reviewedRow] = await Promise.all([
    db.selectFrom("review_requests").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    db
      .selectFrom("reviews as r")
      .innerJoin("review_requests as rr", (join) => join.onRef("rr.user_id", "=", "r.user_id").onRef("rr.sent_at", "<", "r.created_at"))
      .select((eb) => eb.fn.count<number>("rr.order_id").distinct().as("n"))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("order_lines as l")
            .select(sql<number>`1`.as("one"))
            .whereRef("l.order_id", "=", "rr.order_id")
            .whereRef("l.product_id", "=", "r.product_id"),
        ),
      )
      .executeTakeFirstOrThrow(),
  ]);
  const sent = Number(sentRow.n);
  const reviewed = Number(reviewedRow.n ?? 0);
  return { sent, reviewed, percent: percentOf(reviewed, sent) };
}
