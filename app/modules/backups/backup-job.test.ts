/** The nightly backup's place among the server's jobs (server/jobs.ts); what a run does is in backups.int.test.ts. */
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { BACKUP_FIRST_AFTER_MS, BACKUP_LEASE_MS, startJobs } from "../../../server/jobs";
import { backupDirectory } from "./backup-files.server";
import { NIGHTLY_BACKUP_EVERY_MS } from "./backups.logic";

const quietLogger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() });
const base = { UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0 };
const noDb = (() => {
  throw new Error("no database in this test");
}) as never;

describe("the nightly backup job", () => {
  it("is scheduled when BACKUP_KEEP is above 0: every 24 hours, first some minutes after start, its lease outliving the interval", async () => {
    const started = startJobs({ ...base, BACKUP_KEEP: 7, DATABASE_URL: "data/shop.db", MEDIA_STORAGE: "local" }, noDb, quietLogger() as never);
    expect(started.jobs.map((j) => j.name)).toContain("nightly-backup");
    // every form of DATABASE_URL that names a file (docs/decisions/046)
    for (const url of ["file:/srv/scentara/shop.db", "file:///srv/scentara/shop.db", "/srv/scentara/shop.db"]) {
      const other = startJobs({ ...base, BACKUP_KEEP: 7, DATABASE_URL: url, MEDIA_STORAGE: "local" }, noDb, quietLogger() as never);
      expect(other.jobs.map((j) => j.name)).toContain("nightly-backup");
      await other.stopAll();
    }
    expect(NIGHTLY_BACKUP_EVERY_MS).toBe(24 * 60 * 60_000);
    expect(BACKUP_FIRST_AFTER_MS).toBeGreaterThanOrEqual(60_000);
    expect(BACKUP_LEASE_MS).toBeGreaterThan(NIGHTLY_BACKUP_EVERY_MS);
    await started.stopAll();
  });

  it("is off with BACKUP_KEEP=0 (and says so), without the setting, and with an in-memory database", async () => {
    const logger = quietLogger();
    const off = startJobs({ ...base, BACKUP_KEEP: 0, DATABASE_URL: "data/shop.db", MEDIA_STORAGE: "local" }, noDb, logger as never);
    const backups = (started: ReturnType<typeof startJobs>) => started.jobs.filter((j) => j.name === "nightly-backup");
    expect(backups(off)).toEqual([]);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("BACKUP_KEEP=0"));
    expect(backups(startJobs(base, noDb, quietLogger() as never))).toEqual([]);
    expect(backups(startJobs({ ...base, BACKUP_KEEP: 3, DATABASE_URL: ":memory:" }, noDb, quietLogger() as never))).toEqual([]);
  });

  it("writes beside the SQLite file however DATABASE_URL names it; data/backups for PostgreSQL; BACKUP_DIR when set", () => {
    for (const url of ["/srv/scentara/shop.db", "file:/srv/scentara/shop.db", "file:///srv/scentara/shop.db"]) {
      expect(backupDirectory({ DATABASE_URL: url, BACKUP_DIR: undefined })).toBe("/srv/scentara/backups");
    }
    expect(backupDirectory({ DATABASE_URL: "file:data/shop.db", BACKUP_DIR: undefined })).toBe(join(process.cwd(), "data", "backups"));
    expect(backupDirectory({ DATABASE_URL: "postgres://shop@db/shop", BACKUP_DIR: undefined })).toBe(join(process.cwd(), "data", "backups"));
    expect(backupDirectory({ DATABASE_URL: "file:/srv/scentara/shop.db", BACKUP_DIR: "/backups" })).toBe("/backups");
  });
});
