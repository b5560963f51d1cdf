/**
 * The authorization matrix: every protected route (loader or action) × {visitor, customer, and a member of staff of
 * each preset role: owner, manager, packer, marketer, bookkeeper}, asserting the status and, for every refused call,
 * that nothing in the database changed. Every action is also tried from another site with the owner's cookie, which
 * must be refused and change nothing.
 *
 * Add a route with ONE line in tests/authz/matrix.int.test.ts, e.g.
 *   { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), kind: "action", permission: "coupons", form: { intent: "delete", id: "x" }, expect: ADMIN_ACTION },
 * `expect.admin` is what a member of staff whose role has `permission` gets; one whose role lacks it gets 403 with
 * PERMISSION_DENIED_MESSAGE (or the entry's `denied`). Every admin route file, and every intent of its action, must be
 * in the matrix (checkMatrixCovers).
 */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { sql } from "kysely";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, type DB } from "~/db/db.server";
import { can, PRESET_ROLES, type Permission, type PresetRoleId } from "~/modules/accounts/permissions";
import { ACCESS_DENIED_MESSAGE, PERMISSION_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { ADMIN_ACCESS_REQUIRED } from "~/utils/errors";
import { callAction, callLoader, dataOf, statusOf } from "../setup/route";
import { hasWriteMark, installWriteMark, readTablesWhileUnwritten } from "../setup/write-mark";
import { createUser, sessionCookieFor } from "../factories/users";

/** The expectation's columns: `admin` is a member of staff whose role allows the entry. */
export type Actor = "visitor" | "customer" | "admin";
/** Who calls: a visitor, a customer, and one member of staff per preset role. */
export type Caller = "visitor" | "customer" | PresetRoleId;
export const STAFF_CALLERS = Object.keys(PRESET_ROLES) as PresetRoleId[];
export const CALLERS: readonly Caller[] = ["visitor", "customer", ...STAFF_CALLERS];
/**
 * Who calls on this run's database. SQLite: everyone. PostgreSQL: a visitor, a customer, the owner (every allowed
 * path's queries run, on the database that refuses what SQLite lets by) and the packer (the narrowest role: the most
 * refusals). The manager's, marketer's and bookkeeper's answers are the same permission check before the same queries
 * (a subset of the owner's), so SQLite's full run covers them; on PostgreSQL the matrix takes 40 % less.
 */
const callersOnThisDatabase: readonly Caller[] = process.env.TEST_DB === "postgres" ? CALLERS.filter((c) => ["visitor", "customer", "owner", "packer"].includes(c)) : CALLERS;
/** An entry every member of staff may call (the admin's layout and dashboard), said so on purpose. */
export const ANY_STAFF = "any member of staff";

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
  /**
   * What a member of staff's role must allow (one permission, or any of several), or ANY_STAFF. Required on every
   * admin route (checkMatrixCovers); left out elsewhere, every member of staff is expected to answer as `admin`.
   */
  permission?: Permission | readonly Permission[] | typeof ANY_STAFF;
  /** What a member of staff without the permission gets, when it isn't 403 PERMISSION_DENIED_MESSAGE (someone else's order: 404). */
  denied?: Expect;
  /** Shown in the test name. */
  note?: string;
}

// Common rows' expectations.
export const DENY_PAGE = { status: 403, error: ACCESS_DENIED_MESSAGE } as const;
export const DENY_ACTION = { status: 403, error: ADMIN_ACCESS_REQUIRED } as const;
/** A member of staff whose role lacks the permission, on a page or an action. */
export const DENY_ROLE = { status: 403, error: PERMISSION_DENIED_MESSAGE } as const;

