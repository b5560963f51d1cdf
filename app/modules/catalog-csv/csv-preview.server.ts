/**
 * The import's preview and its page (issue 20): the file planned and stored with its report in product_imports
 * (previewImport), the page's view of an import with its rows and image failures (getImportView), and the rows with
 * errors as a CSV to fix (failedRowsCsv).
 */
import { stringify } from "csv-stringify/sync";
import { type DB, type Queryable } from "~/db/db.server";
import { newId } from "~/utils/ids";
import { CSV_BOM, type ImportReport, type ImportRowReport } from "./csv-columns";
import { checkImageHost } from "./remote-image.server";
import { parseCsvText, readCsvFile } from "./csv-parse.server";
import { type PlanContext } from "./csv-plan-model.server";
import { planImport, reportOf } from "./csv-plan.server";

/** An apply's heartbeat older than this means its process stopped. */
export const STALE_AFTER_MS = 2 * 60 * 1000;
/** Imports are kept this long (the page can show what an import did), then removed. */
const KEEP_IMPORTS_MS = 7 * 24 * 60 * 60 * 1000;

/** `fn` over `items`, at most `limit` at a time. */
export async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export interface ImageChecks {
  /** why an image URL can't be fetched judged by its host, or null (default: checkImageHost, a DNS look-up) */
  checkHost?: (url: string) => Promise<string | null>;
  /** may the server fetch from this address (default: isPublicAddress; tests allow their local server) */
  isAllowedAddress?: (address: string) => boolean;
}

/** Of the image URLs to fetch, those whose host can't be reached (one look-up per host), with why. */
export async function unreachableImages(sources: string[], checks: ImageChecks): Promise<Map<string, string>> {
  const checkHost = checks.checkHost ?? ((url: string) => checkImageHost(url, checks.isAllowedAddress));
  const byHost = new Map<string, string[]>();
  for (const source of sources) {
    const host = URL.canParse(source) ? new URL(source).host : source;
    byHost.set(host, [...(byHost.get(host) ?? []), source]);
  }
  const failed = new Map<string, string>();
  await mapLimit([...byHost.values()], 8, async (list) => {
    const reason = await checkHost(list[0]!);
    if (reason) for (const source of list) failed.set(source, reason);
  });
  return failed;
}

/** Reads, plans and stores an uploaded file; returns the import's id. A file that can't be read at all throws (400). */
export async function previewImport(
  db: DB,
  input: { fileName: string; bytes: Uint8Array; adminId: string | null; today?: string } & ImageChecks,
): Promise<{ id: string; report: ImportReport }> {
  const { text, parsed, map } = await readCsvFile(input.bytes);
  const context: PlanContext = { today: input.today, isAllowedAddress: input.isAllowedAddress };
  let plan = await planImport(db, parsed, map, undefined, context);
  // The images whose host can't be reached show in the preview already (the rest only show when fetched).
  const failed = await unreachableImages(plan.pending, input);
  if (failed.size) plan = await planImport(db, parsed, map, undefined, { ...context, failed });
  const report = reportOf(plan);
  const now = new Date();
  const id = newId();
  await db
    .deleteFrom("product_imports")
    .where("created_at", "<", new Date(now.getTime() - KEEP_IMPORTS_MS).toISOString())
    .where("status", "<>", "applying")
    .execute();
  await db
    .insertInto("product_imports")
    .values({
      id,
      status: "previewed",
      file_name: input.fileName.slice(0, 200) || "products.csv",
      format: map.format,
      csv: text,
      report: JSON.stringify(report),
      created_by: input.adminId,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return { id, report };
}

// ---------------------------------------------------------------------------------------------------------------
// The page's view

export type ImportStatus = "previewed" | "applying" | "applied" | "failed" | "interrupted";
export type ImportRowFilter = "all" | "errors" | "changes";
export const IMPORT_ROWS_PAGE_SIZE = 100;

export interface ImportView {
  id: string;
  status: ImportStatus;
  fileName: string;
  createdAt: string;
  message: string | null;
  progress: { phase: string | null; done: number; total: number };
  report: Omit<ImportReport, "rows">;
  rows: ImportRowReport[];
  matching: number;
  page: number;
  pageCount: number;
  /** every image of the file that can't be had, with its row (the first IMAGE_FAILURES_SHOWN) */
  imageFailures: Array<{ row: number; name: string; url: string; reason: string }>;
  /** the rows with errors can be downloaded as a CSV (the file is still kept) */
  failedRowsDownload: boolean;
}

export const IMAGE_FAILURES_SHOWN = 200;

function viewStatus(status: string, updatedAt: string, now = Date.now()): ImportStatus {
  if (status === "applying" && now - Date.parse(updatedAt) > STALE_AFTER_MS) return "interrupted";
  return status as ImportStatus;
}

export async function getImportView(db: Queryable, id: string, options: { page?: number; show?: ImportRowFilter } = {}): Promise<ImportView | null> {
  const row = await db
    .selectFrom("product_imports")
    .select(["id", "status", "file_name", "created_at", "updated_at", "message", "phase", "progress_done", "progress_total", "report", (eb) => eb("csv", "is not", null).as("has_csv")])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const { rows, ...report } = JSON.parse(row.report) as ImportReport;
  const show = options.show ?? "all";
  const shown = show === "errors" ? rows.filter((r) => r.action === "error") : show === "changes" ? rows.filter((r) => r.action === "create" || r.action === "update") : rows;
  const pageCount = Math.max(1, Math.ceil(shown.length / IMPORT_ROWS_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pageCount);
  return {
    id: row.id,
    status: viewStatus(row.status, row.updated_at),
    fileName: row.file_name,
    createdAt: row.created_at,
    message: row.message,
    progress: { phase: row.phase, done: Number(row.progress_done), total: Number(row.progress_total) },
    report,
    rows: shown.slice((page - 1) * IMPORT_ROWS_PAGE_SIZE, page * IMPORT_ROWS_PAGE_SIZE),
    matching: shown.length,
    page,
    pageCount,
    imageFailures: rows.flatMap((r) => (r.imageFailures ?? []).map((f) => ({ row: r.row, name: r.name, ...f }))).slice(0, IMAGE_FAILURES_SHOWN),
    failedRowsDownload: !!row.has_csv && report.counts.error > 0,
  };
}

/**
 * The rows of an import that have errors as a CSV to fix and import again: the file's own header and the rows' cells
 * exactly as they came (UTF-8 with a byte-order mark, like our export). Null when the import has no such rows, or its
 * file is gone.
 */
export async function failedRowsCsv(db: Queryable, id: string): Promise<{ fileName: string; text: string } | null> {
  const record = await db.selectFrom("product_imports").select(["csv", "report", "file_name"]).where("id", "=", id).executeTakeFirst();
  if (!record?.csv) return null;
  const wanted = new Set((JSON.parse(record.report) as ImportReport).rows.filter((r) => r.action === "error").map((r) => r.row));
  if (!wanted.size) return null;
  const parsed = await parseCsvText(record.csv);
  const rows = [parsed.header, ...parsed.records.filter((r) => wanted.has(r.row)).map((r) => r.cells)];
  const base = record.file_name.replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "-").slice(0, 80) || "products";
  return { fileName: `${base}-rows-with-errors.csv`, text: CSV_BOM + stringify(rows, { record_delimiter: "\r\n" }) };
}
