/**
 * GET /admin/orders/export.csv?from=2026-03-01&to=2026-03-31[&lines=1][&status=paid] — the orders placed in a range
 * of South African days as a CSV for the accountant (issue 20), streamed (a resource route: no page). Admins only: a
 * visitor signs in and comes back, a customer gets 403. A bad query answers 400 with what to fix.
 * The file's format: app/modules/reports/orders-export.server.ts.
 */
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";
import type { Route } from "./+types/admin.orders.export[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission, requireRecentConfirmation } from "~/modules/accounts/session.server";
import { ordersCsvStream, ordersExportFilename } from "~/modules/reports/orders-export.server";
import { ordersExportQuery } from "~/modules/reports/reports.schema";
import { env } from "~/utils/env.server";
import { errorBody, fieldErrorsOf } from "~/utils/errors";
import { readQuery } from "~/utils/request.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  // every customer's data in one file: the password or a passkey again after 10 minutes (step-up, decision 059)
  const admin = await requirePermission(request, "reports");
  requireRecentConfirmation(request, admin);
  const parsed = ordersExportQuery.safeParse(Object.fromEntries(readQuery(request)));
  if (!parsed.success) {
    return Response.json(errorBody(parsed.error.issues[0]!.message, fieldErrorsOf(parsed.error.issues)), { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const config = env();
  const options = { ...parsed.data, invoicePrefix: config.INVOICE_PREFIX };
  // the export itself is in the activity log (docs/decisions/060): whose customers' data left the shop, and when
  await recordAdminEvent(getDb(), { admin, context }, { kind: "export.orders", record: { type: "export", id: "orders" }, summary: `Downloaded the orders export (${options.from} to ${options.to})` });
  return new Response(ordersCsvStream(getDb(), options), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ordersExportFilename(config.SHOP_NAME, options)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
