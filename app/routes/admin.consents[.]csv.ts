/**
 * GET /admin/consents.csv — the whole consent log as a CSV (issue 21 point 1; POPIA s11, s69; docs/decisions/039):
 * every consent given or withdrawn, oldest first, streamed as it is read. Admins only: a visitor signs in and comes
 * back, a customer gets 403. The file's columns: app/modules/consent/consent.server.ts CONSENT_CSV_COLUMNS.
 */
import type { Route } from "./+types/admin.consents[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission, requireRecentConfirmation } from "~/modules/accounts/session.server";
import { consentLogCsvStream, consentLogFilename } from "~/modules/consent/consent.server";
import { env } from "~/utils/env.server";

export async function loader({ request }: Route.LoaderArgs) {
  // every customer's data in one file: the password or a passkey again after 10 minutes (step-up, decision 059)
  requireRecentConfirmation(request, await requirePermission(request, "data"));
  return new Response(consentLogCsvStream(getDb()), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${consentLogFilename(env().SHOP_NAME)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
