/**
 * Admin → Data (issue 20 point 3): the backup archives in BACKUP_DIR (newest first, with the counts from each one's
 * manifest), "Back up now", and a download link per archive. The archive format and what a restore does:
 * docs/decisions/033; restoring is `npm run restore FILE` (README, "Backups, restore, and moving to PostgreSQL").
 */
import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/admin.data";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { DataTable, type Column } from "~/components/admin/data-table";
import { Notice } from "~/components/ui/field";
import { buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { BackupRunning, backupDirectory, backupRunningSince, lastBackupFailure, listBackups, nightlyBackupFailure, startBackupNow } from "~/modules/backups/backup-files.server";
import { formatBytes } from "~/modules/backups/backups.logic";
import { BackupError } from "~/modules/backups/database-rows.server";
import { formatDateTimeZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "data");
  const config = env();
  const dir = backupDirectory(config);
  const [archives, runningSince, nightly] = await Promise.all([listBackups(dir), backupRunningSince(getDb()), nightlyBackupFailure(getDb())]);
  const rows = archives.map((a) => ({
    name: a.name,
    created: formatDateTimeZA(a.createdAt),
    size: formatBytes(a.bytes),
    database: a.manifest ? (a.manifest.source_database === "postgres" ? "PostgreSQL" : "SQLite") : "–",
    tables: a.manifest?.tables.length ?? null,
    rows: a.manifest ? a.manifest.tables.reduce((n, t) => n + t.rows, 0) : null,
    orders: a.manifest?.tables.find((t) => t.name === "orders")?.rows ?? null,
    media: a.manifest ? (a.manifest.media.included ? a.manifest.media.files.length : "in S3") : null,
  }));
  const failure = lastBackupFailure();
  return {
    dir,
    keep: config.BACKUP_KEEP,
    running: runningSince ? formatDateTimeZA(runningSince) : null,
    failure: failure ? { at: formatDateTimeZA(failure.at), message: failure.message } : null,
    nightlyFailure: nightly ? { at: nightly.at ? formatDateTimeZA(nightly.at) : null, message: nightly.message } : null,
    rows,
    totalBytes: formatBytes(archives.reduce((n, a) => n + a.bytes, 0)),
  };
}

const dataIntent = z.discriminatedUnion("intent", [z.object({ intent: z.literal("backup") })]);

export const action = adminAction(
  dataIntent,
  {
    backup: async (db) => {
      try {
        await startBackupNow(db, env(), logger);
      } catch (error) {
        if (error instanceof BackupRunning || error instanceof BackupError) throw new DomainError(error.message, 409);
        throw error;
      }
      return "Backup started: it appears in the list when it is complete";
    },
  },
  { permission: "data", record: { backup: { type: "backup", id: () => null, outside: true } }, failure: { backup: "Failed to start the backup" } },
);

export function meta() {
  return [{ title: "Data | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const count = (n: number | string | null) => (n === null ? "–" : typeof n === "number" ? n.toLocaleString("en-US").replaceAll(",", " ") : n);

const columns: Column<Row>[] = [
  { header: "Made", cell: (r) => <span className="font-medium text-ink">{r.created}</span> },
  { header: "Size", cell: (r) => r.size, className: "tabular-nums" },
  { header: "Database", cell: (r) => r.database },
  { header: "Orders", cell: (r) => count(r.orders), className: "tabular-nums md:text-right" },
  { header: "Rows", cell: (r) => count(r.rows), className: "tabular-nums md:text-right" },
  { header: "Images", cell: (r) => count(r.media), className: "tabular-nums md:text-right" },
  {
    header: "Download",
    bare: true,
    className: "md:text-right",
    cell: (r) => (
      <a href={`/admin/data/backups/${encodeURIComponent(r.name)}`} download className={buttonClass("secondary", "sm")} aria-label={`Download the backup of ${r.created}`}>
        Download
      </a>
    ),
  },
];

export default function Data({ loaderData: d }: Route.ComponentProps) {
  const fetcher = useAdminFetcher();
  const revalidator = useRevalidator();
  const starting = fetcher.state !== "idle";
  // While a backup runs, look again every few seconds: the new archive appears when it is complete.
  useEffect(() => {
    if (!d.running) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 3000);
    return () => clearInterval(timer);
  }, [d.running, revalidator]);
  return (
    <AdminPage
      title="Data"
      description="Backups of the whole shop: every table, the product images and a manifest of counts and checksums. Download one to keep it somewhere safe."
      status={<AdminStatus />}
      stats={[
        { label: "Backups", value: d.rows.length, hint: d.totalBytes },
        { label: "Latest", value: d.rows[0] ? d.rows[0].created.split(",")[0]! : "None", hint: d.rows[0]?.created.split(", ")[1] },
        { label: "Nightly", value: d.keep > 0 ? "On" : "Off", hint: d.keep > 0 ? `keeps the newest ${d.keep}` : "BACKUP_KEEP=0" },
      ]}
      actions={
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="backup" />
          <button type="submit" disabled={starting || !!d.running} className={buttonClass("primary", "md", "whitespace-nowrap")}>
            {d.running ? "Backing up…" : starting ? "Starting…" : "Back up now"}
          </button>
        </fetcher.Form>
      }
    >
      {d.running ? <Notice tone="info">A backup started at {d.running} is running; it appears below when it is complete.</Notice> : null}
      {d.failure ? (
        <Notice tone="error" title={`The backup started at ${d.failure.at} failed`}>
          {d.failure.message}
        </Notice>
      ) : null}
      {d.nightlyFailure ? (
        <Notice tone="error" title={d.nightlyFailure.at ? `The nightly backup of ${d.nightlyFailure.at} failed` : "The nightly backup failed"}>
          {d.nightlyFailure.message} It tries again in a day; “Back up now” (or <code>npm run backup</code>) makes one meanwhile.
        </Notice>
      ) : null}
      <DataTable
        rows={d.rows}
        columns={columns}
        rowKey={(r) => r.name}
        caption="Backup archives, newest first"
        empty={
          <>
            <p className="font-display text-2xl text-ink">No backups yet</p>
            <p className="mt-2 text-sm text-ink-soft">Back up now, or wait for the nightly backup.</p>
          </>
        }
      />
      <p className="break-words text-xs text-muted">
        Archives are kept in {d.dir}
        {d.keep > 0 ? `; the nightly backup keeps the newest ${d.keep} and deletes older ones.` : "."} Each holds personal data and password hashes: store downloads
        as carefully as the shop itself. To restore one: <code>npm run restore -- FILE</code> (README, “Backups, restore, and moving to PostgreSQL”).
      </p>
    </AdminPage>
  );
}
