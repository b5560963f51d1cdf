import type { Kysely } from "kysely";

/**
 * Admin → Activity filtered by a kind of record alone ("every change to products"), newest first, at a million entries
 * (docs/decisions/060): migration 0049's record index leads with the record's id after its type, so the newest of a type
 * needed a sort of all of them; this one walks the type's entries in id order and stops at a page.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("activity_log_record_type_idx").on("activity_log").columns(["record_type", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("activity_log_record_type_idx").execute();
}
