/** What `npm run backup` and `npm run restore` print about a database and its tables. */
import { isPostgresUrl } from "~/utils/env.server";

/** The database for people: SQLite and its file, or PostgreSQL with the password hidden. */
export function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) return `SQLite ${url}`;
  const u = new URL(url);
  if (u.password) u.password = "***";
  return `PostgreSQL ${u.toString()}`;
}

/** Two columns of "table  rows", right-aligned counts. */
export function tableLines(tables: ReadonlyArray<{ name: string; rows: number }>): string {
  const width = Math.max(...tables.map((t) => t.name.length), 5);
  const digits = Math.max(...tables.map((t) => String(t.rows).length), 1);
  return tables.map((t) => `    ${t.name.padEnd(width)}  ${String(t.rows).padStart(digits)}`).join("\n");
}
