/**
 * Rows in and out of either database for backups and restores (docs/decisions/033), on a connection of their own
 * (not the app's pool or its one SQLite connection), inside one transaction:
 *
 * - `openSnapshot(url)`: a consistent, read-only view while the shop keeps selling. SQLite: a second, read-only
 *   connection to the file and one read transaction (BEGIN … COMMIT): in WAL mode it reads the database as of its
 *   first read while writers go on. PostgreSQL: one `repeatable read, read only` transaction.
 * - `openWriter(url)`: one write transaction for a restore (SQLite `BEGIN IMMEDIATE`; PostgreSQL `BEGIN`): all or nothing.
 *
 * Rows come out in CANONICAL form, so the same row read from SQLite and from PostgreSQL gives the same JSON:
 * text as is; booleans as booleans (SQLite's 0/1 by BOOLEAN_COLUMNS); JSON columns parsed (SQLite's text by
 * JSON_COLUMNS, PostgreSQL's jsonb as pg parses it); timestamps as the ISO-8601 UTC text the app writes (PostgreSQL's
 * timestamptz read back with milliseconds, as the app's pool does); integers, bigints and doubles as JSON numbers.
 * Tables are read in primary-key order, text keys in byte order (SQLite's BINARY, PostgreSQL's COLLATE "C"), and
 * streamed: a cursor on PostgreSQL, a statement iterator on SQLite, never a whole table in memory.
 */
import { existsSync } from "node:fs";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import pg from "pg";
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from "~/db/schema";
import { DatabaseUrlError, parseDatabaseUrl, type DatabaseLocation } from "~/utils/database-url.server";
import { isPlainName } from "./backups.logic";
import { yieldToEventLoop } from "~/utils/event-loop";

export type Dialect = "sqlite" | "postgres";
export type ColumnKind = "text" | "integer" | "real" | "boolean" | "json" | "timestamp" | "other";
export interface ColumnInfo {
  name: string;
  kind: ColumnKind;
}
export interface TableInfo {
  name: string;
  /** sorted by name */
  columns: ColumnInfo[];
  /** in key order; empty when the table has none (it is then read in the order of all its columns) */
  primaryKey: string[];
  /** the tables its foreign keys reference */
  parents: string[];
}
export type Row = Record<string, unknown>;

/** A problem with a backup or a restore, said for the person running it (names the table, file or setting). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export interface RowConnection {
  readonly dialect: Dialect;
  tables(): Promise<TableInfo[]>;
  /** schema_migrations, in order; empty when the database has never been migrated */
  appliedMigrations(): Promise<string[]>;
  /** the table's rows in canonical form, in primary-key order */
  rows(table: TableInfo): AsyncIterable<Row>;
  count(table: string): Promise<number>;
  /** writer only */
  deleteAll(table: string): Promise<void>;
  /** writer only: canonical rows in, converted for this database */
  insert(table: TableInfo, rows: Row[]): Promise<void>;
  /** writer only, PostgreSQL: every sequence owned by a column continues after the column's largest value */
  resetSequences(): Promise<string[]>;
  /**
   * writer only: the tables' triggers (the order-day sums' "stale" marks, migration 0027) stop firing until the answered
   * function puts them back, in the same transaction: restored rows go in exactly as the archive has them, derived
   * rows included. PostgreSQL: ALTER TABLE … DISABLE/ENABLE TRIGGER USER; SQLite: the triggers are dropped and made
   * again from their own SQL. A rollback leaves them as they were either way.
   */
  suspendTriggers(): Promise<() => Promise<void>>;
  commit(): Promise<void>;
  /** ends the transaction without keeping anything, and closes; safe to call after commit or twice */
  close(): Promise<void>;
}

const booleanColumns = new Set(BOOLEAN_COLUMNS);
const jsonColumns = new Set(JSON_COLUMNS);

