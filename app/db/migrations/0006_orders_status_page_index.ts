import type { Kysely } from "kysely";

/**
 * The admin orders list pages one status tab newest first (created_at desc, id desc). With the id in the index the
 * page's ids come from the index alone, however deep the page (100 000 orders, page 2 000: an index-only walk instead
 * of sorting the whole tab); the rows are then read by id. It replaces the (status, created_at) index it extends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_status_created_id_idx").on("orders").columns(["status", "created_at", "id"]).execute();
  await db.schema.dropIndex("orders_status_created_idx").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_status_created_idx").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.dropIndex("orders_status_created_id_idx").execute();
}
