/**
 * The sales dashboard's rules (issue 20 point 4): the range the owner asked for, its previous period, and how South
 * African days roll up into days, weeks (Monday to Sunday) or months. Pure and browser-safe; the database only ever
 * answers per South African day (GROUP BY over an indexed range), and these functions turn those rows into buckets.
 *
 * The previous period is the same number of days immediately before (30 days → the 30 days before them), as Shopify
 * and most dashboards read it. Its days are shifted forward by that length before they are bucketed, so bucket i of
 * the previous period sits beside bucket i of the range, and its totals are exactly the previous period's.
 */
import { addDays, daysInRange, isCalendarDay, rangeBounds, saDay, type DayRange } from "~/utils/sa-days";

export const GROUPINGS = ["day", "week", "month"] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const GROUPING_LABELS: Record<Grouping, string> = { day: "Day", week: "Week", month: "Month" };

/** The CSV downloads (/admin/sales.csv?dataset=…), one per chart. */
export const SALES_DATASETS = ["revenue", "statuses", "best-units", "best-revenue", "payment-methods", "customers", "coupons"] as const;
export type SalesDataset = (typeof SALES_DATASETS)[number];

/** The dashboard opens on the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one dashboard shows: two years (the range and its previous period then span four). */
export const MAX_RANGE_DAYS = 731;

export const SALES_MESSAGES = {
  badDay: "Dates read as YYYY-MM-DD; showing the last 30 days instead.",
  swapped: "The first day was after the last; the two were swapped.",
  tooLong: "A range covers at most two years; showing the two years up to the last day.",
} as const;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export interface SalesRange extends DayRange {
  grouping: Grouping;
  /** days in the range, both ends counted */
  days: number;
  /** the same number of days just before */
  previous: DayRange;
}

/** The Monday of the day's week (ISO weeks: Monday to Sunday). */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** The bucket a South African day belongs to: the day itself, its week's Monday, or its month's first day. */
export function bucketOf(day: string, grouping: Grouping): string {
  if (grouping === "week") return weekStart(day);
  if (grouping === "month") return `${day.slice(0, 8)}01`;
  return day;
}

/** The grouping that suits a range when none is asked for: days up to two months, weeks up to half a year, then months. */
export function defaultGrouping(days: number): Grouping {
  if (days <= 62) return "day";
  if (days <= 184) return "week";
  return "month";
}

/** The N days immediately before a range of N days. */
export function previousPeriod(range: DayRange): DayRange {
  const days = daysInRange(range);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1) };
}

/** A range with its grouping and previous period. */
export function salesRange(range: DayRange, grouping?: Grouping): SalesRange {
  const days = daysInRange(range);
  return { ...range, grouping: grouping ?? defaultGrouping(days), days, previous: previousPeriod(range) };
}

/** The last `days` South African days, today included. */
export function lastDays(days: number, now = new Date()): DayRange {
  const to = saDay(now);
  return { from: addDays(to, -(days - 1)), to };
}

/**
 * The dashboard's range from its URL (?from=YYYY-MM-DD&to=YYYY-MM-DD&grouping=day|week|month). A GET filter never
 * fails: what can't be read falls back to the last 30 days (or is swapped or shortened), and `notice` says so.
 */
export function parseSalesQuery(params: URLSearchParams, now = new Date()): { range: SalesRange; notice: string | null } {
  const fromText = params.get("from")?.trim() ?? "";
  const toText = params.get("to")?.trim() ?? "";
  const groupingText = params.get("grouping") ?? "";
  const grouping = (GROUPINGS as readonly string[]).includes(groupingText) ? (groupingText as Grouping) : undefined;
  if (!fromText && !toText) return { range: salesRange(lastDays(DEFAULT_RANGE_DAYS, now), grouping), notice: null };
  const today = saDay(now);
  const from = fromText || (isCalendarDay(toText) ? addDays(toText, -(DEFAULT_RANGE_DAYS - 1)) : "");
  const to = toText || today;
  if (!isCalendarDay(from) || !isCalendarDay(to)) return { range: salesRange(lastDays(DEFAULT_RANGE_DAYS, now), grouping), notice: SALES_MESSAGES.badDay };
  let range: DayRange = from <= to ? { from, to } : { from: to, to: from };
  let notice: string | null = from <= to ? null : SALES_MESSAGES.swapped;
  if (daysInRange(range) > MAX_RANGE_DAYS) {
    range = { from: addDays(range.to, -(MAX_RANGE_DAYS - 1)), to: range.to };
    notice = SALES_MESSAGES.tooLong;
  }
  return { range: salesRange(range, grouping), notice };
}

