/**
 * Writes one backup archive (docs/decisions/033): a .tar.gz holding
 *
 *   tables/<table>/000001.jsonl …  each table's rows, one canonical JSON object per line, in primary-key order, in
 *                                  parts of about 4 MiB (a tar entry states its size first, so a part is buffered;
 *                                  a table never is)
 *   media/<key> …                  the local media folder's files (with S3 media: none, the bucket is its own backup)
 *   manifest.json                  last: format, time, source database, migrations, per table its columns, rows and
 *                                  SHA-256, per media file its size and SHA-256
 *
 * The rows come from one snapshot (database-rows.server.ts) taken while the shop keeps selling. The archive is
 * written under a temporary name and renamed when complete, so a half-written archive never looks like a backup; a
 * copy of the manifest is kept beside it (`….manifest.json`) so the admin's list never has to open an archive.
 * Archives hold personal data and password hashes: they are made readable by their owner only (0600, folder 0700).
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import tar from "tar-stream";
import { isSafeMediaKey } from "~/modules/media/media-store.server";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  backupFileName,
  canonicalJson,
  dependencyOrder,
  EXCLUDED_TABLES,
  MANIFEST_ENTRY,
  sidecarName,
  tablePartEntry,
} from "./backups.logic";
import type { Manifest, ManifestMediaFile, ManifestTable } from "./backups.schema";
import { BackupError, openSnapshot, type RowConnection, type TableInfo } from "./database-rows.server";

/** Where the shop's images are: a local folder (backed up), or an S3-compatible bucket (not: it is its own backup). */
export type MediaSource = { kind: "local"; dir: string } | { kind: "s3"; bucket?: string };

export interface BackupOptions {
  /** DATABASE_URL: a SQLite file or postgres://… */
  databaseUrl: string;
  media: MediaSource;
  /** the folder the archive is written to (made when missing) */
  outDir: string;
  now?: Date;
}

export interface BackupResult {
  name: string;
  path: string;
  bytes: number;
  ms: number;
  manifest: Manifest;
}

/** Rows are written in tar entries of about this size. */
const PART_BYTES = 4 * 1024 * 1024;

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  await mkdir(options.outDir, { recursive: true, mode: 0o700 });
  const at = await freeName(options.outDir, options.now ?? new Date());
  const name = backupFileName(at);
  const path = join(options.outDir, name);
  const partial = join(options.outDir, `.${name}.partial`);

  const snapshot = await openSnapshot(options.databaseUrl);
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 6 }), createWriteStream(partial, { flags: "wx", mode: 0o600 }));
  // A failing disk must end the backup even while it waits for an entry to be taken.
  const failed = written.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => Promise.reject(error),
  );
  failed.catch(() => undefined);
  const add = (entryName: string, data: Buffer) =>
    Promise.race([
      new Promise<void>((resolve, reject) => pack.entry({ name: entryName, size: data.length, mtime: at, mode: 0o600 }, data, (e) => (e ? reject(e) : resolve()))),
      failed,
    ]);

  try {
    const migrations = await snapshot.appliedMigrations();
    if (migrations.length === 0) {
      throw new BackupError("The database has never been migrated (no schema_migrations): it holds no shop to back up.");
    }
    const all = await snapshot.tables();
    const tables = new Map(all.filter((t) => !EXCLUDED_TABLES.has(t.name)).map((t) => [t.name, t]));
    const manifestTables: ManifestTable[] = [];
    for (const tableName of dependencyOrder([...tables.values()])) {
      manifestTables.push(await writeTable(snapshot, tables.get(tableName)!, add));
    }
    // Every row is read: let the database go before the (slower) media files.
    await snapshot.close();
    const media = options.media.kind === "local" ? await writeMedia(options.media.dir, add) : s3Media(options.media.bucket);

    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      format_version: ARCHIVE_FORMAT_VERSION,
      created_at: at.toISOString(),
      source_database: snapshot.dialect,
      migrations,
      tables: manifestTables,
      excluded_tables: all.map((t) => t.name).filter((n) => EXCLUDED_TABLES.has(n)),
      media,
    };
    const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
    await add(MANIFEST_ENTRY, Buffer.from(manifestText));
    pack.finalize();
    await written;
    await rename(partial, path);
    await writeFile(join(options.outDir, sidecarName(name)), manifestText, { mode: 0o600 });
    const { size } = await stat(path);
    return { name, path, bytes: size, ms: Date.now() - started, manifest };
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  } finally {
    await snapshot.close();
  }
}

