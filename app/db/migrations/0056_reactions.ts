import type { Kysely } from "kysely";
import { sql } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The flows' after-commit work, queued in their own transactions (app/modules/reactions, docs/decisions/061): a
 * payment's confirmation e-mail, a shipped order's e-mail, a refund's messages. A row is written with the change it
 * follows, so a process that stops between the commit and the sending loses nothing: the `deliver-reactions` job finds
 * it once `due_at` has passed. `due_at` is null once it is done or given up; `attempts` counts the tries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("reactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    // the record it follows (an order, a return), for the owner reading the log and for the handler
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("details", t.json, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("due_at", t.timestamp)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("done_at", t.timestamp)
    .addColumn("error", "text")
    .execute();
  // the job's read: the few reactions due, soonest first (done ones are never in it)
  await sql`create index reactions_due_idx on reactions (due_at) where due_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reactions").execute();
}
