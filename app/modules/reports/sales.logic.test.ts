import { describe, expect, it } from "vitest";
import { addDays, rangeBounds, saDay } from "~/utils/sa-days";
import { averageOrderCents, bucketOf, changePercent, emptyBuckets, formatChange, formatCount, formatRandShort, parseSalesQuery, previousPeriod, queryBounds, rangeLabel, rollUp, salesRange, SALES_MESSAGES, salesPresets, tickStep, weekStart } from "./sales.logic";

const query = (q: string, now = new Date("2026-03-15T10:00:00.000Z")) => parseSalesQuery(new URLSearchParams(q), now);

describe("South African days at the edges", () => {
  it("an order at 21:59:59.999 UTC is that day in South Africa; at 22:00 UTC it is the next day", () => {
    expect(saDay("2026-02-28T21:59:59.999Z")).toBe("2026-02-28");
    expect(saDay("2026-02-28T22:00:00.000Z")).toBe("2026-03-01");
    // and so a month (and a year) begins at 22:00 UTC the evening before
    expect(saDay("2025-12-31T22:00:00.000Z")).toBe("2026-01-01");
  });

  it("a range's bounds are the instants its first day begins and the day after its last begins", () => {
    expect(rangeBounds({ from: "2026-03-01", to: "2026-03-31" })).toEqual({ start: "2026-02-28T22:00:00.000Z", end: "2026-03-31T22:00:00.000Z" });
  });
});

