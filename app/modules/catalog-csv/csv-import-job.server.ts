/**
 * The import's apply, a job in the background (issue 20): claimed by one process (claimImport), run with its
 * heartbeat and progress written to product_imports (startApply, applyImport): planned again, images fetched, then
 * every write in ONE transaction (csv-import-writes.server.ts) that also marks the import applied.
 */
import { isUniqueViolation, type DB } from "~/db/db.server";
import { storedImageStem, renditionKey } from "~/modules/media/product-images.server";
import { mediaStore } from "~/modules/media/media-store.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { type ImportReport } from "./csv-columns";
import { IMPORT_MESSAGES } from "./import-messages";
import { failureReason } from "./missing-images.server";
import { importRemoteImage } from "./remote-image.server";
import { recordActivity, type ActivityActor } from "~/modules/activity/activity.server";
import { bulkSearchIndex, writePlan } from "./csv-import-writes.server";
import { parseText } from "./csv-parse.server";
import { type PlanContext, writes } from "./csv-plan-model.server";
import { planImport, reportOf } from "./csv-plan.server";
import { type ImageChecks, mapLimit, STALE_AFTER_MS, unreachableImages } from "./csv-preview.server";

const IMAGE_CONCURRENCY = 4;

export interface ApplyOptions extends ImageChecks {
  /** fetches and stores one image, answering its stored URL (default: importRemoteImage, with the private-address check) */
  importImage?: (url: string) => Promise<string>;
  /** import the rows without errors and leave the others out (the owner's "Import the N good rows") */
  goodRowsOnly?: boolean;
  /** the shop's day for WooCommerce's sale dates (tests); default today */
  today?: string;
  /** called after each write inside the transaction, with how many products are written so far (tests fail it midway) */
  onWrite?: (written: number) => void;
  /** who applies it, from where: the activity log's entry is written in the import's transaction (docs/decisions/060) */
  audit?: { actor: ActivityActor; ip: string | null };
}

/** A failure the owner can act on: its message, and the report with the rows' errors. */
class ImportFailure extends Error {
  constructor(
    message: string,
    readonly report?: ImportReport,
  ) {
    super(message);
  }
}

/**
 * Claims the import for this process (previewed, failed, or an apply whose process stopped) and returns the claim's
 * token; a second claim gets a DomainError (409). The caller then runs applyImport with the token.
 */
