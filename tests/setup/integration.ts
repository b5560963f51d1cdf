/**
 * Each integration test file gets its own empty, migrated database: an in-memory SQLite one, or a fresh database on
 * the throwaway PostgreSQL server. Route loaders and actions then run against it through getDb().
 */
import { afterAll } from "vitest";
import pg from "pg";
import { closeDatabase, getDb } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { resetEnvForTests } from "~/utils/env.server";

let dropPg: (() => Promise<void>) | undefined;

if (process.env.TEST_DB === "postgres") {
  const base = process.env.TEST_PG_URL;
  if (!base) throw new Error("TEST_PG_URL is not set");
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  dropPg = async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    // pg's pool.end() resolves before its sockets have closed; wait for them to go so `force` does not terminate a
    // closing connection (which surfaces as an unhandled 57P01 error and fails the run).
    for (let i = 0; i < 100; i++) {
      const { rows } = await c.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
} else {
  process.env.DATABASE_URL = ":memory:";
}
process.env.SEED_DEMO = "false";
resetEnvForTests();
await migrateToLatest(getDb());

afterAll(async () => {
  await closeDatabase();
  await dropPg?.();
});
