/**
 * npm run backup [-- --out DIR]
 *
 * Writes one backup archive of the shop named by DATABASE_URL (SQLite file or PostgreSQL, like the server) and its
 * local media (MEDIA_DIR) into DIR (default BACKUP_DIR: data/backups), while the shop keeps running: the rows come
 * from one consistent snapshot. Prints the archive's path and what is in it. Restore it with `npm run restore`.
 * The format: docs/decisions/033.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createBackup } from "~/modules/backups/backup.server";
import { backupDirectory, mediaSource } from "~/modules/backups/backup-files.server";
import { formatBytes } from "~/modules/backups/backups.logic";
import { BackupError } from "~/modules/backups/database-rows.server";
import { describeDatabase } from "~/utils/database-url.server";
import { env } from "~/utils/env.server";
import { tableLines } from "./backup-output";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log("Usage: npm run backup [-- --out DIR]   (DATABASE_URL and MEDIA_DIR as for the shop; DIR defaults to BACKUP_DIR, data/backups)");
  process.exit(0);
}

async function main() {
  const config = env();
  const outDir = values.out ? resolve(values.out) : backupDirectory(config);
  console.log(`Backing up ${describeDatabase(config.DATABASE_URL)} …`);
  const result = await createBackup({ databaseUrl: config.DATABASE_URL, media: mediaSource(config), outDir });
  const { manifest } = result;
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`\nBackup: ${result.path}`);
  console.log(`  ${formatBytes(result.bytes)}, ${(result.ms / 1000).toFixed(1)} s; schema at ${manifest.migrations.at(-1)} (${manifest.migrations.length} migrations)`);
  console.log(`  ${manifest.tables.length} tables, ${rows} rows:`);
  console.log(tableLines(manifest.tables));
  console.log(
    manifest.media.included
      ? `  media: ${manifest.media.files.length} files, ${formatBytes(manifest.media.bytes)}${manifest.media.skipped.length ? ` (left out: ${manifest.media.skipped.join(", ")})` : ""}`
      : `  media: not in the archive — ${manifest.media.note}`,
  );
}

try {
  await main();
} catch (error) {
  console.error(`\nBackup failed: ${error instanceof BackupError ? error.message : error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
