import { useAdminFetcher } from "./admin-status";
import { ConfirmDelete } from "./confirm-delete";
import { FormDialog } from "./form-dialog";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { ALL_PERMISSIONS, PERMISSIONS, type Permission } from "~/modules/accounts/permissions";

/**
 * The Staff page's parts (issue 38): the invitation dialog, the pending invitations, the roles with their
 * permissions, and a role's form. Every form posts to the page's one admin fetcher and works without JavaScript (each
 * dialog has a ?edit= / ?confirm= address the server renders open).
 */

export interface RoleView {
  id: string;
  name: string;
  preset: boolean;
  permissions: Permission[];
  members: number;
}

export interface InvitationRow {
  id: string;
  email: string;
  role: { name: string };
  invitedBy: string | null;
  expires: string;
  state: "pending" | "expired";
}

const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
const textAction = "text-xs font-medium uppercase tracking-[0.14em] underline-offset-4 hover:underline";

/** A small badge: a role's name, Preset, Expired. */
export function Badge({ children, tone = "sand" }: { children: React.ReactNode; tone?: "ink" | "sand" | "gold" | "muted" }) {
  const tones = { ink: "bg-ink text-ivory", sand: "bg-sand text-ink-soft", gold: "bg-gold/15 text-ink", muted: "bg-line text-muted" };
  return <span className={`inline-block whitespace-nowrap px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${tones[tone]}`}>{children}</span>;
}

/** Choose a role: every role the person may give, with what it allows as the option's title. */
export function RoleSelect({ roles, defaultValue, name = "roleId", id }: { roles: RoleView[]; defaultValue?: string; name?: string; id?: string }) {
  return (
    <select id={id} name={name} defaultValue={defaultValue ?? roles.find((r) => r.id === "packer")?.id ?? roles[0]?.id} required className={`${controlClass} mt-1`}>
      {roles.map((r) => (
        <option key={r.id} value={r.id}>
          {r.name}
        </option>
      ))}
    </select>
  );
}

export function InviteDialog({ roles, openHref, closeHref, openOnLoad }: { roles: RoleView[]; openHref: string; closeHref: string; openOnLoad: boolean }) {
  return (
    <FormDialog title="Invite a person" trigger="Invite a Person" triggerClassName={buttonClass("primary", "md")} openHref={openHref} closeHref={closeHref} openOnLoad={openOnLoad} submitLabel="Send Invitation">
      <input type="hidden" name="intent" value="invite" />
      <p className="text-sm text-ink-soft">They get an e-mail with a link that works once, for 72 hours. With an account under that address they sign in with it; otherwise they choose a password.</p>
      <label className={label}>
        E-mail address
        <input type="email" name="email" required autoComplete="off" placeholder="name@example.co.za" className={`${controlClass} mt-1`} />
      </label>
      <label className={label}>
        Role
        <RoleSelect roles={roles} />
      </label>
    </FormDialog>
  );
}

function InlineAction({ intent, id, children, action, tone = "text-ink" }: { intent: string; id: string; children: React.ReactNode; action: string; tone?: string }) {
  const fetcher = useAdminFetcher();
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={`${textAction} ${tone}`}>
        {children}
      </button>
    </fetcher.Form>
  );
}

