/**
 * South African calendar days: the reports, the order-day sums, the consent log and the exports count by them.
 * South African Standard Time is UTC+2 all year (no daylight saving), so a day is a fixed 24-hour span:
 * 2026-03-05 is [2026-03-04T22:00:00.000Z, 2026-03-05T22:00:00.000Z). Fixed arithmetic, not Intl, so the result does
 * not depend on the server's time-zone database. Pure and browser-safe.
 */

export const SAST_OFFSET_MS = 2 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A range of whole South African days, both ends included: { from: "2026-03-01", to: "2026-03-31" }. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Is this YYYY-MM-DD a real calendar day (no 2026-02-30)? */
export function isCalendarDay(text: string): boolean {
  const m = DAY_PATTERN.exec(text);
  if (!m) return false;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return at.getUTCFullYear() === Number(m[1]) && at.getUTCMonth() === Number(m[2]) - 1 && at.getUTCDate() === Number(m[3]);
}

/** The instant a South African day begins (epoch ms). */
export function dayStartMs(day: string): number {
  if (!isCalendarDay(day)) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return Date.parse(`${day}T00:00:00.000Z`) - SAST_OFFSET_MS;
}

/**
 * The range as UTC instants for a query on created_at: start included, end excluded (the instant the day after `to`
 * begins). ISO-8601 UTC text with milliseconds, the form every timestamp is stored in, so it compares as text on SQLite.
 */
export function rangeBounds(range: DayRange): { start: string; end: string } {
  return { start: new Date(dayStartMs(range.from)).toISOString(), end: new Date(dayStartMs(range.to) + DAY_MS).toISOString() };
}

/** Days in the range, both ends counted (2026-03-01 to 2026-03-31: 31). */
export function daysInRange(range: DayRange): number {
  return Math.round((dayStartMs(range.to) - dayStartMs(range.from)) / DAY_MS) + 1;
}

/** The South African day of an instant: "2026-03-05". */
export function saDay(at: string | number | Date): string {
  const ms = typeof at === "number" ? at : typeof at === "string" ? Date.parse(at) : at.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`Not a date: ${String(at)}`);
  return new Date(ms + SAST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The South African time of day of an instant, 24-hour: "14:05". */
export function saTime(at: string): string {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) throw new RangeError(`Not a date: ${at}`);
  return new Date(ms + SAST_OFFSET_MS).toISOString().slice(11, 16);
}

/** The day `n` days after (or before, n < 0) a YYYY-MM-DD day. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
