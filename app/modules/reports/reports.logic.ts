/**
 * The owner's reports (issue 20): the export form's default range, the cells of a CSV for a spreadsheet, and the VAT
 * in a total. Pure and browser-safe. The South African day arithmetic is utils/sa-days.ts.
 */
import { formatAmount, type Cents } from "~/utils/money";
import { saDay, type DayRange } from "~/utils/sa-days";

/** The export form's default: the current month so far (the 1st to today, South African days). */
export function monthToDate(now = new Date()): DayRange {
  const today = saDay(now);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** Spreadsheet-safe text cells: one rule for every CSV the shop writes (app/utils/csv-cell.ts). */
export { neutraliseCell } from "~/utils/csv-cell";

/** An amount for the file: rand with 2 decimals and a dot, no currency sign or grouping ("1299.00"). */
export function csvAmount(cents: Cents): string {
  return formatAmount(cents);
}

/**
 * One record as CSV (RFC 4180): a cell holding a comma, a quote or a line break (a lone \r or \n too: it would split
 * the row) is quoted, its quotes doubled; CRLF after it (Excel). The same text csv-stringify wrote, without the ~12 KB
 * of garbage it made per record (~12 GB for a million orders: issue 20, the server's memory while exporting).
 */
export function csvRecord(cells: readonly string[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (i > 0) line += ",";
    line += /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\r\n`;
}
