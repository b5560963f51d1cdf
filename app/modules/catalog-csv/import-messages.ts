/**
 * What the product import says at each step (browser-safe: the import page shows these, and the server module
 * csv-import.server.ts throws them). Kept out of the .server module so the page's component may import them.
 */
import type { ImportCounts } from "./csv-columns";
import { MAX_IMPORT_BYTES } from "./csv-limits";

/** A count with its thousands grouped by a space, as the shop writes amounts: 10 000. */
export function groupCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

export const IMPORT_MESSAGES = {
  tooLarge: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it into smaller files`,
  noFile: "Choose a CSV file to import",
  notFound: "That import no longer exists: upload the file again",
  busy: "This import is being applied already",
  applied: "This import has been applied already",
  hasErrors: "Some rows have errors: fix them in the file and upload it again. Nothing was imported",
  goodRowsOffer: (errors: number, good: number) =>
    `${groupCount(errors)} ${errors === 1 ? "row has" : "rows have"} errors (below). Fix them in the file and upload it again, or import the ${groupCount(good)} good ${good === 1 ? "row" : "rows"} now and the others later: download the rows with errors as a CSV, fix them and import that file.`,
  imagesOffer: (n: number) =>
    `${groupCount(n)} ${n === 1 ? "image" : "images"} can't be fetched (below): the products come in without ${n === 1 ? "it" : "them"}, and you can fetch ${n === 1 ? "it" : "them"} again later from this page.`,
  fetchedAgain: (fetched: number, failed: number) =>
    fetched === 0 && failed === 0
      ? "No images are missing"
      : `${groupCount(fetched)} ${fetched === 1 ? "image" : "images"} fetched${failed ? `; ${groupCount(failed)} still can't be fetched (the reasons are below)` : ""}`,
  nothingToDo: "Nothing to import: every row is unchanged or skipped",
  interrupted: "The import stopped before it finished (the server restarted?). Nothing was written: apply it again",
  failed: "The import failed and nothing was written. Try again; if it fails again, the log says why",
  changedMeanwhile: "The catalogue changed since the preview and some rows now have errors (below). Nothing was imported",
  // sizes (issue 33)
  productCellDiffers: (row: number) => `differs from row ${row} of the same product: a product's columns are the same on each of its size rows (or left empty after the first)`,
  noGoodSizes: (rows: number[]) => `None of its sizes can be imported (${rows.length === 1 ? "row" : "rows"} ${rows.slice(0, 5).join(", ")}${rows.length > 5 ? "…" : ""})`,
  soldInSizes: (labels: string[]) =>
    `This product is sold in ${labels.length} sizes (${labels.join(", ")}) and the file has no Size column: export the products again and edit each size on its row`,
  sameSize: (row: number) => `Row ${row} is the same size of this product: each size may appear once`,
  sizeTaken: (label: string, sku: string | null) => `The product has a size "${label}" already${sku ? ` (SKU ${sku})` : ""}: give this one another label, or its SKU`,
  sizeSkuTaken: (sku: string, product: string) => `SKU "${sku}" is a size of another product ("${product}")`,
  hiddenSize: "This size is hidden in the shop (it has orders): the import updates it and leaves it hidden",
  variationsSkipped: (n: number) => `${groupCount(n)} of its variations ${n === 1 ? "isn't a size" : "aren't sizes"}: skipped (below)`,
  done: (c: ImportCounts, imagesFailed = 0) =>
    `Imported: ${groupCount(c.create)} created, ${groupCount(c.update)} updated, ${groupCount(c.unchanged)} unchanged${c.skip ? `, ${groupCount(c.skip)} skipped` : ""}${
      c.error ? `; ${groupCount(c.error)} ${c.error === 1 ? "row" : "rows"} with errors not imported` : ""
    }${imagesFailed ? `; ${groupCount(imagesFailed)} ${imagesFailed === 1 ? "image" : "images"} could not be fetched` : ""}`,
} as const;
