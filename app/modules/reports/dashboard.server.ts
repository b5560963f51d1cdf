import type { Queryable } from "~/db/db.server";
import type { OrderStatus } from "~/db/schema";
import { ORDER_STATUSES } from "~/modules/orders/order-admin.logic";
import { userFigures } from "~/modules/accounts/users-admin.server";
import { allOrderDays, daySums } from "~/modules/order-days/order-days.server";
import { keptWhileUnchanged } from "~/db/kept-reads.server";
import { percentOf } from "~/modules/admin/dashboard.logic";

export interface DashboardFigures {
  users: { total: number; admins: number; regular: number; recent: number };
  counts: { products: number; categories: number; coupons: number; zones: number; orders: number; reviews: number };
  /** every order by its status (the order tabs' sizes) */
  orders: Record<OrderStatus, number>;
  inbox: { unread: number };
}

/**
 * The dashboard's figures (SPEC §2), counted in the database: one count per table, all at once. Admins are users with
 * the is_admin flag or an address in ADMIN_EMAILS (they are admins whatever their record says: userFigures).
 */
export async function dashboardFigures(db: Queryable): Promise<DashboardFigures> {
  const count = (table: "products" | "categories" | "coupons" | "shipping_zones" | "reviews") =>
    db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow().then((r) => Number(r.n));
  // The counts are kept until their tables change (docs/decisions/042): PostgreSQL counts 100 000 rows in ~10 ms each.
  const catalog = keptWhileUnchanged(db, "dashboard:catalog", () => Promise.all([count("products"), count("categories"), count("coupons"), count("shipping_zones")]), {
    topics: ["catalog"],
  });
  const [users, [products, categories, coupons, zones], orders, reviews, unread] = await Promise.all([
    // counted from indexes (migration 0028), the same figures the users page shows
    userFigures(db),
    catalog,
    // every order by status, from the day sums (migration 0027: docs/decisions/034), not a count of the orders table:
    // the settled days' stored sums, kept until they change, and the live days' kept hours (docs/decisions/043)
    allOrderDays(db)
      .then((days) => daySums(db, days, "order_day_totals", { group: ["status"], sums: ["orders"] }))
      .then((rows) => {
        const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
        for (const row of rows) if (row.status in byStatus) byStatus[row.status as OrderStatus] += row.orders;
        return byStatus;
      }),
    keptWhileUnchanged(db, "dashboard:reviews", () => count("reviews"), { topics: ["reviews"] }),
    db.selectFrom("contact_messages").select((eb) => eb.fn.countAll<number>().as("n")).where("read_at", "is", null).executeTakeFirstOrThrow().then((r) => Number(r.n)),
  ]);
  return {
    users,
    counts: { products, categories, coupons, zones, orders: Object.values(orders).reduce((a, b) => a + b, 0), reviews },
    orders,
    inbox: { unread },
  };
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
 * so an older review never counts).
 */
export async function reviewRequestFigures(db: Queryable): Promise<ReviewRequestFigures> {
  // Each request carries whether it became a review (kept by triggers: migration 0029); both counts read an index, and
  // are kept until a review or a request changes (docs/decisions/042).
  const [sentRow, reviewedRow] = await keptWhileUnchanged(
    db,
    "dashboard:review-requests",
    () =>
      Promise.all([
        db.selectFrom("review_requests").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
        db.selectFrom("review_requests").select((eb) => eb.fn.countAll<number>().as("n")).where("reviewed", "=", 1).executeTakeFirstOrThrow(),
      ]),
    { topics: ["reviews"] },
  );
  const sent = Number(sentRow.n);
  const reviewed = Number(reviewedRow.n ?? 0);
  return { sent, reviewed, percent: percentOf(reviewed, sent) };
}
