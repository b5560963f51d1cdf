/**
 * Spreadsheet-safe CSV cells (CSV or formula injection, OWASP), one rule for every file the shop writes: the product
 * export, the accountant's orders export, the dashboard's tables, the consent log (docs/decisions/044).
 *
 * A cell that begins with = + - @, a tab, a carriage return or a line feed is read by Excel, LibreOffice and Google
 * Sheets as a formula (=HYPERLINK(…) sends data away; -2+3 computes), so it gets a leading apostrophe, which
 * spreadsheets take as "this is text" and do not show. Two exceptions keep the files honest:
 *
 * - A plain decimal number ("-12.50", "-3", "0.5") is written as it is: a spreadsheet reads it as a number, never as a
 *   formula, and an accountant's negative refund must stay a number to sum. Only an optional minus, digits and at
 *   most one decimal point qualify; "-2+3", "-1e5", "- 12" and "--1" are not numbers and are neutralised.
 * - A value that already begins with apostrophes before such a character gets one more, so unneutraliseCell gives
 *   back exactly what was stored (the product import reads our own export back).
 */
const FORMULA_START = /^'*[=+\-@\t\r\n]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** The inverse of neutraliseCell (and of WooCommerce's own exporter, which escapes the same way). */
export function unneutraliseCell(text: string): string {
  return /^'+[=+\-@\t\r\n]/.test(text) ? text.slice(1) : text;
}