/** What this caller must get from this entry. */
export function expectationFor(entry: MatrixEntry, caller: Caller): Expect {
  if (caller === "visitor" || caller === "customer") return entry.expect[caller];
  const needed = entry.permission;
  if (needed === undefined || needed === ANY_STAFF || can(PRESET_ROLES[caller].permissions, needed)) return entry.expect.admin;
  return entry.denied ?? DENY_ROLE;
}
/** Admin pages: visitor → login, customer → 403 'Access Denied', admin → 200. */
export const ADMIN_PAGE: Record<Actor, Expect> = { visitor: "login", customer: DENY_PAGE, admin: 200 };
/** Admin actions: anyone but an admin gets 403 'Admin access required'. */
export const ADMIN_ACTION: Record<Actor, Expect> = { visitor: DENY_ACTION, customer: DENY_ACTION, admin: "ok" };
/** Signed-in pages: visitor → login, customer and admin → 200. */
export const SIGNED_IN_PAGE: Record<Actor, Expect> = { visitor: "login", customer: 200, admin: 200 };
/** Signed-in actions: visitor → login; customer and admin succeed. */
export const SIGNED_IN_ACTION: Record<Actor, Expect> = { visitor: "login", customer: "ok", admin: "ok" };

const IGNORED_TABLES = new Set(["rate_limits", "kysely_migration", "kysely_migration_lock"]);
/**
 * Columns a refused call may write: the caller's own session's "last seen" stamp (Profile → Account's devices; written
 * after the answer, at most every few minutes per session), which says nothing about what the call was allowed to do.
 */
