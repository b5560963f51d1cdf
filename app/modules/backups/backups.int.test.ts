/**
 * Backup and restore on both databases (issue 20 point 3, docs/decisions/033): a backup taken while another loop keeps
 * selling is one consistent snapshot; restoring it into an empty database and media folder gives every table's rows
 * and checksum as the manifest says; SQLite → PostgreSQL and back; bad archives and non-empty targets are refused
 * with a message naming the problem, and the target keeps what it had.
 *
 * The source is a SQLite file (the sqlite project's own database is in memory, which has no file to snapshot) or the
 * project's PostgreSQL database; the targets are new SQLite files and new PostgreSQL databases (TEST_PG_URL).
 */
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { createHash } from "node:crypto";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, openDatabase, type DB, type DatabaseHandle } from "~/db/db.server";
import { migrateTo, migrateToLatest, migrationNames } from "~/db/migrate.server";
import { newId } from "~/utils/ids";
import { createThrowawayDatabase } from "../../../tests/setup/pg-database";
import { createBackup, databaseChecksums, type BackupResult } from "./backup.server";
import { BackupRunning, backupRunningSince, pruneBackups, runScheduledBackup, withBackupRun } from "./backup-files.server";
import { backupFileName, sidecarName } from "./backups.logic";
import type { Manifest } from "./backups.schema";
import { BackupError } from "./database-rows.server";
import { readArchiveEntries, restoreBackup, verifyArchive } from "./restore.server";

type Dialect = "sqlite" | "postgres";
const dialect: Dialect = process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";
const other: Dialect = dialect === "postgres" ? "sqlite" : "postgres";
const PG = process.env.TEST_PG_URL;

let work: string;
let source: { url: string; db: DB; handle?: DatabaseHandle };
let sourceMedia: string;
const drops: Array<() => Promise<void>> = [];

/** A new, empty target of this kind: a SQLite file not yet there, or a new PostgreSQL database. */
async function freshTarget(kind: Dialect): Promise<{ url: string; media: string }> {
  const media = join(work, `media-${randomUUID().slice(0, 8)}`);
  if (kind === "sqlite") return { url: join(work, `target-${randomUUID().slice(0, 8)}.db`), media };
  const database = await createThrowawayDatabase(PG!, "bk");
  drops.push(database.drop);
  return { url: database.url, media };
}

/** Rows per statement, so seeding a few thousand rows takes milliseconds. */
async function insertChunked(db: DB, table: "users" | "orders" | "order_lines", rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += 200) await db.insertInto(table).values(rows.slice(i, i + 200) as never).execute();
}

/** One sale: a new customer, an order and its two lines, in one transaction (what the snapshot must never split). */
function sale(n: string, at = new Date().toISOString()) {
  const userId = newId();
  const orderId = newId();
  return {
    user: { id: userId, email: `load-${n}@example.com`, name: `Shopper ${n}`, created_at: at, updated_at: at },
    order: {
      id: orderId,
      user_id: userId,
      status: "pending",
      payment_status: "pending",
      subtotal_cents: 69998,
      discount_amount_cents: 0,
      shipping_cents: 7000,
      total_amount_cents: 76998,
      shipping_address: JSON.stringify({ name: `Shopper ${n}`, telephone: "+27821234567", street: "1 Long St", suburb: "Gardens", city: "Cape Town", postalCode: "8001", province: "Western Cape" }),
      created_at: at,
      updated_at: at,
    },
    lines: [0, 1].map((position) => ({ id: newId(), order_id: orderId, product_id: null, name: `Scent ${position} “ünïcode” 🌸`, quantity: 2, unit_price_cents: 17499, total_price_cents: 34998, position })),
  };
}

