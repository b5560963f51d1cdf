import type { Kysely } from "kysely";

/**
 * Reports over a range of days (issue 20: the accountant's export, the dashboard's sales) read orders by the day they
 * were placed, whatever their status. The export walks them in (created_at, id) order in batches of 1 000 (keyset
 * pagination): with this index each batch is a short range scan, however many orders the shop has (1 000 000 orders
 * would otherwise be a full scan and sort per batch), and a range's sums read only the range.
 */
export async function up(db: Kysely<any>) {
  await db.schema.createIndex("orders_created_id_idx").on("orders").columns(["created_at", "id"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("orders_created_id_idx").execute();
}
