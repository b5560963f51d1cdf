import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Products in and out as CSV (issue 20, docs/decisions/032):
 *
 * - `products.sku`: the owner's stock-keeping unit, the key a CSV import matches products by (then the slug). Optional
 *   (null for every product before this migration), unique among the products that have one.
 * - `product_imports`: one uploaded CSV between its preview and its apply, and the apply's progress, in the database so
 *   that any app process can answer the page (the shop runs one worker per core): the decoded file, the preview's report
 *   (per row: create, update, unchanged, skip or error), the status (previewed → applying → applied | failed), progress
 *   and a heartbeat (updated_at) by which a stopped apply is recognised.
 * - `imported_images`: which stored image an image URL of an import became, so a second import of the same file
 *   fetches nothing and changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("products").addColumn("sku", "text").execute();
  await db.schema
    .createIndex("products_sku_unique")
    .on("products")
    .column("sku")
    .unique()
    .where(sql.ref("sku"), "is not", null)
    .execute();

  await db.schema
    .createTable("product_imports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    /** the decoded file (UTF-8 text); emptied once applied */
    .addColumn("csv", "text")
    /** the preview's report as JSON text (rows, counts, ignored columns) */
    .addColumn("report", "text", (c) => c.notNull())
    .addColumn("phase", "text")
    .addColumn("progress_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("progress_total", "integer", (c) => c.notNull().defaultTo(0))
    /** the outcome shown to the owner once applied or failed */
    .addColumn("message", "text")
    /** the apply's owner (a random token): only it may finish the import */
    .addColumn("claim", "text")
    .addColumn("created_by", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("product_imports_created_idx").on("product_imports").column("created_at").execute();

  await db.schema
    .createTable("imported_images")
    .addColumn("source_url", "text", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("imported_images").execute();
  await db.schema.dropTable("product_imports").execute();
  await db.schema.dropIndex("products_sku_unique").execute();
  await db.schema.alterTable("products").dropColumn("sku").execute();
}
