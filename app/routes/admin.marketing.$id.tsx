/**
 * Admin → Marketing → one announcement (issue 21 point 2; docs/decisions/039): write it (subject, text, up to two
 * products named by link, slug or SKU), save the draft, see the e-mail as a recipient will, send a test to yourself,
 * then send it to everyone opted in — after which the page shows the sending's progress. /admin/marketing/new starts
 * a draft. Every form works without JavaScript; the server checks the role and every field.
 */
import { useEffect, useRef } from "react";
import { Link, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/admin.marketing.$id";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher, useAdminResult } from "~/components/admin/admin-status";
import { AnnouncementBadge, EmailPreview, SendProgress } from "~/components/admin/announcements";
import { Button, buttonClass } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { ANNOUNCEMENT_LIMITS, ANNOUNCEMENT_MESSAGES as M, announcementIntent } from "~/modules/marketing/announcements.schema";
import {
  announcementProgress,
  getAnnouncement,
  marketingFigures,
  previewAnnouncement,
  queueAnnouncement,
  retryFailed,
  saveAnnouncement,
  sendAnnouncementTest,
} from "~/modules/marketing/announcements.server";
import { formatDateTimeZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { readQuery, routeId } from "~/utils/request.server";

const LIST = "/admin/marketing";

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "marketing");
  const id = routeId(params.id);
  const query = readQuery(request);
  const db = getDb();
  const figures = await marketingFigures(db);
  const common = { me: admin.email, optedIn: figures.optedIn, perMinute: env().MARKETING_EMAILS_PER_MINUTE, confirmSend: query.get("confirm") === "send", saved: query.get("saved") === "1" };
  if (id === "new") return { ...common, announcement: null, preview: null, progress: null };
  const a = await getAnnouncement(db, id);
  if (!a) throw new Response("Not found", { status: 404 });
  const products = a.productIds.length ? await db.selectFrom("products").select(["id", "slug", "name"]).where("id", "in", a.productIds).execute() : [];
  const refs = a.productIds.map((pid) => products.find((p) => p.id === pid)).filter((p) => p !== undefined);
  const [preview, progress] = await Promise.all([previewAnnouncement(db, a, admin), a.status === "draft" ? null : announcementProgress(db, a.id)]);
  return {
    ...common,
    announcement: {
      id: a.id,
      subject: a.subject,
      body: a.body,
      status: a.status,
      products: refs.map((p) => ({ slug: p.slug, name: p.name })),
      queued: a.queuedAt ? formatDateTimeZA(a.queuedAt) : null,
      finished: a.finishedAt ? formatDateTimeZA(a.finishedAt) : null,
    },
    preview,
    progress,
  };
}

const handle = adminAction(
  announcementIntent,
  {
    save: async (db, input, { admin }) => ({ message: M.saved, id: await saveAnnouncement(db, admin.id, input) }),
    test: async (db, { id }, { admin }) => sendAnnouncementTest(db, id, admin),
    send: async (db, { id }, { admin }) => M.queued(await queueAnnouncement(db, id, admin.id)),
    retry: async (db, { id }) => (await retryFailed(db, id), M.retried),
  },
  { permission: "marketing", record: { save: "announcement", test: { type: "announcement", outside: true }, send: "announcement", retry: "announcement" }, failure: { save: M.failedSave, test: M.failedTest, send: M.failedSend, retry: M.failedRetry } },
);

/** A new draft, once saved, continues on its own page (a redirect, with or without JavaScript). */
export async function action(args: Route.ActionArgs) {
  const result = await handle(args);
  if ("ok" in result && result.ok && result.intent === "save" && result.id && args.params.id === "new") return redirect(`${LIST}/${result.id}?saved=1`);
  return result;
}

export function meta() {
  return [{ title: "Announcement | Admin | Scentara" }];
}

type Data = Route.ComponentProps["loaderData"];

export default function AnnouncementPage({ loaderData: d }: Route.ComponentProps) {
  const a = d.announcement;
  const title = a ? a.subject : "New announcement";
  return (
    <AdminPage
      title={title}
      description={
        a?.status === "draft" || !a
          ? "Write it, save it, look at the preview and send yourself a test. Send goes to everyone who opted in to news and offers, each with their own unsubscribe link."
          : `Sent on ${a.queued} to the customers opted in at that moment.`
      }
      actions={
        <Link to={LIST} className={buttonClass("ghost", "md", "whitespace-nowrap")}>
          ← All announcements
        </Link>
      }
      status={d.saved ? <SavedOrStatus /> : <AdminStatus />}
    >
      {a && a.status !== "draft" && d.progress ? (
        <>
          <p>
            <AnnouncementBadge status={a.status} />
          </p>
          <SendProgress status={a.status} progress={d.progress} finished={a.finished} />
          {d.progress.failed > 0 ? <RetryForm id={a.id} failed={d.progress.failed} /> : null}
        </>
      ) : (
        <div className="grid items-start gap-6 xl:grid-cols-2">
          <DraftForm announcement={a} />
          {a && d.preview ? <DraftActions d={d} id={a.id} subject={a.subject} /> : null}
        </div>
      )}
      {d.preview ? <EmailPreview subject={d.preview.subject} html={d.preview.bodyHtml} text={d.preview.text} from={d.preview.from} /> : null}
    </AdminPage>
  );
}

