/**
 * Admin → Marketing → one announcement (issue 21 point 2; docs/decisions/039): write it (subject, text, up to two
 * products named by link, slug or SKU), save the draft, see the e-mail as a recipient will, send a test to yourself,
 * then send it to everyone opted in — after which the page shows the sending's progress. /admin/marketing/new starts
 * a draft. Every form works without JavaScript; the server checks the role and every field.
 */
import { Link, redirect } from "react-router";
import type { Route } from "./+types/admin.marketing.$id";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { DraftActions, DraftForm, RetryForm, SavedOrStatus } from "~/components/admin/announcement-draft";
import { AnnouncementBadge, EmailPreview, SendProgress } from "~/components/admin/announcements";
import { buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { announcementPage } from "~/modules/marketing/announcement-page.server";
import { ANNOUNCEMENT_MESSAGES as M, announcementIntent } from "~/modules/marketing/announcements.schema";
import { marketingFigures, queueAnnouncement, retryFailed, saveAnnouncement, sendAnnouncementTest } from "~/modules/marketing/announcements.server";
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
  const page = await announcementPage(db, id, admin);
  if (!page) throw new Response("Not found", { status: 404 });
  return { ...common, ...page };
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
          {a && d.preview ? <DraftActions id={a.id} subject={a.subject} me={d.me} optedIn={d.optedIn} perMinute={d.perMinute} confirmSend={d.confirmSend} /> : null}
        </div>
      )}
      {d.preview ? <EmailPreview subject={d.preview.subject} html={d.preview.bodyHtml} text={d.preview.text} from={d.preview.from} /> : null}
    </AdminPage>
  );
}
