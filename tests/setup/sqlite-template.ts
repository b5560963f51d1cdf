/**
 * The SQLite side of "migrate once, copy per test file" (PostgreSQL's is migratedTemplate in pg-database.ts).
 * Migrating an in-memory database through Kysely's migrator took 0.1–0.4 s in each of ~125 integration files; the
 * first file to ask migrates a file under the system's temp folder (named by a hash of the migrations, so a changed
 * migration makes a new one) and every file then copies that schema and its rows into its own in-memory database,
 * a few milliseconds of plain SQL. The test database stays an in-memory one, as before.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import type { DB } from "~/db/db.server";
import { openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { migrationsHash } from "./pg-database";

/** The path of a SQLite file holding the schema (and rows) the migrations make; made on first use. */
export async function migratedSqliteTemplate(): Promise<string> {
  const path = join(tmpdir(), `scentara-test-template-${migrationsHash()}.db`);
  if (existsSync(path)) return path;
  // made under a name of its own and renamed into place, so a test process never reads a half-made template (two
  // processes starting at once both make one; the last rename wins, and both are the same)
  const making = `${path}.${process.pid}-${crypto.randomUUID()}`;
  const handle = openDatabase(making);
  try {
    await migrateToLatest(handle.db);
    // one file, no write-ahead log beside it, so a reader needs nothing else
    await sql`pragma journal_mode = delete`.execute(handle.db);
  } finally {
    await handle.close();
  }
  renameSync(making, path);
  for (const extra of ["-wal", "-shm", "-journal"]) rmSync(making + extra, { force: true });
  return path;
}

/**
 * Copies the template into `db` (an empty SQLite database): its tables with their rows, then its indexes, views and
 * triggers (after the rows, so no trigger fires on the copy), and the AUTOINCREMENT counters.
 */
export async function copySqliteTemplate(db: DB, template: string): Promise<void> {
  await sql`attach database ${template} as tpl`.execute(db);
  try {
    const { rows } = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from tpl.sqlite_master where sql is not null and name not like 'sqlite_%' order by rowid`.execute(db);
    // rows are copied before the foreign keys are checked again, so the tables' order doesn't matter
    await sql`pragma foreign_keys = off`.execute(db);
    for (const table of rows.filter((r) => r.type === "table")) {
      await sql.raw(table.sql).execute(db);
      await sql`insert into main.${sql.id(table.name)} select * from tpl.${sql.id(table.name)}`.execute(db);
    }
    for (const other of rows.filter((r) => r.type !== "table")) await sql.raw(other.sql).execute(db);
    const sequence = await sql`select 1 from tpl.sqlite_master where name = 'sqlite_sequence'`.execute(db);
    if (sequence.rows.length > 0) await sql`insert into main.sqlite_sequence select * from tpl.sqlite_sequence`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  } finally {
    await sql`detach database tpl`.execute(db);
  }
}
