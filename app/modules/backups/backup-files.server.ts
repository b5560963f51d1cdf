/**
 * The backup folder (BACKUP_DIR): which archives are there, the retention that keeps the newest few, the nightly
 * backup's run, and the one way a download finds its file (docs/decisions/033).
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { DB } from "~/db/db.server";
import { mediaRoot } from "~/modules/media/media-paths.server";
import { parseDatabaseUrl } from "~/utils/database-url.server";
import type { Env } from "~/utils/env.server";
import { createBackup, type BackupResult, type MediaSource } from "./backup.server";
import { backupsToDelete, backupTimeOf, isBackupDue, sidecarName } from "./backups.logic";
import { BackupError } from "./database-rows.server";
import { manifestSchema, type Manifest } from "./backups.schema";

/** BACKUP_DIR, or `backups` beside the SQLite file (data/backups by default), or data/backups with PostgreSQL. */
export function backupDirectory(config: Pick<Env, "BACKUP_DIR" | "DATABASE_URL">): string {
  if (config.BACKUP_DIR) return resolve(config.BACKUP_DIR);
  const location = parseDatabaseUrl(config.DATABASE_URL);
  return location.kind === "sqlite" ? join(dirname(location.path), "backups") : resolve("data/backups");
}

/** The shop's media as a backup sees it: the local folder (MEDIA_DIR), or the bucket (not copied). */
export function mediaSource(config: Pick<Env, "MEDIA_STORAGE" | "S3_BUCKET">): MediaSource {
  return config.MEDIA_STORAGE === "s3" ? { kind: "s3", bucket: config.S3_BUCKET } : { kind: "local", dir: mediaRoot() };
}

export interface BackupFile {
  name: string;
  createdAt: string;
  bytes: number;
  /** the copy beside the archive; null when it is missing or unreadable */
  manifest: Manifest | null;
}

async function archiveNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => backupTimeOf(n) !== null);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The archives in the folder, newest first, with their manifests. */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  const names = (await archiveNames(dir)).sort().reverse();
  const out: BackupFile[] = [];
  for (const name of names) {
    let bytes: number;
    try {
      bytes = (await stat(join(dir, name))).size;
    } catch {
      continue; // deleted meanwhile
    }
    let manifest: Manifest | null = null;
    try {
      const parsed = manifestSchema.safeParse(JSON.parse(await readFile(join(dir, sidecarName(name)), "utf8")));
      if (parsed.success) manifest = parsed.data;
    } catch {
      // no copy of the manifest: the list shows the archive without its counts
    }
    out.push({ name, createdAt: backupTimeOf(name)!.toISOString(), bytes, manifest });
  }
  return out;
}

/**
 * The archive for a download: `name` must be exactly the name of an archive in the folder's listing (so no path,
 * no `..`, nothing but a file the backup made). "bad-name" for a name no backup could have, "missing" for one not there.
 */
export async function findBackup(dir: string, name: string): Promise<{ path: string; bytes: number } | "bad-name" | "missing"> {
  if (backupTimeOf(name) === null) return "bad-name";
  if (!(await archiveNames(dir)).includes(name)) return "missing";
  const path = join(dir, name);
  try {
    return { path, bytes: (await stat(path)).size };
  } catch {
    return "missing";
  }
}

const DAY = 24 * 60 * 60 * 1000;

/** Keeps the newest `keep` archives (and their manifests); removes unfinished ones a day old. Answers what it deleted. */
export async function pruneBackups(dir: string, keep: number, now = new Date()): Promise<string[]> {
  const deleted = backupsToDelete(await archiveNames(dir), keep);
  for (const name of deleted) {
    await rm(join(dir, name), { force: true });
    await rm(join(dir, sidecarName(name)), { force: true });
  }
  let entries: string[] = [];
  try {
    entries = await readdir(dir);
  } catch {
    return deleted;
  }
  for (const name of entries) {
    if (!/^\.scentara-.*\.partial$/.test(name)) continue;
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > DAY) await rm(join(dir, name), { force: true });
  }
  return deleted;
}

