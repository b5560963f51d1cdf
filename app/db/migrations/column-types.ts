import { PostgresAdapter, sql, type Kysely } from "kysely";

/** Column types and defaults that differ between SQLite and PostgreSQL; the rest of a migration is shared. */
export function columnTypes(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return postgres
    ? {
        timestamp: "timestamptz" as const,
        bool: "boolean" as const,
        json: "jsonb" as const,
        now: sql`now()`,
        true: sql`true`,
        false: sql`false`,
        emptyJsonArray: sql`'[]'::jsonb`,
      }
    : {
        timestamp: "text" as const,
        bool: "integer" as const,
        json: "text" as const,
        // ISO-8601 UTC with milliseconds, the same text the app writes.
        now: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
        true: sql`1`,
        false: sql`0`,
        emptyJsonArray: sql`'[]'`,
      };
}
