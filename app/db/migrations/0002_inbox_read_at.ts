import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/** The admin inbox: a contact message is unread until an admin opens it. */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("contact_messages").addColumn("read_at", t.timestamp).execute();
  await db.schema.createIndex("contact_messages_created_idx").on("contact_messages").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("contact_messages_created_idx").execute();
  await db.schema.alterTable("contact_messages").dropColumn("read_at").execute();
}
