/**
 * GET /admin/sales.csv?dataset=revenue&from=2026-03-01&to=2026-03-31&grouping=week — the numbers behind one of the
 * dashboard's charts as a CSV (a resource route: no page). Admins only: a visitor signs in and comes back, a customer
 * gets 403. The range is read as the dashboard reads it (what can't be read falls back to the last 30 days); an
 * unknown dataset answers 400.
 */
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";
import type { Route } from "./+types/admin.sales[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { salesCsv, salesCsvFilename } from "~/modules/reports/sales-csv.server";
import { parseSalesQuery, SALES_DATASETS, type SalesDataset } from "~/modules/reports/sales.logic";
import { env } from "~/utils/env.server";
import { errorResponse } from "~/utils/errors";
import { readQuery } from "~/utils/request.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "reports");
  const params = readQuery(request);
  const dataset = params.get("dataset") ?? "";
  if (!(SALES_DATASETS as readonly string[]).includes(dataset)) return errorResponse(`dataset must be one of: ${SALES_DATASETS.join(", ")}`, 400);
  const { range } = parseSalesQuery(params);
  await recordAdminEvent(getDb(), { admin, context }, { kind: "export.sales", record: { type: "export", id: "sales" }, summary: `Downloaded the ${dataset} report CSV` });
  const body = await salesCsv(getDb(), range, dataset as SalesDataset);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${salesCsvFilename(env().SHOP_NAME, range, dataset as SalesDataset)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
