import { describe, expect, it } from "vitest";
import { addWorkingDays, deliveryWindow, easterSunday, isWorkingDay, southAfricanDay, southAfricanPublicHolidays } from "./delivery-window.logic";

const d = (iso: string) => new Date(`${iso}T00:00:00Z`);
const iso = (date: Date) => date.toISOString().slice(0, 10);

describe("easterSunday", () => {
  it.each([
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2038, "2038-04-25"], // the latest possible date
    [2285, "2285-03-22"], // the earliest possible date
  ])("%i → %s", (year, expected) => {
    expect(iso(easterSunday(year))).toBe(expected);
  });
});

describe("southAfricanPublicHolidays", () => {
  it("2025: the twelve holidays, Good Friday and Family Day from Easter", () => {
    expect([...southAfricanPublicHolidays(2025)].sort()).toEqual([
      "2025-01-01",
      "2025-03-21",
      "2025-04-18", // Good Friday
      "2025-04-21", // Family Day
      "2025-04-27", // Freedom Day, a Sunday …
      "2025-04-28", // … observed on Monday
      "2025-05-01",
      "2025-06-16",
      "2025-08-09",
      "2025-09-24",
      "2025-12-16",
      "2025-12-25",
      "2025-12-26",
    ]);
  });

  it.each([
    // [year, a holiday on a Sunday, the Monday after]
    [2026, "2026-08-09", "2026-08-10"], // Women's Day
    [2027, "2027-03-21", "2027-03-22"], // Human Rights Day
    [2022, "2022-12-25", "2022-12-26"], // Christmas on Sunday: Monday is Goodwill anyway
    [2023, "2023-01-01", "2023-01-02"], // New Year's Day
  ])("%i: %s falls on a Sunday, so %s is a holiday", (year, sunday, monday) => {
    const holidays = southAfricanPublicHolidays(year);
    expect(d(sunday).getUTCDay()).toBe(0);
    expect(holidays.has(sunday)).toBe(true);
    expect(holidays.has(monday)).toBe(true);
  });

  it("2026: Easter-based holidays move with Easter (5 April)", () => {
    const holidays = southAfricanPublicHolidays(2026);
    expect(holidays.has("2026-04-03")).toBe(true); // Good Friday
    expect(holidays.has("2026-04-06")).toBe(true); // Family Day
    expect(holidays.has("2026-04-18")).toBe(false);
  });
});

describe("working days", () => {
  it.each([
    ["2025-12-01", true], // Monday
    ["2025-12-06", false], // Saturday
    ["2025-12-07", false], // Sunday
    ["2025-12-16", false], // Day of Reconciliation
    ["2025-12-17", true],
  ])("%s working: %s", (date, expected) => {
    expect(isWorkingDay(d(date))).toBe(expected);
  });

  it("counts forward from the day after, skipping weekends and holidays", () => {
    expect(iso(addWorkingDays(d("2025-12-12"), 1))).toBe("2025-12-15"); // Fri → Mon
    expect(iso(addWorkingDays(d("2025-12-12"), 2))).toBe("2025-12-17"); // Tue 16th is a holiday
    expect(iso(addWorkingDays(d("2025-12-24"), 1))).toBe("2025-12-29"); // 25, 26 holidays, then the weekend
  });
});

describe("deliveryWindow", () => {
  it.each([
    // [now (UTC instant), from, to, text]
    ["2025-11-28T08:00:00Z", "2025-12-02", "2025-12-09", "Delivered by Tue 2 Dec – Tue 9 Dec"], // a Friday
    ["2025-11-27T08:00:00Z", "2025-12-01", "2025-12-08", "Delivered by Mon 1 Dec – Mon 8 Dec"], // a Thursday
    ["2025-11-29T12:00:00Z", "2025-12-02", "2025-12-09", "Delivered by Tue 2 Dec – Tue 9 Dec"], // a Saturday
    // Easter 2026: Good Friday 3 Apr and Family Day 6 Apr are skipped
    ["2026-04-01T09:00:00Z", "2026-04-07", "2026-04-14", "Delivered by Tue 7 Apr – Tue 14 Apr"],
    // Christmas and the Day of Reconciliation
    ["2025-12-15T09:00:00Z", "2025-12-18", "2025-12-29", "Delivered by Thu 18 Dec – Mon 29 Dec"],
    // across the year's end: New Year's Day skipped
    ["2025-12-30T09:00:00Z", "2026-01-02", "2026-01-09", "Delivered by Fri 2 Jan – Fri 9 Jan"],
  ])("ordered at %s → %s to %s", (now, from, to, text) => {
    expect(deliveryWindow(new Date(now))).toEqual({ from, to, text });
  });

  it("uses South African time: 23:30 UTC on Thursday is already Friday in Johannesburg", () => {
    expect(iso(southAfricanDay(new Date("2025-11-27T23:30:00Z")))).toBe("2025-11-28");
    expect(deliveryWindow(new Date("2025-11-27T23:30:00Z")).from).toBe("2025-12-02");
    expect(deliveryWindow(new Date("2025-11-27T21:59:00Z")).from).toBe("2025-12-01");
  });
});