export interface ScheduledBackupOptions {
  databaseUrl: string;
  media: MediaSource;
  dir: string;
  keep: number;
  now?: Date;
}

/**
 * The nightly backup's run (server/jobs.ts, every 24 hours in the lease holder): makes a backup unless the newest
 * archive is younger than NIGHTLY_BACKUP_MIN_AGE_MS, then keeps the newest `keep`. `keep` 0: never runs.
 */
export async function runScheduledBackup(options: ScheduledBackupOptions): Promise<{ made: BackupResult | null; deleted: string[] } | null> {
  if (options.keep <= 0) return null;
  const now = options.now ?? new Date();
  const newest = (await archiveNames(options.dir)).sort().at(-1);
  const made = isBackupDue(now, newest ? backupTimeOf(newest) : null)
    ? await createBackup({ databaseUrl: options.databaseUrl, media: options.media, outDir: options.dir, now })
    : null;
  const deleted = await pruneBackups(options.dir, options.keep, now);
  return { made, deleted };
}

// ---------------------------------------------------------------- one backup at a time

/** The job_leases row held while a backup (nightly or "Back up now") runs, in whichever process runs it. */
export const BACKUP_RUN_LEASE = "backup-run";
/** A run that dies holding the lease (its process killed) blocks the next one for at most this long. */
export const BACKUP_RUN_LEASE_MS = 60 * 60_000;

/** A backup is running somewhere (another request, the nightly job, another server): the second is refused. */
export class BackupRunning extends Error {
  constructor(readonly since: string | null) {
    super("A backup is already running; wait for it to finish (it appears in the list below).");
    this.name = "BackupRunning";
  }
}

/**
 * Takes the backup-run lease (the conditional upsert of server/jobs.ts's databaseLease): of any number of processes
 * asking at once, one gets it; the others get BackupRunning. Answers the function that hands it back.
 */
export async function takeBackupRun(db: DB, now = Date.now()): Promise<() => Promise<void>> {
  const holder = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const taken = await db
    .insertInto("job_leases")
    .values({ name: BACKUP_RUN_LEASE, holder, expires_at: now + BACKUP_RUN_LEASE_MS })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet((eb) => ({ holder: eb.ref("excluded.holder"), expires_at: eb.ref("excluded.expires_at") }))
        .where("job_leases.expires_at", "<=", now),
    )
    .returning("holder")
    .executeTakeFirst();
  if (taken?.holder !== holder) throw new BackupRunning(await backupRunningSince(db, now));
  return async () => {
    await db.updateTable("job_leases").set({ expires_at: 0 }).where("name", "=", BACKUP_RUN_LEASE).where("holder", "=", holder).execute();
  };
}

/** Runs `fn` as the only backup running across all processes (BackupRunning when another is); hands the lease back after. */
export async function withBackupRun<T>(db: DB, fn: () => Promise<T>, now = Date.now()): Promise<T> {
  const release = await takeBackupRun(db, now);
  try {
    return await fn();
  } finally {
    await release();
  }
}

// ---------------------------------------------------------------- the nightly run and its failure

/** The settings row keeping why the last nightly backup failed, until one succeeds. */
const NIGHTLY_FAILURE_KEY = "nightly-backup-failure";

/**
 * One run of the nightly backup job (server/jobs.ts) as the only backup running (BackupRunning when another is). A
 * failure is kept in the database, so Admin → Data shows it whichever worker or server serves the page (it ran in
 * the lease holder, and a log line alone is read by nobody: the owner would go on believing there are backups); the
 * next run that succeeds clears it. The error is thrown on for the job's log line.
 */
