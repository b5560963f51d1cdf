/**
 * Checks and restores a backup archive (docs/decisions/033) into SQLite or PostgreSQL, whichever made it.
 *
 * 1. The whole archive is checked first, without touching anything: it must be a complete archive of a format this
 *    shop reads, with every table's row count and SHA-256 and every media file's size and SHA-256 as its manifest
 *    says. A truncated or altered archive is refused here, with the table or file named.
 * 2. The target must be empty (its tables holding no more rows than fresh migrations put there, its media folder no
 *    files) unless `force`: a restore replaces everything. It must not be at a newer schema than the backup; an
 *    empty or older database is first migrated to the backup's migrations.
 * 3. One transaction: suspend the triggers, empty the tables (children first), insert every row (parents first, in chunks), reset
 *    PostgreSQL sequences, read every table back and compare its count and checksum with the manifest, commit. Any
 *    failure rolls everything back: nothing already stored is lost. Media files are staged beside the media folder
 *    and moved in only after the commit.
 * 4. The database is migrated on to this version of the shop.
 */
import { createHash, randomBytes, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createGunzip } from "node:zlib";
import { sql, type Kysely } from "kysely";
import tar from "tar-stream";
import { openDatabase, type DB } from "~/db/db.server";
import { migrateTo, migrateToLatest, migrationNames } from "~/db/migrate.server";
import { isSafeMediaKey, type MediaStore } from "~/modules/media/media-store.server";
import { ARCHIVE_FORMAT_VERSION, canonicalJson, EXCLUDED_TABLES, parseEntryName, type ArchiveEntry } from "./backups.logic";
import { manifestSchema, type Manifest } from "./backups.schema";
import { listMediaFiles } from "./backup.server";
import { BackupError, openWriter, type RowConnection, type TableInfo } from "./database-rows.server";

/** Where restored images go: a local folder, or the configured S3-compatible store. */
export type MediaTarget = { kind: "local"; dir: string } | { kind: "s3"; store: MediaStore };

export interface RestoreOptions {
  file: string;
  /** DATABASE_URL of the target: a SQLite file (made when missing) or postgres://… (the database must exist) */
  databaseUrl: string;
  media: MediaTarget;
  /** replace what the target holds (in the same transaction as the restore) */
  force?: boolean;
}

