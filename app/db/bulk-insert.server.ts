/**
 * A multi-row INSERT with the SQL text built directly: Kysely's builder costs more than the database does for
 * hundreds of thousands of generated rows (the seed) or ten thousand imported ones. The columns are every column any
 * row names; a row that leaves one out writes null there (not the column's default): give every row the same columns. `onConflictDoNothing`
 * names the unique column whose duplicates are skipped. The owning area's bulk functions call it (e.g.
 * catalog/catalog-bulk.server.ts); no area writes another's table with it.
 */
import { CompiledQuery, PostgresAdapter } from "kysely";
import type { Queryable } from "./db.server";
import type { Database } from "./schema";

export async function bulkInsert(db: Queryable, table: keyof Database, rows: readonly Record<string, unknown>[], options: { onConflictDoNothing?: string } = {}): Promise<void> {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const marks = columns.map((c) => {
      params.push(row[c] ?? null);
      return postgres ? `$${params.length}` : "?";
    });
    return `(${marks.join(", ")})`;
  });
  const conflict = options.onConflictDoNothing ? ` on conflict ("${options.onConflictDoNothing}") do nothing` : "";
  const text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values ${tuples.join(", ")}${conflict}`;
  await db.executeQuery(CompiledQuery.raw(text, params));
}

/** `rows` in slices of `size`, each one INSERT (bulkInsert). */
export async function bulkInsertChunked(db: Queryable, table: keyof Database, rows: readonly Record<string, unknown>[], size: number, options: { onConflictDoNothing?: string } = {}): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await bulkInsert(db, table, rows.slice(i, i + size), options);
}
