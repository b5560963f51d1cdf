import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Several app processes on one database (docs/decisions/026, 027):
 *
 * - `change_events`: what one process tells the others, in order: "the storefront changed" (drop your cached pages),
 *   "these sessions were revoked" (forget your remembered copies). Every process reads the feed a few times a second.
 * - `change_feed_head`: one row holding the last event's number. A writer takes the next number with
 *   `update … set last_event_id = last_event_id + 1 … returning` and inserts the event in the same transaction:
 *   PostgreSQL locks the row until the commit (SQLite has one writer), so events become visible in number order and
 *   a reader that sees number N has seen every event up to N. A reader checks this one row and reads events only when
 *   it moved.
 * - `job_leases`: who runs a scheduled job (one runner across every process and machine), until when (epoch ms).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("change_feed_head")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("last_event_id", "bigint", (c) => c.notNull())
    .execute();
  await sql`insert into change_feed_head (id, last_event_id) values (1, 0)`.execute(db);
  await db.schema
    .createTable("change_events")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("subject", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_leases").execute();
  await db.schema.dropTable("change_events").execute();
  await db.schema.dropTable("change_feed_head").execute();
}
