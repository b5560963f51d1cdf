/**
 * npm run restore -- FILE [--force] [--check]
 *
 * Restores a backup archive (npm run backup, the nightly backup, Admin → Data) into the database named by
 * DATABASE_URL and the media folder MEDIA_DIR (or the S3 bucket with MEDIA_STORAGE=s3), like the shop: a SQLite
 * backup into PostgreSQL is how a growing shop moves (README, "Backups, restore, and moving to PostgreSQL").
 *
 * The archive is checked whole first (every table's rows and checksum, every media file); the target must be empty
 * (a new SQLite file, or a new PostgreSQL database: restore migrates it) unless --force, which replaces what is there.
 * Everything is restored in one transaction: when anything is wrong nothing changes. --check only checks the archive.
 * Stop the shop while restoring into its database. docs/decisions/033.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { mediaStore } from "~/modules/media/media-store.server";
import { mediaRoot } from "~/modules/media/media-paths.server";
import { formatBytes } from "~/modules/backups/backups.logic";
import { BackupError } from "~/modules/backups/database-rows.server";
import { restoreBackup, verifyArchive, type MediaTarget } from "~/modules/backups/restore.server";
import { describeDatabase } from "~/utils/database-url.server";
import { env } from "~/utils/env.server";
import { tableLines } from "./backup-output";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    force: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

const usage = "Usage: npm run restore -- FILE [--force] [--check]   (into DATABASE_URL and MEDIA_DIR, as for the shop)";
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (positionals.length !== 1) {
  console.error(usage);
  process.exit(2);
}
const file = resolve(positionals[0]!);

async function main() {
  console.log(`Checking ${file} …`);
  const checked = await verifyArchive(file);
  const rows = checked.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `  a complete ${checked.source_database === "postgres" ? "PostgreSQL" : "SQLite"} backup of ${checked.created_at}: ${checked.tables.length} tables, ${rows} rows, ` +
      `${checked.media.included ? `${checked.media.files.length} media files` : "no media (S3)"}; every checksum matches.`,
  );
  if (values.check) return;

  const config = env();
  const media: MediaTarget = config.MEDIA_STORAGE === "s3" ? { kind: "s3", store: mediaStore() } : { kind: "local", dir: mediaRoot() };
  console.log(`Restoring into ${describeDatabase(config.DATABASE_URL)}, media ${media.kind === "local" ? `into ${media.dir}` : `into the bucket ${config.S3_BUCKET}`}${values.force ? " (--force: replacing what is there)" : ""} …`);
  const result = await restoreBackup({ file, databaseUrl: config.DATABASE_URL, media, force: values.force });
  console.log(`\nRestored in ${(result.ms / 1000).toFixed(1)} s; every table read back equal to the backup (rows and checksum):`);
  console.log(tableLines(result.tables));
  console.log(`  media: ${result.media.files} files, ${formatBytes(result.media.bytes)}`);
  if (result.sequences.length) console.log(`  sequences moved on: ${result.sequences.join(", ")}`);
  if (result.migratedAfter.length) console.log(`  then migrated on to this version: ${result.migratedAfter.join(", ")}`);
  for (const note of result.notes) console.log(`  note: ${note}`);
  if (!checked.media.included) console.log(`  note: ${checked.media.note}`);
}

try {
  await main();
} catch (error) {
  console.error(`\nRestore refused: ${error instanceof BackupError ? error.message : error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
