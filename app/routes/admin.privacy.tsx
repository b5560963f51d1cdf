/**
 * Admin → Privacy (issue 21 point 5; docs/decisions/040): the retention policy the daily job applies (POPIA s14) with
 * the setting behind each period, the job's last runs and what each erased, and the record of people's downloads of
 * their data (s23) and account deletions (s24). Read-only: the periods are settings (RETENTION_*), the job runs by
 * itself once a day in one process.
 */
import type { Route } from "./+types/admin.privacy";
import { AdminPage } from "~/components/admin/admin-page";
import { DataTable, type Column } from "~/components/admin/data-table";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { privacyOverview } from "~/modules/privacy/privacy-admin.server";
import { describeRequest, describeRunCounts } from "~/modules/privacy/privacy.logic";
import { totalErased } from "~/modules/privacy/retention.logic";
import { formatDateTimeZA } from "~/utils/dates";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "data");
  const o = await privacyOverview(getDb());
  const last = o.runs[0] ?? null;
  return {
    rules: o.rules,
    year: o.year,
    last: last
      ? { at: formatDateTimeZA(last.startedAt), outcome: last.outcome, erased: last.counts ? totalErased(last.counts) : null, error: last.error }
      : null,
    runs: o.runs.map((r) => ({
      id: r.id,
      started: formatDateTimeZA(r.startedAt),
      took: r.finishedAt ? `${Math.max(0, Math.round((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 100) / 10)} s` : "–",
      outcome: r.outcome,
      erased: r.outcome === "failed" ? (r.error ?? "Failed") : describeRunCounts(r.counts),
    })),
    requests: o.requests.map((r) => ({
      id: r.id,
      at: formatDateTimeZA(r.createdAt),
      what: r.kind === "export" ? "Download of their data" : "Account deletion",
      by: r.by === "self" ? "The person" : r.adminEmail ? `Admin (${r.adminEmail})` : "Admin",
      done: describeRequest(r.kind, r.summary),
    })),
  };
}

export function meta() {
  return [{ title: "Privacy | Admin | Scentara" }];
}

type Data = Route.ComponentProps["loaderData"];

const OUTCOME: Record<string, string> = { done: "Done", failed: "Failed", running: "Running" };

const ruleColumns: Column<Data["rules"][number]>[] = [
  { header: "Information", cell: (r) => <span className="font-medium text-ink">{r.what}</span> },
  { header: "Kept", cell: (r) => <span className="whitespace-nowrap">{r.kept}</span> },
  { header: "Then", cell: (r) => r.then },
  {
    header: "Decided by",
    cell: (r) => (
      <span className="text-xs text-ink-soft">
        {r.setting ? <code className="break-words">{r.setting}</code> : "Fixed"}
        <span className="block text-muted">{r.law}</span>
      </span>
    ),
  },
];

const runColumns: Column<Data["runs"][number]>[] = [
  { header: "Started", cell: (r) => <span className="whitespace-nowrap font-medium text-ink">{r.started}</span> },
  { header: "Outcome", cell: (r) => <span className={r.outcome === "failed" ? "text-danger" : "text-ink"}>{OUTCOME[r.outcome] ?? r.outcome}</span> },
  { header: "Took", cell: (r) => r.took, className: "tabular-nums" },
  { header: "Erased", cell: (r) => <span className="break-words">{r.erased}</span> },
];

const requestColumns: Column<Data["requests"][number]>[] = [
  { header: "When", cell: (r) => <span className="whitespace-nowrap font-medium text-ink">{r.at}</span> },
  { header: "Request", cell: (r) => r.what },
  { header: "By", cell: (r) => <span className="break-words">{r.by}</span> },
  { header: "What was done", cell: (r) => r.done },
];

export default function Privacy({ loaderData: d }: Route.ComponentProps) {
  return (
    <AdminPage
      title="Privacy"
      description="How long the shop keeps personal information (POPIA section 14) and what the daily retention job erased; and people's downloads of their data (section 23) and account deletions (section 24)."
      stats={[
        { label: "Last retention run", value: d.last ? d.last.at.split(", ")[0]! : "Not yet", hint: d.last ? `${d.last.at.split(", ")[1] ?? ""} · ${OUTCOME[d.last.outcome] ?? d.last.outcome}` : "runs daily" },
        { label: "Erased in it", value: d.last?.erased ?? "–", hint: "records and details" },
        { label: "Downloads", value: d.year.exports, hint: "last 12 months" },
        { label: "Deletions", value: d.year.erasures, hint: "last 12 months" },
      ]}
    >
      {d.last?.outcome === "failed" ? (
        <Notice tone="error" title={`The retention run of ${d.last.at} failed`}>
          {d.last.error ?? "See the server log."} It runs again within a day.
        </Notice>
      ) : null}

      <section aria-labelledby="policy-title" className="space-y-3">
        <h2 id="policy-title" className="text-2xl text-ink">
          Retention policy
        </h2>
        <p className="max-w-3xl text-sm text-ink-soft">
          The privacy notice states these same periods. Change one with its setting (README, “Configure for production”) and restart the shop: the next run
          and the notice follow it.
        </p>
        <DataTable rows={d.rules} columns={ruleColumns} rowKey={(r) => r.id} caption="What is kept, for how long, and what happens then" empty={null} />
      </section>

      <section aria-labelledby="runs-title" className="space-y-3">
        <h2 id="runs-title" className="text-2xl text-ink">
          Retention runs
        </h2>
        <DataTable
          rows={d.runs}
          columns={runColumns}
          rowKey={(r) => r.id}
          caption="The latest runs of the retention job, newest first"
          empty={
            <>
              <p className="font-display text-2xl text-ink">No run yet</p>
              <p className="mt-2 text-sm text-ink-soft">The job runs a few minutes after the shop starts, then once a day.</p>
            </>
          }
        />
      </section>

      <section aria-labelledby="requests-title" className="space-y-3">
        <h2 id="requests-title" className="text-2xl text-ink">
          Requests about personal data
        </h2>
        <DataTable
          rows={d.requests}
          columns={requestColumns}
          rowKey={(r) => r.id}
          caption="The latest downloads and deletions, newest first"
          empty={
            <>
              <p className="font-display text-2xl text-ink">No requests yet</p>
              <p className="mt-2 text-sm text-ink-soft">Customers download their data and delete their accounts from their profile.</p>
            </>
          }
        />
      </section>
    </AdminPage>
  );
}
