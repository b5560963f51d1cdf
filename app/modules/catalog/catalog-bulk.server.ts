/**
 * The catalogue's writes in bulk, for the CSV import (catalog-csv) and the demo seed (demo): categories, products and
 * their sizes are the catalog's tables (docs/architecture.md; app/modules/table-owners.test.ts), so the areas above
 * write them only through these functions. Each runs in the caller's transaction; after writing products or sizes the
 * caller refreshes the products' summaries of their sizes (sizes.server refreshProductSummaries), as it did before.
 * Inserts are multi-row statements built directly (db/bulk-insert.server.ts): every row of one call has the same
 * columns.
 */
import type { Insertable, Updateable } from "kysely";
import { bulkInsertChunked } from "~/db/bulk-insert.server";
import type { Queryable } from "~/db/db.server";
import type { CategoriesTable, ProductSizesTable, ProductsTable } from "~/db/schema";

export type NewCategoryRow = Insertable<CategoriesTable>;
export type NewProductRow = Insertable<ProductsTable>;
export type NewSizeRow = Insertable<ProductSizesTable>;

/** Rows per INSERT: ~30 columns each stays well under SQLite's and PostgreSQL's limits on parameters. */
const ROWS_PER_INSERT = 200;

/** New categories; `skipExistingSlugs`: a slug already taken is left as it is (the demo seed, run again). */
export async function insertCategoriesBulk(db: Queryable, rows: readonly NewCategoryRow[], options: { skipExistingSlugs?: boolean } = {}): Promise<void> {
  await bulkInsertChunked(db, "categories", rows, ROWS_PER_INSERT, options.skipExistingSlugs ? { onConflictDoNothing: "slug" } : {});
}

/** New products; `skipExistingSlugs`: a slug already taken is left as it is. `rowsPerInsert` for a caller's own batches. */
export async function insertProductsBulk(db: Queryable, rows: readonly NewProductRow[], options: { skipExistingSlugs?: boolean; rowsPerInsert?: number } = {}): Promise<void> {
  await bulkInsertChunked(db, "products", rows, options.rowsPerInsert ?? ROWS_PER_INSERT, options.skipExistingSlugs ? { onConflictDoNothing: "slug" } : {});
}

/** New sizes; `skipExistingIds`: a size whose id exists is left as it is. */
export async function insertSizesBulk(db: Queryable, rows: readonly NewSizeRow[], options: { skipExistingIds?: boolean; rowsPerInsert?: number } = {}): Promise<void> {
  await bulkInsertChunked(db, "product_sizes", rows, options.rowsPerInsert ?? ROWS_PER_INSERT, options.skipExistingIds ? { onConflictDoNothing: "id" } : {});
}

/** Changes a product's own columns (not its stock: catalog/size-stock.server.ts). Nothing when `changed` is empty. */
export async function updateProductColumns(db: Queryable, productId: string, changed: Updateable<ProductsTable>): Promise<void> {
  if (Object.keys(changed).length === 0) return;
  await db.updateTable("products").set(changed).where("id", "=", productId).execute();
}

/** Changes a size's columns (an import's or the seed's: its price, SKU, stock as a whole value…). Nothing when empty. */
export async function updateSizeColumns(db: Queryable, sizeId: string, changed: Updateable<ProductSizesTable>): Promise<void> {
  if (Object.keys(changed).length === 0) return;
  await db.updateTable("product_sizes").set(changed).where("id", "=", sizeId).execute();
}

/**
 * Sets `set` on the products with these slugs where every column of `whereNull` is still empty (the demo seed fills in
 * what a shop seeded before a feature lacks, and never overwrites an owner's entry).
 */
export async function fillProductColumnsWhereEmpty(
  db: Queryable,
  slugs: readonly string[],
  set: Updateable<ProductsTable>,
  whereNull: ReadonlyArray<keyof ProductsTable & string>,
): Promise<void> {
  if (slugs.length === 0 || Object.keys(set).length === 0) return;
  let update = db.updateTable("products").set(set).where("slug", "in", [...slugs]);
  for (const column of whereNull) update = update.where(column, "is", null);
  await update.execute();
}
