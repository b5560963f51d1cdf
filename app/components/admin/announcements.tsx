import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { ANNOUNCEMENT_STATUS_LABELS } from "~/modules/marketing/announcements.schema";

/** The parts of Admin → Marketing (app/routes/admin.marketing*.tsx): status badges, progress, the e-mail preview. */

export type AnnouncementStatusName = keyof typeof ANNOUNCEMENT_STATUS_LABELS;

export interface ProgressFigures {
  total: number;
  pending: number;
  sending: number;
  sent: number;
  failed: number;
  skipped: number;
  lastError: string | null;
}

const group = (n: number) => n.toLocaleString("en-US").replaceAll(",", " ");

export function AnnouncementBadge({ status }: { status: AnnouncementStatusName }) {
  const style = { draft: "bg-sand text-ink-soft", sending: "bg-gold/15 text-ink", sent: "bg-ink text-ivory" }[status];
  return <span className={`inline-block px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${style}`}>{ANNOUNCEMENT_STATUS_LABELS[status]}</span>;
}

/** "120 of 300 sent · 2 failed · 1 skipped": what is done of the recipients listed when Send was pressed. */
export function progressLine(p: ProgressFigures): string {
  const done = p.sent + p.failed + p.skipped;
  const parts = [`${group(p.sent)} of ${group(p.total)} sent`];
  if (p.failed) parts.push(`${group(p.failed)} failed`);
  if (p.skipped) parts.push(`${group(p.skipped)} skipped (opted out since)`);
  if (done < p.total) parts.push(`${group(p.total - done)} to go`);
  return parts.join(" · ");
}

export function progressPercent(p: ProgressFigures): number {
  return p.total > 0 ? Math.round(((p.sent + p.failed + p.skipped) / p.total) * 100) : 0;
}

/** While anything is being sent, the page asks again every few seconds (the sender works in the background). */
export function useRefreshWhile(active: boolean, everyMs = 3000) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [active, everyMs, revalidator]);
}

export function ProgressBar({ progress, label }: { progress: ProgressFigures; label: string }) {
  const percent = progressPercent(progress);
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 w-full overflow-hidden bg-sand">
      <div className="h-full bg-gold transition-[width] duration-500" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** The sending section of an announcement's page. */
export function SendProgress({ status, progress, finished }: { status: AnnouncementStatusName; progress: ProgressFigures; finished: string | null }) {
  useRefreshWhile(status === "sending");
  return (
    <section aria-labelledby="send-progress" className="border border-line bg-white p-4 sm:p-5">
      <h2 id="send-progress" className="font-display text-xl text-ink">
        {status === "sending" ? "Sending…" : "Sent"}
      </h2>
      <p className="mt-1 text-sm text-ink-soft" aria-live="polite">
        {progressLine(progress)}
        {finished ? ` · finished ${finished}` : ""}
      </p>
      <div className="mt-4">
        <ProgressBar progress={progress} label="Sending progress" />
      </div>
      {progress.lastError ? <p className="mt-3 break-words text-xs text-danger">The mail server's last refusal: {progress.lastError}</p> : null}
      {status === "sending" ? (
        <p className="mt-3 text-xs text-muted">
          You may leave this page: sending carries on, a few e-mails at a time, and resumes by itself after a restart.{" "}
          <Link to="." className="underline underline-offset-4">
            Refresh
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** The e-mail as a recipient would see it: the subject, the HTML (our own markup, the owner's text escaped), the text. */
export function EmailPreview({ subject, html, text, from }: { subject: string; html: string; text: string; from: string }) {
  return (
    <section aria-labelledby="email-preview" className="min-w-0 border border-line bg-white">
      <div className="border-b border-line px-4 py-3 sm:px-5">
        <h2 id="email-preview" className="font-display text-xl text-ink">
          Preview
        </h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted">From</dt>
          <dd className="min-w-0 break-words text-ink">{from}</dd>
          <dt className="text-muted">Subject</dt>
          <dd className="min-w-0 break-words font-medium text-ink">{subject}</dd>
        </dl>
      </div>
      {/* The markup is composed on the server by announcement-mail.ts: every text in it is escaped. */}
      <div className="email-preview overflow-x-auto" dangerouslySetInnerHTML={{ __html: html }} />
      <details className="border-t border-line px-4 py-3 sm:px-5">
        <summary className="cursor-pointer text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">Plain-text version</summary>
        <pre className="mt-3 whitespace-pre-wrap break-words font-sans text-sm text-ink-soft">{text}</pre>
      </details>
    </section>
  );
}