export function quoteName(name: string): string {
  if (!isPlainName(name)) throw new BackupError(`unexpected table or column name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** A value read from the database, in canonical form (see the module comment). */
export function canonicalValue(value: unknown, kind: ColumnKind, dialect: Dialect, where: string): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) throw new BackupError(`${where} holds binary data, which a backup does not carry`);
  if (kind === "boolean" && typeof value === "number") return value !== 0;
  if (kind === "json" && dialect === "sqlite" && typeof value === "string") {
    try {
      return JSON.parse(value);
    } catch {
      throw new BackupError(`${where} is not valid JSON`);
    }
  }
  if (typeof value === "number" && !Number.isFinite(value)) throw new BackupError(`${where} holds ${value}, which JSON cannot carry`);
  return value;
}

function canonicalRow(raw: Record<string, unknown>, table: TableInfo, dialect: Dialect): Row {
  const row: Row = {};
  for (const c of table.columns) row[c.name] = canonicalValue(raw[c.name], c.kind, dialect, `${table.name}.${c.name}`);
  return row;
}

/** A canonical value as a query parameter for this database's column. */
export function toParameter(value: unknown, kind: ColumnKind, dialect: Dialect, where: string): unknown {
  if (value === null || value === undefined) return null;
  if (kind === "json") return JSON.stringify(value);
  if (typeof value === "object") throw new BackupError(`${where}: a JSON value in a column that is not JSON`);
  if (typeof value === "boolean") return dialect === "sqlite" ? (value ? 1 : 0) : value;
  return value;
}

/** Text columns that share a name with another table's JSON column (activity_log.summary is a line of words). */
const TEXT_NOT_JSON = new Set(["activity_log.summary"]);

function sqliteKind(column: string, declared: string, table = ""): ColumnKind {
  if (booleanColumns.has(column)) return "boolean";
  if (jsonColumns.has(column) && !TEXT_NOT_JSON.has(`${table}.${column}`)) return "json";
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "integer";
  if (/REAL|FLOA|DOUB|NUMERIC|DECIMAL/.test(type)) return "real";
  if (type === "" || /TEXT|CHAR|CLOB/.test(type)) return "text";
  return "other";
}

function postgresKind(dataType: string): ColumnKind {
  switch (dataType) {
    case "boolean":
      return "boolean";
    case "json":
    case "jsonb":
      return "json";
    case "smallint":
    case "integer":
    case "bigint":
      return "integer";
    case "real":
    case "double precision":
    case "numeric":
      return "real";
    case "text":
    case "character varying":
    case "character":
      return "text";
    case "timestamp with time zone":
    case "timestamp without time zone":
    case "date":
      return "timestamp";
    default:
      return "other";
  }
}

function orderBy(table: TableInfo, dialect: Dialect): string {
  const kinds = new Map(table.columns.map((c) => [c.name, c.kind]));
  const keys = table.primaryKey.length ? table.primaryKey : table.columns.map((c) => c.name);
  return keys
    .map((k) => (dialect === "postgres" && (kinds.get(k) === "text" || kinds.get(k) === "other") ? `${quoteName(k)} collate "C"` : quoteName(k)))
    .join(", ");
}

function selectAll(table: TableInfo, dialect: Dialect): string {
  return `select ${table.columns.map((c) => quoteName(c.name)).join(", ")} from ${quoteName(table.name)} order by ${orderBy(table, dialect)}`;
}


// ---------------------------------------------------------------- SQLite

class SqliteRows implements RowConnection {
  readonly dialect = "sqlite" as const;
  private open = true;
  constructor(private readonly db: DatabaseSync) {}

  async tables(): Promise<TableInfo[]> {
    const names = this.db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name")
      .all()
      .map((r) => String(r.name));
    return names.map((name) => {
      const info = this.db.prepare(`pragma table_info(${quoteName(name)})`).all() as Array<{ name: string; type: string; pk: number }>;
      const fks = this.db.prepare(`pragma foreign_key_list(${quoteName(name)})`).all() as Array<{ table: string }>;
      return {
        name,
        columns: info.map((c) => ({ name: c.name, kind: sqliteKind(c.name, c.type ?? "", name) })).sort((a, b) => (a.name < b.name ? -1 : 1)),
        primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
        parents: [...new Set(fks.map((f) => f.table))],
      };
    });
  }

  async appliedMigrations(): Promise<string[]> {
    const exists = this.db.prepare("select 1 from sqlite_master where type = 'table' and name = 'schema_migrations'").get();
    if (!exists) return [];
    return this.db.prepare("select name from schema_migrations order by name").all().map((r) => String(r.name));
  }

  async *rows(table: TableInfo): AsyncIterable<Row> {
    const statement = this.db.prepare(selectAll(table, "sqlite"));
    let n = 0;
    for (const raw of statement.iterate()) {
      yield canonicalRow(raw as Record<string, unknown>, table, "sqlite");
      // The iterator is synchronous: let the shop's requests (and the archive's streams) in now and then.
      if (++n % 500 === 0) await yieldToEventLoop();
    }
  }

  async count(table: string): Promise<number> {
    return Number((this.db.prepare(`select count(*) as n from ${quoteName(table)}`).get() as { n: number }).n);
  }

  async deleteAll(table: string): Promise<void> {
    this.db.prepare(`delete from ${quoteName(table)}`).run();
  }

  async insert(table: TableInfo, rows: Row[]): Promise<void> {
    const columns = table.columns;
    const statement = this.db.prepare(
      `insert into ${quoteName(table.name)} (${columns.map((c) => quoteName(c.name)).join(", ")}) values (${columns.map(() => "?").join(", ")})`,
    );
    for (const row of rows) {
      statement.run(...columns.map((c) => toParameter(row[c.name], c.kind, "sqlite", `${table.name}.${c.name}`) as SQLInputValue));
    }
    await yieldToEventLoop();
  }

  async resetSequences(): Promise<string[]> {
    return []; // SQLite's AUTOINCREMENT counters follow inserted keys by themselves
  }

  async suspendTriggers(): Promise<() => Promise<void>> {
    const triggers = this.db.prepare("select name, sql from sqlite_master where type = 'trigger' order by name").all() as Array<{ name: string; sql: string }>;
    for (const t of triggers) this.db.exec(`drop trigger ${quoteName(t.name)}`);
    return async () => {
      for (const t of triggers) this.db.exec(t.sql);
    };
  }

  async commit(): Promise<void> {
    this.db.exec("COMMIT");
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    try {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
    } finally {
      this.db.close();
    }
  }
}

/** Where `url` points, as the shop reads it; a form it does not read is a BackupError like any other refusal. */
function locate(url: string): DatabaseLocation {
  try {
    return parseDatabaseUrl(url);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new BackupError(error.message);
    throw error;
  }
}

function sqlitePath(location: Exclude<DatabaseLocation, { kind: "postgres" }>): string {
  if (location.kind === "sqlite-memory") {
    throw new BackupError("The database is in memory (DATABASE_URL=:memory:): there is nothing on disk to back up or restore into.");
  }
  return location.path;
}

// ---------------------------------------------------------------- PostgreSQL

/** The app's reading of PostgreSQL types (db.server.ts): timestamptz as ISO text with milliseconds, int8/numeric as numbers. */
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const NUMERIC = 1700;
const appTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === TIMESTAMPTZ) return (v: string) => new Date(v).toISOString();
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Rows per INSERT statement: PostgreSQL takes at most 65 535 parameters in one. */
const MAX_PARAMETERS = 30_000;
const MAX_INSERT_BYTES = 4 * 1024 * 1024;

class PostgresRows implements RowConnection {
  readonly dialect = "postgres" as const;
  private open = true;
  private committed = false;
  private cursors = 0;
  constructor(private readonly client: pg.Client) {}

  async tables(): Promise<TableInfo[]> {
    const tables = await this.client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname = current_schema() order by 1`,
    );
    const columns = await this.client.query<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`,
    );
    const keys = await this.client.query<{ table_name: string; column_name: string }>(
      `select cl.relname as table_name, a.attname as column_name
       from pg_constraint co
       join pg_class cl on cl.oid = co.conrelid
       join pg_namespace n on n.oid = cl.relnamespace
       cross join lateral unnest(co.conkey) with ordinality as k(attnum, position)
       join pg_attribute a on a.attrelid = cl.oid and a.attnum = k.attnum
       where co.contype = 'p' and n.nspname = current_schema()
       order by cl.relname, k.position`,
    );
    const fks = await this.client.query<{ child: string; parent: string }>(
      `select cl.relname as child, pr.relname as parent
       from pg_constraint co
       join pg_class cl on cl.oid = co.conrelid
       join pg_class pr on pr.oid = co.confrelid
       join pg_namespace n on n.oid = cl.relnamespace
       where co.contype = 'f' and n.nspname = current_schema()`,
    );
    return tables.rows.map(({ name }) => ({
      name,
      columns: columns.rows
        .filter((c) => c.table_name === name)
        .map((c) => ({ name: c.column_name, kind: postgresKind(c.data_type) }))
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
      primaryKey: keys.rows.filter((k) => k.table_name === name).map((k) => k.column_name),
      parents: [...new Set(fks.rows.filter((f) => f.child === name).map((f) => f.parent))],
    }));
  }

  async appliedMigrations(): Promise<string[]> {
    const exists = await this.client.query(`select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = 'schema_migrations' and n.nspname = current_schema()`);
    if (!exists.rowCount) return [];
    const { rows } = await this.client.query<{ name: string }>(`select name from schema_migrations order by name collate "C"`);
    return rows.map((r) => r.name);
  }

  async *rows(table: TableInfo): AsyncIterable<Row> {
    const cursor = `backup_rows_${++this.cursors}`;
    await this.client.query(`declare ${cursor} no scroll cursor for ${selectAll(table, "postgres")}`);
    try {
      for (;;) {
        const { rows } = await this.client.query(`fetch forward 1000 from ${cursor}`);
        if (rows.length === 0) break;
        for (const raw of rows) yield canonicalRow(raw, table, "postgres");
      }
    } finally {
      await this.client.query(`close ${cursor}`).catch(() => undefined);
    }
  }

  async count(table: string): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(`select count(*) as n from ${quoteName(table)}`);
    return Number(rows[0]!.n);
  }

  async deleteAll(table: string): Promise<void> {
    await this.client.query(`delete from ${quoteName(table)}`);
  }

  async insert(table: TableInfo, rows: Row[]): Promise<void> {
    const columns = table.columns;
    const head = `insert into ${quoteName(table.name)} (${columns.map((c) => quoteName(c.name)).join(", ")}) values `;
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    let values: string[] = [];
    let parameters: unknown[] = [];
    let bytes = 0;
    const flush = async () => {
      if (!values.length) return;
      await this.client.query(head + values.join(", "), parameters);
      values = [];
      parameters = [];
      bytes = 0;
    };
    for (const row of rows) {
      const placeholders = columns.map((c) => {
        const value = toParameter(row[c.name], c.kind, "postgres", `${table.name}.${c.name}`);
        parameters.push(value);
        if (typeof value === "string") bytes += value.length;
        return `$${parameters.length}`;
      });
      values.push(`(${placeholders.join(", ")})`);
      if (values.length >= perStatement || bytes >= MAX_INSERT_BYTES) await flush();
    }
    await flush();
  }

  async resetSequences(): Promise<string[]> {
    const { rows } = await this.client.query<{ seq: string; tbl: string; col: string }>(
      `select s.relname as seq, t.relname as tbl, a.attname as col
       from pg_class s
       join pg_namespace n on n.oid = s.relnamespace
       join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
       join pg_class t on t.oid = d.refobjid
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
       where s.relkind = 'S' and n.nspname = current_schema()`,
    );
    for (const r of rows) {
      await this.client.query(`select setval($1::regclass, (select coalesce(max(${quoteName(r.col)}), 0) + 1 from ${quoteName(r.tbl)}), false)`, [quoteName(r.seq)]);
    }
    return rows.map((r) => r.seq);
  }

  async suspendTriggers(): Promise<() => Promise<void>> {
    const { rows } = await this.client.query<{ name: string }>(
      `select distinct c.relname as name from pg_trigger t
       join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       where not t.tgisinternal and n.nspname = current_schema() order by 1`,
    );
    for (const r of rows) await this.client.query(`alter table ${quoteName(r.name)} disable trigger user`);
    return async () => {
      for (const r of rows) await this.client.query(`alter table ${quoteName(r.name)} enable trigger user`);
    };
  }

  async commit(): Promise<void> {
    await this.client.query("commit");
    this.committed = true;
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    try {
      if (!this.committed) await this.client.query("rollback").catch(() => undefined);
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }
}

async function connectPostgres(url: string, begin: string): Promise<PostgresRows> {
  const client = new pg.Client({ connectionString: url, types: appTypes, application_name: "scentara-backup" });
  // A connection that breaks mid-backup reports through the query that was running; don't crash on the event too.
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query(begin);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return new PostgresRows(client);
}

// ---------------------------------------------------------------- opening

/** A consistent read-only view of the database at DATABASE_URL-style `url`, for a backup or a comparison. */
export async function openSnapshot(url: string): Promise<RowConnection> {
  const location = locate(url);
  if (location.kind === "postgres") return connectPostgres(location.url, "begin isolation level repeatable read read only");
  const path = sqlitePath(location);
  if (!existsSync(path)) throw new BackupError(`There is no SQLite database at ${path}.`);
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN");
    // The read transaction's snapshot is taken at its first read: now.
    db.prepare("select count(*) from sqlite_master").get();
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteRows(db);
}

/** One write transaction on the database at `url`, for a restore. */
export async function openWriter(url: string): Promise<RowConnection> {
  const location = locate(url);
  if (location.kind === "postgres") return connectPostgres(location.url, "begin");
  const db = new DatabaseSync(sqlitePath(location), { enableForeignKeyConstraints: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    // The whole restore is one transaction: a page cache that holds it (up to 256 MiB) keeps SQLite from spilling
    // pages to disk mid-transaction (measured at 360 000 rows: a fifth of the system time of the 2 MiB default).
    db.exec("PRAGMA cache_size = -262144");
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteRows(db);
}
