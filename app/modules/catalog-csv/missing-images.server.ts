/**
 * Images a product import could not fetch (issue 32, docs/decisions/044): the product came in without them, and they
 * wait in import_missing_images (migration 0033) with the reason, for the import page's "Fetch the missing images
 * again". A fetch again uses the same limits as the import (remote-image.server.ts); an image fetched takes its place
 * in the product's images (the position the file gave it) and leaves the table; one that fails again stays, with the
 * new reason.
 */
import type { DB, Queryable } from "~/db/db.server";
import { imagesOf } from "~/modules/catalog/catalog.server";
import { DEFAULT_PRODUCT_IMAGES } from "~/modules/media/images";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { importRemoteImage, RemoteImageError } from "./remote-image.server";
import { updateProductColumns } from "~/modules/catalog/catalog-bulk.server";

/** One image a row of an import could not have: its address, why, and where in the row's list of images it was. */
export interface ImageFailure {
  url: string;
  reason: string;
  position: number;
}

export const FETCH_AGAIN_BATCH = 200;
const FETCH_CONCURRENCY = 4;

/** Why an image failed, when the fetch itself threw something that isn't a RemoteImageError (logged). */
export function failureReason(error: unknown, source: string): string {
  if (error instanceof RemoteImageError) return error.message;
  logger.warn({ err: error, source }, "an imported image failed");
  return "the image could not be fetched";
}

/**
 * Inside an import's transaction: what a written product is missing now. The file gave the product its images, so
 * the images it missed before (from an earlier file) no longer apply; these do.
 */
export async function replaceMissingImages(trx: Queryable, productId: string, failures: ImageFailure[], importId: string, row: number): Promise<void> {
  await trx.deleteFrom("import_missing_images").where("product_id", "=", productId).execute();
  if (!failures.length) return;
  const now = new Date().toISOString();
  const distinct = [...new Map(failures.map((f) => [f.url, f])).values()];
  await trx
    .insertInto("import_missing_images")
    .values(distinct.map((f) => ({ product_id: productId, source_url: f.url, position: f.position, reason: f.reason, import_id: importId, row_number: row, tried_at: now })))
    .execute();
}

export interface MissingImage {
  productId: string;
  productName: string;
  productSlug: string;
  url: string;
  reason: string;
  importId: string | null;
  row: number | null;
  triedAt: string;
}

/** The images still missing (the first `limit`, by product) and how many there are. */
export async function listMissingImages(db: Queryable, limit = 50): Promise<{ total: number; products: number; images: MissingImage[] }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("import_missing_images as m")
      .innerJoin("products as p", "p.id", "m.product_id")
      .select(["m.product_id", "p.name", "p.slug", "m.source_url", "m.reason", "m.import_id", "m.row_number", "m.tried_at"])
      .orderBy("p.name")
      .orderBy("m.position")
      .limit(limit)
      .execute(),
    db
      .selectFrom("import_missing_images")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("product_id").distinct().as("products")])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    products: Number(count.products),
    images: rows.map((r) => ({
      productId: r.product_id,
      productName: r.name,
      productSlug: r.slug,
      url: r.source_url,
      reason: r.reason,
      importId: r.import_id,
      row: r.row_number === null ? null : Number(r.row_number),
      triedAt: r.tried_at,
    })),
  };
}

/** A product's images with a fetched one put back where the file had it; a default image goes once it has its own. */
export function withImageAt(images: string[], url: string, position: number): string[] {
  const defaults = Object.values(DEFAULT_PRODUCT_IMAGES) as string[];
  const own = images.filter((u) => !defaults.includes(u) && u !== url);
  own.splice(Math.min(position, own.length), 0, url);
  return own;
}

/**
 * Fetches the missing images again (at most FETCH_AGAIN_BATCH a time, the oldest tried first), with the import's
 * limits. Each image fetched is stored, mapped in imported_images (a later import of the same file finds it) and put
 * into its product; the visitor pages are invalidated once when any product changed.
 */
export async function fetchMissingImagesAgain(db: DB, options: { importImage?: (url: string) => Promise<string> } = {}): Promise<{ fetched: number; failed: number }> {
  const importImage = options.importImage ?? ((url: string) => importRemoteImage(url));
  const rows = await db
    .selectFrom("import_missing_images")
    .select(["product_id", "source_url", "position"])
    .orderBy("tried_at")
    .orderBy("product_id")
    .limit(FETCH_AGAIN_BATCH)
    .execute();
  const sources = [...new Set(rows.map((r) => r.source_url))];
  const stored = new Map<string, string>();
  const failed = new Map<string, string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(FETCH_CONCURRENCY, sources.length) }, async () => {
      while (next < sources.length) {
        const source = sources[next++]!;
        try {
          stored.set(source, await importImage(source));
        } catch (error) {
          failed.set(source, failureReason(error, source));
        }
      }
    }),
  );
  const now = new Date().toISOString();
  let changed = 0;
  for (const [source, url] of stored) {
    await db
      .insertInto("imported_images")
      .values({ source_url: source, url, created_at: now })
      .onConflict((oc) => oc.column("source_url").doUpdateSet({ url }))
      .execute();
  }
  for (const row of rows) {
    const url = stored.get(row.source_url);
    if (url === undefined) {
      await db
        .updateTable("import_missing_images")
        .set({ reason: failed.get(row.source_url) ?? "the image could not be fetched", tried_at: now })
        .where("product_id", "=", row.product_id)
        .where("source_url", "=", row.source_url)
        .execute();
      continue;
    }
    await db.transaction().execute(async (trx) => {
      const product = await trx.selectFrom("products").select("images").where("id", "=", row.product_id).executeTakeFirst();
      if (product) {
        await updateProductColumns(trx, row.product_id, { images: JSON.stringify(withImageAt(imagesOf(product.images), url, Number(row.position))) });
        changed++;
      }
      await trx.deleteFrom("import_missing_images").where("product_id", "=", row.product_id).where("source_url", "=", row.source_url).execute();
    });
  }
  if (changed) storefrontChanged("missing product images fetched");
  const failedRows = rows.filter((r) => !stored.has(r.source_url)).length;
  return { fetched: rows.length - failedRows, failed: failedRows };
}