async function tableCount(db: DB, table: "orders" | "order_lines" | "users") {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

function expectChecksumsEqual(actual: Map<string, { rows: number; sha256: string }>, manifest: Manifest) {
  for (const table of manifest.tables) expect(actual.get(table.name), table.name).toEqual({ rows: table.rows, sha256: table.sha256 });
}

/** The archive with some entries changed (same order), written to a new file. */
async function rewriteArchive(from: string, edit: (entries: Map<string, Buffer>) => void): Promise<string> {
  const entries = await readArchiveEntries(from);
  edit(entries);
  const to = join(work, `edited-${randomUUID().slice(0, 8)}.tar.gz`);
  const pack = tar.pack();
  const done = pipeline(pack, createGzip(), createWriteStream(to));
  for (const [name, data] of entries) await new Promise<void>((resolve, reject) => pack.entry({ name, size: data.length }, data, (e) => (e ? reject(e) : resolve())));
  pack.finalize();
  await done;
  return to;
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
  } catch {
    return [];
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "scentara-backups-"));
  if (dialect === "sqlite") {
    const handle = openDatabase(join(work, "source.db"));
    await migrateToLatest(handle.db);
    source = { url: join(work, "source.db"), db: handle.db, handle };
  } else {
    source = { url: process.env.DATABASE_URL!, db: getDb() };
  }
  // A shop with some history: 1000 sales (2000 order lines), the demo's kind of media, and a write in progress.
  // Orders of past days (their triggers mark the days' sums stale, migration 0027: derived rows a restore must carry as they are).
  const sales = Array.from({ length: 1000 }, (_, i) => sale(`seed-${i}`, new Date(Date.now() - (3 + (i % 60)) * 86_400_000).toISOString()));
  await insertChunked(source.db, "users", sales.map((s) => s.user));
  await insertChunked(source.db, "orders", sales.map((s) => s.order));
  await insertChunked(source.db, "order_lines", sales.flatMap((s) => s.lines));
  sourceMedia = join(work, "source-media");
  await mkdir(join(sourceMedia, "products"), { recursive: true });
  await writeFile(join(sourceMedia, "products", "amber-oud-400.webp"), Buffer.from("RIFF....WEBPVP8 amber"));
  await writeFile(join(sourceMedia, "products", "amber-oud-800.webp"), Buffer.from("RIFF....WEBPVP8 amber, larger"));
  await writeFile(join(sourceMedia, "products", "half-written.webp.123.abc.tmp"), Buffer.from("not yet"));
});

afterAll(async () => {
  await source?.handle?.close();
  for (const drop of drops) await drop();
  await rm(work, { recursive: true, force: true });
});

let backup: BackupResult;
let restored: { url: string; media: string };

