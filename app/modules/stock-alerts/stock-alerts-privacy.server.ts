/**
 * A person's back-in-stock requests for "Download my data" and "Delete my account" (POPIA s23, s24; docs/decisions/040
 * and 057): those made signed in, and those made as a visitor under the account's e-mail address (the row is the only
 * place that address is kept, so it is the person's whichever way they asked).
 */
import type { ExpressionBuilder } from "kysely";
import type { Queryable } from "~/db/db.server";
import type { Database, StockAlertStatus } from "~/db/schema";

const ofPerson = (userId: string, email: string) => (eb: ExpressionBuilder<Database, "stock_alerts">) =>
  eb.or([eb("stock_alerts.user_id", "=", userId), eb(eb.fn("lower", ["stock_alerts.email"]), "=", email.trim().toLowerCase())]);

export interface PersonStockAlert {
  product: string;
  /** the size waited for; null: any size */
  size: string | null;
  email: string;
  status: StockAlertStatus;
  askedAt: string;
  confirmedAt: string | null;
}

export async function stockAlertsOfPerson(db: Queryable, userId: string, email: string): Promise<PersonStockAlert[]> {
  const rows = await db
    .selectFrom("stock_alerts")
    .innerJoin("products as p", "p.id", "stock_alerts.product_id")
    .leftJoin("product_sizes as s", "s.id", "stock_alerts.size_id")
    .select(["p.name", "s.label", "stock_alerts.email", "stock_alerts.status", "stock_alerts.created_at", "stock_alerts.confirmed_at"])
    .where(ofPerson(userId, email))
    .orderBy("stock_alerts.created_at", "desc")
    .execute();
  return rows.map((r) => ({ product: r.name, size: r.label ?? null, email: r.email, status: r.status, askedAt: r.created_at, confirmedAt: r.confirmed_at }));
}

/** The account is being deleted (in the caller's transaction): every request under it or its address goes. */
export async function deleteStockAlertsOfPerson(trx: Queryable, userId: string, email: string): Promise<number> {
  return Number((await trx.deleteFrom("stock_alerts").where(ofPerson(userId, email)).executeTakeFirstOrThrow()).numDeletedRows);
}