const IGNORED_COLUMNS: Record<string, readonly string[]> = { sessions: ["last_seen_at"] };

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
    const ignored = IGNORED_COLUMNS[table] ?? [];
    column = isPostgres(db)
      ? // every row as PostgreSQL's text of the whole row: any column's change changes it
        Promise.resolve(`(select coalesce(json_agg(${ignored.length ? `(to_jsonb(t)${ignored.map((c) => ` - '${c}'`).join("")})::text` : "t::text"}), '[]'::json)::text from "${table}" t) as "${table}"`)
      : // SQLite has no row-to-text: each column quoted, joined
        sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db).then(({ rows }) => {
          const row = rows.filter((c) => !ignored.includes(c.name)).map((c) => `quote("${c.name}")`).join(" || ',' || ");
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

/** The route modules and action intents the matrix called (checkMatrixCovers reads them). */
const tried = new Map<object, { loader: boolean; action: boolean; intents: Set<string> }>();
function noteTried(module: object, kind: MatrixEntry["kind"], intent: string | undefined) {
  let seen = tried.get(module);
  if (!seen) tried.set(module, (seen = { loader: false, action: false, intents: new Set() }));
  seen[kind] = true;
  if (kind === "action" && intent) seen.intents.add(intent);
}

/** Registers the matrix's tests (call inside an *.int.test.ts file). */
export function runAuthorizationMatrix(entries: MatrixEntry[]) {
  // adminId is the owner's (setups make "someone else's" records with it)
  const ids = { customerId: "", adminId: "" };
  const staffIds = {} as Record<PresetRoleId, string>;

  beforeAll(async () => {
    const db = getDb();
    const customer = await createUser(db);
    const admin = await createUser(db, { isAdmin: true });
    ids.customerId = customer.id;
    ids.adminId = admin.id;
    staffIds.owner = admin.id;
    for (const role of STAFF_CALLERS) if (role !== "owner") staffIds[role] = (await createUser(db, { role })).id;
    await markEveryTable(db);
  });

  /** Calls the entry as `caller`; with `snapshot`, the database as it was before the call is kept for comparison. */
  async function call(entry: MatrixEntry, caller: Caller, snapshot: boolean, extraHeaders: Record<string, string> = {}) {
    const db = getDb();
    const override = entry.setup ? await entry.setup(db, ids) : {};
    const path = override.path ?? entry.path;
    const params = override.params ?? entry.params;
    const form = override.form ?? entry.form ?? {};
    const module = await entry.route();
    const fn = entry.kind === "loader" ? module.loader : module.action;
    if (!fn) throw new Error(`${path} has no ${entry.kind}`);
    noteTried(module, entry.kind, form.intent);
    const headers: Record<string, string> = { ...extraHeaders };
    // A fresh session per call (a sign-out row must not sign the next rows out).
    if (caller !== "visitor") {
      headers.cookie = await sessionCookieFor(db, caller === "customer" ? ids.customerId : staffIds[caller]);
      callSession = decodeURIComponent(headers.cookie.slice(headers.cookie.indexOf("=") + 1)).split(".")[0]!;
    }
    const before = snapshot ? await snapshotDatabase(db) : undefined;
    const result =
      entry.kind === "loader" ? await callLoader(fn as any, path, { headers, params }) : await callAction(fn as any, path, form, { headers, params });
    return { result, before, after: () => snapshotDatabase(db), path };
  }

  // The call's session is signed out after its test: a thousand sessions left behind would be read again by every
  // snapshot after a call (each call writes the sessions table).
  let callSession: string | null = null;
  afterEach(async () => {
    if (callSession) await getDb().deleteFrom("sessions").where("token", "=", callSession).execute();
    callSession = null;
  });

  describe("authorization matrix", () => {
    for (const entry of entries) {
      for (const caller of callersOnThisDatabase) {
        const expected = expectationFor(entry, caller);
        const label = typeof expected === "object" ? `${expected.status}` : String(expected);
        it(`${entry.kind} ${entry.path}${entry.note ? ` (${entry.note})` : ""} as ${caller} → ${label}`, async () => {
          const { result, before, after, path } = await call(entry, caller, isRefusal(expected));
          await check(result, expected, path);
          if (isRefusal(expected)) expect(await after(), "a refused call changed the database").toEqual(before);
        });
      }
      if (entry.kind === "action") {
        it(`action ${entry.path}${entry.note ? ` (${entry.note})` : ""} from another site with the owner's cookie → 403, nothing changed`, async () => {
          const { result, before, after } = await call(entry, "owner", true, { origin: "https://evil.example" });
          expect(statusOf(result)).toBe(403);
          expect(await after()).toEqual(before);
        });
      }
    }
  });
}

/**
 * Every admin route file is in the matrix with its loader and its action, each entry names its permission, and every
 * intent of every admin action was tried (call after runAuthorizationMatrix, in the same file: it reads what the
 * matrix's calls noted, so run the file whole). `handWritten`: the intents of actions that don't go through
 * adminAction (which notes its own intents).
 */
export function checkMatrixCovers(entries: MatrixEntry[], handWritten: Record<string, readonly string[]>) {
  const routes = resolve(__dirname, "../../app/routes");
  const files = readdirSync(routes).filter((f) => /^admin[.]?.*\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f)).sort();

  async function modules() {
    const byModule = new Map<object, string>();
    for (const file of files) byModule.set(await import(/* @vite-ignore */ resolve(routes, file)), file);
    return byModule;
  }

  describe("the matrix covers the admin", () => {
    it("has every admin route file's loader and action, each entry with its permission", async () => {
      const byModule = await modules();
      const listed = new Map<string, Set<string>>();
      const missingPermission: string[] = [];
      for (const entry of entries) {
        const file = byModule.get(await entry.route());
        if (!file) continue;
        if (entry.permission === undefined) missingPermission.push(`${entry.kind} ${entry.path}${entry.note ? ` (${entry.note})` : ""}`);
        listed.set(file, (listed.get(file) ?? new Set()).add(entry.kind));
      }
      const missing: string[] = [];
      for (const [module, file] of byModule) {
        const m = module as { loader?: unknown; action?: unknown };
        for (const kind of ["loader", "action"] as const) if (m[kind] && !listed.get(file)?.has(kind)) missing.push(`${file} ${kind}`);
      }
      expect(missing, "admin routes missing from the matrix").toEqual([]);
      expect(missingPermission, "admin entries without a permission").toEqual([]);
    });

    it("tried every intent of every admin action", async () => {
      const byModule = await modules();
      const untried: string[] = [];
      for (const [module, file] of byModule) {
        const action = (module as { action?: { intents?: readonly string[] } }).action;
        if (!action) continue;
        const intents = action.intents ?? handWritten[file];
        if (!intents) {
          untried.push(`${file}: its action doesn't go through adminAction; list its intents in the matrix's handWritten`);
          continue;
        }
        const seen = tried.get(module)?.intents ?? new Set();
        for (const intent of intents) if (!seen.has(intent)) untried.push(`${file} intent ${intent}`);
      }
      expect(untried, "admin action intents the matrix never tried").toEqual([]);
    });
  });
}
