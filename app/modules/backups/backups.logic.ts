/**
 * The pure rules of backups (docs/decisions/033): the canonical JSON form of a row, the archive's entry and file
 * names, the order tables are restored in, which archives the retention keeps, and when the nightly backup is due.
 * No I/O here; the archive itself is written by backup.server.ts and read by restore.server.ts.
 */

export const ARCHIVE_FORMAT = "scentara-backup";
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = "manifest.json";

/**
 * Tables a backup leaves out: the migration bookkeeping (the manifest lists the migrations instead), who runs a job
 * right now, and the short-lived secrets and counters of sign-in (sessions, password-reset tokens, rate limits): a
 * restored shop signs everyone out, and a leaked archive holds no live session.
 */
export const EXCLUDED_TABLES: ReadonlySet<string> = new Set([
  "schema_migrations",
  "schema_migrations_lock",
  "job_leases",
  "sessions",
  "verifications",
  "rate_limits",
]);

/** A table or column name as the migrations make them; anything else in an archive or a database is refused. */
export function isPlainName(name: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(name);
}

/**
 * One value as JSON with object keys in sorted order (recursively), no spaces: the same value always gives the same
 * text, whichever database it came from. Only JSON values are accepted (no undefined, NaN, Infinity, functions, Dates).
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new TypeError(`not a plain JSON object: ${Object.prototype.toString.call(value)}`);
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
    }
    default:
      throw new TypeError(`not a JSON value: ${typeof value}`);
  }
}

// ---------------------------------------------------------------- entries inside the archive

/** `tables/orders/000001.jsonl`: a table's rows in parts of a few MiB, numbered from 1. */
export function tablePartEntry(table: string, part: number): string {
  return `tables/${table}/${String(part).padStart(6, "0")}.jsonl`;
}

export type ArchiveEntry =
  | { kind: "manifest" }
  | { kind: "table"; table: string; part: number }
  | { kind: "media"; key: string }
  | { kind: "unknown" };

/** What an entry name is (media keys are checked by the caller with the media store's own rule). */
export function parseEntryName(name: string): ArchiveEntry {
  if (name === MANIFEST_ENTRY) return { kind: "manifest" };
  const table = /^tables\/([a-z_][a-z0-9_]{0,62})\/(\d{6})\.jsonl$/.exec(name);
  if (table) return { kind: "table", table: table[1]!, part: Number(table[2]) };
  if (name.startsWith("media/") && name.length > 6) return { kind: "media", key: name.slice(6) };
  return { kind: "unknown" };
}

// ---------------------------------------------------------------- archive file names

const FILE_NAME = /^scentara-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.tar\.gz$/;

/** `scentara-2026-05-01T00-30-00-000Z.tar.gz`: UTC, sortable, no characters a file system or a URL minds. */
export function backupFileName(at: Date): string {
  return `scentara-${at.toISOString().replace(/[:.]/g, "-")}.tar.gz`;
}

/** When the archive of this name was made; null for any name backupFileName does not make (the only names served). */
export function backupTimeOf(name: string): Date | null {
  const m = FILE_NAME.exec(name);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) || at.toISOString() !== iso ? null : at;
}

/** The manifest kept beside an archive (so a list of backups never opens the archives): `….manifest.json`. */
export function sidecarName(archiveName: string): string {
  return archiveName.replace(/\.tar\.gz$/, ".manifest.json");
}

/** Of these archive names, the ones the retention deletes: all but the newest `keep` (by the time in the name). */
export function backupsToDelete(names: readonly string[], keep: number): string[] {
  const archives = names.filter((n) => backupTimeOf(n) !== null).sort().reverse();
  return archives.slice(Math.max(0, keep));
}

// ---------------------------------------------------------------- when the nightly backup runs

const HOUR = 60 * 60 * 1000;
/** The nightly backup runs every 24 hours (server/jobs.ts), the first time a few minutes after the server starts. */
export const NIGHTLY_BACKUP_EVERY_MS = 24 * HOUR;
/**
 * A scheduled run makes a backup only when the newest archive is older than this (or there is none): a restart, a
 * second server or an owner's "Back up now" an hour ago does not add another archive the same day.
 */
export const NIGHTLY_BACKUP_MIN_AGE_MS = 20 * HOUR;

/** Is a scheduled backup due now, given the time of the newest archive in the folder (null: none)? */
export function isBackupDue(now: Date, newest: Date | null, minAgeMs = NIGHTLY_BACKUP_MIN_AGE_MS): boolean {
  return newest === null || now.getTime() - newest.getTime() >= minAgeMs;
}

// ---------------------------------------------------------------- restore order

/**
 * Tables in an order where every table comes after the tables it references (foreign keys), alphabetical where the
 * order is free, so a restore inserts parents before children. References to tables outside the list and to the
 * table itself are ignored; tables caught in a cycle come last, alphabetically.
 */
export function dependencyOrder(tables: ReadonlyArray<{ name: string; parents: readonly string[] }>): string[] {
  const names = new Set(tables.map((t) => t.name));
  const waitingOn = new Map(tables.map((t) => [t.name, new Set(t.parents.filter((p) => p !== t.name && names.has(p)))]));
  const ordered: string[] = [];
  while (waitingOn.size) {
    const ready = [...waitingOn].filter(([, parents]) => parents.size === 0).map(([name]) => name).sort();
    if (ready.length === 0) {
      ordered.push(...[...waitingOn.keys()].sort());
      break;
    }
    for (const name of ready) {
      ordered.push(name);
      waitingOn.delete(name);
      for (const parents of waitingOn.values()) parents.delete(name);
    }
  }
  return ordered;
}

/** "1.2 MB", for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
