import type { Kysely } from "kysely";

/**
 * Admin → Activity filtered by a kind of record alone ("every change to products"), newest first, at a million entries
 * (docs/decisions/060): migration 0049's record index leads with the record's id after its type, so the newest of a type
 * needed a sort of all of them; this one walks the type's entries in id order and stops at a page. Two filters at once
 * (a person's entries of one kind, a kind of one record type, a person's changes to one type) had no index of their
 * own: the databases walked one filter's entries checking the other, all of them when none matched (0.2 s on SQLite,
 * 1.2 s on PostgreSQL at a million). Each pair has its index, ending in id; a third filter is checked along the walk of
 * a pair's entries, and dates are an id range on any of them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("activity_log_record_type_idx").on("activity_log").columns(["record_type", "id"]).execute();
  await db.schema.createIndex("activity_log_actor_kind_idx").on("activity_log").columns(["actor_id", "kind", "id"]).execute();
  await db.schema.createIndex("activity_log_type_kind_idx").on("activity_log").columns(["record_type", "kind", "id"]).execute();
  await db.schema.createIndex("activity_log_actor_type_idx").on("activity_log").columns(["actor_id", "record_type", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("activity_log_actor_type_idx").execute();
  await db.schema.dropIndex("activity_log_type_kind_idx").execute();
  await db.schema.dropIndex("activity_log_actor_kind_idx").execute();
  await db.schema.dropIndex("activity_log_record_type_idx").execute();
}
