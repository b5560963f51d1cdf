import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Issue 34, points 3 and 4 (docs/decisions/057): back-in-stock alerts and wishlists.
 *
 * - `stock_alerts`: one person waiting for a sold-out product (size_id null: any of its sizes) or one sold-out size.
 *   `email` is where the one e-mail goes; `user_id` is set when a signed-in shopper asked (their account's address,
 *   confirmed at once), null for a visitor, whose request stays `pending` until they open the confirmation link
 *   (double opt-in) and then `waiting`. The row is deleted when its e-mail is written, when an unconfirmed request's
 *   link expires, and 6 months after it was made (POPIA s14): nothing else keeps the address. One request per
 *   product, size and address (the unique index; size null counts as one value).
 * - `wishlist_items`: a signed-in shopper's saved products (a visitor's stay in their browser). `alert_price_cents`
 *   and `alert_in_stock` are what the shopper last knew (when added, or their last alert): a wishlist alert says only
 *   what changed since.
 * - `wishlist_alerts`: the shoppers who opted in to wishlist e-mails (price drops, back in stock); a row per person,
 *   deleted when they opt out. The consent log keeps the history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("stock_alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("size_id", "text", (c) => c.references("product_sizes.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("confirmed_at", t.timestamp)
    .execute();
  await sql`create unique index stock_alerts_request_unique on stock_alerts (product_id, coalesce(size_id, ''), email)`.execute(db);
  // The sweep's question: the waiting requests, by product (and the admin's counts per product).
  await db.schema.createIndex("stock_alerts_status_product_idx").on("stock_alerts").columns(["status", "product_id"]).execute();
  // The deletions by age.
  await db.schema.createIndex("stock_alerts_created_idx").on("stock_alerts").column("created_at").execute();

  await db.schema
    .createTable("wishlist_items")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("alert_price_cents", "integer", (c) => c.notNull())
    .addColumn("alert_in_stock", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("wishlist_items_pk", ["user_id", "product_id"])
    .execute();
  await db.schema.createIndex("wishlist_items_product_idx").on("wishlist_items").column("product_id").execute();

  await db.schema
    .createTable("wishlist_alerts")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("opted_in_at", t.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("wishlist_alerts").execute();
  await db.schema.dropTable("wishlist_items").execute();
  await db.schema.dropTable("stock_alerts").execute();
}
