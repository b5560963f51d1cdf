/**
 * The orders export's query (GET /admin/orders/export.csv?from=…&to=…&lines=1&status=paid), checked on the server;
 * browser-safe, so the export form shares its limits and words.
 */
import { z } from "zod";
import { ORDER_STATUSES } from "~/modules/orders/order-admin.logic";
import { daysInRange, isCalendarDay } from "~/utils/sa-days";

/** The longest range one export covers: 5 years (tax records are kept 5 years, DESIGN.md "The law"). */
export const MAX_EXPORT_YEARS = 5;
const MAX_EXPORT_DAYS = MAX_EXPORT_YEARS * 365 + 2;

/** Which orders: any (""), one order status, or "paid" (payment completed: the orders the sales totals count). */
export const EXPORT_STATUSES = ["paid", ...ORDER_STATUSES] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_MESSAGES = {
  from: "Enter the first day as a date (YYYY-MM-DD)",
  to: "Enter the last day as a date (YYYY-MM-DD)",
  order: "The first day must be on or before the last day",
  tooLong: `Choose a range of at most ${MAX_EXPORT_YEARS} years`,
  lines: "lines must be 1 (one row per order line) or 0 (one row per order)",
  status: `status must be one of: ${EXPORT_STATUSES.join(", ")} (or empty for every order)`,
} as const;

const day = (message: string) => z.string({ error: message }).trim().refine(isCalendarDay, message);

export const ordersExportQuery = z
  .object({
    from: day(EXPORT_MESSAGES.from),
    to: day(EXPORT_MESSAGES.to),
    lines: z
      .enum(["", "0", "1", "on", "true", "false"], { error: EXPORT_MESSAGES.lines })
      .optional()
      .transform((v) => v === "1" || v === "on" || v === "true"),
    status: z
      .union([z.literal(""), z.enum(EXPORT_STATUSES)], { error: EXPORT_MESSAGES.status })
      .optional()
      .transform((v) => (v ? v : null)),
  })
  .check((ctx) => {
    const { from, to } = ctx.value;
    // (the day checks' issues don't stop this one: compare only real days)
    if (!isCalendarDay(from) || !isCalendarDay(to)) return;
    if (from > to) ctx.issues.push({ code: "custom", message: EXPORT_MESSAGES.order, input: ctx.value, path: ["to"] });
    else if (daysInRange({ from, to }) > MAX_EXPORT_DAYS) ctx.issues.push({ code: "custom", message: EXPORT_MESSAGES.tooLong, input: ctx.value, path: ["to"] });
  });

export type OrdersExportQuery = z.output<typeof ordersExportQuery>;
