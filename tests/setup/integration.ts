/**
 * Each integration test file gets its own empty, migrated database: an in-memory SQLite one, or a fresh database on
 * the throwaway PostgreSQL server, copied from a template migrated once (migratedTemplate: migrating each of ~120 files'
 * databases cost 0.3–0.6 s apiece). Route loaders and actions then run against it through getDb().
 */
import { afterAll } from "vitest";
import { createThrowawayDatabase, migratedTemplate } from "./pg-database";
import { closeDatabase, getDb, openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { resetEnvForTests } from "~/utils/env.server";

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
if (process.env.TEST_DB !== "postgres") await migrateToLatest(getDb());

afterAll(async () => {
  await closeDatabase();
  await dropPg?.();
});
