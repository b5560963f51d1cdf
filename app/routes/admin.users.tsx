import type { Route } from "./+types/admin.users";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { EditLink, RowEditorForm, useRowEditor } from "~/components/admin/row-editor";
import { getDb } from "~/db/db.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { deleteUserByAdmin, listAdminUsers, updateUserByAdmin } from "~/modules/accounts/users-admin.server";
import { USER_ADMIN_MESSAGES, USER_ROLES, userAdminIntent } from "~/modules/accounts/users-admin.schema";
import { adminAction } from "~/modules/admin/admin-action.server";
import { RECENT_SIGNUP_DAYS } from "~/modules/admin/dashboard.logic";
import { dashboardFigures } from "~/modules/admin/dashboard.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { formatDateZA } from "~/utils/dates";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/users";
const filters = { q: { kind: "text" }, role: { kind: "choice", values: USER_ROLES } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = parseListQuery(readQuery(request), filters);
  const db = getDb();
  const [list, figures] = await Promise.all([listAdminUsers(db, { ...query.filters, page: query.page }), dashboardFigures(db)]);
  return { query, me: admin.id, users: figures.users, list: { ...list, rows: list.rows.map((u) => ({ ...u, created: formatDateZA(u.createdAt) })) } };
}

export const action = adminAction(
  userAdminIntent,
  {
    update: async (db, input, { admin }) => (await updateUserByAdmin(db, admin.id, input), USER_ADMIN_MESSAGES.updated),
    delete: async (db, { id }, { admin }) => (await deleteUserByAdmin(db, admin.id, id), USER_ADMIN_MESSAGES.deleted),
  },
  { failure: { update: USER_ADMIN_MESSAGES.failedUpdate, delete: USER_ADMIN_MESSAGES.failedDelete } },
);

export function meta() {
  return [{ title: "Users | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

function Flag({ on, label }: { on: boolean; label: string }) {
  return <span className={on ? "text-success" : "text-muted"}>{on ? `✓ ${label}` : `– ${label}`}</span>;
}

export default function Users({ loaderData: d }: Route.ComponentProps) {
  const { query, list, users, me } = d;
  const here = listHref(PATH, query);
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
          <EditLink href={listHref(PATH, query, { edit: u.id })} onEdit={() => editor.start(u.id)} label={u.email} />
          {u.id === me ? null : (
            <ConfirmDelete
              id={u.id}
              name={u.email}
              what="user"
              confirmHref={listHref(PATH, query, { confirm: u.id })}
              cancelHref={here}
              openOnLoad={query.confirm === u.id}
              note={`Their sign-in, sessions and reviews are deleted. ${u.orderCount > 0 ? `Their ${u.orderCount} ${u.orderCount === 1 ? "order stays" : "orders stay"} on record (address and lines), no longer linked to an account.` : ""}`}
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
      <DataTable<Row>
        rows={list.rows}
        columns={columns}
        rowKey={(u) => u.id}
        caption="Users"
        empty={<p className="font-display text-2xl text-ink">{USER_ADMIN_MESSAGES.none}</p>}
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
        renderAfterRow={(u) =>
          editor.editing === u.id ? (
            <RowEditorForm id={u.id} action={here} cancelHref={here} onCancel={editor.stop} label={u.email}>
              <fieldset className="space-y-2 text-sm">
                <legend className="mb-2 text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">{u.email}</legend>
                <label className="flex items-center gap-2">
                  <input type="checkbox" name="isAdmin" defaultChecked={u.isAdmin} disabled={u.id === me || u.listedAdmin} className="h-4 w-4 accent-ink" />
                  Admin
                  {u.listedAdmin ? <span className="text-xs text-muted">(through ADMIN_EMAILS)</span> : u.id === me ? <span className="text-xs text-muted">(you)</span> : null}
                </label>
                {/* A disabled box isn't posted: keep what it shows. */}
                {u.id === me || u.listedAdmin ? <input type="hidden" name="isAdmin" value={u.isAdmin ? "on" : ""} /> : null}
                <label className="flex items-center gap-2">
                  <input type="checkbox" name="emailNotifications" defaultChecked={u.emailNotifications} className="h-4 w-4 accent-ink" />
                  Order and account notifications
                </label>
                <label className="flex items-center gap-2">
                  <input type="checkbox" name="emailMarketing" defaultChecked={u.emailMarketing} disabled={!u.emailMarketing} className="h-4 w-4 accent-ink" />
                  Marketing e-mails
                  {u.emailMarketing ? null : <span className="text-xs text-muted">(only the customer can opt in)</span>}
                </label>
              </fieldset>
            </RowEditorForm>
          ) : null
        }
      />
    </AdminPage>
  );
}
