/**
 * Admin → Marketing (issue 21 point 2; docs/decisions/039): the announcements (drafts, being sent with their
 * progress, sent), who may be written to, and the consent log as a CSV. Writing, previewing, testing and sending one
 * is its own page (admin.marketing.$id.tsx).
 */
import { useCan } from "~/components/admin/use-admin-permissions";
import { Link } from "react-router";
import type { Route } from "./+types/admin.marketing";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { AnnouncementBadge, ProgressBar, progressLine, useRefreshWhile } from "~/components/admin/announcements";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { ANNOUNCEMENT_MESSAGES, announcementListIntent } from "~/modules/marketing/announcements.schema";
import { deleteAnnouncement, listAnnouncements, marketingFigures } from "~/modules/marketing/announcements.server";
import { formatDateTimeZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/marketing";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "marketing");
  const query = readQuery(request);
  const page = Number.parseInt(query.get("page") ?? "1", 10);
  const confirm = (query.get("confirm") ?? "").slice(0, 100);
  const db = getDb();
  const [list, figures] = await Promise.all([listAnnouncements(db, Number.isSafeInteger(page) && page > 0 ? page : 1), marketingFigures(db)]);
  const config = env();
  return {
    confirm,
    figures,
    perMinute: config.MARKETING_EMAILS_PER_MINUTE,
    mailServer: Boolean(config.SMTP_URL),
    list: {
      ...list,
      rows: list.rows.map((a) => ({
        id: a.id,
        subject: a.subject,
        status: a.status,
        progress: a.progress,
        created: formatDateTimeZA(a.createdAt),
        queued: a.queuedAt ? formatDateTimeZA(a.queuedAt) : null,
      })),
    },
  };
}

export const action = adminAction(
  announcementListIntent,
  { delete: async (db, { id }) => (await deleteAnnouncement(db, id), ANNOUNCEMENT_MESSAGES.deleted) },
  { permission: "marketing", record: "announcement", failure: { delete: ANNOUNCEMENT_MESSAGES.failedDelete } },
);

export function meta() {
  return [{ title: "Marketing | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

export default function Marketing({ loaderData: d }: Route.ComponentProps) {
  useRefreshWhile(d.list.rows.some((r) => r.status === "sending"));
  // the consent log of everyone is the data permission's (a marketer sends to those who opted in)
  const dataAccess = useCan("data");
  const here = d.list.page > 1 ? `${PATH}?page=${d.list.page}` : PATH;
  const withConfirm = (id: string) => `${PATH}?${d.list.page > 1 ? `page=${d.list.page}&` : ""}confirm=${encodeURIComponent(id)}`;
  const columns: Column<Row>[] = [
    {
      header: "Announcement",
      cell: (a) => (
        <Link to={`${PATH}/${a.id}`} className="break-words font-medium text-ink underline decoration-gold/40 underline-offset-4 hover:decoration-gold">
          {a.subject}
        </Link>
      ),
    },
    { header: "Status", cell: (a) => <AnnouncementBadge status={a.status} /> },
    {
      header: "Progress",
      cell: (a) =>
        a.status === "draft" ? (
          <span className="text-xs text-muted">Not sent</span>
        ) : (
          <span className="flex min-w-40 flex-col gap-1.5">
            <span className="text-xs text-ink-soft">{progressLine(a.progress)}</span>
            <ProgressBar progress={a.progress} label={`Sending progress of ${a.subject}`} />
          </span>
        ),
    },
    { header: "Sent", cell: (a) => a.queued ?? <span className="text-muted">–</span>, className: "whitespace-nowrap", phone: "hide" },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (a) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          <Link to={`${PATH}/${a.id}`} className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline">
            {a.status === "draft" ? "Edit" : "Open"}
            <span className="sr-only"> {a.subject}</span>
          </Link>
          {a.status === "draft" ? (
            <ConfirmDelete id={a.id} name={a.subject} what="draft" confirmHref={withConfirm(a.id)} cancelHref={here} openOnLoad={d.confirm === a.id} />
          ) : null}
        </span>
      ),
    },
  ];
  return (
    <AdminPage
      title="Marketing"
      description="Announcements to the customers who opted in to news and offers. Each e-mail names the shop and carries a one-click unsubscribe link; nobody who has not opted in receives one."
      actions={
        <>
          <Link to={`${PATH}/reminders`} className={buttonClass("secondary", "md", "whitespace-nowrap")}>
            Reminders
          </Link>
          <Link to={`${PATH}/rewards`} className={buttonClass("secondary", "md", "whitespace-nowrap")}>
            Rewards
          </Link>
          {dataAccess ? (
            <a href="/admin/consents.csv" download className={buttonClass("secondary", "md", "whitespace-nowrap")}>
              Consent log (CSV)
            </a>
          ) : null}
          <ButtonLink to={`${PATH}/new`} className="whitespace-nowrap">
            New announcement
          </ButtonLink>
        </>
      }
      stats={[
        { label: "Opted in", value: d.figures.optedIn, hint: "customers who may receive announcements" },
        { label: "Unsubscribed", value: d.figures.withdrawnLast30Days, hint: "last 30 days" },
        { label: "Announcements", value: d.figures.announcementsSent, hint: "sent or sending" },
        { label: "Sending rate", value: d.perMinute, hint: "e-mails a minute at most" },
      ]}
      status={<AdminStatus />}
    >
      {d.mailServer ? null : (
        <Notice tone="info">No mail server is configured (SMTP_URL): announcements are written to the outbox (Inbox → Sent) and not delivered.</Notice>
      )}
      <DataTable<Row>
        rows={d.list.rows}
        columns={columns}
        rowKey={(a) => a.id}
        caption="Announcements, newest first"
        page={{ page: d.list.page, pageCount: d.list.pageCount, hrefFor: (page) => (page > 1 ? `${PATH}?page=${page}` : PATH) }}
        empty={
          <>
            <p className="font-display text-2xl text-ink">No announcements yet</p>
            <p className="mt-2 text-sm text-ink-soft">Write one: a subject, a few lines and a product or two.</p>
          </>
        }
      />
    </AdminPage>
  );
}
