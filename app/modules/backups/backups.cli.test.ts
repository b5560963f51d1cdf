/**
 * The commands a newcomer types (README, "Backups, restore, and moving to PostgreSQL"): `npm run backup` and
 * `npm run restore FILE` as child processes, on SQLite files (the commands are the same for PostgreSQL; the
 * PostgreSQL side of the archive is covered by backups.int.test.ts).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { newId } from "~/utils/ids";
import { databaseChecksums } from "./backup.server";

const run = promisify(execFile);
let work: string;

/** npm run <script> -- args, with the shop's settings in the environment; answers its exit code and output. */
async function npm(script: string, args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: "silent" };
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", script, "--", ...args], { cwd: process.cwd(), env: childEnv, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "scentara-backup-cli-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

// A unit-project test (it makes its own SQLite files, nothing from the integration setup), run once per test run.
describe("npm run backup / npm run restore", () => {
  it("backs up a shop, restores it into a new database and media folder, and refuses to restore over it", async () => {
    const shop = join(work, "shop.db");
    const handle = openDatabase(shop);
    await migrateToLatest(handle.db);
    await handle.db.insertInto("categories").values({ id: newId(), name: "Oriental", slug: "oriental" } as never).execute();
    await handle.db.insertInto("users").values({ id: newId(), email: "thandi@example.com", name: "Thandi" } as never).execute();
    await handle.close();
    await mkdir(join(work, "media", "products"), { recursive: true });
    await writeFile(join(work, "media", "products", "oud-400.webp"), "webp bytes");

    const backup = await npm("backup", [], { DATABASE_URL: shop, MEDIA_DIR: join(work, "media"), BACKUP_DIR: join(work, "backups") });
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const [archive] = (await readdir(join(work, "backups"))).filter((n) => n.endsWith(".tar.gz"));
    expect(backup.stdout).toContain(`Backup: ${join(work, "backups", archive!)}`);
    expect(backup.stdout).toMatch(/categories\s+1\n/);
    expect(backup.stdout).toContain("media: 1 files");

    const target = { DATABASE_URL: join(work, "restored", "shop.db"), MEDIA_DIR: join(work, "restored", "media") };
    const restore = await npm("restore", [join(work, "backups", archive!)], target);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain("every checksum matches");
    expect(restore.stdout).toContain("every table read back equal to the backup");
    expect(await readFile(join(work, "restored", "media", "products", "oud-400.webp"), "utf8")).toBe("webp bytes");
    const before = await databaseChecksums(target.DATABASE_URL);
    expect(before.get("users")?.rows).toBe(1);

    const again = await npm("restore", [join(work, "backups", archive!)], target);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Restore refused: The target is not empty: categories (1 row), users (1 row), 1 media file(s)");
    expect(again.stderr).toContain("--force");
    expect(await databaseChecksums(target.DATABASE_URL)).toEqual(before);
  }, 120_000);
});
