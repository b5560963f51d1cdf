import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { vatInInclusiveTotal } from "~/modules/invoices/invoice.logic";
import { vatIncluded } from "~/utils/money";
import { csvRecord, monthToDate } from "./reports.logic";
import { daysInRange, isCalendarDay, rangeBounds, saDay, saTime } from "~/utils/sa-days";
import { EXPORT_MESSAGES, ordersExportQuery } from "./reports.schema";

describe("South African days", () => {
  it("a range runs from 00:00 SAST on its first day to 00:00 SAST after its last (UTC+2)", () => {
    expect(rangeBounds({ from: "2026-03-01", to: "2026-03-31" })).toEqual({ start: "2026-02-28T22:00:00.000Z", end: "2026-03-31T22:00:00.000Z" });
    expect(daysInRange({ from: "2026-03-01", to: "2026-03-31" })).toBe(31);
    expect(daysInRange({ from: "2024-02-28", to: "2024-03-01" })).toBe(3);
  });

  it("an instant's day and time are South African", () => {
    expect(saDay("2026-02-28T21:59:59.999Z")).toBe("2026-02-28");
    expect(saDay("2026-02-28T22:00:00.000Z")).toBe("2026-03-01");
    expect(saTime("2026-02-28T22:05:00.000Z")).toBe("00:05");
    expect(monthToDate(new Date("2026-03-31T22:30:00.000Z"))).toEqual({ from: "2026-04-01", to: "2026-04-01" });
  });

  it("only real calendar days", () => {
    expect(isCalendarDay("2024-02-29")).toBe(true);
    for (const bad of ["2026-02-29", "2026-13-01", "2026-3-1", "01/03/2026", "2026-03-01T00:00", ""]) expect(isCalendarDay(bad), bad).toBe(false);
  });
});

describe("VAT in the export and the invoices", () => {
  it("the invoice's integer formula and money.ts vatIncluded agree on every total up to R20 000", () => {
    for (let t = 0; t <= 2_000_000; t += 7) if (vatInInclusiveTotal(t) !== vatIncluded(t)) throw new Error(`differ at ${t}`);
  });
});

describe("the export's query", () => {
  const parse = (q: Record<string, string>) => ordersExportQuery.safeParse(q);
  const message = (q: Record<string, string>) => {
    const r = parse(q);
    return r.success ? null : r.error.issues[0]!.message;
  };

  it("reads a range, lines and a status", () => {
    expect(parse({ from: "2026-03-01", to: "2026-03-31" }).data).toEqual({ from: "2026-03-01", to: "2026-03-31", lines: false, status: null });
    expect(parse({ from: "2026-03-01", to: "2026-03-01", lines: "1", status: "paid" }).data).toEqual({ from: "2026-03-01", to: "2026-03-01", lines: true, status: "paid" });
    expect(parse({ from: "2021-03-02", to: "2026-03-01", status: "" }).data?.status).toBeNull();
  });

  it("refuses bad queries with what to fix", () => {
    expect(message({ to: "2026-03-01" })).toBe(EXPORT_MESSAGES.from);
    expect(message({ from: "2026-02-30", to: "2026-03-01" })).toBe(EXPORT_MESSAGES.from);
    expect(message({ from: "2026-03-01", to: "tomorrow" })).toBe(EXPORT_MESSAGES.to);
    expect(message({ from: "2026-03-02", to: "2026-03-01" })).toBe(EXPORT_MESSAGES.order);
    expect(message({ from: "2020-01-01", to: "2026-03-01" })).toBe(EXPORT_MESSAGES.tooLong);
    expect(message({ from: "2026-03-01", to: "2026-03-01", lines: "yes" })).toBe(EXPORT_MESSAGES.lines);
    expect(message({ from: "2026-03-01", to: "2026-03-01", status: "refunded" })).toBe(EXPORT_MESSAGES.status);
  });
});

describe("csvRecord (the orders export's writer)", () => {
  // The export wrote its records with csv-stringify (windows record delimiter, a lone \r or \n quoted too); its own
  // writer must write the same bytes for every kind of cell an order can hold.
  const CELLS = ["", "plain", "R 1 299,00", "1299.00", "a,b", 'say "hi"', '"', ",", "two\r\nlines", "lone\nfeed", "lone\rreturn", "'=HYPERLINK(1)", "Thandiwe Mkhize-Nel", "Ñandú & Zoë — 香水", " spaced ", "tab\there", "semi;colon"];
  it("writes exactly what csv-stringify wrote, cell by cell and as whole records", () => {
    const csvStringify = (records: string[][]) => stringify(records, { record_delimiter: "windows", quoted_match: /[\r\n]/ });
    for (const cell of CELLS) expect(csvRecord([cell]), JSON.stringify(cell)).toBe(csvStringify([[cell]]));
    expect(csvRecord(CELLS)).toBe(csvStringify([CELLS]));
    expect(csvRecord(["a", "", "b"])).toBe("a,,b\r\n");
  });
});