export interface SalesPreset {
  label: string;
  from: string;
  to: string;
}

/** The range picker's shortcuts, worked out on the server (its "today" is South Africa's). */
export function salesPresets(now = new Date()): SalesPreset[] {
  const today = saDay(now);
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastMonthEnd = addDays(firstOfMonth, -1);
  return [
    { label: "7 days", ...lastDays(7, now) },
    { label: "30 days", ...lastDays(30, now) },
    { label: "90 days", ...lastDays(90, now) },
    { label: "12 months", ...lastDays(365, now) },
    { label: "This month", from: firstOfMonth, to: today },
    { label: "Last month", from: `${lastMonthEnd.slice(0, 8)}01`, to: lastMonthEnd },
  ];
}

/** The URL query of a range (what the form and the CSV links carry). */
export function salesQueryString(range: Pick<SalesRange, "from" | "to" | "grouping">): string {
  return new URLSearchParams({ from: range.from, to: range.to, grouping: range.grouping }).toString();
}

/** Both periods as one span of UTC instants (start included, end excluded): the one indexed range the query reads. */
export function queryBounds(range: SalesRange): { start: string; end: string; rangeStart: string } {
  const whole = rangeBounds({ from: range.previous.from, to: range.to });
  return { ...whole, rangeStart: rangeBounds(range).start };
}

// ---------------------------------------------------------------- buckets

export interface DayFigures {
  /** South African day, YYYY-MM-DD */
  day: string;
  orders: number;
  revenueCents: number;
}

export interface SalesBucket {
  /** the bucket's first day (a day, a Monday, a month's 1st) */
  key: string;
  /** the days of the range it covers (the first and last may be partial weeks or months) */
  from: string;
  to: string;
  label: string;
  /** a short label for a chart's axis */
  tick: string;
  orders: number;
  revenueCents: number;
  previousOrders: number;
  previousRevenueCents: number;
}

