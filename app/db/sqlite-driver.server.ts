import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import {
  SqliteDialect,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from "./schema";

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface; Node's built-in `node:sqlite` is close enough
 * that a thin wrapper does it, so the default database needs no native add-on compiled at install time.
 */
function toSqlite(value: unknown): SQLInputValue {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

/** `path`: a file path as parseDatabaseUrl answers it, or :memory:. */
export function openSqlite(path: string) {
  // SQLite takes a string that begins with file: as a URI while node:fs takes it as a folder named file:; one reading
  // (parseDatabaseUrl) turns every form into a path first (docs/decisions/046).
  if (path.startsWith("file:")) throw new Error(`openSqlite takes a path, not the URI ${path}: read it with parseDatabaseUrl`);
  const database = new DatabaseSync(path, { enableForeignKeyConstraints: true });
  // Wait for a writer instead of failing at once when another process (a second worker, the seed, tests) holds the
  // lock; set first, so even switching to WAL waits for a process that is opening the same file.
  database.exec("PRAGMA busy_timeout = 5000");
  // WAL: readers never wait for the writer, so several worker processes can share one file (docs/decisions/026).
  if (path !== ":memory:") database.exec("PRAGMA journal_mode = WAL");
  database.exec("PRAGMA synchronous = NORMAL");
  return database;
}

/**
 * Kysely opens every transaction with a plain (deferred) BEGIN: it takes the write lock only at its first write. With
 * several processes on one file, a transaction that read first and then writes while another process has committed
 * in between fails at once with SQLITE_BUSY (its snapshot is stale, so waiting can't help). BEGIN IMMEDIATE takes the
 * write lock at the start instead, where busy_timeout makes it wait its turn: writers queue, none fails.
 */
export function immediateTransactions(sql: string): string {
  return sql === "begin" ? "begin immediate" : sql;
}

/** Prepared statements kept per SQL text: the app runs a small set of queries over and over. */
const STATEMENT_CACHE_SIZE = 300;

export function nodeSqliteDialect(database: DatabaseSync) {
  const statements = new Map<string, { statement: StatementSync; reader: boolean }>();
  function prepared(sql: string) {
    let entry = statements.get(sql);
    if (!entry) {
      const statement = database.prepare(sql);
      entry = { statement, reader: statement.columns().length > 0 };
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      statements.set(sql, entry);
    }
    return entry;
  }
  return new SqliteDialect({
    database: {
      close: () => {
        statements.clear();
        database.close();
      },
      prepare(sql: string) {
        const { statement, reader } = prepared(immediateTransactions(sql));
        return {
          reader,
          all: (parameters: ReadonlyArray<unknown>) => statement.all(...parameters.map(toSqlite)),
          run: (parameters: ReadonlyArray<unknown>) => statement.run(...parameters.map(toSqlite)),
          iterate: (parameters: ReadonlyArray<unknown>) =>
            statement.iterate(...parameters.map(toSqlite)) as IterableIterator<unknown>,
        };
      },
    },
  });
}

const booleanColumns = new Set(BOOLEAN_COLUMNS);
const jsonColumns = new Set(JSON_COLUMNS);

/**
 * SQLite has no boolean or JSON types; PostgreSQL returns both natively. This plugin makes SQLite's rows look the
 * same, by column name, so one query code serves both databases.
 */
export class SqliteTypesPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key in row) {
        const value = row[key];
        if (booleanColumns.has(key) && typeof value === "number") row[key] = value === 1;
        else if (jsonColumns.has(key) && typeof value === "string") row[key] = JSON.parse(value);
      }
    }
    return args.result;
  }
}
