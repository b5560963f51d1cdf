/**
 * Every form of DATABASE_URL through the commands an owner runs (docs/decisions/046): `npm run seed`, `npm run
 * create-admin` (which makes the local session secret beside a SQLite file), `npm run backup` (into the folder beside
 * the file) and `npm run restore`, each as its own process (node with tsx, as npm runs it) in a temporary shop folder.
 * The sqlite project runs the SQLite forms (relative ones taken from that folder); the postgres project the
 * postgres:// form on the throwaway server. The forms are read by one function, unit-tested in database-url.server.test.ts.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { backupDirectory, runNightlyBackup } from "~/modules/backups/backup-files.server";
import { databaseChecksums } from "~/modules/backups/backup.server";
import { createThrowawayDatabase } from "../setup/pg-database";

const project = process.cwd();
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "scentara-dburl-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** scripts/<name>.ts run in the shop folder `cwd` with only these settings (a development shop: no AUTH_SECRET). */
function command(name: string, args: string[], cwd: string, settings: Record<string, string>) {
  const env = { PATH: process.env.PATH, NODE_ENV: "development", LOG_LEVEL: "silent", TSX_TSCONFIG_PATH: join(project, "tsconfig.json"), ...settings };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ["--import", tsx, join(project, "scripts", `${name}.ts`), ...args], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** Every name under `dir`, recursively, relative to it. */
async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

interface Form {
  name: string;
  /** DATABASE_URL for the shop in `dir`, and for the database a backup is restored into */
  url: (dir: string) => { shop: string; restored: string };
  /** where the session secret and (for SQLite) the database files must end up */
  expected: (dir: string) => { secret: string; shop?: string; restored?: string };
  /** `npm run seed` first (~0.6 s of CPU a run): for the form that was broken and for PostgreSQL; create-admin opens the database the same way */
  seed?: boolean;
}

const sqliteForms: Form[] = [
  { name: "a path relative to the shop's folder", url: () => ({ shop: "data/shop.db", restored: "data/restored.db" }), expected: (d) => sqlite(join(d, "data")) },
  { name: "an absolute path", url: (d) => ({ shop: join(d, "db", "shop.db"), restored: join(d, "db", "restored.db") }), expected: (d) => sqlite(join(d, "db")) },
  { name: "file:/absolute/path", url: (d) => ({ shop: `file:${d}/db/shop.db`, restored: `file:${d}/db/restored.db` }), expected: (d) => sqlite(join(d, "db")), seed: true },
  { name: "file:///absolute/path", url: (d) => ({ shop: `file://${d}/db/shop.db`, restored: `file://${d}/db/restored.db` }), expected: (d) => sqlite(join(d, "db")) },
  { name: "file:relative/path", url: () => ({ shop: "file:db/shop.db", restored: "file:db/restored.db" }), expected: (d) => sqlite(join(d, "db")) },
];

function sqlite(folder: string) {
  return { secret: join(folder, ".auth-secret"), shop: join(folder, "shop.db"), restored: join(folder, "restored.db") };
}

const onSqlite = process.env.TEST_DB !== "postgres";
const forms: Form[] = onSqlite ? sqliteForms : [postgresForm()];

function postgresForm(): Form {
  const databases: Array<{ drop: () => Promise<void> }> = [];
  afterAll(() => Promise.all(databases.map((d) => d.drop())));
  const urls: { shop: string; restored: string } = { shop: "", restored: "" };
  beforeAll(async () => {
    const base = process.env.TEST_PG_URL!;
    for (const which of ["shop", "restored"] as const) {
      const database = await createThrowawayDatabase(base, "dburl");
      databases.push(database);
      urls[which] = database.url;
    }
  });
  // PostgreSQL keeps the shop's local secret in data/ of the shop's folder
  return { name: "postgres://", url: () => urls, expected: (d) => ({ secret: join(d, "data", ".auth-secret") }), seed: true };
}

describe.concurrent("the commands, with each form of DATABASE_URL", () => {
  it.each(forms)("$name: each command uses the one database, the secret and backups beside it, and restore puts it back", async (form) => {
    const dir = await mkdtemp(join(work, "shop-"));
    const { shop, restored } = form.url(dir);
    const expected = form.expected(dir);
    const media = { MEDIA_DIR: join(dir, "media") };

    if (form.seed) {
      const seeded = await command("seed", ["--no-images"], dir, { DATABASE_URL: shop, ...media });
      expect(seeded.stderr).toBe("");
      expect(seeded.stdout).toMatch(/Demo catalogue: added 3 categories, \d+ products/);
      if (expected.shop) expect(seeded.stdout).toContain(`Database: SQLite ${expected.shop}\n`);
    }

    const admin = await command("create-admin", ["owner@example.co.za"], dir, { DATABASE_URL: shop, ...media });
    expect(admin.stderr).toBe("");
    expect(admin.stdout).toContain("Admin account created: owner@example.co.za");
    if (expected.shop) expect(admin.stdout).toContain(`in SQLite ${expected.shop}\n`);
    expect((await stat(expected.secret)).mode & 0o777).toBe(0o600);

    const backup = await command("backup", [], dir, { DATABASE_URL: shop, ...media });
    expect(backup.stderr).toBe("");
    const archive = /^Backup: (.+\.tar\.gz)$/m.exec(backup.stdout)?.[1];
    // beside the SQLite file (data/backups with PostgreSQL), as the nightly backup and Admin → Data use
    expect(archive?.startsWith(join(expected.shop ? join(expected.shop, "..") : join(dir, "data"), "backups") + "/")).toBe(true);
    expect(backup.stdout).toMatch(form.seed ? /^ {4}products\s+[1-9]\d*$/m : /^ {4}users\s+1$/m);

    const restore = await command("restore", [archive!], dir, { DATABASE_URL: restored, MEDIA_DIR: join(dir, "restored-media") });
    expect(restore.stderr).toBe("");
    expect(restore.stdout).toContain("every table read back equal to the backup");
    const [before, after] = await Promise.all([databaseChecksums(expected.shop ?? shop), databaseChecksums(expected.restored ?? restored)]);
    expect(after.get("users")).toEqual(before.get("users"));
    expect(after.get("accounts")).toEqual(before.get("accounts"));
    expect(after.get("products")).toEqual(before.get("products"));

    // nothing anywhere under a name beginning with file: (the shop's folder, and the project's)
    expect((await tree(dir)).filter((n) => n.split("/").some((part) => part.startsWith("file:")))).toEqual([]);
    expect((await readdir(project)).filter((n) => n.startsWith("file:"))).toEqual([]);
  }, 120_000);
});

// Neither needs the project's database: declared for the sqlite project only (once per run).
if (onSqlite) {
  describe("a DATABASE_URL the shop does not read", () => {
    it("stops the command before it does anything, naming the variable and the forms it takes", async () => {
      const dir = await mkdtemp(join(work, "refused-"));
      const refused = await command("backup", [], dir, { DATABASE_URL: "mysql://shop:secret@127.0.0.1/shop" });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Invalid configuration:\n {2}DATABASE_URL: starts with mysql:, which the shop does not read\. It takes a SQLite file .*postgres:\/\//);
      expect(refused.stderr).not.toContain("secret@");
      expect(await tree(dir)).toEqual([]);
    }, 60_000);
  });

  describe("the nightly backup with DATABASE_URL=file:/path", () => {
    it("backs up the file into the backups folder beside it", async () => {
      const dir = await mkdtemp(join(work, "nightly-"));
      const url = `file:${dir}/shop.db`;
      const handle = openDatabase(url);
      try {
        await migrateToLatest(handle.db);
        const result = await runNightlyBackup(handle.db, { databaseUrl: url, media: { kind: "local", dir: join(dir, "media") }, dir: backupDirectory({ DATABASE_URL: url, BACKUP_DIR: undefined }), keep: 7 });
        expect(result?.made?.path.startsWith(join(dir, "backups") + "/")).toBe(true);
        expect((await readdir(dir)).sort()).toEqual(["backups", "shop.db", "shop.db-shm", "shop.db-wal"]);
      } finally {
        await handle.close();
      }
    });
  });
}