export interface RestoreResult {
  manifest: Manifest;
  tables: Array<{ name: string; rows: number }>;
  media: { files: number; bytes: number };
  /** migrations run after the restore, to bring the backup up to this version of the shop */
  migratedAfter: string[];
  /** PostgreSQL sequences moved past the restored keys */
  sequences: string[];
  notes: string[];
  ms: number;
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const INSERT_BATCH_ROWS = 1000;

// ---------------------------------------------------------------- reading the archive

type Visit = (entry: ArchiveEntry, name: string, body: AsyncIterable<Buffer>) => Promise<void>;

/** Streams through the archive's entries in order; a damaged or cut-off archive says where it broke. */
async function scanArchive(file: string, visit: Visit): Promise<void> {
  const label = basename(file);
  const extract = tar.extract();
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on("error", (e) => extract.destroy(e));
  gunzip.on("error", (e) => extract.destroy(e));
  source.pipe(gunzip).pipe(extract as unknown as NodeJS.WritableStream);
  let current: string | null = null;
  let previous: string | null = null;
  try {
    for await (const entry of extract) {
      current = entry.header.name;
      if (entry.header.type !== "file") throw new BackupError(`${label}: unexpected ${entry.header.type} entry ${current} (a backup holds files only)`);
      await visit(parseEntryName(current), current, entry as AsyncIterable<Buffer>);
      // An entry the visitor left unread must still be drained, or the extractor never reaches the next one.
      for await (const _ of entry as AsyncIterable<Buffer>) void _;
      previous = current;
      current = null;
    }
  } catch (error) {
    source.destroy();
    if (error instanceof BackupError) throw error;
    const e = error as NodeJS.ErrnoException;
    if (e.code === "ENOENT") throw new BackupError(`There is no file ${file}.`);
    if (e.code === "Z_DATA_ERROR" || /incorrect header check/i.test(e.message)) {
      throw new BackupError(`${label} is not a backup archive, or is damaged (${e.message})${where(current, previous)}.`);
    }
    if (e.code === "Z_BUF_ERROR" || /unexpected end/i.test(e.message)) {
      throw new BackupError(`${label} is truncated: it ends${current ? ` in the middle of ${current}` : previous ? ` after ${previous}` : " before its first entry"} (an incomplete copy or download?).`);
    }
    throw new BackupError(`${label} cannot be read${where(current, previous)}: ${e.message}`);
  }
}

function where(current: string | null, previous: string | null) {
  return current ? ` (in ${current})` : previous ? ` (after ${previous})` : "";
}

async function readAll(body: AsyncIterable<Buffer>, limit: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new BackupError(`${name} is larger than ${limit} bytes: not a backup's`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n += 1;
  return n;
}

function parseManifest(data: Buffer, label: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(data.toString("utf8"));
  } catch {
    throw new BackupError(`${label}: manifest.json is not valid JSON (the archive was altered or is damaged).`);
  }
  const header = json as { format?: unknown; format_version?: unknown };
  if (header?.format !== "scentara-backup") throw new BackupError(`${label}: not a Scentara backup (manifest format ${JSON.stringify(header?.format)}).`);
  if (typeof header.format_version === "number" && header.format_version > ARCHIVE_FORMAT_VERSION) {
    throw new BackupError(`${label} was made by a newer version of the shop (archive format ${header.format_version}; this one reads ${ARCHIVE_FORMAT_VERSION}): update the shop first.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BackupError(`${label}: manifest.json is not valid at ${issue.path.join(".") || "its top"}: ${issue.message}`);
  }
  return parsed.data;
}

interface TableTally {
  rows: number;
  parts: number;
  hash: Hash;
  endsWithNewline: boolean;
}

/**
 * Checks the whole archive against its manifest and answers the manifest; throws a BackupError naming the first
 * problem (a table whose rows or checksum differ, a missing or altered media file, a truncated file).
 */
export async function verifyArchive(file: string): Promise<Manifest> {
  const label = basename(file);
  const tallies = new Map<string, TableTally>();
  const tableOrder: string[] = [];
  const media = new Map<string, { size: number; sha256: string }>();
  let manifest: Manifest | null = null;

  await scanArchive(file, async (entry, name, body) => {
    if (manifest) throw new BackupError(`${label}: ${name} follows manifest.json, which must be the last entry (the archive was altered).`);
    if (entry.kind === "table") {
      let tally = tallies.get(entry.table);
      if (!tally) {
        tally = { rows: 0, parts: 0, hash: createHash("sha256"), endsWithNewline: true };
        tallies.set(entry.table, tally);
        tableOrder.push(entry.table);
      } else if (tableOrder.at(-1) !== entry.table) {
        throw new BackupError(`${label}: the parts of table ${entry.table} are not together (${name}); the archive was altered.`);
      }
      if (entry.part !== tally.parts + 1) throw new BackupError(`${label}: ${name} is out of order: part ${tally.parts + 1} of table ${entry.table} was expected.`);
      tally.parts += 1;
      for await (const chunk of body) {
        tally.hash.update(chunk);
        tally.rows += countNewlines(chunk);
        if (chunk.length) tally.endsWithNewline = chunk[chunk.length - 1] === 10;
      }
      if (!tally.endsWithNewline) throw new BackupError(`${label}: ${name} ends in the middle of a row (the archive was altered or is damaged).`);
    } else if (entry.kind === "media") {
      if (!isSafeMediaKey(entry.key)) throw new BackupError(`${label}: ${name} is not a media file name this shop accepts.`);
      if (media.has(entry.key)) throw new BackupError(`${label}: ${name} appears twice.`);
      const hash = createHash("sha256");
      let size = 0;
      for await (const chunk of body) {
        hash.update(chunk);
        size += chunk.length;
      }
      media.set(entry.key, { size, sha256: hash.digest("hex") });
    } else if (entry.kind === "manifest") {
      manifest = parseManifest(await readAll(body, MAX_MANIFEST_BYTES, name), label);
    } else {
      throw new BackupError(`${label}: unexpected entry ${name} (a backup holds manifest.json, tables/ and media/ only).`);
    }
  });

  if (!manifest) throw new BackupError(`${label} has no manifest.json: the archive is incomplete (truncated?) or not a backup.`);
  const m = manifest as Manifest;
  const names = new Set<string>();
  for (const table of m.tables) {
    if (names.has(table.name)) throw new BackupError(`${label}: the manifest lists table ${table.name} twice.`);
    names.add(table.name);
    const tally = tallies.get(table.name);
    const rows = tally?.rows ?? 0;
    if ((tally?.parts ?? 0) !== table.parts) {
      throw new BackupError(`${label}: table ${table.name} has ${tally?.parts ?? 0} part(s) in the archive, its manifest says ${table.parts} (parts are missing or were added).`);
    }
    if (rows !== table.rows) {
      throw new BackupError(`${label}: table ${table.name} holds ${rows} rows in the archive, its manifest says ${table.rows} (the archive was altered or is damaged).`);
    }
    const sha256 = tally ? tally.hash.digest("hex") : createHash("sha256").digest("hex");
    if (sha256 !== table.sha256) {
      throw new BackupError(`${label}: the rows of table ${table.name} do not match their checksum in the manifest (the archive was altered or is damaged).`);
    }
  }
  for (const table of tallies.keys()) {
    if (!names.has(table)) throw new BackupError(`${label}: table ${table} is in the archive but not in its manifest.`);
  }
  const expectedOrder = m.tables.filter((t) => t.parts > 0).map((t) => t.name);
  if (expectedOrder.join() !== tableOrder.join()) throw new BackupError(`${label}: the tables are not in the manifest's order (the archive was altered).`);

  if (m.media.included) {
    const listed = new Set<string>();
    for (const f of m.media.files) {
      listed.add(f.path);
      const found = media.get(f.path);
      if (!found) throw new BackupError(`${label}: media file ${f.path} is in the manifest but not in the archive.`);
      if (found.size !== f.size || found.sha256 !== f.sha256) {
        throw new BackupError(`${label}: media file ${f.path} does not match its size and checksum in the manifest (altered or damaged).`);
      }
    }
    for (const key of media.keys()) if (!listed.has(key)) throw new BackupError(`${label}: media file ${key} is in the archive but not in its manifest.`);
  } else if (media.size) {
    throw new BackupError(`${label}: the manifest says the archive holds no media, yet it has ${media.size} file(s).`);
  }
  return m;
}

// ---------------------------------------------------------------- the target

async function appliedMigrations(db: DB): Promise<string[]> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === "schema_migrations")) return [];
  const { rows } = await sql<{ name: string }>`select name from schema_migrations`.execute(db);
  return rows.map((r) => r.name);
}