describe("buckets", () => {
  it("weeks run Monday to Sunday; months from the 1st", () => {
    expect(weekStart("2026-03-02")).toBe("2026-03-02"); // a Monday
    expect(weekStart("2026-03-08")).toBe("2026-03-02"); // the Sunday after
    expect(weekStart("2026-03-09")).toBe("2026-03-09");
    expect(weekStart("2026-01-01")).toBe("2025-12-29"); // across a year
    expect(bucketOf("2026-02-28", "month")).toBe("2026-02-01");
    expect(bucketOf("2026-02-28", "day")).toBe("2026-02-28");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("a range touches every day, week or month it overlaps, the first and last clipped to the range", () => {
    expect(emptyBuckets(salesRange({ from: "2026-03-04", to: "2026-03-06" }, "day")).map((b) => b.key)).toEqual(["2026-03-04", "2026-03-05", "2026-03-06"]);
    expect(emptyBuckets(salesRange({ from: "2026-03-04", to: "2026-03-04" }, "day"))[0]!.label).toBe("4 Mar");
    expect(emptyBuckets(salesRange({ from: "2025-12-31", to: "2026-01-01" }, "day")).map((b) => b.label)).toEqual(["31 Dec 2025", "1 Jan 2026"]);
    const weeks = emptyBuckets(salesRange({ from: "2026-03-04", to: "2026-03-17" }, "week"));
    expect(weeks.map((b) => [b.key, b.from, b.to])).toEqual([
      ["2026-03-02", "2026-03-04", "2026-03-08"],
      ["2026-03-09", "2026-03-09", "2026-03-15"],
      ["2026-03-16", "2026-03-16", "2026-03-17"],
    ]);
    expect(weeks[0]!.label).toBe("4 Mar – 8 Mar");
    const months = emptyBuckets(salesRange({ from: "2026-01-15", to: "2026-03-31" }, "month"));
    expect(months.map((b) => [b.key, b.from, b.to])).toEqual([
      ["2026-01-01", "2026-01-15", "2026-01-31"],
      ["2026-02-01", "2026-02-01", "2026-02-28"],
      ["2026-03-01", "2026-03-01", "2026-03-31"],
    ]);
    expect(months.map((b) => b.label)).toEqual(["Jan 2026 (15 Jan–31 Jan)", "Feb 2026", "Mar 2026"]);
    // December into January
    expect(emptyBuckets(salesRange({ from: "2025-12-20", to: "2026-01-05" }, "month")).map((b) => b.key)).toEqual(["2025-12-01", "2026-01-01"]);
  });

  it("the previous period is the same number of days just before; its days sit beside the range's by position", () => {
    expect(previousPeriod({ from: "2026-03-01", to: "2026-03-31" })).toEqual({ from: "2026-01-29", to: "2026-02-28" });
    expect(previousPeriod({ from: "2026-03-15", to: "2026-03-15" })).toEqual({ from: "2026-03-14", to: "2026-03-14" });
    const range = salesRange({ from: "2026-03-09", to: "2026-03-22" }, "week"); // two whole weeks
    const buckets = rollUp(range, [
      { day: "2026-03-09", orders: 1, revenueCents: 1000 },
      { day: "2026-03-22", orders: 2, revenueCents: 500 },
      { day: "2026-02-23", orders: 4, revenueCents: 700 }, // previous period's first day → first week
      { day: "2026-03-08", orders: 1, revenueCents: 300 }, // previous period's last day → second week
      { day: "2026-02-22", orders: 9, revenueCents: 9999 }, // before both: ignored
      { day: "2026-03-23", orders: 9, revenueCents: 9999 }, // after the range: ignored
    ]);
    expect(buckets.map((b) => [b.key, b.orders, b.revenueCents, b.previousOrders, b.previousRevenueCents])).toEqual([
      ["2026-03-09", 1, 1000, 4, 700],
      ["2026-03-16", 2, 500, 1, 300],
    ]);
  });

  it("monthly buckets of a range that is not whole months still take every previous day exactly once", () => {
    const range = salesRange({ from: "2026-01-15", to: "2026-03-10" }, "month"); // 55 days
    const previous = Array.from({ length: range.days }, (_, i) => ({ day: addDays(range.previous.from, i), orders: 1, revenueCents: 100 }));
    const buckets = rollUp(range, previous);
    expect(buckets.reduce((s, b) => s + b.previousOrders, 0)).toBe(55);
    expect(buckets.map((b) => b.previousOrders)).toEqual([17, 28, 10]);
  });

  it("one query reads both periods: from the previous period's first instant to the end of the range", () => {
    const range = salesRange({ from: "2026-03-01", to: "2026-03-31" });
    expect(queryBounds(range)).toEqual({ start: "2026-01-28T22:00:00.000Z", end: "2026-03-31T22:00:00.000Z", rangeStart: "2026-02-28T22:00:00.000Z" });
  });
});

describe("parseSalesQuery", () => {
  it("opens on the last 30 South African days, today included, grouped by day", () => {
    const { range, notice } = query("");
    expect(range).toMatchObject({ from: "2026-02-14", to: "2026-03-15", grouping: "day", days: 30, previous: { from: "2026-01-15", to: "2026-02-13" } });
    expect(notice).toBeNull();
    // late evening UTC is already tomorrow in South Africa
    expect(query("", new Date("2026-03-15T22:30:00.000Z")).range.to).toBe("2026-03-16");
  });

  it("takes from, to and grouping; picks a grouping to suit the length when none is given", () => {
    expect(query("from=2026-01-01&to=2026-03-31&grouping=day").range).toMatchObject({ from: "2026-01-01", to: "2026-03-31", grouping: "day", days: 90 });
    expect(query("from=2026-01-01&to=2026-03-31").range.grouping).toBe("week");
    expect(query("from=2025-01-01&to=2025-12-31").range.grouping).toBe("month");
    expect(query("from=2026-03-01&to=2026-03-31&grouping=year").range.grouping).toBe("day");
  });

  it("never fails: bad dates fall back to the last 30 days, reversed ones are swapped, long ones shortened; each says so", () => {
    expect(query("from=2026-02-30&to=2026-03-31")).toMatchObject({ range: { from: "2026-02-14", to: "2026-03-15" }, notice: SALES_MESSAGES.badDay });
    expect(query("from=yesterday")).toMatchObject({ notice: SALES_MESSAGES.badDay });
    expect(query("from=2026-03-31&to=2026-03-01")).toMatchObject({ range: { from: "2026-03-01", to: "2026-03-31" }, notice: SALES_MESSAGES.swapped });
    const long = query("from=2020-01-01&to=2026-03-15");
    expect(long.notice).toBe(SALES_MESSAGES.tooLong);
    expect(long.range).toMatchObject({ from: "2024-03-15", to: "2026-03-15", days: 731, grouping: "month" });
    // one end alone: to defaults to today, from to 30 days before to
    expect(query("from=2026-03-01").range).toMatchObject({ from: "2026-03-01", to: "2026-03-15" });
    expect(query("to=2026-02-28").range).toMatchObject({ from: "2026-01-30", to: "2026-02-28" });
  });
});

describe("salesPresets", () => {
  it("are South African days: the last 7, 30, 90 and 365, this month so far and last month", () => {
    expect(salesPresets(new Date("2026-03-01T21:30:00.000Z")).map((p) => [p.label, p.from, p.to])).toEqual([
      ["7 days", "2026-02-23", "2026-03-01"],
      ["30 days", "2026-01-31", "2026-03-01"],
      ["90 days", "2025-12-02", "2026-03-01"],
      ["12 months", "2025-03-02", "2026-03-01"],
      ["This month", "2026-03-01", "2026-03-01"],
      ["Last month", "2026-02-01", "2026-02-28"],
    ]);
  });
});

describe("figures and labels", () => {
  it("average order value, change and counts", () => {
    expect(averageOrderCents(100_00, 3)).toBe(3333);
    expect(averageOrderCents(5, 2)).toBe(3); // 2.5 → 3
    expect(averageOrderCents(0, 0)).toBe(0);
    expect(changePercent(150, 100)).toBe(50);
    expect(changePercent(50, 100)).toBe(-50);
    expect(changePercent(5, 0)).toBeNull();
    expect([formatChange(12), formatChange(-4), formatChange(0), formatChange(null)]).toEqual(["+12%", "−4%", "0%", "new"]);
    expect(formatCount(1234567)).toBe("1 234 567");
    expect([formatRandShort(0), formatRandShort(85_000), formatRandShort(1_250_000), formatRandShort(12_345_600), formatRandShort(123_456_789)]).toEqual(["R0", "R850", "R12.5k", "R123k", "R1.2m"]);
    expect(rangeLabel({ from: "2026-02-14", to: "2026-03-15" })).toBe("14 Feb 2026 – 15 Mar 2026");
  });

  it("axis labels: at most max, evenly spread, the first always", () => {
    expect(tickStep(30, 6)).toBe(5);
    expect(tickStep(31, 10)).toBe(4);
    expect(tickStep(3, 6)).toBe(1);
    expect(tickStep(0, 6)).toBe(1);
  });
});
