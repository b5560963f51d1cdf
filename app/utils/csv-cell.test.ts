import { describe, expect, it } from "vitest";
import { neutraliseCell as fromReports } from "~/modules/reports/reports.logic";
import { neutraliseCell as fromCatalog } from "~/modules/catalog-csv/csv-columns";
import { neutraliseCell, unneutraliseCell } from "./csv-cell";

describe("one rule for every CSV the shop writes (formula injection, OWASP)", () => {
  it("gives text a spreadsheet would run as a formula a leading apostrophe: = + - @ tab CR LF", () => {
    for (const bad of ['=HYPERLINK("http://x","y")', "+27 82 123 4567", "-2+3", "-1e5", "- 12", "--1", "@SUM(A1)", "\t=1", "\r=1", "\n=1", "-12.50 refund"]) {
      expect(neutraliseCell(bad)).toBe(`'${bad}`);
    }
  });

  it("keeps a plain number a number, negative ones too: an accountant's -12.50 must still sum", () => {
    for (const n of ["-12.50", "-3", "0.00", "1299.00", "-0.5"]) expect(neutraliseCell(n)).toBe(n);
  });

  it("leaves other text as it is", () => {
    for (const ok of ["Thandi Nkosi", "a=b", "'quoted", "", " =1", "Zoë"]) expect(neutraliseCell(ok)).toBe(ok);
  });

  it("gives back exactly what was stored, even text that already starts with an apostrophe", () => {
    for (const text of ["=1+1", "'=already", "''+twice", "-5", "@x", "Oud"]) expect(unneutraliseCell(neutraliseCell(text))).toBe(text);
  });

  it("is the same function in the reports and in the product file", () => {
    expect(fromReports).toBe(neutraliseCell);
    expect(fromCatalog).toBe(neutraliseCell);
  });
});
