import type { Route } from "./+types/admin.staff";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { DataTable, type Column } from "~/components/admin/data-table";
import { EditLink, RowEditorForm, useRowEditor } from "~/components/admin/row-editor";
import { Badge, InviteDialog, Invitations, RemoveDialog, Roles, RoleSelect, StaffSecurityForm } from "~/components/admin/staff-panels";
import { getDb } from "~/db/db.server";
import { requirePermission, type SessionUser } from "~/modules/accounts/session.server";
import { saveStaffSecurity, STAFF_SECURITY_KEY, staffSecurity } from "~/modules/accounts/staff-security.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { inviteStaff, listInvitations, resendInvitation, revokeInvitation, sentMessage } from "~/modules/staff/invitations.server";
import { STAFF_MESSAGES, staffIntent } from "~/modules/staff/staff.schema";
import { withinOwnRole } from "~/modules/staff/staff.logic";
import { changeStaffRole, deleteRole, listRoles, listStaff, removeFromStaff, saveRole } from "~/modules/staff/staff.server";
import { formatDateTimeZA } from "~/utils/dates";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/staff";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "staff");
  const query = parseListQuery(readQuery(request), {});
  const db = getDb();
  const [staff, invitations, roles, security] = await Promise.all([listStaff(db), listInvitations(db), listRoles(db), staffSecurity(db)]);
  return {
    query,
    me: admin.id,
    // what this person may give: the roles within their own, and the permissions they have
    grantable: admin.permissions,
    roles,
    security,
    staff: staff.map((s) => ({ ...s, lastSignIn: s.lastSignInAt ? formatDateTimeZA(s.lastSignInAt) : null })),
    invitations: invitations.map((i) => ({ ...i, expires: formatDateTimeZA(i.expiresAt) })),
  };
}

const actor = (admin: SessionUser) => ({ id: admin.id, email: admin.email });

export const action = adminAction(
  staffIntent,
  {
    invite: async (db, input, { admin }) => {
      const sent = await inviteStaff(db, actor(admin), input);
      return sentMessage(sent, STAFF_MESSAGES.invited(sent.email));
    },
    resend: async (db, input, { admin }) => {
      const sent = await resendInvitation(db, actor(admin), input);
      return sentMessage(sent, STAFF_MESSAGES.resent(sent.email));
    },
    revoke: async (db, input, { admin }) => STAFF_MESSAGES.revoked((await revokeInvitation(db, actor(admin), input)).email),
    role: async (db, input, { admin }) => {
      const changed = await changeStaffRole(db, actor(admin), input);
      return STAFF_MESSAGES.roleChanged(changed.email, changed.role);
    },
    remove: async (db, input, { admin }) => STAFF_MESSAGES.removed((await removeFromStaff(db, actor(admin), input)).email),
    saveRole: async (db, input, { admin }) => STAFF_MESSAGES.roleSaved((await saveRole(db, actor(admin), input)).name),
    deleteRole: async (db, input, { admin }) => STAFF_MESSAGES.roleDeleted((await deleteRole(db, actor(admin), input)).name),
    security: async (db, { requireTwoStep }) => ((await saveStaffSecurity(db, { requireTwoStep })).requireTwoStep ? STAFF_MESSAGES.securityOn : STAFF_MESSAGES.securityOff),
  },
  {
    permission: "staff",
    // each use case owns its transaction (the admin-role lock; the e-mail sent after it commits), which carries the
    // activity entry, so the sessions it changes are forgotten after the commit
    record: {
      invite: { type: "staff-invitation", find: "email", outside: true },
      resend: { type: "staff-invitation", outside: true },
      revoke: { type: "staff-invitation", outside: true },
      role: { type: "user", outside: true },
      remove: { type: "user", outside: true },
      saveRole: { type: "staff-role", find: "name", outside: true },
      deleteRole: { type: "staff-role", outside: true },
      security: { type: "settings", id: () => STAFF_SECURITY_KEY },
    },
    // giving, changing or taking away a role asks for the password (or a passkey) again after 10 minutes
    sensitive: ["invite", "resend", "role", "remove", "saveRole", "deleteRole", "security"],
    failure: {
      invite: STAFF_MESSAGES.failedInvite,
      resend: STAFF_MESSAGES.failedResend,
      revoke: STAFF_MESSAGES.failedRevoke,
      role: STAFF_MESSAGES.failedRole,
      remove: STAFF_MESSAGES.failedRemove,
      saveRole: STAFF_MESSAGES.failedSaveRole,
      deleteRole: STAFF_MESSAGES.failedDeleteRole,
      security: STAFF_MESSAGES.failedSecurity,
    },
    // a role's ticked permissions arrive as repeated checkboxes: one field for the schema
    prepare: (fields, form) => (fields.intent === "saveRole" ? { ...fields, permissions: form.getAll("permissions").map(String).join(",") } : fields),
  },
);

