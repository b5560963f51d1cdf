/**
 * Each integration test file gets its own empty, migrated database, copied from a template migrated once per set of
 * migrations (migrating each of ~125 files' databases cost 0.1–0.6 s apiece): an in-memory SQLite one filled from a
 * migrated template file (sqlite-template.ts), or a fresh database on the throwaway PostgreSQL server made with
 * CREATE DATABASE … TEMPLATE (pg-database.ts migratedTemplate). Route loaders and actions then run against it through
 * getDb().
 */
import { afterAll } from "vitest";
import { createThrowawayDatabase, migratedTemplate } from "./pg-database";
import { copySqliteTemplate, migratedSqliteTemplate } from "./sqlite-template";
import { closeDatabase, getDb, openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { resetEnvForTests } from "~/utils/env.server";
import "./password-hashing";

let dropPg: (() => Promise<void>) | undefined;

if (process.env.TEST_DB === "postgres") {
  const base = process.env.TEST_PG_URL;
  if (!base) throw new Error("TEST_PG_URL is not set");
  const template = await migratedTemplate(base, async (url) => {
    const handle = openDatabase(url, 2);
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
  });
  const database = await createThrowawayDatabase(base, "t", template);
  process.env.DATABASE_URL = database.url;
  dropPg = database.drop;
} else {
  process.env.DATABASE_URL = ":memory:";
}
process.env.SEED_DEMO = "false";
// Checkout as before couriers (the zone table) unless a test offers courier kinds itself (app/modules/couriers/*).
process.env.DELIVERY_KINDS ??= "";
resetEnvForTests();
if (process.env.TEST_DB !== "postgres") await copySqliteTemplate(getDb(), await migratedSqliteTemplate());

afterAll(async () => {
  await closeDatabase();
  await dropPg?.();
});
