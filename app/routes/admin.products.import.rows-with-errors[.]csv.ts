/**
 * GET /admin/products/import/rows-with-errors.csv?id=… — the rows of an import that have errors, as a CSV with the
 * file's own columns and cells (issue 32), to fix and import again. Admins only; 404 when the import has no such rows
 * or is gone.
 */
import type { Route } from "./+types/admin.products.import.rows-with-errors[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { failedRowsCsv } from "~/modules/catalog-csv/csv-import.server";
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "products.io");
  const id = (new URL(request.url).searchParams.get("id") ?? "").slice(0, 100);
  const file = id ? await failedRowsCsv(getDb(), id) : null;
  if (!file) return new Response("That import has no rows with errors to download", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  await recordAdminEvent(getDb(), { admin, context }, { kind: "export.import-errors", record: { type: "import", id }, summary: `Downloaded the rows with errors of import ${file.fileName}` });
  return new Response(file.text, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