export function Invitations({ rows, action }: { rows: InvitationRow[]; action: string }) {
  if (rows.length === 0) return <p className="border border-dashed border-line bg-white/60 px-6 py-6 text-center text-sm text-ink-soft">No invitations waiting.</p>;
  return (
    <ul className="divide-y divide-line border-y border-line bg-white">
      {rows.map((i) => (
        <li key={i.id} className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <p className="break-all font-medium text-ink">{i.email}</p>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
              <Badge>{i.role.name}</Badge>
              {i.state === "expired" ? <Badge tone="muted">Expired</Badge> : <span>Link works until {i.expires}</span>}
              {i.invitedBy ? <span className="break-all">invited by {i.invitedBy}</span> : null}
            </p>
          </div>
          <div className="flex shrink-0 gap-5">
            <InlineAction intent="resend" id={i.id} action={action} tone="text-gold">
              Resend<span className="sr-only"> the invitation of {i.email}</span>
            </InlineAction>
            <InlineAction intent="revoke" id={i.id} action={action} tone="text-danger">
              Revoke<span className="sr-only"> the invitation of {i.email}</span>
            </InlineAction>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A role's form: its name and what it may do, ticked (only what the person's own role allows can be given). */
function RoleDialog({ role, grantable, openHref, closeHref, openOnLoad }: { role: RoleView | null; grantable: readonly Permission[]; openHref: string; closeHref: string; openOnLoad: boolean }) {
  return (
    <FormDialog
      title={role ? `Edit the role ${role.name}` : "New role"}
      trigger={
        role ? (
          <>
            Edit<span className="sr-only"> the role {role.name}</span>
          </>
        ) : (
          "New Role"
        )
      }
      triggerClassName={role ? `${textAction} text-gold` : buttonClass("secondary", "md")}
      openHref={openHref}
      closeHref={closeHref}
      openOnLoad={openOnLoad}
      submitLabel={role ? "Save Role" : "Create Role"}
    >
      <input type="hidden" name="intent" value="saveRole" />
      {role ? <input type="hidden" name="id" value={role.id} /> : null}
      <label className={label}>
        Name
        <input name="name" defaultValue={role?.name ?? ""} required maxLength={60} placeholder="e.g. Weekend packer" className={`${controlClass} mt-1`} />
      </label>
      <fieldset>
        <legend className={label}>What this role may do</legend>
        <div className="mt-2 grid gap-2">
          {ALL_PERMISSIONS.map((p) => (
            <label key={p} className={`flex items-start gap-3 border border-line bg-white px-3 py-2.5 text-sm ${grantable.includes(p) ? "text-ink" : "text-muted"}`}>
              <input type="checkbox" name="permissions" value={p} defaultChecked={role?.permissions.includes(p)} disabled={!grantable.includes(p)} className="mt-0.5 h-4 w-4 shrink-0 accent-ink" />
              <span className="min-w-0">{PERMISSIONS[p]}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </FormDialog>
  );
}

export function Roles({ roles, grantable, hrefs, query }: { roles: RoleView[]; grantable: readonly Permission[]; hrefs: { here: string; edit: (key: string) => string; confirm: (key: string) => string }; query: { edit: string; confirm: string } }) {
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="max-w-2xl text-sm text-ink-soft">The five presets are the shop's own and can't be changed. Make a role of your own by ticking what it may do; a change takes effect on its people's next page.</p>
        <RoleDialog role={null} grantable={grantable} openHref={hrefs.edit("role:new")} closeHref={hrefs.here} openOnLoad={query.edit === "role:new"} />
      </div>
      <ul className="grid gap-4 md:grid-cols-2">
        {roles.map((r) => (
          <li key={r.id} className="flex min-w-0 flex-col border border-line bg-white p-5">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-display text-xl text-ink">{r.name}</h3>
              <span className="flex items-center gap-2 text-xs text-muted">
                {r.preset ? <Badge tone="gold">Preset</Badge> : null}
                {r.members === 1 ? "1 person" : `${r.members} people`}
              </span>
            </div>
            <ul className="mt-3 flex-1 space-y-1.5 text-sm text-ink-soft">
              {r.permissions.map((p) => (
                <li key={p} className="flex gap-2">
                  <span aria-hidden="true" className="text-gold">
                    ✓
                  </span>
                  <span className="min-w-0">{PERMISSIONS[p]}</span>
                </li>
              ))}
            </ul>
            {r.preset ? null : (
              <div className="mt-4 flex gap-5 border-t border-line pt-3">
                <RoleDialog role={r} grantable={grantable} openHref={hrefs.edit(`role:${r.id}`)} closeHref={hrefs.here} openOnLoad={query.edit === `role:${r.id}`} />
                <ConfirmDelete
                  id={r.id}
                  name={r.name}
                  what="role"
                  intent="deleteRole"
                  confirmHref={hrefs.confirm(`role:${r.id}`)}
                  cancelHref={hrefs.here}
                  openOnLoad={query.confirm === `role:${r.id}`}
                  note={r.members > 0 ? "People still have this role: give them another first, or the shop will refuse." : "Nobody has this role."}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Remove from the staff: a confirmation that says what stays (their customer account). */
export function RemoveDialog({ id, email, openHref, closeHref, openOnLoad }: { id: string; email: string; openHref: string; closeHref: string; openOnLoad: boolean }) {
  return (
    <FormDialog
      title={`Remove ${email} from the staff?`}
      trigger={
        <>
          Remove<span className="sr-only"> {email} from the staff</span>
        </>
      }
      triggerClassName={`${textAction} text-danger`}
      openHref={openHref}
      closeHref={closeHref}
      openOnLoad={openOnLoad}
      submitLabel="Remove from Staff"
    >
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="id" value={id} />
      <p className="text-sm text-ink-soft">They lose the admin from their next page. Their account stays, as a customer account: their orders, wishlist and sign-in are kept.</p>
    </FormDialog>
  );
}

/** The owner's "Require two-step sign-in for all staff" switch (docs/decisions/059), a plain form. */
export function StaffSecurityForm({ requireTwoStep, action, without }: { requireTwoStep: boolean; action: string; without: number }) {
  const fetcher = useAdminFetcher();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "security";
  return (
    <fetcher.Form method="post" action={action} className="flex flex-col gap-4 border border-line bg-white p-5 sm:flex-row sm:items-center sm:justify-between">
      <input type="hidden" name="intent" value="security" />
      <label className="flex min-w-0 items-start gap-3 text-sm text-ink">
        <input type="checkbox" name="requireTwoStep" defaultChecked={requireTwoStep} className="mt-0.5 h-4 w-4 shrink-0 accent-ink" />
        <span className="min-w-0">
          <span className="block font-medium">Require two-step sign-in for all staff</span>
          <span className="mt-1 block text-xs text-ink-soft">
            An authenticator app or a passkey. Anyone without one is taken to set it up at their next admin page, before anything else opens.
            {without > 0 ? ` ${without === 1 ? "1 person" : `${without} people`} on the staff would be asked now.` : " Everyone on the staff has one."}
          </span>
        </span>
      </label>
      <button type="submit" disabled={busy} className={buttonClass("secondary", "sm", "shrink-0")}>
        {busy ? "Saving…" : "Save"}
      </button>
    </fetcher.Form>
  );
}
