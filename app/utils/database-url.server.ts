import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The one reading of DATABASE_URL (docs/decisions/046): the server, its jobs, the session secret's place and every
 * command (backup, restore, seed, create-admin, the benches) ask this function where the database is, so a form that
 * one of them reads another can't misread. A SQLite file always comes out as one absolute path: node:sqlite would
 * take a `file:` string as an SQLite URI while node:fs takes it as a folder named `file:`, so no `file:` string ever
 * reaches either.
 */
export type DatabaseLocation = { kind: "sqlite"; path: string } | { kind: "sqlite-memory" } | { kind: "postgres"; url: string };

/** What DATABASE_URL takes, for messages and docs. */
export const DATABASE_URL_FORMS =
  "a SQLite file as a path (data/shop.db, relative to the shop's folder, or /srv/scentara/shop.db), file:path or file:///absolute/path; " +
  ":memory: (a SQLite database that is gone when the process ends); or postgres://user:password@host:5432/database (postgresql:// too)";

export class DatabaseUrlError extends Error {
  /** The message without its leading "DATABASE_URL ", for the configuration's list of problems ("  DATABASE_URL: …"). */
  readonly detail: string;
  constructor(problem: string) {
    const detail = `${problem}. It takes ${DATABASE_URL_FORMS}.`;
    super(`DATABASE_URL ${detail}`);
    this.name = "DatabaseUrlError";
    this.detail = detail;
  }
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** Where DATABASE_URL-style `value` points; relative paths are taken from `base` (the shop's folder). Throws DatabaseUrlError. */
export function parseDatabaseUrl(value: string, base: string = process.cwd()): DatabaseLocation {
  const text = value.trim();
  // Empty is not "unset" (unset means data/shop.db): a `DATABASE_URL=${DB}` whose variable is missing must not quietly
  // start a new, empty SQLite shop in place of the owner's database.
  if (!text) throw new DatabaseUrlError("is empty (leave it unset for data/shop.db)");
  if (text === ":memory:" || text === "file::memory:") return { kind: "sqlite-memory" };
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") return postgres(text);
  if (scheme === "file") return { kind: "sqlite", path: fileUri(text, base) };
  // One letter before the colon would be a Windows drive (C:\…); this shop runs on Linux, where it is still a scheme.
  if (scheme) throw new DatabaseUrlError(`starts with ${scheme}:, which the shop does not read`);
  return { kind: "sqlite", path: resolve(base, text) };
}

/** Why `value` is not a DATABASE_URL the shop reads (without the variable's name); null when it is one. */
export function databaseUrlProblem(value: string): string | null {
  try {
    parseDatabaseUrl(value);
    return null;
  } catch (error) {
    if (error instanceof DatabaseUrlError) return error.detail;
    throw error;
  }
}

/** The database for people (what the commands print): SQLite and its file, or PostgreSQL with the password hidden. */
export function describeDatabase(url: string): string {
  const location = parseDatabaseUrl(url);
  if (location.kind === "sqlite-memory") return "SQLite in memory";
  if (location.kind === "sqlite") return `SQLite ${location.path}`;
  const shown = new URL(location.url);
  if (shown.password) shown.password = "***";
  return `PostgreSQL ${shown.toString()}`;
}

function postgres(text: string): DatabaseLocation {
  if (!/^postgres(ql)?:\/\//i.test(text)) throw new DatabaseUrlError("names PostgreSQL without the // of postgres://host/database");
  // pg reads it as a URL (a missing host is its default or PGHOST, as for psql)
  if (!URL.canParse(text)) throw new DatabaseUrlError("is not a valid postgres:// URL"); // the value stays out: it may hold the password
  return { kind: "postgres", url: text };
}

/** `file:relative`, `file:/absolute`, `file:///absolute` (or file://localhost/…), percent-escapes decoded as SQLite does. */
function fileUri(text: string, base: string): string {
  // SQLite reads ?mode=…&cache=… from a URI; the shop opens the file its own way (WAL, read-only snapshots for backups).
  if (/[?#]/.test(text)) throw new DatabaseUrlError("is a file: URI with ?options or a #fragment; name the file alone (file:/srv/scentara/shop.db)");
  const rest = text.slice("file:".length);
  if (rest.startsWith("//")) {
    let path: string;
    try {
      path = fileURLToPath(text);
    } catch {
      throw new DatabaseUrlError("is a file:// URL on another host, or not a valid one (file:///srv/scentara/shop.db names a file on this server)");
    }
    if (path === "/" || path.endsWith("/")) throw new DatabaseUrlError("is a file:// URL naming a folder, not a file");
    return path;
  }
  let path: string;
  try {
    path = decodeURIComponent(rest);
  } catch {
    throw new DatabaseUrlError("has a broken %-escape in its file: path");
  }
  if (!path || path.endsWith("/")) throw new DatabaseUrlError("is file: with no file name after it");
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}