/** Is `part` the first part of `whole` (as sets: the first |part| of whole)? */
function isLeading(part: readonly string[], whole: readonly string[]): boolean {
  const set = new Set(part);
  return set.size === part.length && whole.slice(0, set.size).every((n) => set.has(n));
}

/** Rows per table, of every table a backup carries. */
async function rowCounts(db: Kysely<any>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of await db.introspection.getTables()) {
    if (EXCLUDED_TABLES.has(table.name)) continue;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)}`.execute(db);
    counts.set(table.name, Number(rows[0]!.n));
  }
  return counts;
}

/** What freshly run migrations put in the tables (a one-row counter or two): a target holding no more is empty. */
function freshCounts(upTo: string | undefined): Promise<Map<string, number>> {
  if (!upTo) return Promise.resolve(new Map());
  let counts = freshCountsCache.get(upTo);
  if (!counts) {
    counts = (async () => {
      const scratch = openDatabase(":memory:");
      try {
        await migrateTo(scratch.db, upTo);
        return await rowCounts(scratch.db);
      } finally {
        await scratch.close();
      }
    })();
    counts.catch(() => freshCountsCache.delete(upTo));
    freshCountsCache.set(upTo, counts);
  }
  return counts;
}
const freshCountsCache = new Map<string, Promise<Map<string, number>>>();

async function prepareTarget(options: RestoreOptions, manifest: Manifest): Promise<{ notes: string[] }> {
  const handle = openDatabase(options.databaseUrl, 2);
  try {
    const db = handle.db;
    const known = migrationNames();
    const archive = manifest.migrations;
    const unknown = archive.find((n) => !known.includes(n));
    if (unknown) {
      throw new BackupError(`The backup was made by a newer version of the shop: it has migration ${unknown}, which this version does not know. Update the shop, then restore.`);
    }
    if (!isLeading(archive, known)) {
      throw new BackupError(`The backup's migrations (${archive.at(-1) ?? "none"}) do not follow this version's: it comes from another line of the shop's code.`);
    }
    const applied = await appliedMigrations(db);
    const ahead = applied.find((n) => !archive.includes(n));
    if (ahead || !isLeading(applied, known)) {
      throw new BackupError(
        `This database is at a newer schema than the backup (it has migration ${ahead ?? applied.at(-1)}, the backup stops at ${archive.at(-1)}). ` +
          "Restore into a new, empty database (a new SQLite file, or CREATE DATABASE on PostgreSQL); the shop migrates it on.",
      );
    }

    // Empty? Nothing beyond what fresh migrations make, and no media files.
    const baseline = await freshCounts(applied.length ? known[applied.length - 1] : undefined);
    const counts = applied.length ? await rowCounts(db) : new Map<string, number>();
    const occupied = [...counts].filter(([table, n]) => n > (baseline.get(table) ?? 0));
    const mediaFiles = options.media.kind === "local" ? (await listMediaFiles(options.media.dir)).keys.length : 0;
    if ((occupied.length || mediaFiles) && !options.force) {
      const what = [
        ...occupied.sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, n]) => `${t} (${n} ${n === 1 ? "row" : "rows"})`),
        ...(mediaFiles ? [`${mediaFiles} media file(s) in ${(options.media as { dir: string }).dir}`] : []),
      ];
      throw new BackupError(
        `The target is not empty: ${what.slice(0, 8).join(", ")}${what.length > 8 ? `, and ${what.length - 8} more` : ""}. ` +
          "A restore replaces everything: restore into an empty database, or run it again with --force to replace what is there (it stays as it is if the restore fails).",
      );
    }
    if (applied.length < archive.length) await migrateTo(db, archive.at(-1)!);
    const notes: string[] = [];
    if (options.force && mediaFiles) notes.push(`the ${mediaFiles} media file(s) already in the folder stay; the backup's are added (same names are replaced)`);
    return { notes };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- restore

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = Date.now();
  const manifest = await verifyArchive(options.file);
  const { notes } = await prepareTarget(options, manifest);
  const label = basename(options.file);

  const staging =
    options.media.kind === "local"
      ? `${options.media.dir.replace(/[\\/]+$/, "")}.restore-${randomBytes(4).toString("hex")}`
      : join(tmpdir(), `scentara-restore-${randomBytes(4).toString("hex")}`);
  const writer = await openWriter(options.databaseUrl);
  let sequences: string[] = [];
  try {
    const targetTables = new Map((await writer.tables()).map((t) => [t.name, t]));
    const manifestTables = new Map(manifest.tables.map((t) => [t.name, t]));
    for (const table of manifest.tables) {
      const target = targetTables.get(table.name);
      if (!target) throw new BackupError(`The database has no table ${table.name}, which the backup has.`);
      const mine = target.columns.map((c) => c.name).join(", ");
      if (mine !== table.columns.join(", ")) {
        throw new BackupError(`table ${table.name}: the backup's columns (${table.columns.join(", ")}) differ from this database's (${mine}).`);
      }
    }
    for (const name of targetTables.keys()) {
      if (!manifestTables.has(name) && !EXCLUDED_TABLES.has(name)) notes.push(`table ${name} is not in the backup: left as it is`);
    }

    // The rows go in as the archive has them: no trigger adds or changes any on the way (the transaction puts them back).
    const restoreTriggers = await writer.suspendTriggers();
    // Children first, so no foreign key is ever left pointing at nothing.
    for (const table of [...manifest.tables].reverse()) await writer.deleteAll(table.name);

    await insertRows(writer, options.file, manifest, targetTables, staging, label);
    await restoreTriggers();
    sequences = await writer.resetSequences();
    await compareWithManifest(writer, manifest, targetTables);
    await writer.commit();
  } catch (error) {
    await writer.close();
    await rm(staging, { recursive: true, force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The restore failed and nothing was changed: ${(error as Error).message}`);
  } finally {
    await writer.close();
  }

  const media = await placeMedia(staging, manifest, options.media);
  const handle = openDatabase(options.databaseUrl, 2);
  let migratedAfter: string[];
  try {
    migratedAfter = (await migrateToLatest(handle.db)).filter((r) => r.status === "Success").map((r) => r.migrationName);
  } finally {
    await handle.close();
  }
  return {
    manifest,
    tables: manifest.tables.map((t) => ({ name: t.name, rows: t.rows })),
    media,
    migratedAfter,
    sequences,
    notes,
    ms: Date.now() - started,
  };
}

/** The archive's rows into the open transaction (and its media files into the staging folder), checked again on the way. */
async function insertRows(writer: RowConnection, file: string, manifest: Manifest, targetTables: Map<string, TableInfo>, staging: string, label: string) {
  const expected = new Map(manifest.tables.map((t) => [t.name, t]));
  const tallies = new Map<string, { rows: number; hash: Hash }>();
  await scanArchive(file, async (entry, name, body) => {
    if (entry.kind === "table") {
      const table = targetTables.get(entry.table);
      const spec = expected.get(entry.table);
      if (!table || !spec) throw new BackupError(`${label}: table ${entry.table} is not in the manifest.`);
      let tally = tallies.get(entry.table);
      if (!tally) tallies.set(entry.table, (tally = { rows: 0, hash: createHash("sha256") }));
      const keys = spec.columns.join();
      let batch: Record<string, unknown>[] = [];
      let rest: Buffer = Buffer.alloc(0);
      let line = tally.rows;
      const take = (text: Buffer) => {
        line += 1;
        let row: unknown;
        try {
          row = JSON.parse(text.toString("utf8"));
        } catch {
          throw new BackupError(`${label}: row ${line} of table ${entry.table} is not valid JSON.`);
        }
        if (!row || typeof row !== "object" || Array.isArray(row) || Object.keys(row).join() !== keys) {
          throw new BackupError(`${label}: row ${line} of table ${entry.table} does not have the table's columns.`);
        }
        batch.push(row as Record<string, unknown>);
      };
      for await (const chunk of body) {
        tally.hash.update(chunk);
        let data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
        let start = 0;
        for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, start)) {
          take(data.subarray(start, i));
          start = i + 1;
        }
        rest = Buffer.from(data.subarray(start));
        data = Buffer.alloc(0);
        if (batch.length >= INSERT_BATCH_ROWS) {
          await insertBatch(writer, table, batch);
          batch = [];
        }
      }
      if (rest.length) throw new BackupError(`${label}: ${name} ends in the middle of a row.`);
      await insertBatch(writer, table, batch);
      tally.rows = line;
    } else if (entry.kind === "media") {
      if (!isSafeMediaKey(entry.key)) throw new BackupError(`${label}: ${name} is not a media file name this shop accepts.`);
      const data = await readAll(body, 512 * 1024 * 1024, name);
      const path = join(staging, ...entry.key.split("/"));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    }
  });
  // The archive was checked before; checked again in case it changed since.
  for (const table of manifest.tables) {
    const tally = tallies.get(table.name);
    if ((tally?.rows ?? 0) !== table.rows || (tally ? tally.hash.digest("hex") : createHash("sha256").digest("hex")) !== table.sha256) {
      throw new BackupError(`${label}: table ${table.name} changed while it was being restored.`);
    }
  }
}

