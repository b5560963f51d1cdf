import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Issue 32, point 1 (docs/decisions/044):
 *
 * - `products.was_price_cents`: the price the product was before a sale (WooCommerce's regular price when it is on
 *   sale), shown struck through beside the price when it is higher; null = none.
 * - `import_missing_images`: an image a product import could not fetch (unknown host, timeout, 404, too big, not an
 *   image, a private address). The product came in without it; the import page offers to fetch them again, and a row
 *   goes when its image is fetched, when an import gives the product other images, or with its product.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("products").addColumn("was_price_cents", "integer").execute();
  await db.schema
    .createTable("import_missing_images")
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("source_url", "text", (c) => c.notNull())
    /** where in the product's list of images the file put it (0: the main image) */
    .addColumn("position", "integer", (c) => c.notNull())
    /** why the last attempt failed, for the page */
    .addColumn("reason", "text", (c) => c.notNull())
    /** the import that named it, and its row there (the page links back to it) */
    .addColumn("import_id", "text")
    .addColumn("row_number", "integer")
    .addColumn("tried_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addPrimaryKeyConstraint("import_missing_images_pk", ["product_id", "source_url"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("import_missing_images").execute();
  await db.schema.alterTable("products").dropColumn("was_price_cents").execute();
}
