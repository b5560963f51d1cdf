/**
 * The product import's parsing (issue 20, docs/decisions/032): a file's bytes decoded (UTF-8 only), its delimiter
 * found, its records read with csv-parse, and its header mapped to our columns or WooCommerce's (csv-columns.ts).
 */
import { parse } from "csv-parse";
import { DomainError } from "~/utils/errors";
import { CSV_MESSAGES, decodeCsvBytes, detectDelimiter, mapHeader, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, type HeaderMap } from "./csv-columns";
import { IMPORT_MESSAGES } from "./import-messages";
import { yieldToEventLoop } from "~/utils/event-loop";

export interface ParsedCsv {
  header: string[];
  records: Array<{ row: number; cells: string[] }>;
}

function csvErrorMessage(error: unknown): string {
  const e = error as { code?: string; lines?: number; records?: number; message?: string };
  const row = (e.records ?? 0) + 1;
  const line = e.lines ?? row;
  switch (e.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return `Row ${row}: a quoted cell opens and never closes, so the rest of the file would be one cell. Check the quotes on row ${row} (a quote inside a quoted cell is written as two: "")`;
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `Row ${row} (line ${line}): a quoted cell's closing quote is followed by more text. A quote inside a quoted cell is written as two: ""`;
    case "CSV_INVALID_OPENING_QUOTE":
      return `Row ${row} (line ${line}): a quote in the middle of a cell that isn't quoted. Quote the whole cell and write the quote as two: ""`;
    case "CSV_MAX_RECORD_SIZE":
      return `Row ${row}: a cell is longer than 200 000 characters (a quote that never closes?)`;
    default:
      return `Row ${row} (line ${line}) could not be read as CSV`;
  }
}

/**
 * The text as records, with csv-parse (strict quotes). Fed in slices, yielding between them, so a large file doesn't
 * hold the process. A quoting error names its row; more than MAX_IMPORT_ROWS rows is refused as soon as it is seen.
 */
export async function parseCsvText(text: string): Promise<ParsedCsv> {
  const parser = parse({ delimiter: detectDelimiter(text), bom: true, relax_column_count: true, skip_empty_lines: false, max_record_size: 200_000 });
  const records: string[][] = [];
  let failure: unknown;
  parser.on("data", (record: string[]) => records.push(record));
  parser.on("error", (error) => (failure ??= error));
  const ended = new Promise<void>((resolve) => {
    parser.on("end", resolve);
    parser.on("close", resolve);
  });
  const SLICE = 256 * 1024;
  for (let i = 0; i < text.length && !failure; i += SLICE) {
    parser.write(text.slice(i, i + SLICE));
    await yieldToEventLoop();
    if (records.length > MAX_IMPORT_ROWS + 1) {
      parser.destroy();
      throw new DomainError(CSV_MESSAGES.tooManyRows, 400, "file");
    }
  }
  if (!failure) {
    parser.end();
    await ended;
  }
  if (failure) throw new DomainError(csvErrorMessage(failure), 400, "file");
  if (records.length > MAX_IMPORT_ROWS + 1) throw new DomainError(CSV_MESSAGES.tooManyRows, 400, "file");
  const [header, ...rest] = records;
  if (!header || header.every((h) => h.trim() === "")) throw new DomainError(CSV_MESSAGES.empty, 400, "file");
  const data = rest.map((cells, i) => ({ row: i + 2, cells })).filter((r) => r.cells.some((c) => c.trim() !== ""));
  if (data.length === 0) throw new DomainError(CSV_MESSAGES.noRows, 400, "file");
  return { header, records: data };
}

/** Bytes → parsed records and the header's meaning, or a DomainError naming the problem with the whole file. */
export async function readCsvFile(bytes: Uint8Array): Promise<{ text: string; parsed: ParsedCsv; map: HeaderMap }> {
  if (bytes.length > MAX_IMPORT_BYTES) throw new DomainError(IMPORT_MESSAGES.tooLarge, 413, "file");
  const decoded = decodeCsvBytes(bytes);
  if (!decoded.ok) throw new DomainError(decoded.message, 400, "file");
  return { text: decoded.text, ...(await parseText(decoded.text)) };
}

export async function parseText(text: string): Promise<{ parsed: ParsedCsv; map: HeaderMap }> {
  const parsed = await parseCsvText(text);
  const mapped = mapHeader(parsed.header);
  if (!mapped.ok) throw new DomainError(mapped.message, 400, "file");
  return { parsed, map: mapped.map };
}