export async function claimImport(db: DB, id: string, options: { goodRowsOnly?: boolean } = {}): Promise<string> {
  const row = await db.selectFrom("product_imports").select(["status", "updated_at", "report"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError(IMPORT_MESSAGES.notFound, 404);
  if (row.status === "applied") throw new DomainError(IMPORT_MESSAGES.applied, 409);
  const counts = (JSON.parse(row.report) as ImportReport).counts;
  if (row.status === "previewed" && counts.error > 0 && !options.goodRowsOnly) throw new DomainError(IMPORT_MESSAGES.hasErrors, 400);
  if (row.status === "previewed" && counts.create + counts.update === 0) throw new DomainError(IMPORT_MESSAGES.nothingToDo, 400);
  const claim = newId();
  const now = new Date();
  const staleBefore = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
  const result = await db
    .updateTable("product_imports")
    .set({ status: "applying", claim, phase: "checking", progress_done: 0, progress_total: 0, message: null, updated_at: now.toISOString() })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("status", "in", ["previewed", "failed"]), eb.and([eb("status", "=", "applying"), eb("updated_at", "<", staleBefore)])]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new DomainError(IMPORT_MESSAGES.busy, 409);
  return claim;
}

const running = new Set<Promise<void>>();

/** Claims the import and applies it in the background of this process; the page polls its progress. */
export async function startApply(db: DB, id: string, options: ApplyOptions = {}): Promise<void> {
  const claim = await claimImport(db, id, options);
  const job = applyImport(db, id, claim, options)
    .catch((error: unknown) => logger.error({ err: error, importId: id }, "product import failed"))
    .finally(() => running.delete(job));
  running.add(job);
}

/** Resolves when this process's running applies have finished (tests; a graceful stop). */
export async function settleImportJobs(): Promise<void> {
  while (running.size) await Promise.all([...running]);
}

function progressWriter(db: DB, id: string, claim: string) {
  let last = 0;
  return async (phase: string, done: number, total: number, force = false) => {
    const now = Date.now();
    if (!force && now - last < 250) return;
    last = now;
    await db
      .updateTable("product_imports")
      .set({ phase, progress_done: done, progress_total: total, updated_at: new Date(now).toISOString() })
      .where("id", "=", id)
      .where("claim", "=", claim)
      .execute();
  };
}

/**
 * The apply itself (see the top of the file). Finishes the import as applied, or failed with its reason and report;
 * never leaves a product half-written.
 */
export async function applyImport(db: DB, id: string, claim: string, options: ApplyOptions = {}): Promise<void> {
  const progress = progressWriter(db, id, claim);
  try {
    const record = await db.selectFrom("product_imports").select(["csv", "file_name"]).where("id", "=", id).where("claim", "=", claim).executeTakeFirst();
    if (!record?.csv) throw new ImportFailure(IMPORT_MESSAGES.notFound);
    await progress("checking", 0, 1, true);
    const { parsed, map } = await parseText(record.csv);
    const context: PlanContext = { today: options.today, isAllowedAddress: options.isAllowedAddress };
    let plan = await planImport(db, parsed, map, (done, total) => progress("checking", done, total), context);
    // Only the good rows (the owner chose so): rows with errors are left out and listed; otherwise all or nothing.
    if (!options.goodRowsOnly && plan.rows.some((r) => r.report.action === "error")) throw new ImportFailure(IMPORT_MESSAGES.changedMeanwhile, reportOf(plan));

    // Stored images the map points to must still exist (a product's deletion removes its files).
    const cached = [...new Map(plan.products.flatMap((p) => p.fromCache).map((c) => [c.url, c])).values()];
    const gone: string[] = [];
    await mapLimit(cached, 8, async ({ source, url }) => {
      const stem = storedImageStem(url);
      if (stem && !(await mediaStore().exists(renditionKey(stem, 1200)))) gone.push(source);
    });
    if (gone.length) {
      await db.deleteFrom("imported_images").where("source_url", "in", gone).execute();
      plan = await planImport(db, parsed, map, undefined, context);
    }

    // Images by URL: fetched before the transaction (never hold the database while waiting on the network). One
    // that can't be had (its host, then its fetch) never stops the import: the product comes in without it, and it
    // waits in import_missing_images for "Fetch the missing images again".
    const failed = await unreachableImages(plan.pending, options);
    const toFetch = plan.pending.filter((source) => !failed.has(source));
    if (toFetch.length) {
      const importImage = options.importImage ?? ((url: string) => importRemoteImage(url, { isAllowedAddress: options.isAllowedAddress }));
      let done = 0;
      await progress("images", 0, toFetch.length, true);
      await mapLimit(toFetch, IMAGE_CONCURRENCY, async (source) => {
        try {
          const url = await importImage(source);
          await db
            .insertInto("imported_images")
            .values({ source_url: source, url, created_at: new Date().toISOString() })
            .onConflict((oc) => oc.column("source_url").doUpdateSet({ url }))
            .execute();
        } catch (error) {
          failed.set(source, failureReason(error, source));
        }
        done++;
        await progress("images", done, toFetch.length);
      });
    }
    if (plan.pending.length) {
      plan = await planImport(db, parsed, map, undefined, { ...context, failed });
      if (plan.pending.length || (!options.goodRowsOnly && plan.rows.some((r) => r.report.action === "error"))) throw new ImportFailure(IMPORT_MESSAGES.changedMeanwhile, reportOf(plan));
    }

    const report = reportOf(plan);
    const writing = plan.products.filter(writes).length;
    await progress("writing", 0, writing, true);
    const message = IMPORT_MESSAGES.done(report.counts, report.imagesFailed ?? 0);
    try {
      await db.transaction().execute(async (trx) => {
        const searchIndex = await bulkSearchIndex(trx, writing);
        await writePlan(trx, plan, id, options.onWrite);
        await searchIndex?.finish();
        const finished = await trx
          .updateTable("product_imports")
          // the file is kept while it has rows with errors: the page offers them as a CSV to fix and import again
          .set({ status: "applied", csv: report.counts.error ? record.csv : null, report: JSON.stringify(report), message, phase: null, progress_done: writing, progress_total: writing, updated_at: new Date().toISOString() })
          .where("id", "=", id)
          .where("claim", "=", claim)
          .where("status", "=", "applying")
          .executeTakeFirst();
        if (Number(finished.numUpdatedRows) !== 1) throw new ImportFailure(IMPORT_MESSAGES.busy);
        if (options.audit) {
          // the file's counts, not each product's fields: a catalogue of thousands would make one unreadable entry
          await recordActivity(trx, { ...options.audit, kind: "import.apply", record: { type: "import", id }, summary: `Imported ${record.file_name}: ${message}`, after: report.counts });
        }
      });
    } catch (error) {
      if (error instanceof ImportFailure) throw error;
      if (isUniqueViolation(error)) throw new ImportFailure("Another product took a SKU or slug of this file while it was being imported: nothing was written. Preview the file again");
      throw error;
    }
    if (writing) storefrontChanged(`product import ${id}`);
  } catch (error) {
    const failure = error instanceof ImportFailure ? error : null;
    if (!failure) logger.error({ err: error, importId: id }, "product import failed");
    await db
      .updateTable("product_imports")
      .set({
        status: "failed",
        message: failure?.message ?? IMPORT_MESSAGES.failed,
        phase: null,
        updated_at: new Date().toISOString(),
        ...(failure?.report ? { report: JSON.stringify(failure.report) } : {}),
      })
      .where("id", "=", id)
      .where("claim", "=", claim)
      .execute();
  }
}
