/**
 * Bulk tiers in bulk, for the CSV import (catalog-csv) and the demo seed (demo): `product_tiers` is pricing's table
 * (docs/architecture.md; app/modules/table-owners.test.ts), so the areas above write it only through these functions,
 * in the caller's transaction.
 */
import type { Insertable } from "kysely";
import { bulkInsertChunked } from "~/db/bulk-insert.server";
import type { Queryable } from "~/db/db.server";
import type { ProductTiersTable } from "~/db/schema";

export type NewTierRow = Insertable<ProductTiersTable>;

const ROWS_PER_INSERT = 200;
/** Ids per `in (…)` list. */
const IDS_PER_DELETE = 500;

/** New tiers; `skipExistingIds`: a tier whose id exists is left as it is (the demo seed, run again). */
export async function insertTiersBulk(db: Queryable, rows: readonly NewTierRow[], options: { skipExistingIds?: boolean } = {}): Promise<void> {
  await bulkInsertChunked(db, "product_tiers", rows, ROWS_PER_INSERT, options.skipExistingIds ? { onConflictDoNothing: "id" } : {});
}

/** Removes every tier of these sizes (an import replacing their tiers). */
export async function deleteTiersOfSizes(db: Queryable, sizeIds: readonly string[]): Promise<void> {
  for (let i = 0; i < sizeIds.length; i += IDS_PER_DELETE) await db.deleteFrom("product_tiers").where("size_id", "in", sizeIds.slice(i, i + IDS_PER_DELETE)).execute();
}