export async function runNightlyBackup(db: DB, options: ScheduledBackupOptions): Promise<Awaited<ReturnType<typeof runScheduledBackup>>> {
  let result: Awaited<ReturnType<typeof runScheduledBackup>>;
  try {
    result = await withBackupRun(db, () => runScheduledBackup(options));
  } catch (error) {
    if (!(error instanceof BackupRunning)) await keepNightlyFailure(db, error, options.now ?? new Date());
    throw error;
  }
  await db.deleteFrom("settings").where("key", "=", NIGHTLY_FAILURE_KEY).execute();
  return result;
}

async function keepNightlyFailure(db: DB, error: unknown, now: Date): Promise<void> {
  const value = JSON.stringify({ at: now.toISOString(), message: error instanceof Error ? error.message : String(error) });
  const at = now.toISOString();
  await db
    .insertInto("settings")
    .values({ key: NIGHTLY_FAILURE_KEY, value, updated_at: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: at }))
    .execute()
    .catch(() => undefined); // the database may be what failed: the job's log line still tells
}

/** Why the last nightly backup failed (when, and the message), while no later one has succeeded; null otherwise. */
export async function nightlyBackupFailure(db: DB): Promise<{ at: string; message: string } | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", NIGHTLY_FAILURE_KEY).executeTakeFirst();
  if (!row) return null;
  try {
    const kept = JSON.parse(row.value) as { at?: unknown; message?: unknown };
    return typeof kept.at === "string" && typeof kept.message === "string" ? { at: kept.at, message: kept.message } : null;
  } catch {
    return { at: "", message: "The nightly backup failed (its message is not readable): see the server's log." };
  }
}

/** When the backup that is running now started (ISO), or null when none is. */
export async function backupRunningSince(db: DB, now = Date.now()): Promise<string | null> {
  const row = await db.selectFrom("job_leases").select("expires_at").where("name", "=", BACKUP_RUN_LEASE).where("expires_at", ">", now).executeTakeFirst();
  return row ? new Date(Number(row.expires_at) - BACKUP_RUN_LEASE_MS).toISOString() : null;
}

// ---------------------------------------------------------------- "Back up now" (Admin → Data)

let manualRun: Promise<void> | null = null;
let lastManualFailure: { at: string; message: string } | null = null;

/**
 * Starts a backup in the background (a large shop's takes longer than a request should) holding the backup-run
 * lease, so a second start anywhere is refused with BackupRunning until it ends. The archive appears in the folder
 * when it is complete; a failure is logged and shown on the page (lastBackupFailure).
 */
export async function startBackupNow(db: DB, config: Pick<Env, "BACKUP_DIR" | "DATABASE_URL" | "MEDIA_STORAGE" | "S3_BUCKET">, log: { error: (o: object, m: string) => void; info: (o: object, m: string) => void }): Promise<void> {
  if (parseDatabaseUrl(config.DATABASE_URL).kind === "sqlite-memory") throw new BackupError("The database is in memory (DATABASE_URL=:memory:): there is nothing on disk to back up.");
  const release = await takeBackupRun(db);
  lastManualFailure = null;
  const dir = backupDirectory(config);
  manualRun = createBackup({ databaseUrl: config.DATABASE_URL, media: mediaSource(config), outDir: dir })
    .then((made) => log.info({ archive: made.path, bytes: made.bytes, ms: made.ms }, "backups: backup made (Admin → Data)"))
    .catch((error: unknown) => {
      lastManualFailure = { at: new Date().toISOString(), message: error instanceof Error ? error.message : String(error) };
      log.error({ err: error }, "backups: the backup started from Admin → Data failed");
    })
    .finally(() => release().catch((error: unknown) => log.error({ err: error }, "backups: lease not handed back; it lapses by itself")));
}

/** Resolves when the backup started by startBackupNow in this process has ended (tests, shutdown). */
export function manualBackupDone(): Promise<void> {
  return manualRun ?? Promise.resolve();
}

/** Why the last "Back up now" in this process failed, when it did. */
export function lastBackupFailure(): { at: string; message: string } | null {
  return lastManualFailure;
}
