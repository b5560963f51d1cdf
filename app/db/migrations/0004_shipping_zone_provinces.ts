import type { Kysely } from "kysely";

/**
 * The provinces a shipping zone serves (beyond the spec): one row per province, the province its primary key, so the
 * database itself holds "a province belongs to at most one zone" — two admins saving at once can't both take it.
 * A separate table rather than a JSON list on the zone: a JSON column can't carry that uniqueness on SQLite and
 * PostgreSQL alike, and "which zone serves Western Cape?" stays one indexed lookup. Deleting a zone frees its
 * provinces (cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("shipping_zone_provinces")
    .addColumn("province", "text", (c) => c.primaryKey())
    .addColumn("zone_id", "text", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("shipping_zone_provinces_zone_idx").on("shipping_zone_provinces").column("zone_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shipping_zone_provinces").execute();
}
