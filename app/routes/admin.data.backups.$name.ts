/**
 * GET /admin/data/backups/:name — one backup archive as a download (Admin → Data), streamed from BACKUP_DIR. Admins
 * only. The name must be exactly an archive's name as the backup makes it (scentara-<UTC time>.tar.gz) and present
 * in the folder: no path, no `..`, nothing else on the disk can be asked for.
 */
import { getDb } from "~/db/db.server";
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Route } from "./+types/admin.data.backups.$name";
import { requirePermission, requireRecentConfirmation } from "~/modules/accounts/session.server";
import { backupDirectory, findBackup } from "~/modules/backups/backup-files.server";
import { env } from "~/utils/env.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // every customer's data in one file: the password or a passkey again after 10 minutes (step-up, decision 059)
  const admin = await requirePermission(request, "data");
  requireRecentConfirmation(request, admin);
  const found = await findBackup(backupDirectory(env()), params.name ?? "");
  if (found === "bad-name") return new Response("Not a backup archive name", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (found === "missing") return new Response("No such backup (deleted by the retention?)", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  await recordAdminEvent(getDb(), { admin, context }, { kind: "backup.download", record: { type: "backup", id: params.name! }, summary: `Downloaded backup ${params.name} (${found.bytes} bytes)` });
  return new Response(Readable.toWeb(createReadStream(found.path)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(found.bytes),
      "Content-Disposition": `attachment; filename="${params.name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
