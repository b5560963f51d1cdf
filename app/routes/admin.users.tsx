import type { Route } from "./+types/admin.users";
import { useCan } from "~/components/admin/use-admin-permissions";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { EditLink, useRowEditor } from "~/components/admin/row-editor";
import { ConsentHistory, Flag, UserEditor } from "~/components/admin/user-panels";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { assertMayChangeStaff, consentHistory } from "~/modules/accounts/users-admin-page.server";
import { deleteUserByAdmin } from "~/modules/flows/account-deleted.server";
import { listAdminUsers, updateUserByAdmin, userFigures } from "~/modules/accounts/users-admin.server";
import { USER_ADMIN_MESSAGES, USER_ROLES, USERS_SEARCH_BOUND, userAdminIntent } from "~/modules/accounts/users-admin.schema";
import { adminAction } from "~/modules/admin/admin-action.server";
import { RECENT_SIGNUP_DAYS } from "~/modules/admin/dashboard.logic";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { formatDateZA } from "~/utils/dates";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/users";
const filters = { q: { kind: "text" }, role: { kind: "choice", values: USER_ROLES } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "customers");
  const params = readQuery(request);
  const query = parseListQuery(params, filters);
  // ?consents=<user id>: that person's consent history opens under their row (works without JavaScript).
  const historyOf = (params.get("consents") ?? "").slice(0, 100);
  const db = getDb();
  const [list, users, history] = await Promise.all([
    listAdminUsers(db, { ...query.filters, page: query.page }),
    // only the users' figures: the dashboard's other counts (every order among them) are not shown here
    userFigures(db),
    historyOf ? consentHistory(db, historyOf) : null,
  ]);
  return { query, me: admin.id, users, history, list: { ...list, rows: list.rows.map((u) => ({ ...u, created: formatDateZA(u.createdAt) })) } };
}

export const action = adminAction(
  userAdminIntent,
  {
    update: async (db, input, { admin }) => (await assertMayChangeStaff(db, admin, input.id, input.isAdmin), await updateUserByAdmin(db, admin.id, input), USER_ADMIN_MESSAGES.updated),
    delete: async (db, { id }, { admin }) => (await assertMayChangeStaff(db, admin, id, false), await deleteUserByAdmin(db, admin.id, id), USER_ADMIN_MESSAGES.deleted),
  },
  // update is "outside": its use case's own transaction (the admin-role lock) carries the entry, so the sessions of a
  // person made or unmade staff are forgotten after the commit, not before it (docs/decisions/058)
  { permission: "customers", record: { update: { type: "user", outside: true }, delete: { type: "privacy-request", outside: true } }, failure: { update: USER_ADMIN_MESSAGES.failedUpdate, delete: USER_ADMIN_MESSAGES.failedDelete } },
);

export function meta() {
  return [{ title: "Users | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

export default function Users({ loaderData: d }: Route.ComponentProps) {
  const { query, list, users, me, history } = d;
  const here = listHref(PATH, query);
  // the consent log of everyone is the data permission's; making or changing staff is the staff permission's
  const dataAccess = useCan("data");
  const staffAccess = useCan("staff");
  const consentsHref = (id: string) => `${here}${here.includes("?") ? "&" : "?"}consents=${encodeURIComponent(id)}`;
  const editor = useRowEditor(query.edit);
  const columns: Column<Row>[] = [
    {
      header: "E-mail",
      cell: (u) => (
        <span className="break-all font-medium text-ink">
          {u.email}
          {u.id === me ? <span className="ml-2 text-xs font-normal text-muted">(you)</span> : null}
        </span>
      ),
    },
    {
      header: "Role",
      cell: (u) => (
        <span className={`inline-block px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${u.isAdmin ? "bg-ink text-ivory" : "bg-sand text-ink-soft"}`}>
          {u.isAdmin ? "Admin" : "Regular"}
        </span>
      ),
    },
    {
      header: "E-mails",
      cell: (u) => (
        <span className="flex flex-col text-xs">
          <Flag on={u.emailNotifications} label="Notifications" />
          <Flag on={u.emailMarketing} label="Marketing" />
        </span>
      ),
    },
    { header: "Orders", cell: (u) => u.orderCount, className: "tabular-nums md:text-right" },
    { header: "Joined", cell: (u) => u.created, className: "whitespace-nowrap", phone: "hide" },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (u) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          {staffAccess || !u.isAdmin ? <EditLink href={listHref(PATH, query, { edit: u.id })} onEdit={() => editor.start(u.id)} label={u.email} /> : null}
          <Link
            to={history?.userId === u.id ? here : consentsHref(u.id)}
            preventScrollReset
            aria-expanded={history?.userId === u.id}
            className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline"
          >
            Consents<span className="sr-only"> of {u.email}</span>
          </Link>
          {u.id === me || (u.isAdmin && !staffAccess) ? null : (
            <ConfirmDelete
              id={u.id}
              name={u.email}
              what="user"
              confirmHref={listHref(PATH, query, { confirm: u.id })}
              cancelHref={here}
              openOnLoad={query.confirm === u.id}
              note={`Their sign-in, sessions, reviews, messages and e-mails are erased, and they are e-mailed to say so. ${u.orderCount > 0 ? "Paid orders stay on record for the tax law with what their invoice shows, no longer linked to an account; unpaid ones lose their address." : ""}`}
            />
          )}
        </span>
      ),
    },
  ];
  return (
    <AdminPage
      title="Users"
      description="Customers and staff. Make a colleague an admin, change e-mail preferences, or delete an account."
      stats={[
        { label: "Total users", value: users.total },
        { label: "Admin", value: users.admins, to: listHref(PATH, query, { role: "admin" }) },
        { label: "Regular", value: users.regular, to: listHref(PATH, query, { role: "regular" }) },
        { label: "Recent signups", value: users.recent, hint: `last ${RECENT_SIGNUP_DAYS} days` },
      ]}
      actions={
        dataAccess ? (
          <a href="/admin/consents.csv" download className={buttonClass("secondary", "md", "whitespace-nowrap")}>
            Consent log (CSV)
          </a>
        ) : undefined
      }
      status={<AdminStatus />}
    >
      <FilterBar
        path={PATH}
        query={query}
        fields={[
          { name: "q", label: "Search by e-mail", kind: "search", placeholder: "name@example.co.za" },
          { name: "role", label: "Role", kind: "select", allLabel: "All roles", options: [{ value: "admin", label: "Admin" }, { value: "regular", label: "Regular" }] },
        ]}
      />
      {list.more ? (
        <p className="mb-4 text-sm text-ink-soft" role="status">
          {USER_ADMIN_MESSAGES.manyMatches(USERS_SEARCH_BOUND)}
        </p>
      ) : null}
      <DataTable<Row>
        rows={list.rows}
        columns={columns}
        rowKey={(u) => u.id}
        caption="Users"
        empty={<p className="font-display text-2xl text-ink">{USER_ADMIN_MESSAGES.none}</p>}
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
        renderAfterRow={(u) =>
          history?.userId === u.id && editor.editing !== u.id ? (
            <ConsentHistory email={u.email} rows={history.rows} closeHref={here} />
          ) : editor.editing === u.id ? (
            <UserEditor user={u} me={me} staffAccess={staffAccess} action={here} onCancel={editor.stop} />
          ) : null
        }
      />
    </AdminPage>
  );
}
