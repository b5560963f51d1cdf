import { PostgresAdapter, sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Issue 33, point 2 (docs/decisions/054): 2 ml samples, discovery sets and the credit a sample gives back.
 *
 * - `product_samples`: the owner's per-product choice (offered: null = follow the catalogue's setting, 1 on, 0 off)
 *   and the bulk the samples are decanted from (bulk_ml: millilitres left; null = not tracked). A product without a
 *   row follows the catalogue and does not count its bulk. The catalogue-wide settings (on/off, sample price, set
 *   size and price, credit window) are one JSON value in `settings` (key "samples").
 * - `order_lines.sample_kind`: 'sample' (one 2 ml sample of a product) or 'set' (a discovery set); null = a bottle.
 * - `order_line_samples`: each scent inside a sample line (one for a sample, five for a set): what is decanted from
 *   which product's bulk (ml_taken / ml_short once the payment is confirmed) and what credit each sample earns.
 * - `orders.sample_credit_cents`: the part of discount_amount_cents that is sample credit (the rest is the coupon's).
 * - `sample_credits`: a credit earned by a paid sample, on a full bottle of its scent until expires_at; reserved by an
 *   order on placement (reserved_order_id, one conditional UPDATE so two orders never hold it), used on its payment.
 *
 * Self-contained: it only adds tables and columns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("product_samples")
    .addColumn("product_id", "text", (c) => c.primaryKey().references("products.id").onDelete("cascade"))
    .addColumn("offered", "integer")
    .addColumn("bulk_ml", "integer", (c) => c.check(sql`bulk_ml is null or bulk_ml >= 0`))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();

  await db.schema.alterTable("order_lines").addColumn("sample_kind", "text").execute();
  await db.schema.alterTable("orders").addColumn("sample_credit_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable("order_line_samples")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_line_id", "text", (c) => c.notNull().references("order_lines.id").onDelete("cascade"))
    .addColumn("product_id", "text", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("ml", "integer", (c) => c.notNull())
    .addColumn("credit_cents", "integer", (c) => c.notNull().check(sql`credit_cents >= 0`))
    .addColumn("ml_taken", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ml_short", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("order_line_samples_line_idx").on("order_line_samples").columns(["order_line_id", "position"]).execute();

  await db.schema
    .createTable("sample_credits")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("source_order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("source_sample_id", "text", (c) => c.notNull())
    .addColumn("unit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("granted_at", t.timestamp, (c) => c.notNull())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("reserved_order_id", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("used_at", t.timestamp)
    // one credit per sample bought: a replayed payment cannot grant it twice
    .addUniqueConstraint("sample_credits_source_unique", ["source_sample_id", "unit"])
    .execute();
  await db.schema.createIndex("sample_credits_user_idx").on("sample_credits").columns(["user_id", "product_id", "expires_at"]).execute();
  await db.schema.createIndex("sample_credits_reserved_idx").on("sample_credits").column("reserved_order_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable("sample_credits").execute();
  await db.schema.dropTable("order_line_samples").execute();
  if (postgres) {
    await sql`alter table orders drop column sample_credit_cents`.execute(db);
    await sql`alter table order_lines drop column sample_kind`.execute(db);
  } else {
    await db.schema.alterTable("orders").dropColumn("sample_credit_cents").execute();
    await db.schema.alterTable("order_lines").dropColumn("sample_kind").execute();
  }
  await db.schema.dropTable("product_samples").execute();
}
