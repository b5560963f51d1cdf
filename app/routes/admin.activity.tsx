/**
 * /admin/activity — who changed what (issue 38 point 3, docs/decisions/060): every change made in the admin, newest
 * first, filtered by person, kind, record and dates (a GET form: works without JavaScript), each entry linking to its
 * record with its fields before and after; keyset pages ("Newer" / "Older") and a CSV of the filtered log. Nobody can
 * change or delete an entry: there is no action here, and the table's triggers refuse it. Managing staff may read it.
 */
import type { Route } from "./+types/admin.activity";
import { ActivityFilterForm, ActivityPager, ActivityTable } from "~/components/admin/activity-log";
import { AdminPage } from "~/components/admin/admin-page";
import { buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { activityItems, activityKinds, activityPeople, listActivity } from "~/modules/activity/activity-admin.server";
import { activityHref, parseActivityQuery, RECORD_LABELS, RECORD_TYPES } from "~/modules/activity/activity.logic";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/activity";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "staff");
  const query = parseActivityQuery(readQuery(request));
  const db = getDb();
  const [page, kinds, people] = await Promise.all([listActivity(db, query.filters, { before: query.before, after: query.after }), activityKinds(db), activityPeople(db)]);
  return {
    filters: query.filters,
    items: activityItems(page.rows),
    newerHref: page.newer ? activityHref(PATH, query.filters, { after: page.newer }) : null,
    olderHref: page.older ? activityHref(PATH, query.filters, { before: page.older }) : null,
    csvHref: activityHref(`${PATH}.csv`, query.filters),
    kinds,
    people,
  };
}

export function meta() {
  return [{ title: "Activity | Admin | Scentara" }];
}

const TYPES = RECORD_TYPES.map((t) => ({ value: t, label: RECORD_LABELS[t] }));

export default function Activity({ loaderData: d }: Route.ComponentProps) {
  const filtered = Object.values(d.filters).some(Boolean);
  return (
    <AdminPage
      title="Activity"
      description="Who changed what in the admin, when and from where, with each record's values before and after. Entries are kept for 5 years and can't be changed or deleted."
      actions={
        <a href={d.csvHref} download className={`${buttonClass("secondary")} whitespace-nowrap`}>
          Export CSV
        </a>
      }
    >
      <ActivityFilterForm path={PATH} values={d.filters} people={d.people} kinds={d.kinds} types={TYPES} />
      <ActivityTable rows={d.items} empty={filtered ? "No activity matches these filters" : "No activity recorded yet"} />
      <ActivityPager newerHref={d.newerHref} olderHref={d.olderHref} />
    </AdminPage>
  );
}
