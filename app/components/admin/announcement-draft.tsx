import { useCallback } from "react";
import { useNavigate } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import type { AnnouncementPage } from "~/modules/marketing/announcement-page.server";
import { ANNOUNCEMENT_LIMITS, ANNOUNCEMENT_MESSAGES as M } from "~/modules/marketing/announcements.schema";
import { AdminStatus, useAdminFetcher, useAdminResult } from "./admin-status";
import { FormDialog } from "./form-dialog";

/** The forms of Admin → Marketing → one announcement (app/routes/admin.marketing.$id.tsx): write, test, send, retry. */

const LIST = "/admin/marketing";

/** After a new draft's redirect: "Draft saved" until another action answers. */
export function SavedOrStatus() {
  const result = useAdminResult();
  return result ? <AdminStatus /> : <Notice tone="success">{M.saved}</Notice>;
}

export function DraftForm({ announcement: a }: { announcement: AnnouncementPage["announcement"] | null }) {
  const fetcher = useAdminFetcher();
  const result = useAdminResult();
  const errors = result && !result.ok && "fieldErrors" in result ? result.fieldErrors : {};
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "save";
  const action = `${LIST}/${a?.id ?? "new"}`;
  return (
    <fetcher.Form method="post" action={action} className="min-w-0 space-y-5 border border-line bg-white p-4 sm:p-6" aria-label="Announcement">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="id" value={a?.id ?? "new"} />
      <Field label="Subject" error={errors.subject}>
        {(props) => <input {...props} name="subject" defaultValue={a?.subject ?? ""} maxLength={ANNOUNCEMENT_LIMITS.subject} required />}
      </Field>
      <Field label="Text" error={errors.body} hint="Plain text: a blank line starts a new paragraph. The shop's name, the unsubscribe link and the privacy notice are added below it.">
        {(props) => <textarea {...props} name="body" rows={9} defaultValue={a?.body ?? ""} maxLength={ANNOUNCEMENT_LIMITS.body} required />}
      </Field>
      <fieldset className="space-y-4">
        <legend className="text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">Products (up to two)</legend>
        {[1, 2].map((n) => {
          const current = a?.products[n - 1];
          return (
            <Field key={n} label={`Product ${n}`} error={errors[`product${n}`]} hint={current ? `Now: ${current.name}` : "Paste its link from the shop, its slug or its SKU; leave empty for none."}>
              {(props) => <input {...props} name={`product${n}`} defaultValue={current?.slug ?? ""} maxLength={ANNOUNCEMENT_LIMITS.productRef} autoComplete="off" />}
            </Field>
          );
        })}
      </fieldset>
      <Button type="submit" disabled={busy}>
        {busy ? "Saving…" : "Save draft"}
      </Button>
    </fetcher.Form>
  );
}

export function DraftActions({ id, subject, me, optedIn, perMinute, confirmSend }: { id: string; subject: string; me: string; optedIn: number; perMinute: number; confirmSend: boolean }) {
  const fetcher = useAdminFetcher();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "test";
  return (
    <section aria-labelledby="send-heading" className="min-w-0 space-y-5 border border-line bg-white p-4 sm:p-6">
      <h2 id="send-heading" className="font-display text-xl text-ink">
        Test, then send
      </h2>
      <fetcher.Form method="post" action={`${LIST}/${id}`} className="space-y-2">
        <input type="hidden" name="intent" value="test" />
        <input type="hidden" name="id" value={id} />
        <p className="text-sm text-ink-soft">
          A copy marked [Test] goes to <span className="break-all font-medium text-ink">{me}</span>, with the same footer and unsubscribe headers.
        </p>
        <Button type="submit" variant="secondary" disabled={busy}>
          {busy ? "Sending test…" : "Send a test to me"}
        </Button>
      </fetcher.Form>
      <div className="space-y-2 border-t border-line pt-5">
        <p className="text-sm text-ink-soft">
          {optedIn === 0
            ? "Nobody has opted in to news and offers yet."
            : `${optedIn} ${optedIn === 1 ? "customer has" : "customers have"} opted in. It goes out at up to ${perMinute} e-mails a minute; once sent it can't be changed.`}
        </p>
        <ConfirmSend id={id} subject={subject} count={optedIn} perMinute={perMinute} openOnLoad={confirmSend} disabled={optedIn === 0} />
      </div>
    </section>
  );
}

/** Send, after a confirmation naming what goes to how many (the admin's FormDialog; without JavaScript ?confirm=send). */
function ConfirmSend({ id, subject, count, perMinute, openOnLoad, disabled }: { id: string; subject: string; count: number; perMinute: number; openOnLoad: boolean; disabled: boolean }) {
  const navigate = useNavigate();
  const here = `${LIST}/${id}`;
  const label = `Send to ${count} ${count === 1 ? "customer" : "customers"}`;
  // Sent: load the page again without ?confirm (it now shows the progress).
  const done = useCallback(() => {
    if (openOnLoad) navigate(here, { replace: true, preventScrollReset: true });
  }, [openOnLoad, navigate, here]);
  if (disabled) return <Button disabled>{label}</Button>;
  return (
    <FormDialog
      title="Send this announcement?"
      eyebrow="Please confirm"
      narrow
      trigger={label}
      triggerClassName={buttonClass("primary", "md")}
      openHref={`${here}?confirm=send`}
      closeHref={here}
      openOnLoad={openOnLoad}
      submitLabel={label}
      busyLabel="Starting…"
      onDone={done}
    >
      <p className="break-words text-sm font-medium text-ink">{subject}</p>
      <p className="text-sm text-ink-soft">
        It goes to the {count} {count === 1 ? "customer" : "customers"} opted in to news and offers, at up to {perMinute} e-mails a minute. Whoever opts out before their turn is skipped.
        Once sent, it can't be changed or sent again.
      </p>
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="id" value={id} />
    </FormDialog>
  );
}

export function RetryForm({ id, failed }: { id: string; failed: number }) {
  const fetcher = useAdminFetcher();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "retry";
  return (
    <fetcher.Form method="post" action={`${LIST}/${id}`} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="id" value={id} />
      <p className="text-sm text-ink-soft">
        The mail server refused {failed} {failed === 1 ? "e-mail" : "e-mails"}: nobody received those. Once it works again, send them.
      </p>
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? "Queuing…" : `Send the ${failed} failed again`}
      </Button>
    </fetcher.Form>
  );
}
