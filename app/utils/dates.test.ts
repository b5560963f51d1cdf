import { describe, expect, it } from "vitest";
import { formatDateTimeZA, formatDateZA } from "./dates";

describe("dates as South Africans read them", () => {
  it("shows the South African day and time, whatever the server's zone", () => {
    // 22:30 UTC on 31 December is already New Year's Day in Johannesburg (UTC+2)
    expect(formatDateZA("2026-12-31T22:30:00.000Z")).toBe("01 Jan 2027");
    expect(formatDateTimeZA("2026-12-31T22:30:00.000Z")).toMatch(/^01 Jan 2027,? 00:30$/);
  });

  it("reads the same as the browser's toLocaleString with the same options (the page hydrates with the server's text)", () => {
    const options = { year: "numeric", month: "short", day: "numeric", timeZone: "Africa/Johannesburg" } as const;
    for (let t = Date.parse("2026-01-01T00:00:00Z"); t < Date.parse("2027-01-01T00:00:00Z"); t += 7 * 86_400_000 + 3_600_000 * 5 + 61_000) {
      const iso = new Date(t).toISOString();
      expect(formatDateZA(iso)).toBe(new Date(iso).toLocaleDateString("en-ZA", options));
      expect(formatDateTimeZA(iso)).toBe(new Date(iso).toLocaleString("en-ZA", { ...options, hour: "2-digit", minute: "2-digit", hour12: false }));
    }
  });
});