/** "5 Mar", "Mar 2026" */
export function dayLabel(day: string): string {
  return `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`;
}
export function monthLabel(day: string): string {
  return `${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

/** How a range reads: "5 Mar 2026 – 3 Apr 2026", or one day. */
export function rangeLabel(range: DayRange): string {
  const long = (day: string) => `${dayLabel(day)} ${day.slice(0, 4)}`;
  return range.from === range.to ? long(range.from) : `${long(range.from)} – ${long(range.to)}`;
}

/** A day's label carries its year only when the range spans more than one. */
function bucketLabels(from: string, to: string, grouping: Grouping, withYear: boolean): { label: string; tick: string } {
  if (grouping === "day") return { label: withYear ? `${dayLabel(from)} ${from.slice(0, 4)}` : dayLabel(from), tick: dayLabel(from) };
  if (grouping === "month") return { label: monthLabel(from) + (from.slice(8) !== "01" || addDays(to, 1).slice(8) !== "01" ? ` (${dayLabel(from)}–${dayLabel(to)})` : ""), tick: `${MONTHS[Number(from.slice(5, 7)) - 1]}` };
  return { label: from === to ? dayLabel(from) : `${dayLabel(from)} – ${dayLabel(to)}`, tick: dayLabel(from) };
}

/** The empty buckets of a range, in order: every day, week or month it touches, clipped to the range. */
export function emptyBuckets(range: SalesRange): SalesBucket[] {
  const buckets: SalesBucket[] = [];
  const withYear = range.from.slice(0, 4) !== range.to.slice(0, 4);
  let day = range.from;
  while (day <= range.to) {
    const key = bucketOf(day, range.grouping);
    const next = range.grouping === "day" ? addDays(day, 1) : range.grouping === "week" ? addDays(key, 7) : nextMonth(key);
    const to = addDays(next, -1) < range.to ? addDays(next, -1) : range.to;
    buckets.push({ key, from: day, to, ...bucketLabels(day, to, range.grouping, withYear), orders: 0, revenueCents: 0, previousOrders: 0, previousRevenueCents: 0 });
    day = next;
  }
  return buckets;
}

function nextMonth(first: string): string {
  const y = Number(first.slice(0, 4));
  const m = Number(first.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/**
 * The per-day rows of the range and its previous period (as the database answers them) rolled up into the range's
 * buckets: a day of the range into its own bucket, a day of the previous period into the bucket it lands in when
 * moved forward by the range's length. Days outside both are ignored.
 */
export function rollUp(range: SalesRange, days: DayFigures[]): SalesBucket[] {
  const buckets = emptyBuckets(range);
  const byKey = new Map(buckets.map((b) => [b.key, b]));
  for (const d of days) {
    if (d.day >= range.from && d.day <= range.to) {
      const b = byKey.get(bucketOf(d.day, range.grouping));
      if (b) {
        b.orders += d.orders;
        b.revenueCents += d.revenueCents;
      }
    } else if (d.day >= range.previous.from && d.day <= range.previous.to) {
      const b = byKey.get(bucketOf(addDays(d.day, range.days), range.grouping));
      if (b) {
        b.previousOrders += d.orders;
        b.previousRevenueCents += d.revenueCents;
      }
    }
  }
  return buckets;
}

// ---------------------------------------------------------------- figures

/** Revenue / orders in whole cents (rounded half up); 0 with no orders. */
export function averageOrderCents(revenueCents: number, orders: number): number {
  return orders > 0 ? Math.round(revenueCents / orders) : 0;
}

/** The change from the previous figure as a whole percent; null when there was nothing before to compare with. */
export function changePercent(current: number, previous: number): number | null {
  if (!(previous > 0)) return null;
  return Math.round(((current - previous) / previous) * 100);
}

/** "+12%", "−4%", "0%", or "new" when the previous period had nothing. */
export function formatChange(change: number | null): string {
  if (change === null) return "new";
  if (change > 0) return `+${change}%`;
  if (change < 0) return `−${Math.abs(change)}%`;
  return "0%";
}

/** Counts as the shop writes them (12 345): app/utils/counts.ts, below every area. */
export { formatCount, formatCountUnbroken } from "~/utils/counts";

/** Rand for a chart's axis: R0, R850, R12k, R1.2m (no cents; not for amounts anyone adds up). */
export function formatRandShort(cents: number): string {
  const rand = cents / 100;
  const abs = Math.abs(rand);
  const sign = rand < 0 ? "−" : "";
  const trim = (v: number) => (v >= 100 ? Math.round(v).toString() : (Math.round(v * 10) / 10).toString());
  if (abs >= 1_000_000) return `${sign}R${trim(abs / 1_000_000)}m`;
  if (abs >= 1_000) return `${sign}R${trim(abs / 1_000)}k`;
  return `${sign}R${Math.round(abs)}`;
}

/** Percent of a whole, one decimal ("33.3%"); "–" with no whole. */
export function shareLabel(part: number, whole: number): string {
  if (!(whole > 0)) return "–";
  return `${Math.round((part / whole) * 1000) / 10}%`;
}

/**
 * Every how many of a chart's n axis labels to print so that at most `max` show (the first always): 30 days, 6 at
 * most → every 5th. A wide chart prints every step-th label, a narrow one every (2 × step)-th: the narrow set is part
 * of the wide one, so a container query can show the extra labels without measuring.
 */
export function tickStep(n: number, max: number): number {
  return Math.max(1, Math.ceil(n / Math.max(1, max)));
}
