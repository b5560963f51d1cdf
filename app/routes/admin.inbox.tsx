import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/admin.inbox";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { Pagination } from "~/components/pagination";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { listContactMessages, markAllMessagesRead, markMessageRead } from "~/modules/contact/inbox-admin.server";
import { listOutbox } from "~/modules/mail/outbox-admin.server";
import { formatDateTimeZA } from "~/utils/dates";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/inbox";
const filters = { box: { kind: "choice", values: ["messages", "unread", "sent"] } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "customers");
  const query = parseListQuery(readQuery(request), filters);
  const box = (query.filters.box || "messages") as "messages" | "unread" | "sent";
  const db = getDb();
  if (box === "sent") {
    const outbox = await listOutbox(db, { page: query.page });
    return { query, box, messages: null, outbox: { ...outbox, rows: outbox.rows.map((m) => ({ ...m, created: formatDateTimeZA(m.createdAt), retry: m.retryAt ? formatDateTimeZA(m.retryAt) : null })) } };
  }
  const messages = await listContactMessages(db, { page: query.page, unreadOnly: box === "unread" });
  return { query, box, outbox: null, messages: { ...messages, rows: messages.rows.map((m) => ({ ...m, created: formatDateTimeZA(m.createdAt) })) } };
}

const id = z.string().trim().min(1).max(100);
const inboxIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id }),
  z.object({ intent: z.literal("unread"), id }),
  z.object({ intent: z.literal("readAll") }),
]);

export const action = adminAction(
  inboxIntent,
  {
    read: async (db, { id }) => (await markMessageRead(db, id, true), "Marked as read"),
    unread: async (db, { id }) => (await markMessageRead(db, id, false), "Marked as unread"),
    readAll: async (db) => {
      const n = await markAllMessagesRead(db);
      return n === 0 ? "No unread messages" : `${n} ${n === 1 ? "message" : "messages"} marked as read`;
    },
  },
  { permission: "customers", record: { read: "message", unread: "message", readAll: null }, failure: { read: "Failed to update the message", unread: "Failed to update the message", readAll: "Failed to update the messages" } },
);

export function meta() {
  return [{ title: "Inbox | Admin | Scentara" }];
}

const TABS = [
  { box: "messages", label: "Messages" },
  { box: "unread", label: "Unread" },
  { box: "sent", label: "E-mails sent" },
] as const;