async function insertBatch(writer: RowConnection, table: TableInfo, batch: Record<string, unknown>[]) {
  if (!batch.length) return;
  try {
    await writer.insert(table, batch);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`table ${table.name}: the database refused a row: ${(error as Error).message}`);
  }
}

/** Reads every restored table back, inside the transaction: the same rows as the archive, or nothing is kept. */
async function compareWithManifest(writer: RowConnection, manifest: Manifest, targetTables: Map<string, TableInfo>) {
  for (const table of manifest.tables) {
    const hash = createHash("sha256");
    let rows = 0;
    for await (const row of writer.rows(targetTables.get(table.name)!)) {
      hash.update(`${canonicalJson(row)}\n`);
      rows += 1;
    }
    if (rows !== table.rows || hash.digest("hex") !== table.sha256) {
      throw new BackupError(
        `table ${table.name}: the rows read back from the database differ from the backup's (${rows} rows, the backup has ${table.rows}); ` +
          "this database stores some value differently. Nothing was restored.",
      );
    }
  }
}

async function placeMedia(staging: string, manifest: Manifest, target: MediaTarget): Promise<{ files: number; bytes: number }> {
  let bytes = 0;
  try {
    for (const file of manifest.media.files) {
      const from = join(staging, ...file.path.split("/"));
      if (target.kind === "local") {
        const to = join(target.dir, ...file.path.split("/"));
        await mkdir(dirname(to), { recursive: true });
        await rename(from, to);
      } else {
        await target.store.put(file.path, await readFile(from), contentTypeOf(file.path));
      }
      bytes += file.size;
    }
  } catch (error) {
    // The staged files stay where they are, for the owner to finish by hand.
    throw new BackupError(
      `The database was restored, but the media files could not all be put in place (${(error as Error).message}); ` +
        `the rest are in ${staging}: copy them into place by hand.`,
    );
  }
  await rm(staging, { recursive: true, force: true });
  return { files: manifest.media.files.length, bytes };
}

function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  return { webp: "image/webp", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", avif: "image/avif", gif: "image/gif", svg: "image/svg+xml" }[ext] ?? "application/octet-stream";
}

/** The archive's files as a name → entry list, for tools and tests (the archive's own contents, unchecked). */
export async function readArchiveEntries(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  await scanArchive(file, async (_entry, name, body) => {
    out.set(name, await readAll(body, 1024 * 1024 * 1024, name));
  });
  return out;
}

