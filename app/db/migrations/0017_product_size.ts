import type { Kysely } from "kysely";

/** The bottle size in millilitres (issue 13: price, size and stock in a phone's first screen); null = not stated. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").addColumn("size_ml", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").dropColumn("size_ml").execute();
}