export default function Inbox({ loaderData: d }: Route.ComponentProps) {
  const fetcher = useAdminFetcher();
  return (
    <AdminPage
      title="Inbox"
      description="Messages from the contact form, and every e-mail the shop has sent or queued."
      status={<AdminStatus />}
      actions={
        d.box !== "sent" ? (
          <fetcher.Form method="post" action={listHref(PATH, d.query)}>
            <input type="hidden" name="intent" value="readAll" />
            <button type="submit" className="h-11 border border-ink px-5 text-sm font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-ivory">
              Mark all as read
            </button>
          </fetcher.Form>
        ) : null
      }
    >
      <nav aria-label="Inbox folders" className="flex gap-1 border-b border-line">
        {TABS.map((t) => (
          <Link
            key={t.box}
            to={listHref(PATH, d.query, { box: t.box === "messages" ? "" : t.box })}
            aria-current={d.box === t.box ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2.5 text-xs font-medium uppercase tracking-[0.14em] ${d.box === t.box ? "border-gold text-ink" : "border-transparent text-muted hover:text-ink"}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {d.messages ? <Messages list={d.messages} hrefFor={(page) => listHref(PATH, d.query, { page })} /> : null}
      {d.outbox ? <Outbox list={d.outbox} hrefFor={(page) => listHref(PATH, d.query, { page })} /> : null}
    </AdminPage>
  );
}

type Data = Route.ComponentProps["loaderData"];

function Messages({ list, hrefFor }: { list: NonNullable<Data["messages"]>; hrefFor: (page: number) => string }) {
  const fetcher = useAdminFetcher();
  if (list.rows.length === 0) return <p className="border border-dashed border-line bg-white/60 px-6 py-12 text-center text-sm text-ink-soft">No messages here.</p>;
  return (
    <div>
      <ul className="space-y-3">
        {list.rows.map((m) => (
          <li key={m.id} className={`border bg-white ${m.readAt ? "border-line" : "border-gold/50"}`}>
            <details className="group">
              <summary className="flex cursor-pointer list-none flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:justify-between">
                <span className="min-w-0">
                  {m.readAt ? null : <span className="mr-2 inline-block bg-gold px-1.5 py-0.5 text-[0.62rem] font-semibold uppercase tracking-[0.14em] text-ivory">New</span>}
                  <span className="font-medium text-ink">{m.name}</span> <span className="break-all text-sm text-muted">&lt;{m.email}&gt;</span>
                  <span className="mt-0.5 block truncate text-sm text-ink-soft group-open:hidden">{m.message}</span>
                </span>
                <span className="shrink-0 text-xs text-muted">{m.created}</span>
              </summary>
              <div className="border-t border-line px-4 py-4">
                <p className="whitespace-pre-wrap break-words text-sm leading-relaxed text-ink">{m.message}</p>
                <div className="mt-4 flex flex-wrap items-center gap-4">
                  <a href={`mailto:${m.email}?subject=${encodeURIComponent("Re: your message to Scentara")}`} className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline">
                    Reply by e-mail
                  </a>
                  <fetcher.Form method="post">
                    <input type="hidden" name="intent" value={m.readAt ? "unread" : "read"} />
                    <input type="hidden" name="id" value={m.id} />
                    <button type="submit" className="text-xs font-medium uppercase tracking-[0.14em] text-ink underline-offset-4 hover:underline">
                      {m.readAt ? "Mark as unread" : "Mark as read"}
                    </button>
                  </fetcher.Form>
                </div>
              </div>
            </details>
          </li>
        ))}
      </ul>
      <Pagination page={list.page} pageCount={list.pageCount} hrefFor={hrefFor} className="mt-8" label="Pages" />
    </div>
  );
}

const STATE_LABEL = { sent: "Sent", queued: "Not sent: no SMTP server set", retrying: "Refused for now: trying again", failed: "Failed" } as const;

function Outbox({ list, hrefFor }: { list: NonNullable<Data["outbox"]>; hrefFor: (page: number) => string }) {
  if (list.rows.length === 0) return <p className="border border-dashed border-line bg-white/60 px-6 py-12 text-center text-sm text-ink-soft">The shop has not sent any e-mail yet.</p>;
  return (
    <div>
      <ul className="space-y-3">
        {list.rows.map((m) => (
          <li key={m.id} className="border border-line bg-white">
            <details>
              <summary className="flex cursor-pointer list-none flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:justify-between">
                <span className="min-w-0">
                  <span className="block font-medium text-ink">{m.subject}</span>
                  <span className="block break-all text-sm text-muted">to {m.to}</span>
                </span>
                <span className="shrink-0 text-xs text-muted">
                  <span className={m.state === "sent" ? "text-success" : m.state === "failed" ? "text-danger" : "text-gold"}>{STATE_LABEL[m.state]}</span> · {m.created}
                </span>
              </summary>
              <div className="border-t border-line px-4 py-4">
                {m.error ? <p className="mb-3 text-sm text-danger">{m.error}</p> : null}
                {m.retry ? <p className="mb-3 text-sm text-ink-soft">The mail server refused it for now: the shop tries again at {m.retry}.</p> : null}
                <pre className="whitespace-pre-wrap break-words font-sans text-sm leading-relaxed text-ink">{m.text}</pre>
              </div>
            </details>
          </li>
        ))}
      </ul>
      <Pagination page={list.page} pageCount={list.pageCount} hrefFor={hrefFor} className="mt-8" label="Pages" />
    </div>
  );
}
