/**
 * Products in from a CSV (issue 20, docs/decisions/032): our own export or a WooCommerce product export, in two steps.
 *
 * 1. Preview: the file is decoded (UTF-8 only), parsed with csv-parse, every row read and validated (csv-columns.ts,
 *    zod) and matched to the catalogue by SKU, then slug; the plan says per row what would be created, updated, left
 *    unchanged or skipped, and every error with its row, column and reason. The file and the report are stored in
 *    product_imports, so any app process can show the preview and apply it.
 * 2. Apply: one process claims the import (a conditional UPDATE: a second click or a second worker gets "busy") and
 *    runs it in the background, writing its progress to the same row for the page to poll: the file is planned again
 *    against the catalogue as it is now, images given by URL are fetched (remote-image.server.ts) and stored, then
 *    every product, tier and new category is written in ONE transaction, which also marks the import applied. Any
 *    failure rolls all of it back: nothing is half-written. A process that dies mid-apply stops its heartbeat
 *    (updated_at); the page then says so and the import may be applied again.
 *
 * Importing the same file twice changes nothing: a row whose values equal the product's is "unchanged" and not
 * written, and an image URL imported once maps to its stored image (imported_images) without being fetched again.
 *
 * The work is in files named for their job (issue 39 point 3); this module is what the page and the tests import:
 * - csv-parse.server.ts — the bytes decoded, the records read, the header mapped;
 * - csv-plan-model.server.ts, csv-plan-rows.server.ts, csv-plan.server.ts — the plan: the catalogue's products the
 *   file names, the rows read and grouped, what each row would do (planImport, reportOf);
 * - csv-preview.server.ts — the preview stored, the page's view of an import, the rows with errors as a CSV;
 * - csv-import-job.server.ts — the apply, claimed and run in the background with its progress;
 * - csv-import-writes.server.ts — the writes in the apply's one transaction, through the catalogue's and pricing's
 *   bulk functions.
 */

export { IMPORT_MESSAGES } from "./import-messages";
export { parseCsvText, readCsvFile, type ParsedCsv } from "./csv-parse.server";
export { type Plan, type PlanContext } from "./csv-plan-model.server";
export { type PlanProgress } from "./csv-plan-rows.server";
export { planImport, reportOf } from "./csv-plan.server";
export {
  failedRowsCsv,
  getImportView,
  IMAGE_FAILURES_SHOWN,
  IMPORT_ROWS_PAGE_SIZE,
  previewImport,
  STALE_AFTER_MS,
  type ImageChecks,
  type ImportRowFilter,
  type ImportStatus,
  type ImportView,
} from "./csv-preview.server";
export { applyImport, claimImport, settleImportJobs, startApply, type ApplyOptions } from "./csv-import-job.server";
export { BULK_SEARCH_INDEX_FROM } from "./csv-import-writes.server";
