import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresAdapter, PostgresDialect, sql, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type Transaction } from "kysely";
import pg from "pg";
import { parseDatabaseUrl } from "~/utils/database-url.server";
import { env } from "~/utils/env.server";
import { nodeSqliteDialect, openSqlite, SqliteTypesPlugin } from "./sqlite-driver.server";
import type { Database } from "./schema";

export type DB = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Query functions take either the database or a transaction. */
export type Queryable = DB | Trx;
export type Dialect = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: DB;
  /** better-auth's view of the same database (on PostgreSQL a pool with pg's default type parsing, see below). */
  authDb: Kysely<any>;
  dialect: Dialect;
  close(): Promise<void>;
}

/**
 * PostgreSQL returns timestamptz as ISO strings and bigint counts as numbers in the app's pool, so rows look the same
 * as SQLite's. better-auth expects Date objects from PostgreSQL, so it gets its own pool with pg's default parsing.
 */
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const NUMERIC = 1700;
function appTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: any) {
      if (oid === TIMESTAMPTZ) return (v: string) => new Date(v).toISOString();
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

/**
 * A process's PostgreSQL connections (DATABASE_POOL_SIZE) split between the shop's queries and sign-in's
 * (better-auth's own pool): about 70 / 30, at least one each. 14 → 10 + 4.
 */
export function poolSizes(total: number): { shop: number; auth: number } {
  const auth = Math.min(total - 1, Math.max(1, Math.round(total * 0.3)));
  return { shop: total - auth, auth };
}

/**
 * The shop's pool as Kysely uses it, each query sent in pg's callback form. In its promise form (client.query(text,
 * values) with no callback) pg's results outlive the young-generation collections that should free them: measured on
 * 1 000-row queries, 8–20 MB of every ~50 MB collected was promoted to the old generation as garbage that only a full
 * collection frees, so the orders export (a thousand such queries) grew the server by ~500 MB before one came. The
 * callback form promotes ~10 KB per collection and is faster. The same rows and the same errors either way.
 */
function withCallbackQueries(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      wrapped = {
        query: ((text: string | PostgresCursor<unknown>, values?: ReadonlyArray<unknown>) => {
          if (typeof text !== "string") return client.query(text as never); // a cursor (Kysely's stream): as it is
          return new Promise((resolve, reject) => client.query(text, values as unknown[], (error, result) => (error ? reject(error) : resolve(result as never))));
        }) as PostgresPoolClient["query"],
        release: () => client.release(),
      };
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
}

/** Where each opened database lives, for work done on another connection to it (the scent catalogue's build process). */
const urls = new WeakMap<object, string>();

/**
 * The URL another connection would open to reach the same data as `db`; undefined for a transaction (its writes are
 * its own until it commits), an in-memory SQLite database (no other connection sees it), or a handle made elsewhere.
 */
export function databaseUrlOf(db: Queryable): string | undefined {
  return urls.get(db);
}

/** Opens the database DATABASE_URL-style `url` names (parseDatabaseUrl: a SQLite file, :memory:, postgres://…). */
export function openDatabase(url: string, poolSize = 14): DatabaseHandle {
  const location = parseDatabaseUrl(url);
  if (location.kind === "postgres") {
    const sizes = poolSizes(poolSize);
    const pool = new pg.Pool({ connectionString: location.url, max: sizes.shop, types: appTypes() });
    const authPool = new pg.Pool({ connectionString: location.url, max: sizes.auth });
    // No JIT compilation on the shop's connections. PostgreSQL compiles a query whose *estimated* cost passes
    // jit_above_cost, and a short statement whose estimate is off (a table grown since its last ANALYZE: a catalogue
    // import's size sync, 500 rows) spent 149 of its 171 ms compiling. The shop's queries are short and indexed; the
    // big reads (exports) stream in batches. (pg queues this before the connection's first query.)
    for (const p of [pool, authPool]) p.on("connect", (client) => void client.query("set jit = off").catch(() => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withCallbackQueries(pool) }) });
    const authDb = new Kysely<any>({ dialect: new PostgresDialect({ pool: authPool }) });
    urls.set(db, location.url);
    return {
      db,
      authDb,
      dialect: "postgres",
      async close() {
        await Promise.all([db.destroy(), authDb.destroy()]);
      },
    };
  }
  if (location.kind === "sqlite") mkdirSync(dirname(location.path), { recursive: true });
  const sqlite = openSqlite(location.kind === "sqlite" ? location.path : ":memory:");
  const db = new Kysely<Database>({ dialect: nodeSqliteDialect(sqlite), plugins: [new SqliteTypesPlugin()] });
  // the parsed path: what another connection (the scent catalogue's builder process) opens, read the same way there
  if (location.kind === "sqlite") urls.set(db, location.path);
  return { db, authDb: db, dialect: "sqlite", close: () => db.destroy() };
}

let handle: DatabaseHandle | undefined;

/** The process's database, opened on first use from DATABASE_URL. */
export function database(): DatabaseHandle {
  handle ??= openDatabase(env().DATABASE_URL, env().DATABASE_POOL_SIZE);
  return handle;
}

export function getDb(): DB {
  return database().db;
}

export async function closeDatabase() {
  const h = handle;
  handle = undefined;
  await h?.close();
}

/** Is this database (or transaction) PostgreSQL? For the few statements only it has (FOR UPDATE SKIP LOCKED). */
export function isPostgres(db: Queryable): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A cheap round trip for /healthz. */
export async function pingDatabase(db: DB = getDb()) {
  await sql`select 1`.execute(db);
}

/** Case-insensitive substring match that means the same on both databases. */
export function containsInsensitive(column: string, needle: string) {
  const escaped = needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}

/**
 * Did a write fail on a unique constraint? (PostgreSQL's 23505, SQLite's "UNIQUE constraint failed".) `on`: only on
 * one of these, matched against what each database names: PostgreSQL's constraint (`product_sizes_sku_unique`), SQLite's
 * columns (`product_sizes.sku`).
 */
export function isUniqueViolation(error: unknown, on?: RegExp): boolean {
  const e = error as { code?: string; message?: string; constraint?: string } | null;
  if (!e || !(e.code === "23505" || /UNIQUE constraint failed/i.test(e.message ?? ""))) return false;
  return !on || on.test(`${e.constraint ?? ""} ${e.message ?? ""}`);
}