/** After a new draft's redirect: "Draft saved" until another action answers. */
function SavedOrStatus() {
  const result = useAdminResult();
  return result ? <AdminStatus /> : <Notice tone="success">{M.saved}</Notice>;
}

function DraftForm({ announcement: a }: { announcement: Data["announcement"] }) {
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

function DraftActions({ d, id, subject }: { d: Data; id: string; subject: string }) {
  const fetcher = useAdminFetcher();
  const busy = (intent: string) => fetcher.state !== "idle" && fetcher.formData?.get("intent") === intent;
  return (
    <section aria-labelledby="send-heading" className="min-w-0 space-y-5 border border-line bg-white p-4 sm:p-6">
      <h2 id="send-heading" className="font-display text-xl text-ink">
        Test, then send
      </h2>
      <fetcher.Form method="post" action={`${LIST}/${id}`} className="space-y-2">
        <input type="hidden" name="intent" value="test" />
        <input type="hidden" name="id" value={id} />
        <p className="text-sm text-ink-soft">
          A copy marked [Test] goes to <span className="break-all font-medium text-ink">{d.me}</span>, with the same footer and unsubscribe headers.
        </p>
        <Button type="submit" variant="secondary" disabled={busy("test")}>
          {busy("test") ? "Sending test…" : "Send a test to me"}
        </Button>
      </fetcher.Form>
      <div className="space-y-2 border-t border-line pt-5">
        <p className="text-sm text-ink-soft">
          {d.optedIn === 0
            ? "Nobody has opted in to news and offers yet."
            : `${d.optedIn} ${d.optedIn === 1 ? "customer has" : "customers have"} opted in. It goes out at up to ${d.perMinute} e-mails a minute; once sent it can't be changed.`}
        </p>
        <ConfirmSend id={id} subject={subject} count={d.optedIn} perMinute={d.perMinute} openOnLoad={d.confirmSend} disabled={d.optedIn === 0} />
      </div>
    </section>
  );
}

/** Send, after a confirmation naming what goes to how many (a native dialog; without JavaScript ?confirm=send). */
function ConfirmSend({ id, subject, count, perMinute, openOnLoad, disabled }: { id: string; subject: string; count: number; perMinute: number; openOnLoad: boolean; disabled: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useAdminFetcher();
  const navigate = useNavigate();
  const here = `${LIST}/${id}`;
  const open = () => {
    const d = dialog.current;
    if (!d) return;
    if (d.open) d.close();
    d.showModal();
  };
  useEffect(() => {
    if (openOnLoad) open();
  }, [openOnLoad]);
  // Answered: close, and load the page again without ?confirm (it now shows the progress).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && "intent" in fetcher.data && fetcher.data.intent === "send") {
      dialog.current?.close();
      if (openOnLoad) navigate(here, { replace: true, preventScrollReset: true });
    }
  }, [fetcher.state, fetcher.data, openOnLoad, navigate, here]);
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "send";
  const label = `Send to ${count} ${count === 1 ? "customer" : "customers"}`;
  return (
    <>
      {disabled ? (
        <Button disabled>{label}</Button>
      ) : (
        <Link
          to={`${here}?confirm=send`}
          preventScrollReset
          onClick={(event) => {
            event.preventDefault();
            open();
          }}
          className={buttonClass("primary", "md")}
        >
          {label}
        </Link>
      )}
      <dialog
        ref={dialog}
        open={(openOnLoad && !disabled) || undefined}
        aria-labelledby="confirm-send-title"
        className="fixed inset-0 z-50 m-auto w-[calc(100%-2rem)] max-w-md border border-line bg-ivory p-0 text-left text-ink shadow-2xl backdrop:bg-ink/50"
      >
        <fetcher.Form method="post" action={here} className="p-6 sm:p-8">
          <p className="eyebrow">Please confirm</p>
          <h2 id="confirm-send-title" className="mt-2 text-2xl text-ink">
            Send this announcement?
          </h2>
          <p className="mt-4 break-words text-sm font-medium text-ink">{subject}</p>
          <p className="mt-3 text-sm text-ink-soft">
            It goes to the {count} {count === 1 ? "customer" : "customers"} opted in to news and offers, at up to {perMinute} e-mails a minute. Whoever opts out before their turn is
            skipped. Once sent, it can't be changed or sent again.
          </p>
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="id" value={id} />
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Link
              to={here}
              preventScrollReset
              onClick={(event) => {
                event.preventDefault();
                dialog.current?.close();
              }}
              className={buttonClass("ghost", "md")}
            >
              Cancel
            </Link>
            <button type="submit" disabled={busy} className={buttonClass("primary", "md")}>
              {busy ? "Starting…" : label}
            </button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}

function RetryForm({ id, failed }: { id: string; failed: number }) {
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
