/**
 * The authorization matrix: every protected route (loader or action) × {visitor, customer, admin}, asserting the
 * status and, for every refused call, that nothing in the database changed. Every action is also tried from another
 * site with the admin's cookie, which must be refused and change nothing.
 *
 * Add a route with ONE line in tests/authz/matrix.int.test.ts, e.g.
 *   { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), kind: "action", form: { intent: "delete", id: "x" }, expect: ADMIN_ACTION },
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, type DB } from "~/db/db.server";
import { ACCESS_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { ADMIN_ACCESS_REQUIRED } from "~/utils/errors";
import { callAction, callLoader, dataOf, statusOf } from "../setup/route";
import { hasWriteMark, installWriteMark, readTablesWhileUnwritten } from "../setup/write-mark";
import { createUser, sessionCookieFor } from "../factories/users";

export type Actor = "visitor" | "customer" | "admin";

/**
 * What a call must answer:
 * - a status number (200, 400, 404 …);
 * - "login": a redirect to /auth/login?redirect=<this path> (refused);
 * - "ok": any success (2xx, or a redirect that isn't to login);
 * - { status, error }: that status with that `error` message in the body.
 * A 401/403 or "login" counts as refused: the database must be unchanged afterwards.
 */
export type Expect = number | "login" | "ok" | { status: number; error?: string };

export interface MatrixEntry {
  /** The URL called (with its query). */
  path: string;
  /** The route module, imported lazily: () => import("~/routes/…"). */
  route: () => Promise<{ loader?: (args: any) => unknown; action?: (args: any) => unknown }>;
  kind: "loader" | "action";
  /** Form fields posted to an action. */
  form?: Record<string, string>;
  params?: Record<string, string>;
  /**
   * For rows that need records (an order to delete …): runs once per call before it, with the database and the
   * actors' user ids; its answer overrides path/form/params.
   */
  setup?: (db: DB, actors: { customerId: string; adminId: string }) => Promise<Partial<Pick<MatrixEntry, "path" | "form" | "params">>>;
  expect: Record<Actor, Expect>;
  /** Shown in the test name. */
  note?: string;
}

// Common rows' expectations.
export const DENY_PAGE = { status: 403, error: ACCESS_DENIED_MESSAGE } as const;
export const DENY_ACTION = { status: 403, error: ADMIN_ACCESS_REQUIRED } as const;
/** Admin pages: visitor → login, customer → 403 'Access Denied', admin → 200. */
export const ADMIN_PAGE: Record<Actor, Expect> = { visitor: "login", customer: DENY_PAGE, admin: 200 };
/** Admin actions: anyone but an admin gets 403 'Admin access required'. */
export const ADMIN_ACTION: Record<Actor, Expect> = { visitor: DENY_ACTION, customer: DENY_ACTION, admin: "ok" };
/** Signed-in pages: visitor → login, customer and admin → 200. */
export const SIGNED_IN_PAGE: Record<Actor, Expect> = { visitor: "login", customer: 200, admin: 200 };
/** Signed-in actions: visitor → login; customer and admin succeed. */
export const SIGNED_IN_ACTION: Record<Actor, Expect> = { visitor: "login", customer: "ok", admin: "ok" };

const IGNORED_TABLES = new Set(["rate_limits", "kysely_migration", "kysely_migration_lock"]);

/** The tables a snapshot reads, per database: introspection is slow on PostgreSQL, so it is read once. */
const snapshotTables = new WeakMap<object, Promise<string[]>>();
function tablesOf(db: DB): Promise<string[]> {
  let tables = snapshotTables.get(db);
  if (!tables) {
    tables = db.introspection.getTables().then((all) => all.map((t) => t.name).filter((n) => !IGNORED_TABLES.has(n)).sort());
    snapshotTables.set(db, tables);
  }
  return tables;
}

/** Each table's rows as a JSON array of texts, per database, made once (SQLite's needs the table's columns). */
const rowsAsText = new WeakMap<object, Map<string, Promise<string>>>();
function rowsAsTextOf(db: DB, table: string): Promise<string> {
  let made = rowsAsText.get(db);
  if (!made) rowsAsText.set(db, (made = new Map()));
  let column = made.get(table);
  if (!column) {
    column = isPostgres(db)
      ? // every row as PostgreSQL's text of the whole row: any column's change changes it
        Promise.resolve(`(select coalesce(json_agg(t::text), '[]'::json)::text from "${table}" t) as "${table}"`)
      : // SQLite has no row-to-text: each column quoted, joined
        sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db).then(({ rows }) => {
          const row = rows.map((c) => `quote("${c.name}")`).join(" || ',' || ");
          return `(select coalesce(json_group_array(${row}), '[]') from "${table}") as "${table}"`;
        });
    made.set(table, column);
  }
  return column;
}

