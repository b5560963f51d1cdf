/**
 * A cheap "has anything been written?" for tests that compare tables before and after thousands of calls (the hostile
 * input fuzz, the authorization matrix): reading every row around each call was most of their time on PostgreSQL.
 *
 * installWriteMark(db, tables) puts a counter per table in the test file's own database, which triggers bump on every
 * insert, update or delete of that table (and truncate, on PostgreSQL), whether the write commits or not. writeMarks(db)
 * reads them all at once, each with its table's definition (SQLite's schema version; on PostgreSQL the table's pg_class
 * row, which a drop, an alter or a truncate changes). While a table's mark stands still, none of its rows can have
 * changed, so what was read of it at that mark still holds. writeMark(db) is one mark for all of them together: on
 * PostgreSQL a single sequence (test_writes_any) that every marked write and every change of definition bumps.
 *
 * On SQLite the counters and triggers are TEMP objects of the test's connection (its one in-memory database; nothing
 * in the shop's schema). On PostgreSQL they are a sequence per table (outside transactions: no lock is taken, so two
 * of the app's transactions never wait on each other's counter) bumped by statement triggers; the file's database is
 * dropped after it.
 */
import { sql } from "kysely";
import { isPostgres, type DB } from "~/db/db.server";

const marked = new WeakMap<object, readonly string[]>();
/** PostgreSQL databases where definitions can't be watched by an event trigger (see installWriteMark). */
const withoutDdlMark = new WeakSet<object>();

export async function installWriteMark(db: DB, tables: readonly string[]): Promise<void> {
  if (marked.has(db)) throw new Error("installWriteMark: already installed in this database");
  const list = [...tables].sort();
  if (isPostgres(db)) {
    // Each write bumps its table's sequence and test_writes_any, the one sequence writeMark() reads (a read of all
    // the tables' sequences cost 0.6 ms, most of the PostgreSQL fuzz's harness time); a change to any definition
    // (an event trigger: CREATE, ALTER, DROP…) bumps test_writes_any too.
    await sql`create sequence test_writes_any`.execute(db);
    await sql`create function test_count_write() returns trigger language plpgsql as $$ begin perform nextval(TG_ARGV[0]); perform nextval('test_writes_any'); return null; end $$`.execute(db);
    await sql`create function test_count_ddl() returns event_trigger language plpgsql as $$ begin perform nextval('test_writes_any'); end $$`.execute(db);
    try {
      await sql`create event trigger test_count_ddl on ddl_command_end execute function test_count_ddl()`.execute(db);
      await sql`create event trigger test_count_drop on sql_drop execute function test_count_ddl()`.execute(db);
    } catch {
      // not a superuser (a TEST_PG_URL of one's own): writeMark() reads every table's mark instead
      withoutDdlMark.add(db);
    }
    for (const [i, table] of list.entries()) {
      await sql`create sequence ${sql.id(`test_writes_${i}`)}`.execute(db);
      await sql`create trigger test_count_write after insert or update or delete or truncate on ${sql.id(table)} for each statement execute function test_count_write(${sql.lit(`test_writes_${i}`)})`.execute(db);
    }
    // one function: its query is planned once per connection, not at each of thousands of reads
    const counters = list.map((t, i) => `select '${t.replaceAll("'", "''")}' as name, last_value || '/' || is_called as n from test_writes_${i}`).join(" union all ");
    await sql`create function test_write_marks() returns json language plpgsql stable as $$ begin return (select json_object_agg(c.name, c.n || ':' || coalesce(r.oid || '/' || r.relfilenode || '/' || r.xmin, 'gone')) from (${sql.raw(counters)}) c left join pg_class r on r.relname = c.name and r.relnamespace = current_schema()::regnamespace); end $$`.execute(db);
  } else {
    await sql`create temp table test_writes (name text primary key, n integer not null)`.execute(db);
    for (const table of list) {
      await sql`insert into temp.test_writes values (${table}, 0)`.execute(db);
      for (const event of ["insert", "update", "delete"]) {
        await sql`create temp trigger ${sql.id(`test_writes_${table}_${event}`)} after ${sql.raw(event)} on main.${sql.id(table)} begin update temp.test_writes set n = n + 1 where name = ${sql.lit(table)}; end`.execute(db);
      }
    }
  }
  marked.set(db, list);
}

/** Whether installWriteMark has run for this database (in this test file). */
export function hasWriteMark(db: DB): boolean {
  return marked.has(db);
}

/** Each marked table's mark: it moves with every write to the table and every change to its definition. */
export async function writeMarks(db: DB): Promise<Map<string, string>> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ marks: Record<string, string> }>`select test_write_marks() as marks`.execute(db);
    return new Map(Object.entries(rows[0]!.marks));
  }
  const { rows } = await sql<{ name: string; mark: string }>`select name, n || ':' || (select schema_version from pragma_schema_version) as mark from temp.test_writes`.execute(db);
  return new Map(rows.map((r) => [r.name, r.mark]));
}

/** One mark for all the marked tables together. */
export async function writeMark(db: DB): Promise<string> {
  if (isPostgres(db) && !withoutDdlMark.has(db)) {
    const { rows } = await sql<{ mark: string }>`select last_value || '/' || is_called as mark from test_writes_any`.execute(db);
    return rows[0]!.mark;
  }
  return [...(await writeMarks(db))].map(([table, mark]) => `${table}=${mark}`).join(",");
}

/**
 * `read` as it was at the current mark of all the marked tables: read again only when one of them has moved since
 * the last read. The mark is read first, so a write that lands meanwhile moves it past what was read, and the next
 * call reads again.
 */
export function readWhileUnwritten<T>(read: (db: DB) => Promise<T>): (db: DB) => Promise<T> {
  const known = new WeakMap<object, { mark: string; value: T }>();
  return async (db) => {
    const mark = await writeMark(db);
    const have = known.get(db);
    if (have?.mark === mark) return have.value;
    const value = await read(db);
    known.set(db, { mark, value });
    return value;
  };
}

/**
 * Per table: `readTables(db, tables)` for the tables whose mark moved since they were last read, the others as they
 * were read then. Returns every marked table's value.
 */
export function readTablesWhileUnwritten<T>(readTables: (db: DB, tables: string[]) => Promise<Record<string, T>>): (db: DB) => Promise<Record<string, T>> {
  const known = new WeakMap<object, Map<string, { mark: string; value: T }>>();
  return async (db) => {
    const marks = await writeMarks(db);
    let have = known.get(db);
    if (!have) known.set(db, (have = new Map()));
    const moved = [...marks].filter(([table, mark]) => have.get(table)?.mark !== mark).map(([table]) => table);
    if (moved.length) {
      const fresh = await readTables(db, moved);
      for (const table of moved) have.set(table, { mark: marks.get(table)!, value: fresh[table]! });
    }
    return Object.fromEntries([...marks.keys()].map((table) => [table, have.get(table)!.value]));
  };
}
