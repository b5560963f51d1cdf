import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "~/modules/orders/order-admin.logic";
import type { DayRange } from "~/utils/sa-days";

const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";

/**
 * "Export for the accountant" (issue 20): a plain GET form to /admin/orders/export.csv inside a native <details>, so it
 * opens and downloads without JavaScript (a document request, not React Router's: the answer is a file, not a page).
 * On a phone it opens in place, full width; from sm up it drops down over the page under its button, so the page's
 * title doesn't move.
 * The server checks every field again and answers a bad range with what to fix.
 */
export function OrdersExportForm({ range }: { range: DayRange }) {
  return (
    <details className="group relative w-full shrink-0 sm:w-auto">
      <summary className={`${buttonClass("secondary", "sm")} cursor-pointer list-none whitespace-nowrap marker:hidden`}>
        Export for the accountant
        <span aria-hidden="true" className="transition-transform group-open:rotate-90">
          ›
        </span>
      </summary>
      <form method="get" action="/admin/orders/export.csv" className="mt-2 space-y-3 border border-line bg-white p-4 sm:absolute sm:right-0 sm:top-full sm:z-20 sm:w-[22rem] sm:shadow-[0_18px_40px_-18px_rgba(28,23,20,0.35)]">
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor="export-from" className={label}>
              From
            </label>
            <input id="export-from" type="date" name="from" required defaultValue={range.from} className={`${controlClass} mt-1.5 px-2 text-sm`} />
          </div>
          <div>
            <label htmlFor="export-to" className={label}>
              To
            </label>
            <input id="export-to" type="date" name="to" required defaultValue={range.to} className={`${controlClass} mt-1.5 px-2 text-sm`} />
          </div>
        </div>
        <div>
          <label htmlFor="export-status" className={label}>
            Orders
          </label>
          <select id="export-status" name="status" defaultValue="" className={`${controlClass} mt-1.5 text-sm`}>
            <option value="">Every order</option>
            <option value="paid">Paid only (the sales)</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ORDER_STATUS_LABELS[s]} only
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 text-sm text-ink">
          <input type="checkbox" name="lines" value="1" className="size-4 accent-ink" />
          One row per product line
        </label>
        <p className="text-xs text-muted">Days and times in South African time; amounts in rand with a dot for decimals (1299.00), VAT included.</p>
        <button type="submit" className={buttonClass("primary", "sm", "w-full")}>
          Download CSV
        </button>
      </form>
    </details>
  );
}
