import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "~/db/schema";
import { containsInsensitive, isPostgres, type Queryable } from "~/db/db.server";

/**
 * Finding customers by part of their e-mail (the admin's Users search, and the orders search by customer): the users
 * table is this area's, so the one way to ask it lives here.
 */

/** Part of a customer's e-mail, case-insensitive; on PostgreSQL the form users_email_trgm_idx answers (migration 0028). */
export function emailContains(db: Queryable, q: string) {
  // SQLite's LIKE already ignores ASCII case and its lower() folds nothing else: the same matches, without calling
  // lower() on 100 000 e-mails (a third of the scan).
  if (isPostgres(db)) return containsInsensitive("users.email", q);
  const escaped = q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`users.email like ${`%${escaped}%`} escape '\\'`;
}

/**
 * The ids of the customers whose e-mail holds `q` (and `where`, when given): up to `limit` of them, and whether there
 * are more. One pass that stops as soon as `limit` + 1 are found, so a search matching many customers reads a few
 * thousand rows, not every customer's. On SQLite the pass walks the table in its own order (sign-up order, roughly)
 * rather than an index of the e-mails: that index keeps a common name's addresses together, and a search for one
 * ("thandi") read 85 % of it before the first match (115 ms at 280 000 customers, against 27 ms walking the table);
 * both cost the same when nothing matches. PostgreSQL's trigram index finds the matches without walking.
 */
export async function customersWithEmailContaining(
  db: Queryable,
  q: string,
  options: { limit?: number; where?: (eb: ExpressionBuilder<Database, "users">) => Expression<SqlBool> } = {},
): Promise<{ ids: string[]; more: boolean }> {
  const { limit, where } = options;
  let query = db.selectFrom("users").select("users.id").where(emailContains(db, q));
  if (where) query = query.where(where);
  if (limit !== undefined) {
    if (!isPostgres(db)) query = query.orderBy(sql`users.rowid`);
    query = query.limit(limit + 1);
  }
  const rows = await query.execute();
  return limit !== undefined && rows.length > limit ? { ids: rows.slice(0, limit).map((r) => r.id), more: true } : { ids: rows.map((r) => r.id), more: false };
}