/** The time to name the archive by: now, or a millisecond later while that name is taken. */
async function freeName(dir: string, at: Date): Promise<Date> {
  const taken = new Set(await readdir(dir));
  let t = at.getTime();
  while (taken.has(backupFileName(new Date(t))) || taken.has(`.${backupFileName(new Date(t))}.partial`)) t += 1;
  return new Date(t);
}

type AddEntry = (name: string, data: Buffer) => Promise<void>;

async function writeTable(source: RowConnection, table: TableInfo, add: AddEntry): Promise<ManifestTable> {
  const hash = createHash("sha256");
  let rows = 0;
  let parts = 0;
  let buffered: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!buffered.length) return;
    parts += 1;
    const data = Buffer.from(buffered.join(""), "utf8");
    buffered = [];
    size = 0;
    await add(tablePartEntry(table.name, parts), data);
  };
  for await (const row of source.rows(table)) {
    let line: string;
    try {
      line = `${canonicalJson(row)}\n`;
    } catch (error) {
      throw new BackupError(`table ${table.name}: a row cannot be written as JSON (${(error as Error).message})`);
    }
    hash.update(line);
    rows += 1;
    buffered.push(line);
    size += line.length;
    if (size >= PART_BYTES) await flush();
  }
  await flush();
  return {
    name: table.name,
    columns: table.columns.map((c) => c.name),
    primary_key: table.primaryKey,
    rows,
    sha256: hash.digest("hex"),
    parts,
  };
}

/** The media folder's files as media keys, sorted; files the shop would not serve are reported, not copied. */
export async function listMediaFiles(dir: string): Promise<{ keys: string[]; skipped: string[] }> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { keys: [], skipped: [] };
    throw error;
  }
  const keys: string[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const key = relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/");
    // A write in progress (LocalMediaStore writes `<key>.<pid>.<random>.tmp`, then renames it).
    if (key.endsWith(".tmp")) continue;
    (isSafeMediaKey(key) ? keys : skipped).push(key);
  }
  return { keys: keys.sort(), skipped: skipped.sort() };
}

async function writeMedia(dir: string, add: AddEntry): Promise<Manifest["media"]> {
  const { keys, skipped } = await listMediaFiles(dir);
  const files: ManifestMediaFile[] = [];
  let bytes = 0;
  for (const key of keys) {
    let data: Buffer;
    try {
      // Images are small (a WebP rendition is tens of KB): read whole.
      data = await readFile(join(dir, ...key.split("/")));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        skipped.push(`${key} (deleted during the backup)`);
        continue;
      }
      throw error;
    }
    await add(`media/${key}`, data);
    files.push({ path: key, size: data.length, sha256: createHash("sha256").update(data).digest("hex") });
    bytes += data.length;
  }
  return { storage: "local", included: true, files, bytes, skipped };
}

function s3Media(bucket?: string): Manifest["media"] {
  return {
    storage: "s3",
    included: false,
    note: `Images are in the S3 bucket${bucket ? ` ${bucket}` : ""} (MEDIA_STORAGE=s3), not in this archive: keep the bucket (with versioning or its own backups). The rows refer to its keys.`,
    files: [],
    bytes: 0,
    skipped: [],
  };
}

/** Every backed-up table's row count and checksum, read now from one snapshot: what a restore must reproduce. */
export async function databaseChecksums(databaseUrl: string): Promise<Map<string, { rows: number; sha256: string }>> {
  const snapshot = await openSnapshot(databaseUrl);
  try {
    const out = new Map<string, { rows: number; sha256: string }>();
    for (const table of await snapshot.tables()) {
      if (EXCLUDED_TABLES.has(table.name)) continue;
      const hash = createHash("sha256");
      let rows = 0;
      for await (const row of snapshot.rows(table)) {
        hash.update(`${canonicalJson(row)}\n`);
        rows += 1;
      }
      out.set(table.name, { rows, sha256: hash.digest("hex") });
    }
    return out;
  } finally {
    await snapshot.close();
  }
}
