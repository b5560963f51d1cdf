/**
 * GET /admin/consents.csv — the whole consent log as a CSV (issue 21 point 1; POPIA s11, s69; docs/decisions/039):
 * every consent given or withdrawn, oldest first, streamed as it is read. Admins only: a visitor signs in and comes
 * back, a customer gets 403. The file's columns: app/modules/consent/consent.server.ts CONSENT_CSV_COLUMNS.
 */
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";
import type { Route } from "./+types/admin.consents[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission, requireRecentConfirmation } from "~/modules/accounts/session.server";
import { consentLogCsvStream, consentLogFilename } from "~/modules/consent/consent.server";
import { env } from "~/utils/env.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  // every customer's data in one file: the password or a passkey again after 10 minutes (step-up, decision 059)
  const admin = await requirePermission(request, "data");
  requireRecentConfirmation(request, admin);
  await recordAdminEvent(getDb(), { admin, context }, { kind: "export.consents", record: { type: "export", id: "consents" }, summary: "Downloaded the consent log CSV" });
  return new Response(consentLogCsvStream(getDb()), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${consentLogFilename(env().SHOP_NAME)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
