import { sql } from "kysely";
import { isPostgres, type Queryable } from "./db.server";

// Every app process opens up to DATABASE_POOL_SIZE PostgreSQL connections, and npm start runs one process per core.
// On a big machine, or with several servers, that can pass the database's max_connections, and requests then fail
// under load with "too many clients". The shop says at start what it may open, and warns before that happens.

/** PostgreSQL keeps this many of max_connections for superusers (its default superuser_reserved_connections). */
const RESERVED = 3;

export interface ConnectionBudget {
  level: "info" | "warn" | "error";
  message: string;
}

/** What `processes` processes of `perProcess` connections each come to, against the database's max_connections. */
export function connectionBudget(processes: number, perProcess: number, maxConnections: number): ConnectionBudget {
  const total = processes * perProcess;
  const usable = maxConnections - RESERVED;
  const text = `PostgreSQL: this server may open ${total} connections (${processes} process${processes === 1 ? "" : "es"} × DATABASE_POOL_SIZE ${perProcess}) of max_connections ${maxConnections}`;
  if (total > usable) {
    return { level: "error", message: `${text}: more than the database allows; under load requests will fail. Lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise max_connections` };
  }
  if (total * 2 > usable) {
    return { level: "warn", message: `${text}: a second server like this one would run the database out of connections. Lower DATABASE_POOL_SIZE or WEB_CONCURRENCY before adding one` };
  }
  return { level: "info", message: text };
}

/** The database's max_connections; null on SQLite (one file, no connection limit). */
export async function maxConnections(db: Queryable): Promise<number | null> {
  if (!isPostgres(db)) return null;
  const { rows } = await sql<{ max_connections: string }>`show max_connections`.execute(db);
  return Number(rows[0]!.max_connections);
}