export function meta() {
  return [{ title: "Staff | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["staff"][number];

export default function Staff({ loaderData: d }: Route.ComponentProps) {
  const { query, me, roles, staff, invitations, grantable, security } = d;
  const here = listHref(PATH, query);
  const at = (changes: { edit?: string; confirm?: string }) => listHref(PATH, query, changes);
  const editor = useRowEditor(query.edit, "role");
  // the roles this person may give (a role beyond their own isn't offered; the server refuses it too)
  const givable = roles.filter((r) => withinOwnRole(grantable, r.permissions));
  const mayChange = (s: Row) => s.id !== me && !s.listed && withinOwnRole(grantable, roles.find((r) => r.id === s.role.id)?.permissions ?? []);
  const columns: Column<Row>[] = [
    {
      header: "Person",
      cell: (s) => (
        <span className="block min-w-0">
          {s.name ? <span className="block font-medium text-ink">{s.name}</span> : null}
          <span className={`break-all ${s.name ? "text-xs text-muted" : "font-medium text-ink"}`}>{s.email}</span>
          {s.id === me ? <span className="ml-2 text-xs font-normal text-muted">(you)</span> : null}
        </span>
      ),
    },
    {
      header: "Role",
      cell: (s) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          <Badge tone={s.owner ? "ink" : "sand"}>{s.role.name}</Badge>
          {s.listed ? <span className="text-xs text-muted">ADMIN_EMAILS</span> : null}
        </span>
      ),
    },
    { header: "Two-step", className: "whitespace-nowrap", cell: (s) => (s.secondFactor ? <span className="text-success">✓ Yes</span> : <span className="text-muted">No</span>) },
    { header: "Last sign-in", cell: (s) => s.lastSignIn ?? <span className="text-muted">Not signed in</span>, className: "whitespace-nowrap text-ink-soft" },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (s) =>
        mayChange(s) ? (
          <span className="flex flex-wrap items-center justify-end gap-x-5 gap-y-2">
            <EditLink href={at({ edit: s.id })} onEdit={() => editor.start(s.id)} label={`role of ${s.email}`} />
            <RemoveDialog id={s.id} email={s.email} openHref={at({ confirm: s.id })} closeHref={here} openOnLoad={query.confirm === s.id} />
          </span>
        ) : null,
    },
  ];
  const owners = staff.filter((s) => s.owner).length;
  return (
    <AdminPage
      title="Staff"
      description="The people who run the shop and what each may do. There is always at least one owner."
      actions={<InviteDialog roles={givable} openHref={at({ edit: "invite" })} closeHref={here} openOnLoad={query.edit === "invite"} />}
      stats={[
        { label: "Staff", value: staff.length },
        { label: "Owners", value: owners },
        { label: "Invitations", value: invitations.filter((i) => i.state === "pending").length, hint: "waiting" },
        { label: "Two-step sign-in", value: `${staff.filter((s) => s.secondFactor).length} of ${staff.length}` },
      ]}
      status={<AdminStatus />}
    >
      <section aria-labelledby="team-title" className="space-y-4">
        <h2 id="team-title" className="font-display text-2xl text-ink">
          Team
        </h2>
        <DataTable<Row>
          rows={staff}
          columns={columns}
          rowKey={(s) => s.id}
          caption="Staff"
          empty={<p className="font-display text-2xl text-ink">Nobody on the staff yet.</p>}
          renderAfterRow={(s) =>
            editor.editing === s.id && mayChange(s) ? (
              <RowEditorForm id={s.id} intent="role" action={here} cancelHref={here} onCancel={editor.stop} label={`role of ${s.email}`}>
                <label className="block max-w-sm text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
                  Role of <span className="break-all normal-case tracking-normal text-ink">{s.email}</span>
                  <RoleSelect roles={givable} defaultValue={s.role.id} />
                </label>
                {s.owner && owners <= 1 ? <p className="text-xs text-muted">{STAFF_MESSAGES.lastOwner}.</p> : null}
              </RowEditorForm>
            ) : null
          }
        />
      </section>
      <section aria-labelledby="security-title" className="space-y-4">
        <h2 id="security-title" className="font-display text-2xl text-ink">
          Sign-in
        </h2>
        <StaffSecurityForm requireTwoStep={security.requireTwoStep} action={here} without={staff.filter((s) => !s.secondFactor).length} />
      </section>
      <section aria-labelledby="invitations-title" className="space-y-4">
        <h2 id="invitations-title" className="font-display text-2xl text-ink">
          Invitations
        </h2>
        <Invitations rows={invitations} action={here} />
      </section>
      <section aria-labelledby="roles-title" className="space-y-4">
        <h2 id="roles-title" className="font-display text-2xl text-ink">
          Roles
        </h2>
        <Roles roles={roles} grantable={grantable} hrefs={{ here, edit: (key) => at({ edit: key }), confirm: (key) => at({ confirm: key }) }} query={query} />
      </section>
    </AdminPage>
  );
}