describe(`backup and restore (${dialect})`, () => {
  it("backs up one consistent snapshot while another loop keeps selling, and restores it equal, table by table", async () => {
    let stop = false;
    let written = 0;
    const load = (async () => {
      while (!stop) {
        const s = sale(`load-${written}`);
        await source.db.transaction().execute(async (trx) => {
          await trx.insertInto("users").values(s.user).execute();
          await trx.insertInto("orders").values(s.order as never).execute();
          await trx.insertInto("order_lines").values(s.lines).execute();
        });
        written += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (written < 5) await new Promise((resolve) => setTimeout(resolve, 2));
    const ordersBefore = await tableCount(source.db, "orders");
    const writtenBefore = written;
    backup = await createBackup({ databaseUrl: source.url, media: { kind: "local", dir: sourceMedia }, outDir: join(work, "backups") });
    const writtenDuring = written - writtenBefore;
    stop = true;
    await load;

    const m = backup.manifest;
    const rows = (name: string) => m.tables.find((t) => t.name === name)!.rows;
    // The shop kept selling during the backup, and the archive holds whole sales only: every order with both its
    // lines and its customer, as of one moment between the first and the last write around it.
    expect(writtenDuring, "sales written while the backup ran").toBeGreaterThan(0);
    expect(rows("orders")).toBeGreaterThanOrEqual(ordersBefore);
    expect(rows("orders")).toBeLessThanOrEqual(await tableCount(source.db, "orders"));
    expect(rows("order_lines")).toBe(2 * rows("orders"));
    expect(rows("users")).toBe(rows("orders"));
    expect(m.source_database).toBe(dialect);
    expect(m.tables.map((t) => t.name)).not.toContain("sessions");
    expect(m.media.files.map((f) => f.path)).toEqual(["products/amber-oud-400.webp", "products/amber-oud-800.webp"]);
    expect(JSON.parse(await readFile(join(work, "backups", sidecarName(backup.name)), "utf8"))).toEqual(m);
    expect((await stat(backup.path)).mode & 0o777).toBe(0o600);

    restored = await freshTarget(dialect);
    const result = await restoreBackup({ file: backup.path, databaseUrl: restored.url, media: { kind: "local", dir: restored.media } });
    expect(result.tables.reduce((n, t) => n + t.rows, 0)).toBeGreaterThan(3000);
    expectChecksumsEqual(await databaseChecksums(restored.url), m);
    expect(await listFiles(restored.media)).toEqual(["products/amber-oud-400.webp", "products/amber-oud-800.webp"]);
    expect(await readFile(join(restored.media, "products", "amber-oud-800.webp"), "utf8")).toBe("RIFF....WEBPVP8 amber, larger");
  });

  it.skipIf(dialect === "sqlite" && !PG)(`moves ${dialect} → ${other} and back, every table equal`, async () => {
    const there = await freshTarget(other);
    await restoreBackup({ file: backup.path, databaseUrl: there.url, media: { kind: "local", dir: there.media } });
    expectChecksumsEqual(await databaseChecksums(there.url), backup.manifest);

    const second = await createBackup({ databaseUrl: there.url, media: { kind: "local", dir: there.media }, outDir: join(work, "backups-other") });
    expect(second.manifest.source_database).toBe(other);
    // The same rows give the same archive rows, whichever database they were read from.
    expect(second.manifest.tables.map(({ name, rows, sha256 }) => ({ name, rows, sha256 }))).toEqual(backup.manifest.tables.map(({ name, rows, sha256 }) => ({ name, rows, sha256 })));
    const back = await freshTarget(dialect);
    await restoreBackup({ file: second.path, databaseUrl: back.url, media: { kind: "local", dir: back.media } });
    expectChecksumsEqual(await databaseChecksums(back.url), backup.manifest);
  });

  describe("refuses, says why, and keeps what the target holds", () => {
    let before: Map<string, { rows: number; sha256: string }>;
    let mediaBefore: string[];
    beforeAll(async () => {
      before = await databaseChecksums(restored.url);
      mediaBefore = await listFiles(restored.media);
    });
    async function refused(file: string, message: RegExp, force = true) {
      const attempt = restoreBackup({ file, databaseUrl: restored.url, media: { kind: "local", dir: restored.media }, force });
      await expect(attempt).rejects.toThrow(BackupError);
      await expect(attempt).rejects.toThrow(message);
      expect(await databaseChecksums(restored.url)).toEqual(before);
      expect(await listFiles(restored.media)).toEqual(mediaBefore);
      expect((await readdir(work)).filter((n) => n.includes(".restore-"))).toEqual([]);
    }

    it("a truncated archive", async () => {
      const cut = join(work, "cut.tar.gz");
      await writeFile(cut, await readFile(backup.path));
      await truncate(cut, Math.floor(backup.bytes / 2));
      await refused(cut, /cut\.tar\.gz is truncated: it ends (in the middle of|after) /);
    });

    it("a tampered row (its table's checksum no longer matches)", async () => {
      const tampered = await rewriteArchive(backup.path, (entries) => {
        const part = entries.get("tables/orders/000001.jsonl")!.toString("utf8");
        entries.set("tables/orders/000001.jsonl", Buffer.from(part.replace('"total_amount_cents":76998', '"total_amount_cents":1')));
      });
      await refused(tampered, /the rows of table orders do not match their checksum in the manifest/);
    });

    it("an archive from a newer version of the shop (a migration this one does not know)", async () => {
      const newer = await rewriteArchive(backup.path, (entries) => {
        const manifest = JSON.parse(entries.get("manifest.json")!.toString("utf8")) as Manifest;
        manifest.migrations.push("9999_from_the_future");
        entries.set("manifest.json", Buffer.from(JSON.stringify(manifest)));
      });
      await verifyArchive(newer); // the archive itself is whole
      await refused(newer, /made by a newer version of the shop: it has migration 9999_from_the_future/);
    });

    it("rows the database refuses (checksums recomputed): nothing is kept, even after --force emptied the tables", async () => {
      const bad = await rewriteArchive(backup.path, (entries) => {
        const part = entries.get("tables/orders/000001.jsonl")!.toString("utf8");
        const changed = part.replace('"total_amount_cents":76998', '"total_amount_cents":-5');
        entries.set("tables/orders/000001.jsonl", Buffer.from(changed));
        const manifest = JSON.parse(entries.get("manifest.json")!.toString("utf8")) as Manifest;
        manifest.tables.find((t) => t.name === "orders")!.sha256 = createHash("sha256").update(changed).digest("hex");
        entries.set("manifest.json", Buffer.from(JSON.stringify(manifest)));
      });
      await refused(bad, /table orders: the database refused a row/);
    });

    it("a non-empty target without --force; with it, the backup replaces what is there", async () => {
      await refused(backup.path, /The target is not empty: .*orders \(\d+ rows\).*--force/, false);
      await restoreBackup({ file: backup.path, databaseUrl: restored.url, media: { kind: "local", dir: restored.media }, force: true });
      expectChecksumsEqual(await databaseChecksums(restored.url), backup.manifest);
    });
  });

  it("restores an archive of an older version of the shop: the empty target is brought to its schema, then migrated on", async () => {
    const names = migrationNames();
    const older = names.at(-2)!;
    const oldShop = openDatabase(join(work, "older.db"));
    await migrateTo(oldShop.db, older);
    const s = sale("older", "2026-01-15T10:00:00.000Z");
    await oldShop.db.insertInto("users").values(s.user).execute();
    await oldShop.db.insertInto("orders").values(s.order as never).execute();
    await oldShop.db.insertInto("order_lines").values(s.lines).execute();
    await oldShop.close();
    const archive = await createBackup({ databaseUrl: join(work, "older.db"), media: { kind: "local", dir: join(work, "no-media") }, outDir: join(work, "backups-older") });
    expect(archive.manifest.migrations.at(-1)).toBe(older);

    const target = await freshTarget(dialect);
    const result = await restoreBackup({ file: archive.path, databaseUrl: target.url, media: { kind: "local", dir: target.media } });
    expect(result.migratedAfter).toEqual([names.at(-1)]);
    const after = await databaseChecksums(target.url);
    for (const table of ["users", "orders", "order_lines"]) expect(after.get(table)?.rows, table).toBe(archive.manifest.tables.find((t) => t.name === table)!.rows);

    // The other way round is refused: this archive into a database already at a newer schema.
    const newer = await freshTarget(dialect);
    const handle = openDatabase(newer.url, 2);
    await migrateToLatest(handle.db);
    await handle.close();
    await expect(restoreBackup({ file: archive.path, databaseUrl: newer.url, media: { kind: "local", dir: newer.media } })).rejects.toThrow(
      `This database is at a newer schema than the backup (it has migration ${names.at(-1)}, the backup stops at ${older})`,
    );
  });

  it("nightly: backs up when the newest archive is a day old, keeps the newest BACKUP_KEEP, one run at a time", async () => {
    const dir = join(work, "nightly");
    await mkdir(dir);
    const day = 24 * 60 * 60_000;
    const now = new Date();
    const old = [3, 2, 1].map((d) => backupFileName(new Date(now.getTime() - d * day)));
    for (const name of old) {
      await writeFile(join(dir, name), "old archive");
      await writeFile(join(dir, sidecarName(name)), "{}");
    }
    const first = await runScheduledBackup({ databaseUrl: source.url, media: { kind: "local", dir: sourceMedia }, dir, keep: 2, now });
    expect(first!.made!.name).toBe(backupFileName(now));
    expect(first!.deleted.sort()).toEqual(old.slice(0, 2).sort());
    expect((await readdir(dir)).sort()).toEqual([old[2]!, sidecarName(old[2]!), backupFileName(now), sidecarName(backupFileName(now))].sort());
    // An hour later (a restart, a second server): not due, nothing made.
    const again = await runScheduledBackup({ databaseUrl: source.url, media: { kind: "local", dir: sourceMedia }, dir, keep: 2, now: new Date(now.getTime() + 3_600_000) });
    expect(again!.made).toBeNull();
    expect(await runScheduledBackup({ databaseUrl: source.url, media: { kind: "local", dir: sourceMedia }, dir, keep: 0 })).toBeNull();
    expect(await pruneBackups(dir, 1)).toEqual([old[2]!]);

    // Two runs at once (two servers, or the owner's button during the nightly run): the second is refused.
    const db = getDb();
    let inside!: () => void;
    const gate = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = withBackupRun(db, () => new Promise<void>((resolve) => ((release = resolve), inside())));
    await gate;
    expect(await backupRunningSince(db)).not.toBeNull();
    await expect(withBackupRun(db, async () => "second")).rejects.toThrow(BackupRunning);
    release();
    await held;
    expect(await backupRunningSince(db)).toBeNull();
    expect(await withBackupRun(db, async () => "next")).toBe("next");
  });
});
