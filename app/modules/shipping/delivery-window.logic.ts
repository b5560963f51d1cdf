/**
 * The estimated delivery window shown on product pages (issue 13): the terms promise delivery in 2 to 7 working
 * days; working days skip Saturdays, Sundays and South African public holidays (Public Holidays Act 36 of 1994,
 * including its rule that a holiday falling on a Sunday moves to the Monday after). Dates are South African
 * calendar days (SAST, UTC+2 all year, no daylight saving). Pure: the server computes it, the page shows the text.
 */
export const DELIVERY_WORKING_DAYS = { min: 2, max: 7 } as const;

const SAST_OFFSET_MS = 2 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A calendar day as a UTC-midnight Date (only its UTC year, month and day are used). */
function day(year: number, month: number, date: number): Date {
  return new Date(Date.UTC(year, month - 1, date));
}

function key(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(d: Date, n: number): Date {
  return new Date(d.getTime() + n * DAY_MS);
}

/** Easter Sunday (Gregorian; the anonymous "Meeus/Jones/Butcher" algorithm). */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return day(year, month, date);
}

/** South Africa's public holidays in a year as 'YYYY-MM-DD', with Sunday holidays also observed on the Monday. */
export function southAfricanPublicHolidays(year: number): Set<string> {
  const easter = easterSunday(year);
  const fixed = [
    day(year, 1, 1), // New Year's Day
    day(year, 3, 21), // Human Rights Day
    addDays(easter, -2), // Good Friday
    addDays(easter, 1), // Family Day
    day(year, 4, 27), // Freedom Day
    day(year, 5, 1), // Workers' Day
    day(year, 6, 16), // Youth Day
    day(year, 8, 9), // National Women's Day
    day(year, 9, 24), // Heritage Day
    day(year, 12, 16), // Day of Reconciliation
    day(year, 12, 25), // Christmas Day
    day(year, 12, 26), // Day of Goodwill
  ];
  const holidays = new Set(fixed.map(key));
  for (const d of fixed) if (d.getUTCDay() === 0) holidays.add(key(addDays(d, 1)));
  return holidays;
}

const holidayCache = new Map<number, Set<string>>();
function isHoliday(d: Date): boolean {
  const year = d.getUTCFullYear();
  let set = holidayCache.get(year);
  if (!set) holidayCache.set(year, (set = southAfricanPublicHolidays(year)));
  return set.has(key(d));
}

export function isWorkingDay(d: Date): boolean {
  const weekday = d.getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isHoliday(d);
}

/** The South African calendar day of an instant. */
export function southAfricanDay(now: Date): Date {
  const local = new Date(now.getTime() + SAST_OFFSET_MS);
  return day(local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate());
}

/** The n-th working day after the given calendar day (the day itself never counts). */
export function addWorkingDays(from: Date, n: number): Date {
  let d = from;
  let left = n;
  while (left > 0) {
    d = addDays(d, 1);
    if (isWorkingDay(d)) left -= 1;
  }
  return d;
}

/** 'Tue 2 Dec' */
export function formatDeliveryDay(d: Date): string {
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

export interface DeliveryWindow {
  /** 'YYYY-MM-DD' */
  from: string;
  to: string;
  /** 'Delivered by Tue 2 Dec – Mon 8 Dec' */
  text: string;
}

/** The window for an order placed at `now`: the 2nd to the 7th working day after today (South African time). */
export function deliveryWindow(now: Date, days: { min: number; max: number } = DELIVERY_WORKING_DAYS): DeliveryWindow {
  const today = southAfricanDay(now);
  const from = addWorkingDays(today, days.min);
  const to = addWorkingDays(today, days.max);
  return { from: key(from), to: key(to), text: `Delivered by ${formatDeliveryDay(from)} – ${formatDeliveryDay(to)}` };
}