/** These tables' rows, each row as text, sorted: one query for all of them (one round trip, not one per table). */
async function readTables(db: DB, tables: string[]): Promise<Record<string, string[]>> {
  const columns = await Promise.all(tables.map((t) => rowsAsTextOf(db, t)));
  const { rows } = await sql<Record<string, string>>`${sql.raw(`select ${columns.join(", ")}`)}`.execute(db);
  const out: Record<string, string[]> = {};
  for (const [table, text] of Object.entries(rows[0]!)) out[table] = (JSON.parse(text) as string[]).sort();
  return out;
}

/**
 * Every row of every table (rate-limit counters aside), each row as text, sorted: for 'nothing changed' checks. Where
 * the file installed a write mark (the matrix: markEveryTable), only the tables written since the last snapshot are
 * read again: around each of the matrix's ~360 calls a new session row is written, and little else.
 */
export async function snapshotDatabase(db: DB = getDb()): Promise<Record<string, string[]>> {
  return hasWriteMark(db) ? snapshotWhileUnwritten(db) : readTables(db, await tablesOf(db));
}

const snapshotWhileUnwritten = readTablesWhileUnwritten(readTables);

/** A write mark over every table a snapshot reads (tests/setup/write-mark.ts). */
async function markEveryTable(db: DB) {
  await installWriteMark(db, await tablesOf(db));
}

function isRefusal(expected: Expect): boolean {
  if (expected === "login") return true;
  const status = typeof expected === "number" ? expected : typeof expected === "object" ? expected.status : 200;
  return status === 401 || status === 403;
}

async function check(result: unknown, expected: Expect, path: string) {
  const status = statusOf(result);
  const location = result instanceof Response ? result.headers.get("Location") : null;
  if (expected === "login") {
    expect(status, `expected a redirect to login, got ${status}`).toBe(302);
    expect(location).toBe(`/auth/login?redirect=${encodeURIComponent(path)}`);
  } else if (expected === "ok") {
    expect(status, `expected success, got ${status}`).toBeLessThan(400);
    if (location) expect(location.startsWith("/auth/login")).toBe(false);
  } else if (typeof expected === "number") {
    expect(status).toBe(expected);
  } else {
    expect(status).toBe(expected.status);
    if (expected.error) expect((await dataOf(result)).error).toBe(expected.error);
  }
}

/** Registers the matrix's tests (call inside an *.int.test.ts file). */
export function runAuthorizationMatrix(entries: MatrixEntry[]) {
  const ids = { customerId: "", adminId: "" };

  beforeAll(async () => {
    const db = getDb();
    const customer = await createUser(db);
    const admin = await createUser(db, { isAdmin: true });
    ids.customerId = customer.id;
    ids.adminId = admin.id;
    await markEveryTable(db);
  });

  /** Calls the entry as `actor`; with `snapshot`, the database as it was before the call is kept for comparison. */
  async function call(entry: MatrixEntry, actor: Actor, snapshot: boolean, extraHeaders: Record<string, string> = {}) {
    const db = getDb();
    const override = entry.setup ? await entry.setup(db, ids) : {};
    const path = override.path ?? entry.path;
    const params = override.params ?? entry.params;
    const form = override.form ?? entry.form ?? {};
    const module = await entry.route();
    const fn = entry.kind === "loader" ? module.loader : module.action;
    if (!fn) throw new Error(`${path} has no ${entry.kind}`);
    const headers: Record<string, string> = { ...extraHeaders };
    // A fresh session per call (a sign-out row must not sign the next rows out).
    if (actor !== "visitor") headers.cookie = await sessionCookieFor(db, actor === "admin" ? ids.adminId : ids.customerId);
    const before = snapshot ? await snapshotDatabase(db) : undefined;
    const result =
      entry.kind === "loader" ? await callLoader(fn as any, path, { headers, params }) : await callAction(fn as any, path, form, { headers, params });
    return { result, before, after: () => snapshotDatabase(db), path };
  }

  describe("authorization matrix", () => {
    for (const entry of entries) {
      for (const actor of ["visitor", "customer", "admin"] as const) {
        const expected = entry.expect[actor];
        const label = typeof expected === "object" ? `${expected.status}` : String(expected);
        it(`${entry.kind} ${entry.path}${entry.note ? ` (${entry.note})` : ""} as ${actor} → ${label}`, async () => {
          const { result, before, after, path } = await call(entry, actor, isRefusal(expected));
          await check(result, expected, path);
          if (isRefusal(expected)) expect(await after(), "a refused call changed the database").toEqual(before);
        });
      }
      if (entry.kind === "action") {
        it(`action ${entry.path}${entry.note ? ` (${entry.note})` : ""} from another site with the admin's cookie → 403, nothing changed`, async () => {
          const { result, before, after } = await call(entry, "admin", true, { origin: "https://evil.example" });
          expect(statusOf(result)).toBe(403);
          expect(await after()).toEqual(before);
        });
      }
    }
  });
}
