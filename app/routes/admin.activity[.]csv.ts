/**
 * GET /admin/activity.csv?person=…&kind=…&type=…&record=…&from=…&to=… — the activity log, filtered as on Admin →
 * Activity, as a CSV streamed a batch at a time (one line per changed field). Managing staff only. The download is
 * itself an entry of the log.
 */
import type { Route } from "./+types/admin.activity[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { activityCsvFilename, activityCsvStream } from "~/modules/activity/activity-admin.server";
import { parseActivityQuery } from "~/modules/activity/activity.logic";
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";
import { env } from "~/utils/env.server";
import { readQuery } from "~/utils/request.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "staff");
  const { filters } = parseActivityQuery(readQuery(request));
  const db = getDb();
  const named = Object.entries(filters).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(", ");
  await recordAdminEvent(db, { admin, context }, { kind: "export.activity", record: { type: "export", id: "activity" }, summary: `Downloaded the activity log${named ? ` (${named})` : ""}`, after: filters });
  return new Response(activityCsvStream(db, filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${activityCsvFilename(env().SHOP_NAME)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
