/**
 * Admin → Marketing → Reminders (issue 34 point 2; docs/decisions/056): the cart and unpaid-order reminders sent in a
 * range of days, and the orders they recovered with their revenue (reminders-report.server.ts). Admins only: the
 * loader checks the role on the server.
 */
import { Form, Link } from "react-router";
import type { Route } from "./+types/admin.marketing.reminders";
import { AdminPage } from "~/components/admin/admin-page";
import { DataTable, type Column } from "~/components/admin/data-table";
import { buttonClass } from "~/components/ui/button";
import { controlClass, Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { reminderFigures, type ReminderKindFigures } from "~/modules/reminders/reminders-report.server";
import { env } from "~/utils/env.server";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";
import { addDays, isCalendarDay, rangeBounds, saDay } from "~/utils/sa-days";

const DEFAULT_DAYS = 30;
export const RANGE_MESSAGE = "Choose a first day on or before the last day (YYYY-MM-DD); the last 30 days are shown.";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "marketing");
  const query = readQuery(request);
  const today = saDay(new Date());
  const asked = { from: query.get("from")?.trim() ?? "", to: query.get("to")?.trim() ?? "" };
  const given = asked.from !== "" || asked.to !== "";
  const valid = isCalendarDay(asked.from) && isCalendarDay(asked.to) && asked.from <= asked.to;
  const range = valid ? asked : { from: addDays(today, -(DEFAULT_DAYS - 1)), to: today };
  const figures = await reminderFigures(getDb(), rangeBounds(range));
  const config = env();
  return {
    range,
    error: given && !valid ? RANGE_MESSAGE : null,
    figures,
    settings: { cartAfterMinutes: config.CART_REMINDER_AFTER_MINUTES, orderAfterMinutes: config.ORDER_REMINDER_AFTER_MINUTES },
  };
}

export function meta() {
  return [{ title: "Reminders | Marketing | Admin | Scentara" }];
}

/** "24 hours", "30 minutes", "off" */
function after(minutes: number): string {
  if (minutes <= 0) return "off";
  if (minutes % 60 === 0) return `${minutes / 60} ${minutes === 60 ? "hour" : "hours"}`;
  return `${minutes} minutes`;
}

interface Row extends ReminderKindFigures {
  kind: string;
  when: string;
}

const columns: Column<Row>[] = [
  { header: "Reminder", cell: (r) => <span className="font-medium text-ink">{r.kind}</span> },
  { header: "Sent after", cell: (r) => r.when, phone: "hide" },
  { header: "Sent", cell: (r) => r.sent, className: "tabular-nums" },
  { header: "Refused", cell: (r) => r.failed, className: "tabular-nums", phone: "hide" },
  { header: "Links used", cell: (r) => (r.kind === "Cart" ? r.restored : "–"), className: "tabular-nums", phone: "hide" },
  { header: "Orders recovered", cell: (r) => r.ordersRecovered, className: "tabular-nums" },
  { header: "Revenue", cell: (r) => formatRand(r.revenueCents), className: "whitespace-nowrap tabular-nums" },
];

export default function Reminders({ loaderData: d }: Route.ComponentProps) {
  const { total } = d.figures;
  const rows: Row[] = [
    { kind: "Cart", when: `${after(d.settings.cartAfterMinutes)} after its last change`, ...d.figures.cart },
    { kind: "Unpaid order", when: `${after(d.settings.orderAfterMinutes)} after placing`, ...d.figures.order },
  ];
  return (
    <AdminPage
      title="Reminders"
      description="One e-mail per cart left with items and per unpaid card order, only to customers who opted in to news and offers. Recovered: an order paid after its reminder, or placed within 7 days of restoring a reminded cart."
      actions={
        <Link to="/admin/marketing" className={buttonClass("secondary", "md", "whitespace-nowrap")}>
          Announcements
        </Link>
      }
      stats={[
        { label: "Reminders sent", value: total.sent, hint: `${d.range.from} to ${d.range.to}` },
        { label: "Orders recovered", value: total.ordersRecovered, hint: "paid" },
        { label: "Revenue recovered", value: formatRand(total.revenueCents), hint: "their totals as paid" },
        { label: "Carts restored", value: total.restored, hint: "restore links used" },
      ]}
    >
      <div className="border border-line bg-white p-4">
        <Form method="get" className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end" aria-label="Reminders range">
          <div className="min-w-0 sm:w-44">
            <label htmlFor="reminders-from" className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
              From
            </label>
            <input id="reminders-from" type="date" name="from" defaultValue={d.range.from} required className={`${controlClass.replace("px-3", "px-2")} mt-1.5`} key={`from-${d.range.from}`} />
          </div>
          <div className="min-w-0 sm:w-44">
            <label htmlFor="reminders-to" className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
              To
            </label>
            <input id="reminders-to" type="date" name="to" defaultValue={d.range.to} required className={`${controlClass.replace("px-3", "px-2")} mt-1.5`} key={`to-${d.range.to}`} />
          </div>
          <button type="submit" className={buttonClass("primary", "md", "col-span-2 sm:self-end")}>
            Show
          </button>
        </Form>
      </div>
      {d.error ? <Notice tone="error">{d.error}</Notice> : null}
      <DataTable<Row> rows={rows} columns={columns} rowKey={(r) => r.kind} caption={`Reminders sent from ${d.range.from} to ${d.range.to}`} empty={null} />
    </AdminPage>
  );
}
