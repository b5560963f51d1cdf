import { Link } from "react-router";
import type { ConsentHistoryRow } from "~/modules/accounts/users-admin-page.server";
import { RowEditorForm } from "./row-editor";

/** The pieces of Admin → Users (app/routes/admin.users.tsx): a flag, a person's editor, their consent history. */

export function Flag({ on, label }: { on: boolean; label: string }) {
  return <span className={on ? "text-success" : "text-muted"}>{on ? `✓ ${label}` : `– ${label}`}</span>;
}

/** A person's role (only with the staff permission; never their own or one set by ADMIN_EMAILS) and e-mail choices. */
export function UserEditor({
  user: u,
  me,
  staffAccess,
  action,
  onCancel,
}: {
  user: { id: string; email: string; isAdmin: boolean; listedAdmin: boolean; emailNotifications: boolean; emailMarketing: boolean };
  me: string;
  staffAccess: boolean;
  action: string;
  onCancel: () => void;
}) {
  return (
    <RowEditorForm id={u.id} action={action} cancelHref={action} onCancel={onCancel} label={u.email}>
      <fieldset className="space-y-2 text-sm">
        <legend className="mb-2 text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">{u.email}</legend>
        {staffAccess ? (
          <label className="flex items-center gap-2">
            <input type="checkbox" name="isAdmin" defaultChecked={u.isAdmin} disabled={u.id === me || u.listedAdmin} className="h-4 w-4 accent-ink" />
            Admin
            {u.listedAdmin ? <span className="text-xs text-muted">(through ADMIN_EMAILS)</span> : u.id === me ? <span className="text-xs text-muted">(you)</span> : null}
          </label>
        ) : null}
        {/* A disabled box isn't posted: keep what it shows (without the staff permission, nobody is made staff here). */}
        {u.id === me || u.listedAdmin || !staffAccess ? <input type="hidden" name="isAdmin" value={u.isAdmin ? "on" : ""} /> : null}
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
  );
}

/** A person's consents, oldest first: what, which version, given or withdrawn, where, by whom, and the words shown. */
export function ConsentHistory({ email, rows, closeHref }: { email: string; rows: ConsentHistoryRow[]; closeHref: string }) {
  return (
    <section aria-labelledby="consent-history-title" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="consent-history-title" className="text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
          Consent history of <span className="break-all normal-case tracking-normal text-ink">{email}</span>
        </h2>
        <Link to={closeHref} preventScrollReset className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline">
          Close
        </Link>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-ink-soft">No consent recorded: this account was made before the consent log, and nothing has changed since.</p>
      ) : (
        <ol className="divide-y divide-line border-y border-line">
          {rows.map((r) => (
            <li key={r.id} className="grid gap-1 py-3 text-sm sm:grid-cols-[11rem_1fr] sm:gap-4">
              <span className="text-xs text-muted tabular-nums">{r.at}</span>
              <div className="min-w-0">
                <p className="text-ink">
                  <span className={r.granted ? "font-medium text-success" : "font-medium text-danger"}>{r.verb}</span>: {r.purpose}{" "}
                  <span className="text-xs text-muted">
                    (version {r.version}) · {r.source}
                    {r.actor ? ` by ${r.actor}` : ""}
                  </span>
                </p>
                <p className="mt-1 break-words text-xs leading-relaxed text-ink-soft">“{r.wording}”</p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
