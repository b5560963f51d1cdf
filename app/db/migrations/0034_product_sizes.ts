import { PostgresAdapter, sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Issue 33, point 1 (docs/decisions/049): a product is sold in one or more sizes.
 *
 * - `product_sizes`: what is sold — each size has its own label ("50 ml"), URL code (`?size=50ml`), millilitres, price,
 *   was price, SKU (unique among sizes where set), stock (null = not tracked), packed weight, position and a hidden
 *   flag (a size that has been ordered can be hidden, never deleted, so old orders keep pointing at it).
 * - `product_tiers.size_id`: quantity tiers belong to a size.
 * - `order_lines.size_id` / `size_label`: the size a line bought, and its label as it was then.
 * - `products.max_price_cents`: the dearest visible size's price. With the summary columns the product already has
 *   (price_cents = the cheapest visible size, was_price_cents its was price, stock the visible sizes' total or null
 *   when one is not tracked, size_ml / weight_grams of the cheapest) the shop's lists, sort, price filter and search
 *   read one row per product as before; the sizes module rewrites them whenever a size changes.
 *
 * Every existing product becomes a product with one size holding today's price, was price, SKU, stock, weight, millilitres
 * and tiers. That size's id is the product's id, so a cart saved in a browser before this (lines name the product
 * only) and every existing order line point at it without a lookup table. Pure SQL, the same on both databases.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("product_sizes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("label", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("size_ml", "integer")
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("was_price_cents", "integer")
    .addColumn("sku", "text")
    .addColumn("stock", "integer")
    .addColumn("weight_grams", "integer")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addUniqueConstraint("product_sizes_code_unique", ["product_id", "code"])
    .execute();
  await db.schema.createIndex("product_sizes_product_idx").on("product_sizes").columns(["product_id", "position"]).execute();
  await db.schema.createIndex("product_sizes_sku_unique").on("product_sizes").column("sku").unique().where(sql.ref("sku"), "is not", null).execute();

  await db.schema.alterTable("products").addColumn("max_price_cents", "integer").execute();
  await db.schema.alterTable("product_tiers").addColumn("size_id", "text", (c) => c.references("product_sizes.id").onDelete("cascade")).execute();
  await db.schema.alterTable("order_lines").addColumn("size_id", "text", (c) => c.references("product_sizes.id").onDelete("set null")).execute();
  await db.schema.alterTable("order_lines").addColumn("size_label", "text").execute();

  // One size per product, with the product's id. The label says the millilitres when known; the code is what
  // `?size=` carries ("100ml", or "standard" for a bottle of unstated size).
  await sql`
    insert into product_sizes (id, product_id, label, code, size_ml, price_cents, was_price_cents, sku, stock, weight_grams, position, hidden, created_at)
    select id, id,
           case when size_ml is null then '' else cast(size_ml as text) || ' ml' end,
           case when size_ml is null then 'standard' else cast(size_ml as text) || 'ml' end,
           size_ml, price_cents, was_price_cents, sku, stock, weight_grams, 0, 0, created_at
    from products`.execute(db);
  await sql`update products set max_price_cents = price_cents`.execute(db);
  await sql`update product_tiers set size_id = product_id`.execute(db);
  await sql`
    update order_lines set size_id = product_id,
      size_label = (select case when p.size_ml is null then null else cast(p.size_ml as text) || ' ml' end from products p where p.id = order_lines.product_id)
    where product_id is not null`.execute(db);
  await db.schema.createIndex("product_tiers_size_idx").on("product_tiers").columns(["size_id", "min_quantity"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex("product_tiers_size_idx").execute();
  if (postgres) {
    await sql`alter table order_lines drop column size_label, drop column size_id`.execute(db);
    await sql`alter table product_tiers drop column size_id`.execute(db);
  } else {
    await db.schema.alterTable("order_lines").dropColumn("size_label").execute();
    await db.schema.alterTable("order_lines").dropColumn("size_id").execute();
    await db.schema.alterTable("product_tiers").dropColumn("size_id").execute();
  }
  await db.schema.alterTable("products").dropColumn("max_price_cents").execute();
  await db.schema.dropTable("product_sizes").execute();
}
