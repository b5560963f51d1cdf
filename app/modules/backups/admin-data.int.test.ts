/**
 * Admin → Data (app/routes/admin.data.tsx and the download route): "Back up now" makes an archive in BACKUP_DIR (in
 * the background, one at a time), the page lists it with its manifest's counts, and the download streams it; names
 * that are not an archive's are refused. The app's database is a SQLite file here (the sqlite project's own is in
 * memory, which has nothing to back up) or the project's PostgreSQL database.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { env, resetEnvForTests } from "~/utils/env.server";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { manualBackupDone, runNightlyBackup, takeBackupRun } from "./backup-files.server";
import * as dataPage from "~/routes/admin.data";
import * as download from "~/routes/admin.data.backups.$name";

let work: string;
let cookie: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "scentara-admin-data-"));
  process.env.BACKUP_DIR = join(work, "backups");
  process.env.MEDIA_DIR = join(work, "media");
  if (process.env.TEST_DB !== "postgres") {
    await closeDatabase();
    process.env.DATABASE_URL = join(work, "shop.db");
  }
  resetEnvForTests();
  await migrateToLatest(getDb());
  const admin = await createUser(getDb(), { isAdmin: true });
  cookie = await sessionCookieFor(getDb(), admin.id);
});

afterAll(async () => {
  delete process.env.BACKUP_DIR;
  delete process.env.MEDIA_DIR;
  await rm(work, { recursive: true, force: true });
});

describe("Admin → Data", () => {
  it("backs up now, lists the archive with its counts, and streams it as a download", async () => {
    const empty = (await callLoader(dataPage.loader, "/admin/data", { headers: { cookie } })) as Awaited<ReturnType<typeof dataPage.loader>>;
    expect(empty.rows).toEqual([]);

    const started = await callAction(dataPage.action, "/admin/data", { intent: "backup" }, { headers: { cookie } });
    expect(await dataOf(started)).toMatchObject({ ok: true, message: "Backup started: it appears in the list when it is complete" });
    await manualBackupDone();

    const page = (await callLoader(dataPage.loader, "/admin/data", { headers: { cookie } })) as Awaited<ReturnType<typeof dataPage.loader>>;
    expect(page.running).toBeNull();
    expect(page.failure).toBeNull();
    expect(page.rows).toHaveLength(1);
    const [row] = page.rows;
    expect(row).toMatchObject({ database: process.env.TEST_DB === "postgres" ? "PostgreSQL" : "SQLite", orders: 0, media: 0 });
    expect(row!.rows).toBeGreaterThanOrEqual(1); // the admin

    const response = (await callLoader(download.loader, `/admin/data/backups/${row!.name}`, { headers: { cookie }, params: { name: row!.name } })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${row!.name}"`);
    expect(response.headers.get("Content-Type")).toBe("application/gzip");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(await readFile(join(work, "backups", row!.name)))).toBe(true);
    expect(response.headers.get("Content-Length")).toBe(String(body.length));
  });

  it("refuses a second backup while one runs, with a clear message", async () => {
    const release = await takeBackupRun(getDb());
    const page = (await callLoader(dataPage.loader, "/admin/data", { headers: { cookie } })) as Awaited<ReturnType<typeof dataPage.loader>>;
    expect(page.running).not.toBeNull();
    const refused = await callAction(dataPage.action, "/admin/data", { intent: "backup" }, { headers: { cookie } });
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).error).toBe("A backup is already running; wait for it to finish (it appears in the list below).");
    await release();
  });

  it("shows a failed nightly backup to the owner until a nightly backup succeeds", async () => {
    const page = async () => (await callLoader(dataPage.loader, "/admin/data", { headers: { cookie } })) as Awaited<ReturnType<typeof dataPage.loader>>;
    const media = { kind: "local" as const, dir: join(work, "media") };
    const gone = join(work, "moved-away", "shop.db");
    const at = new Date("2026-11-28T00:30:00Z");
    const nightly = join(work, "nightly");
    await expect(runNightlyBackup(getDb(), { databaseUrl: gone, media, dir: nightly, keep: 7, now: at })).rejects.toThrow(`There is no SQLite database at ${gone}.`);
    expect((await page()).nightlyFailure).toEqual({ at: "28 Nov 2026, 02:30", message: `There is no SQLite database at ${gone}.` });

    const made = await runNightlyBackup(getDb(), { databaseUrl: env().DATABASE_URL, media, dir: nightly, keep: 7 });
    expect(made?.made?.path).toContain(nightly);
    expect((await page()).nightlyFailure).toBeNull();
  });

  it("serves only archives by their exact name: paths, other files and missing archives are refused", async () => {
    for (const name of ["../shop.db", "..%2Fshop.db", "/etc/passwd", "scentara-2026-05-01T00-00-00-000Z.manifest.json", "shop.db", "scentara-2026-02-30T00-00-00-000Z.tar.gz"]) {
      const response = await callLoader(download.loader, `/admin/data/backups/${encodeURIComponent(name)}`, { headers: { cookie }, params: { name } });
      expect(statusOf(response), name).toBe(400);
    }
    const missing = await callLoader(download.loader, "/admin/data/backups/x", { headers: { cookie }, params: { name: "scentara-2026-05-01T00-00-00-000Z.tar.gz" } });
    expect(statusOf(missing)).toBe(404);
  });
});
