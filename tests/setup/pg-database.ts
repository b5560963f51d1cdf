/**
 * A fresh database on the throwaway PostgreSQL server (TEST_PG_URL), for a test file or a test's app servers, and its
 * removal. Used by the integration setup (Vitest) and the scale-out journey (Playwright).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

export interface ThrowawayDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** A fresh database; empty, or a copy of `template` (a database marked as a template, see migratedTemplate). */
export async function createThrowawayDatabase(base: string, prefix: string, template?: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await withClient(base, async (c) => {
    if (!template) return c.query(`create database ${name}`);
    // A file copy (PostgreSQL 15+): 89 ms a database instead of 146 ms for the default, which writes every block of
    // the template into the WAL (~130 test files' databases per run).
    const fileCopy = Number((await c.query("select current_setting('server_version_num') as v")).rows[0].v) >= 150000 ? " strategy file_copy" : "";
    return c.query(`create database ${name} template ${template}${fileCopy}`);
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(base, async (c) => {
        // pg's pool.end() resolves before its sockets have closed; wait for them to go so `force` does not terminate
        // a closing connection (which surfaces as an unhandled 57P01 error and fails the run).
        for (let i = 0; i < 100; i++) {
          const { rows } = await c.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

async function withClient<T>(connectionString: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const MIGRATIONS_DIR = join(process.cwd(), "app/db/migrations");

/**
 * A hash of the migrations' files and of the list that runs them (app/db/migrate.server.ts), naming the migrated
 * templates here and in sqlite-template.ts: a changed or newly listed migration makes a new template.
 */
export function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)));
  hash.update(readFileSync(join(process.cwd(), "app/db/migrate.server.ts")));
  return hash.digest("hex").slice(0, 24);
}

/**
 * The name of a template database on `base` holding the schema of the migrations in app/db/migrations, made (by
 * `migrate`, given the template's URL) the first time it is asked for and then copied by every test file's database
 * (CREATE DATABASE … TEMPLATE, a file copy: ~60 ms). Named by migrationsHash(), so a changed migration makes a new
 * template; test processes asking at once wait on an advisory lock while one of them makes it.
 */
export async function migratedTemplate(base: string, migrate: (url: string) => Promise<void>): Promise<string> {
  const name = `tpl_${migrationsHash()}`;
  await withClient(base, async (c) => {
    await c.query("select pg_advisory_lock(hashtext('scentara test template'))");
    try {
      const { rowCount } = await c.query("select 1 from pg_database where datname = $1 and datistemplate", [name]);
      if (rowCount) return;
      // a template left half-made (a run stopped while migrating it) is made again
      await c.query(`drop database if exists ${name} with (force)`);
      await c.query(`create database ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      await migrate(url.toString());
      // a copy fails while anyone is connected to the template, and pg's pool.end() resolves before its sockets close
      for (let i = 0; i < 100; i++) {
        const { rows } = await c.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`alter database ${name} is_template true`);
    } finally {
      await c.query("select pg_advisory_unlock(hashtext('scentara test template'))");
    }
  });
  return name;
}
