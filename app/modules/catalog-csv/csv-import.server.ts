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
 */
import { listSizes, refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { insertCategoriesBulk, insertProductsBulk, insertSizesBulk, updateProductColumns, updateSizeColumns } from "~/modules/catalog/catalog-bulk.server";
import { deleteTiersOfSizes, insertTiersBulk } from "~/modules/pricing/tiers-bulk.server";
import { labelForMl, mlFromLabel, sizeCode } from "~/modules/catalog/sizes.logic";
import { parse } from "csv-parse";
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import { isPostgres, isUniqueViolation, type DB, type Queryable } from "~/db/db.server";
import { categorySlugFor } from "~/modules/catalog/catalog-admin.schema";
import { DEFAULT_PRODUCT_IMAGES, defaultProductImage } from "~/modules/media/images";
import { isStoredProductImage, storedImageStem, renditionKey } from "~/modules/media/product-images.server";
import { mediaStore } from "~/modules/media/media-store.server";
import type { PriceTier } from "~/modules/pricing/tiers.logic";
import { profileFromRow, profileToColumns, type ScentColumns } from "~/modules/scent/scent-profile";
import { PRODUCT_CSV_COLUMNS } from "./product-columns.server";
import { EMPTY_PROFILE, type ScentProfile } from "~/modules/scent/scent.logic";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { slugify } from "~/utils/slug";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import {
  columnLabel,
  CSV_BOM,
  CSV_MESSAGES,
  decodeCsvBytes,
  detectDelimiter,
  fileNotes,
  mapHeader,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  readRow,
  SIZE_KEYS,
  unneutraliseCell,
  VARIATION_MESSAGES,
  type CellError,
  type FieldKey,
  type HeaderMap,
  type ImportCounts,
  type ImportReport,
  type ImportRowReport,
  type ProductCsvRow,
  type RowRead,
} from "./csv-columns";
import { IMPORT_MESSAGES } from "./import-messages";
import { failureReason, replaceMissingImages, type ImageFailure } from "./missing-images.server";
import { checkImageHost, checkImageUrl, importRemoteImage } from "./remote-image.server";
import { yieldToEventLoop } from "~/utils/event-loop";
import { recordActivity, type ActivityActor } from "~/modules/activity/activity.server";

export { IMPORT_MESSAGES };

/** An apply's heartbeat older than this means its process stopped. */
export const STALE_AFTER_MS = 2 * 60 * 1000;
/** Imports are kept this long (the page can show what an import did), then removed. */
const KEEP_IMPORTS_MS = 7 * 24 * 60 * 60 * 1000;
const CHUNK = 200;
const IMAGE_CONCURRENCY = 4;

// ---------------------------------------------------------------------------------------------------------------
// Parsing

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

async function parseText(text: string): Promise<{ parsed: ParsedCsv; map: HeaderMap }> {
  const parsed = await parseCsvText(text);
  const mapped = mapHeader(parsed.header);
  if (!mapped.ok) throw new DomainError(mapped.message, 400, "file");
  return { parsed, map: mapped.map };
}

// ---------------------------------------------------------------------------------------------------------------
// Planning

/** A product's own columns as the import compares and writes them; the scent columns as profileToColumns writes them (issue 22). */
interface ProductState extends ScentColumns {
  sku: string | null;
  slug: string;
  name: string;
  description: string;
  images: string[];
  /** the category's slug (categories are matched by slug or name) */
  category: string | null;
  meta_title: string | null;
  meta_desc: string | null;
  inspired_house: string | null;
  inspired_fragrance: string | null;
}

/** A size as the import compares and writes it (issue 33): what is sold, at what price, with its tiers. */
interface SizeState {
  label: string;
  code: string;
  size_ml: number | null;
  price_cents: number;
  was_price_cents: number | null;
  sku: string | null;
  stock: number | null;
  weight_grams: number | null;
  tiers: PriceTier[];
}

interface ExistingSize extends SizeState {
  id: string;
  position: number;
  hidden: boolean;
}

interface Existing extends ProductState {
  id: string;
  /** every size, hidden ones too, in the owner's order */
  sizes: ExistingSize[];
}

/** Which column of our file each product field is (for the report's list of changes). */
const PRODUCT_FIELDS: Array<[keyof ProductState, FieldKey]> = [
  ["sku", "sku"],
  ["slug", "slug"],
  ["name", "name"],
  ["category", "category"],
  ["inspired_house", "inspiredHouse"],
  ["inspired_fragrance", "inspiredFragrance"],
  ["description", "description"],
  ["images", "images"],
  ["meta_title", "metaTitle"],
  ["meta_desc", "metaDesc"],
  ["scent_family", "scentFamily"],
  ["scent_top", "scentTop"],
  ["scent_heart", "scentHeart"],
  ["scent_base", "scentBase"],
  ["scent_intensity", "scentIntensity"],
  ["scent_occasion", "scentOccasion"],
  ["scent_seasons", "scentSeasons"],
  ["scent_for", "scentFor"],
];

/** Which column each size field is; a file without the Size columns names the label by its millilitres, the SKU by the product's. */
const SIZE_FIELDS: Array<[keyof SizeState, FieldKey]> = [
  ["label", "sizeLabel"],
  ["sku", "sizeSku"],
  ["price_cents", "price"],
  ["was_price_cents", "wasPrice"],
  ["tiers", "tiers"],
  ["stock", "stock"],
  ["size_ml", "sizeMl"],
  ["weight_grams", "weightGrams"],
];

/**
 * The scent columns a row asks for: each column the file has replaces that part of the profile (an empty cell: not
 * said); a column the file doesn't have (an older export, WooCommerce) leaves that part as the product has it.
 */
function targetScent(p: ProductCsvRow, base: ScentColumns): ScentColumns {
  const was = profileFromRow(base);
  const pick = <K extends keyof ScentProfile>(key: K, value: ScentProfile[K] | undefined): ScentProfile[K] => (value !== undefined ? value : was[key]);
  return profileToColumns({
    family: pick("family", p.scentFamily),
    top: pick("top", p.scentTop),
    heart: pick("heart", p.scentHeart),
    base: pick("base", p.scentBase),
    intensity: pick("intensity", p.scentIntensity),
    occasion: pick("occasion", p.scentOccasion),
    seasons: pick("seasons", p.scentSeasons),
    audience: pick("audience", p.scentFor),
  });
}

/** A row of the file as planned: its report, and the product it writes to (none when skipped or in error). */
interface PlannedRow {
  report: ImportRowReport;
  product?: PlannedProduct;
}

/** One size of a planned product, from one row. */
interface PlannedSize {
  row: PlannedRow;
  existing: ExistingSize | null;
  target: SizeState;
  changes: string[];
}

/** A product the file names, from one row (a simple product, an older file), or several (its sizes). */
interface PlannedProduct {
  existing: Existing | null;
  target: ProductState;
  /** the product's own columns that change */
  changes: string[];
  sizes: PlannedSize[];
  /** the row that gave the product's columns (null: a WooCommerce variation's product is only in the shop) */
  lead: PlannedRow | null;
  /** image URLs still to fetch, as the file gives them */
  pending: string[];
  /** stored images this product takes from imported_images that it doesn't show yet (checked before the apply) */
  fromCache: Array<{ source: string; url: string }>;
  /** images of the row that can't be had (refused, or failed: PlanContext.failed); the product comes in without them */
  failures: ImageFailure[];
  /** the file has an Images column for this product (so the product's missing images are the row's failures) */
  hasImages: boolean;
}

/** Does the plan write this product (new, its columns changed, or a size new or changed)? */
const writes = (p: PlannedProduct) => !p.existing || p.changes.length > 0 || p.sizes.some((s) => !s.existing || s.changes.length > 0);

/** What the plan knows besides the file and the catalogue. */
export interface PlanContext {
  /** image URLs known not to fetch (the host check, an apply's fetch) → why */
  failed?: ReadonlyMap<string, string>;
  /** the shop's day (South Africa) for WooCommerce's sale dates; default today */
  today?: string;
  /** may the server fetch from this address (default: public addresses only; tests allow their local server) */
  isAllowedAddress?: (address: string) => boolean;
}

export interface Plan {
  map: HeaderMap;
  rows: PlannedRow[];
  products: PlannedProduct[];
  /** new categories: slug → name */
  newCategories: Map<string, string>;
  pending: string[];
}

const chunks = <T,>(list: T[], size = 400): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

function isDefaultImage(url: string) {
  return (Object.values(DEFAULT_PRODUCT_IMAGES) as string[]).includes(url);
}

/**
 * An image value of the file, as products.images would keep it: a path here, or a remote URL to fetch; one the server
 * may not fetch (a private address, not http) is refused (the product comes in without it); what isn't an address at
 * all is the row's error.
 */
function classifyImage(value: string, ownOrigin: string, isAllowedAddress?: (address: string) => boolean): { local: string } | { remote: string } | { refused: string } | { error: string } {
  if (value.startsWith("/")) return isStoredProductImage(value) || isDefaultImage(value) ? { local: value } : { error: `"${value}" isn't an image of this shop` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `"${value.slice(0, 60)}" isn't a web address` };
  }
  if (url.origin === ownOrigin && (isStoredProductImage(url.pathname) || isDefaultImage(url.pathname)) && !url.search) return { local: url.pathname };
  if (isStoredProductImage(value)) return { local: value };
  try {
    checkImageUrl(value, isAllowedAddress);
  } catch (error) {
    return { refused: (error as Error).message };
  }
  return { remote: value };
}

function sameTiers(a: PriceTier[], b: PriceTier[]) {
  const key = (t: PriceTier[]) => JSON.stringify([...t].sort((x, y) => x.minQuantity - y.minQuantity).map((x) => [x.minQuantity, x.maxQuantity, x.priceCents]));
  return key(a) === key(b);
}

function sameValue(a: unknown, b: unknown) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => JSON.stringify(v) === JSON.stringify(b[i]));
  return a === b;
}

async function loadExisting(db: Queryable, skus: string[], slugs: string[]): Promise<Existing[]> {
  const found = new Map<string, Existing>();
  const select = () =>
    db
      .selectFrom("products as p")
      .leftJoin("categories as c", "c.id", "p.category_id")
      .select([...PRODUCT_CSV_COLUMNS, "c.slug as category_slug"]);
  const rows = [];
  for (const part of chunks(skus)) rows.push(...(await select().where("p.sku", "in", part).execute()));
  for (const part of chunks(slugs)) rows.push(...(await select().where("p.slug", "in", part).execute()));
  for (const r of rows) {
    if (found.has(r.id)) continue;
    found.set(r.id, {
      id: r.id,
      sku: r.sku,
      slug: r.slug,
      name: r.name,
      description: r.description,
      images: Array.isArray(r.images) ? r.images : JSON.parse(String(r.images ?? "[]")),
      category: r.category_slug,
      meta_title: r.meta_title,
      meta_desc: r.meta_desc,
      inspired_house: r.inspired_house,
      inspired_fragrance: r.inspired_fragrance,
      // as the export shows it (a value outside the lists reads as not said), so an export imports back unchanged
      ...profileToColumns(profileFromRow(r)),
      sizes: [],
    });
  }
  const sizes = new Map<string, ExistingSize>();
  for (const part of chunks([...found.keys()])) {
    for (const s of await listSizes(db, part, { includeHidden: true })) {
      const size: ExistingSize = { id: s.id, label: s.label, code: s.code, size_ml: s.sizeMl, price_cents: s.priceCents, was_price_cents: s.wasPriceCents, sku: s.sku, stock: s.stock, weight_grams: s.weightGrams, tiers: [], position: s.position, hidden: s.hidden };
      sizes.set(s.id, size);
      found.get(s.productId)!.sizes.push(size);
    }
  }
  for (const part of chunks([...sizes.keys()])) {
    const tiers = await db.selectFrom("product_tiers").select(["size_id", "min_quantity", "max_quantity", "price_cents"]).where("size_id", "in", part).execute();
    for (const t of tiers) sizes.get(t.size_id!)!.tiers.push({ minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity), priceCents: Number(t.price_cents) });
  }
  return [...found.values()];
}

/** Marks every row of a group that shares a value (a SKU, a slug) with an error naming the other rows. */
function flagDuplicates(rows: Array<{ row: number; value: string; read: RowRead }>, column: string, what: string, each = "each product may appear once") {
  const groups = new Map<string, typeof rows>();
  for (const r of rows) groups.set(r.value, [...(groups.get(r.value) ?? []), r]);
  for (const [value, group] of groups) {
    if (group.length < 2) continue;
    for (const r of group) {
      const others = group.filter((o) => o !== r).map((o) => o.row);
      const list = others.length > 3 ? `${others.slice(0, 3).join(", ")} and ${others.length - 3} more` : others.join(", ");
      r.read.errors.push({ column, message: `${what} "${value}" is also on row${others.length > 1 ? "s" : ""} ${list}: ${each}` });
    }
  }
}

/** Told how far a plan is (rows done of the file's rows), so the apply's page can show it. */
export type PlanProgress = (done: number, total: number) => Promise<void>;
const PLAN_SLICE = 500;

/**
 * Every PLAN_SLICE rows the plan says how far it is and lets the process's other requests run (a 10 000-row file
 * would otherwise hold the event loop for a second or more: the import page's own progress request among them).
 */
async function pause(onProgress: PlanProgress | undefined, done: number, total: number) {
  await onProgress?.(Math.floor(done), total);
  await yieldToEventLoop();
}

/** Does our file carry sizes (issue 33)? Then each row is a size, and a product's rows are grouped by its slug. */
const hasSizeColumns = (map: HeaderMap) => map.format === "scentara" && (map.fields.sizeLabel !== undefined || map.fields.sizeSku !== undefined);

/** The product a row of our file with sizes belongs to: its slug, else its SKU, else its name's slug. */
function productKey(cells: string[], map: HeaderMap): string {
  const cell = (key: FieldKey) => (map.fields[key] === undefined ? "" : unneutraliseCell(cells[map.fields[key]!] ?? "").trim());
  const slug = cell("slug");
  if (slug) return `slug:${slug}`;
  const sku = cell("sku");
  return sku ? `sku:${sku}` : `name:${slugify(cell("name"))}`;
}

/**
 * Our file with sizes: a product's rows after its first may leave the product's columns empty (they are the first
 * row's) or repeat them; a value that differs is that row's error (which one would be meant?). Answers the cells to
 * read, each row's key and its errors.
 */
function fillProductCells(parsed: ParsedCsv, map: HeaderMap): Array<{ cells: string[]; key: string; errors: CellError[] }> {
  const first = new Map<string, { row: number; cells: string[] }>();
  const productColumns = Object.entries(map.fields).filter(([key]) => !SIZE_KEYS.has(key as FieldKey)) as Array<[FieldKey, number]>;
  return parsed.records.map(({ row, cells }) => {
    const key = productKey(cells, map);
    const lead = first.get(key);
    if (!lead) {
      first.set(key, { row, cells });
      return { cells, key, errors: [] };
    }
    const filled = [...cells];
    const errors: CellError[] = [];
    for (const [field, i] of productColumns) {
      const own = (cells[i] ?? "").trim();
      const theirs = (lead.cells[i] ?? "").trim();
      if (own === "") filled[i] = lead.cells[i] ?? "";
      else if (own !== theirs) errors.push({ column: columnLabel(map, field), message: IMPORT_MESSAGES.productCellDiffers(lead.row) });
    }
    return { cells: filled, key, errors };
  });
}

interface Read {
  row: number;
  cells: string[];
  read: RowRead;
  /** the product it belongs to (our file with sizes: its key; WooCommerce: its variable product's) */
  key: string;
}

/** The rows of one product: the row with its own columns (if in the file) and its size rows. */
interface Group {
  lead: Read | null;
  sizes: Read[];
  /** a WooCommerce variable product's rows of variations that aren't sizes, or in error */
  others: Read[];
  /** a WooCommerce variation's product that is only in the shop: its SKU */
  shopSku?: string;
}

/**
 * Rows → products. Our older file and WooCommerce's simple products: a row a product, its one size. Our file with
 * sizes: rows by their product's key. WooCommerce: a variable product's row and its variations' rows (the Parent is
 * its SKU or "id:" and its ID), wherever they are in the file; a variation whose product isn't in the file belongs
 * to the shop's product with that SKU.
 */
function groupRows(reads: Read[], map: HeaderMap): Group[] {
  const groups: Group[] = [];
  const byKey = new Map<string, Group>();
  const sized = hasSizeColumns(map);
  for (const r of reads) {
    const woo = r.read.woo;
    if (woo?.variable) {
      const group: Group = { lead: r, sizes: [], others: [] };
      groups.push(group);
      if (woo.id) byKey.set(`id:${woo.id}`, group);
      if (woo.sku) byKey.set(woo.sku, group);
    } else if (!woo?.parent) {
      if (r.read.skip || !r.read.product) continue;
      const existing = sized ? byKey.get(r.key) : undefined;
      if (existing) {
        existing.sizes.push(r);
        // the product's columns come from its first row without errors (a later row's are the same, or empty)
        if (existing.lead!.read.errors.length && !r.read.errors.length) existing.lead = r;
      } else {
        const group: Group = { lead: r, sizes: [r], others: [] };
        groups.push(group);
        if (sized) byKey.set(r.key, group);
      }
    }
  }
  for (const r of reads) {
    const parent = r.read.woo?.parent;
    if (!parent) continue;
    let group = byKey.get(parent);
    if (!group && !parent.startsWith("id:")) {
      group = { lead: null, sizes: [], others: [], shopSku: parent };
      groups.push(group);
      byKey.set(parent, group);
    }
    if (!group) {
      if (r.read.product) r.read.errors.push({ column: "Parent", message: VARIATION_MESSAGES.parentMissing(parent) });
      continue;
    }
    if (r.read.product && !r.read.errors.length) group.sizes.push(r);
    else group.others.push(r);
  }
  return groups;
}

/** The size a row asks for, over the size it updates (none: a new size). */
function targetSize(p: ProductCsvRow, base: ExistingSize | null, options: { single: boolean; productSku: string | null; inheritedWeight?: number | null }): SizeState {
  const ml = p.sizeMl !== undefined ? p.sizeMl : base ? base.size_ml : p.sizeLabel ? mlFromLabel(p.sizeLabel) : null;
  // an empty Size cell, or a file without one whose millilitres change: the label follows the millilitres
  const label = p.sizeLabel ? p.sizeLabel : p.sizeLabel === null || !base || base.size_ml !== ml ? labelForMl(ml) : base.label;
  const weight = p.weightGrams !== undefined ? p.weightGrams : base ? base.weight_grams : null;
  return {
    label,
    code: base && base.label === label ? base.code : sizeCode(label),
    size_ml: ml,
    price_cents: p.priceCents,
    was_price_cents: p.wasPriceCents !== undefined ? p.wasPriceCents : (base?.was_price_cents ?? null),
    // the spec's one-size product: its SKU is its size's
    sku: p.sizeSku !== undefined ? p.sizeSku : options.single ? options.productSku : (base?.sku ?? null),
    stock: p.stock !== undefined ? p.stock : (base?.stock ?? null),
    weight_grams: weight ?? options.inheritedWeight ?? null,
    tiers: p.tiers ?? base?.tiers ?? [],
  };
}

/** The column a size field's change is reported under: a file without the Size columns names them by Size (ml) and SKU. */
function sizeColumn(map: HeaderMap, key: FieldKey): string {
  if (key === "sizeLabel" && map.fields.sizeLabel === undefined && !map.labels.sizeLabel) return columnLabel(map, "sizeMl");
  if (key === "sizeSku" && map.fields.sizeSku === undefined && !map.labels.sizeSku) return columnLabel(map, "sku");
  return columnLabel(map, key);
}

const differs = <T extends object>(a: T, b: T, field: keyof T) =>
  field === "tiers" ? !sameTiers(a[field] as PriceTier[], b[field] as PriceTier[]) : !sameValue(a[field], b[field]);

/**
 * What the file would do to the catalogue as it is now. Reads only: the products the rows name (by SKU and slug),
 * their sizes and tiers, the sizes with the file's SKUs, the categories and the image map.
 */
export async function planImport(db: Queryable, parsed: ParsedCsv, map: HeaderMap, onProgress?: PlanProgress, context: PlanContext = {}): Promise<Plan> {
  const ownOrigin = new URL(env().PUBLIC_BASE_URL).origin;
  // Reading (zod) and planning are half of the work each; both pause every PLAN_SLICE rows (see PlanProgress).
  const total = parsed.records.length;
  const sized = hasSizeColumns(map);
  const prepared = sized ? fillProductCells(parsed, map) : null;
  const reads: Read[] = [];
  for (const [i, r] of parsed.records.entries()) {
    if (i > 0 && i % PLAN_SLICE === 0) await pause(onProgress, i / 2, total);
    const fill = prepared?.[i];
    const read = readRow(fill?.cells ?? r.cells, map, context.today);
    if (fill?.errors.length && !read.skip) read.errors.push(...fill.errors);
    reads.push({ row: r.row, cells: r.cells, read, key: fill?.key ?? `row:${r.row}` });
  }
  // Cells beyond the header's columns: a stray delimiter or quote shifted the row.
  for (const r of reads) {
    const extra = r.cells.slice(parsed.header.length).filter((c) => c.trim() !== "");
    if (extra.length && !r.read.skip) r.read.errors.push({ column: "", message: `The row has ${r.cells.length} cells but the header has ${parsed.header.length}: a stray comma or quote?` });
  }
  const groups = groupRows(reads, map);
  const ok = (r: Read | null | undefined): boolean => !!r?.read.product && !r.read.skip && !r.read.errors.length;
  const isOk = (r: Read | null | undefined): r is Read => ok(r);
  const skuLabel = columnLabel(map, "sku");
  const slugLabel = columnLabel(map, "slug");
  const leads = groups.map((g) => g.lead).filter(isOk);
  flagDuplicates(leads.filter((r) => r.read.product!.sku).map((r) => ({ row: r.row, value: r.read.product!.sku!, read: r.read })), skuLabel, "SKU");
  flagDuplicates(leads.filter((r) => r.read.product!.slug).map((r) => ({ row: r.row, value: r.read.product!.slug!, read: r.read })), slugLabel, "Slug");
  // A size's SKU is one size's (WooCommerce's variations and simple products share one SKU column).
  const sizeSkuOf = (r: Read) => r.read.product?.sizeSku ?? (map.format === "woocommerce" && !r.read.woo?.variable ? r.read.product?.sku : undefined) ?? null;
  const sizeRows = groups.flatMap((g) => g.sizes).filter(isOk);
  flagDuplicates(
    sizeRows.filter((r) => sizeSkuOf(r) && (map.format === "woocommerce" ? r.read.woo?.parent : true)).map((r) => ({ row: r.row, value: sizeSkuOf(r)!, read: r.read })),
    columnLabel(map, "sizeSku"),
    "Size SKU",
    "each size may appear once",
  );

  const candidates = (p: ProductCsvRow) => [p.slug ?? slugify(p.name), ...(p.sku ? [slugify(`${p.name} ${p.sku}`)] : [])].filter(Boolean);
  const existing = await loadExisting(
    db,
    [...new Set([...leads.map((r) => r.read.product!.sku), ...groups.map((g) => g.shopSku)].filter((s): s is string => !!s))],
    [...new Set(leads.flatMap((r) => candidates(r.read.product!)))],
  );
  const bySku = new Map(existing.filter((p) => p.sku).map((p) => [p.sku!, p]));
  const bySlug = new Map(existing.map((p) => [p.slug, p]));
  // Who holds each size SKU of the file now (a size SKU is unique across the shop).
  const sizeSkus = [...new Set(sizeRows.map((r) => sizeSkuOf(r) ?? (!sized && map.format === "scentara" ? r.read.product?.sku : null)).filter((s): s is string => !!s))];
  const skuHolders = new Map<string, { productId: string; name: string }>();
  for (const part of chunks(sizeSkus)) {
    const held = await db.selectFrom("product_sizes as s").innerJoin("products as p", "p.id", "s.product_id").select(["s.sku", "p.id", "p.name"]).where("s.sku", "in", part).execute();
    for (const h of held) skuHolders.set(h.sku!, { productId: h.id, name: h.name });
  }
  const categories = await db.selectFrom("categories").select(["name", "slug"]).execute();
  const categoryBySlug = new Map(categories.map((c) => [c.slug, c.slug]));
  const categoryByName = new Map(categories.map((c) => [c.name.toLowerCase(), c.slug]));
  const sources = [...new Set(leads.flatMap((r) => r.read.product!.images ?? []))].filter((u) => !u.startsWith("/"));
  const cache = new Map<string, string>();
  for (const part of chunks(sources)) {
    for (const row of await db.selectFrom("imported_images").select(["source_url", "url"]).where("source_url", "in", part).execute()) cache.set(row.source_url, row.url);
  }

  const newCategories = new Map<string, string>();
  /** slug → who will hold it after the import: a product id, or a row that creates */
  const slugOwner = new Map<string, string>(existing.map((p) => [p.slug, p.id]));
  const pendingAll = new Set<string>();
  /** product id → the row that updates it */
  const matchedBy = new Map<string, number>();

  // Every row's report, in file order: skipped and unreadable rows as they are; the others as their product plans.
  const planned = new Map<number, PlannedRow>();
  for (const { row, read } of reads) {
    const report: ImportRowReport = { row, action: "error", sku: read.label.sku, slug: read.label.slug, name: read.label.name };
    if (read.notes.length) report.notes = [...read.notes];
    if (read.skip) {
      report.action = "skip";
      report.notes = [read.skip, ...(report.notes ?? [])];
    } else if (read.errors.length || !read.product) report.errors = [...read.errors];
    planned.set(row, { report });
  }
  const rowOf = (r: Read) => planned.get(r.row)!;
  const fail = (r: Read, errors: CellError[]) => {
    const report = rowOf(r).report;
    report.action = "error";
    report.errors = [...(report.errors ?? []), ...errors];
  };
  const skip = (r: Read, reason: string) => {
    const report = rowOf(r).report;
    report.action = "skip";
    report.notes = [reason, ...(report.notes ?? [])];
  };
  const products: PlannedProduct[] = [];

  let processed = 0;
  let sincePause = 0;
  for (const group of groups) {
    const count = group.sizes.length + group.others.length + (group.lead && !group.sizes.includes(group.lead) ? 1 : 0);
    processed += count;
    sincePause += count;
    if (sincePause >= PLAN_SLICE) {
      sincePause = 0;
      await pause(onProgress, (total + processed) / 2, total);
    }
    const { lead } = group;
    const variable = !!lead?.read.woo?.variable;
    const followers = group.sizes.filter((s) => s !== lead);
    if (lead && lead.read.skip) {
      for (const s of followers) if (ok(s)) skip(s, VARIATION_MESSAGES.parentSkipped(lead.row));
      continue;
    }
    if (lead && !ok(lead)) {
      for (const s of followers) if (ok(s)) fail(s, [{ column: "", message: VARIATION_MESSAGES.parentError(lead.row) }]);
      continue;
    }
    if (variable && !group.sizes.length) {
      const broken = group.others.filter((o) => !o.read.skip).map((o) => o.row);
      if (broken.length) fail(lead!, [{ column: "", message: IMPORT_MESSAGES.noGoodSizes(broken) }]);
      else if (group.others.length) skip(lead!, VARIATION_MESSAGES.noSizes(group.others.length, [...new Set(group.others.flatMap((o) => o.read.woo?.by ?? []))]));
      else skip(lead!, VARIATION_MESSAGES.noVariations);
      continue;
    }

    // The product: its own row's columns over the product the shop has (matched by SKU, then slug).
    let product: PlannedProduct;
    if (!lead) {
      const match = bySku.get(group.shopSku!);
      if (!match) {
        for (const s of group.sizes) if (ok(s)) fail(s, [{ column: "Parent", message: VARIATION_MESSAGES.parentMissing(group.shopSku!) }]);
        continue;
      }
      product = { existing: match, target: { ...match }, changes: [], sizes: [], lead: null, pending: [], fromCache: [], failures: [], hasImages: false };
    } else {
      const p = lead.read.product!;
      const errors: CellError[] = [];
      let match: Existing | null = p.sku ? (bySku.get(p.sku) ?? null) : null;
      let slug = p.slug ?? match?.slug ?? slugify(p.name);
      if (!slug) errors.push({ column: slugLabel, message: "The name has no letters or digits to make a slug from: give the row a slug" });
      if (!match && slug) {
        const bySlugMatch = bySlug.get(slug);
        if (bySlugMatch && (!bySlugMatch.sku || !p.sku)) match = bySlugMatch;
        else if (bySlugMatch) {
          // The slug is another SKU's product.
          if (p.slug) errors.push({ column: slugLabel, message: `Slug "${slug}" belongs to the product with SKU "${bySlugMatch.sku}"` });
          else slug = slugify(`${p.name} ${p.sku}`);
        }
      }
      if (match) {
        const earlier = matchedBy.get(match.id);
        if (earlier !== undefined) {
          errors.push({ column: p.sku && bySku.get(p.sku) === match ? skuLabel : slugLabel, message: `Row ${earlier} is the same product ("${match.name}"): each product may appear once` });
        } else matchedBy.set(match.id, lead.row);
      }
      const key = match?.id ?? `row:${lead.row}`;
      if (slug && !errors.length) {
        const owner = slugOwner.get(slug);
        if (owner && owner !== key) {
          if (!match && !p.slug && p.sku && owner.startsWith("row:")) slug = slugify(`${p.name} ${p.sku}`);
          const again = slugOwner.get(slug);
          if (again && again !== key) {
            const who = again.startsWith("row:") ? `row ${again.slice(4)}` : `another product ("${existing.find((e) => e.id === again)?.name ?? slug}")`;
            errors.push({ column: p.slug ? slugLabel : columnLabel(map, "name"), message: `Slug "${slug}" is taken by ${who}: give this row its own slug${p.sku ? "" : " or a SKU"}` });
          }
        }
        if (!errors.length) {
          if (match && match.slug !== slug) slugOwner.delete(match.slug);
          slugOwner.set(slug, key);
        }
      }

      // Category: matched by slug or name, made when new.
      let category: string | null = match?.category ?? null;
      if (p.category !== undefined) {
        if (p.category === null) category = null;
        else {
          const catSlug = categorySlugFor(p.category);
          if (!catSlug) errors.push({ column: columnLabel(map, "category"), message: `Category "${p.category}" needs a letter or digit` });
          else {
            category = categoryBySlug.get(catSlug) ?? categoryByName.get(p.category.toLowerCase()) ?? catSlug;
            if (!categoryBySlug.has(category) && !newCategories.has(category)) newCategories.set(category, p.category);
          }
        }
      }

      // Images: the shop's own kept, known URLs mapped, the rest fetched at the apply.
      let images: string[] | undefined;
      const pending: string[] = [];
      const fromCache: Array<{ source: string; url: string }> = [];
      const failures: ImageFailure[] = [];
      if (p.images !== undefined) {
        images = [];
        for (const [position, value] of p.images.entries()) {
          const c = classifyImage(value, ownOrigin, context.isAllowedAddress);
          if ("error" in c) errors.push({ column: columnLabel(map, "images"), message: c.error });
          else if ("refused" in c) failures.push({ url: value, reason: c.refused, position });
          else if ("local" in c) images.push(c.local);
          else if (context.failed?.has(c.remote)) failures.push({ url: c.remote, reason: context.failed.get(c.remote)!, position });
          else if (cache.has(c.remote)) {
            const url = cache.get(c.remote)!;
            images.push(url);
            if (!match?.images.includes(url)) fromCache.push({ source: c.remote, url });
          } else {
            pending.push(c.remote);
            images.push(`pending:${c.remote}`);
          }
        }
        images = [...new Set(images)];
      }
      if (errors.length) {
        fail(lead, errors);
        for (const s of followers) if (ok(s)) fail(s, [{ column: "", message: VARIATION_MESSAGES.parentError(lead.row) }]);
        continue;
      }

      const base: ProductState = match ?? {
        sku: null,
        slug,
        name: p.name,
        description: "",
        images: [],
        category: null,
        meta_title: null,
        meta_desc: null,
        inspired_house: null,
        inspired_fragrance: null,
        ...profileToColumns(EMPTY_PROFILE),
      };
      const own = (list: string[]) => list.filter((u) => !isDefaultImage(u));
      // Every image of the row failed: a product that has images of its own keeps them rather than lose them.
      if (images !== undefined && images.length === 0 && failures.length && match && own(match.images).length) images = match.images;
      if (images !== undefined && images.length === 0) {
        // An empty cell: no images of its own, so its category's default image (as the product form does).
        images = match && own(match.images).length === 0 && match.category === category ? match.images : [defaultProductImage(category)];
      }
      if (!match && images === undefined) images = [defaultProductImage(category)];
      const target: ProductState = {
        sku: p.sku ?? base.sku,
        slug,
        name: p.name,
        description: p.description ?? base.description,
        images: images ?? base.images,
        category,
        meta_title: p.metaTitle !== undefined ? p.metaTitle : base.meta_title,
        meta_desc: p.metaDesc !== undefined ? p.metaDesc : base.meta_desc,
        inspired_house: p.inspiredHouse !== undefined ? p.inspiredHouse : base.inspired_house,
        inspired_fragrance: p.inspiredFragrance !== undefined ? p.inspiredFragrance : base.inspired_fragrance,
        ...targetScent(p, base),
      };
      const changes = match ? PRODUCT_FIELDS.filter(([field]) => differs(match!, target, field)).map(([, key]) => columnLabel(map, key)) : [];
      product = { existing: match, target, changes, sizes: [], lead: rowOf(lead), pending, fromCache, failures, hasImages: p.images !== undefined };
    }

    // Its sizes: matched by their SKU, then their code; a product sold in one size by its only size.
    const single = !sized && !variable && !group.shopSku;
    const sizesNow = product.existing?.sizes ?? [];
    const visible = sizesNow.filter((s) => !s.hidden);
    const usedBy = new Map<string, number>();
    const codes = new Map<string, number>();
    for (const s of group.sizes) {
      if (!ok(s)) continue;
      const p = s.read.product!;
      if (single && visible.length > 1) {
        fail(s, [{ column: "", message: IMPORT_MESSAGES.soldInSizes(visible.map((v) => v.label || v.code)) }]);
        continue;
      }
      const wanted = targetSize(p, null, { single, productSku: product.target.sku });
      let match: ExistingSize | null = (wanted.sku && sizesNow.find((x) => x.sku === wanted.sku)) || sizesNow.find((x) => x.code === wanted.code) || null;
      if (!match && group.sizes.length === 1 && visible.length === 1) match = visible[0]!;
      const errors: CellError[] = [];
      if (match && usedBy.has(match.id)) {
        errors.push({ column: sizeColumn(map, "sizeLabel"), message: IMPORT_MESSAGES.sameSize(usedBy.get(match.id)!) });
      }
      const target = targetSize(p, match, { single, productSku: product.target.sku, inheritedWeight: variable ? lead!.read.product!.weightGrams : undefined });
      const other = sizesNow.find((x) => x !== match && x.code === target.code);
      if (other) errors.push({ column: sizeColumn(map, "sizeLabel"), message: IMPORT_MESSAGES.sizeTaken(target.label || target.code, other.sku) });
      else if (codes.has(target.code)) errors.push({ column: sizeColumn(map, "sizeLabel"), message: IMPORT_MESSAGES.sameSize(codes.get(target.code)!) });
      const holder = target.sku ? skuHolders.get(target.sku) : undefined;
      if (holder && holder.productId !== product.existing?.id) errors.push({ column: sizeColumn(map, "sizeSku"), message: IMPORT_MESSAGES.sizeSkuTaken(target.sku!, holder.name) });
      if (errors.length) {
        fail(s, errors);
        continue;
      }
      if (match) usedBy.set(match.id, s.row);
      codes.set(target.code, s.row);
      const changes = match ? [...new Set(SIZE_FIELDS.filter(([field]) => differs(match!, target, field)).map(([, key]) => sizeColumn(map, key)))] : [];
      const row = rowOf(s);
      row.product = product;
      product.sizes.push({ row, existing: match, target, changes });
      if (match?.hidden) row.report.notes = [...(row.report.notes ?? []), IMPORT_MESSAGES.hiddenSize];
    }
    // The product's own row is its first size (our file, a simple product): without it, none of its rows is written.
    if (lead && group.sizes.includes(lead) && rowOf(lead).report.errors?.length) {
      for (const size of product.sizes) {
        delete size.row.product;
        fail(group.sizes.find((s) => s.row === size.row.report.row)!, [{ column: "", message: VARIATION_MESSAGES.parentError(lead.row) }]);
      }
      continue;
    }
    if (!product.existing && !product.sizes.length) {
      if (lead && !group.sizes.includes(lead)) fail(lead, [{ column: "", message: IMPORT_MESSAGES.noGoodSizes(group.sizes.map((s) => s.row)) }]);
      continue;
    }

    // The rows' reports: the product's own changes on its row, each size's on its own.
    const productNew = !product.existing;
    if (product.lead) {
      const report = product.lead.report;
      product.lead.product = product;
      report.slug = product.target.slug;
      report.sku = product.target.sku ?? "";
      report.action = productNew ? "create" : product.changes.length ? "update" : "unchanged";
      if (product.changes.length) report.changes = [...product.changes];
      if (productNew && product.target.category && newCategories.has(product.target.category)) report.notes = [...(report.notes ?? []), `New category "${newCategories.get(product.target.category)}"`];
      if (product.pending.length) report.notes = [...(report.notes ?? []), `${product.pending.length} image${product.pending.length === 1 ? "" : "s"} to fetch`];
      if (product.failures.length) report.imageFailures = product.failures.map(({ url, reason }) => ({ url, reason }));
      if (variable) {
        const skipped = group.others.filter((o) => o.read.skip).length;
        report.notes = [...(report.notes ?? []), VARIATION_MESSAGES.sizes(product.sizes.map((s) => s.target.label || s.target.code)), ...(skipped ? [IMPORT_MESSAGES.variationsSkipped(skipped)] : [])];
      }
    }
    for (const size of product.sizes) {
      const report = size.row.report;
      if (sized || variable || group.shopSku) report.size = size.target.label || size.target.code;
      if (size.row === product.lead) {
        if (size.changes.length) report.changes = [...new Set([...(report.changes ?? []), ...size.changes])];
        if (!productNew) report.action = !size.existing ? "create" : report.changes?.length ? "update" : "unchanged";
        continue;
      }
      report.slug = product.target.slug;
      if (size.target.sku) report.sku = size.target.sku;
      report.action = productNew || !size.existing ? "create" : size.changes.length ? "update" : "unchanged";
      if (size.changes.length) report.changes = size.changes;
    }
    for (const source of product.pending) pendingAll.add(source);
    products.push(product);
  }
  return { map, rows: [...planned.values()], products, newCategories, pending: [...pendingAll] };
}

export function reportOf(plan: Plan): ImportReport {
  const counts: ImportCounts = { create: 0, update: 0, unchanged: 0, skip: 0, error: 0 };
  for (const r of plan.rows) counts[r.report.action]++;
  return {
    format: plan.map.format,
    counts,
    rows: plan.rows.map((r) => r.report),
    newCategories: [...plan.newCategories.values()],
    imagesToFetch: plan.pending.length,
    imagesFailed: plan.products.reduce((n, p) => n + p.failures.length, 0),
    ignoredColumns: plan.map.ignored,
    notes: fileNotes(plan.map),
    products: plan.products.filter(writes).length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Preview

export interface ImageChecks {
  /** why an image URL can't be fetched judged by its host, or null (default: checkImageHost, a DNS look-up) */
  checkHost?: (url: string) => Promise<string | null>;
  /** may the server fetch from this address (default: isPublicAddress; tests allow their local server) */
  isAllowedAddress?: (address: string) => boolean;
}

/** Of the image URLs to fetch, those whose host can't be reached (one look-up per host), with why. */
async function unreachableImages(sources: string[], checks: ImageChecks): Promise<Map<string, string>> {
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

// ---------------------------------------------------------------------------------------------------------------
// Apply

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

async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
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

/** From this many products written, PostgreSQL's search index is brought up to date in bulk (bulkSearchIndex). */
export const BULK_SEARCH_INDEX_FROM = 1000;
/** The shop search's trigram index (migration 0018; PostgreSQL with pg_trgm only). */
const SEARCH_INDEX = "products_search_trgm_idx";

/**
 * PostgreSQL's search index (a GIN trigram index, kept with fastupdate off so searches never scan a pending list)
 * costs about a millisecond per product written, one product at a time: 10 000 new products spent 6–13 s there,
 * most of the apply. For a large import, inside its transaction: fast update on (new entries go to the index's
 * pending list), and before the commit the pending list merged into the index in one sorted pass
 * (gin_clean_pending_list) and fast update off again — about 1 s for 10 000 products. The price: ALTER INDEX holds
 * the index's exclusive lock until the commit, so queries on products wait that long (about a second at 10 000
 * products); below BULK_SEARCH_INDEX_FROM the index is updated row by row as before and nothing waits.
 *
 * Only when the index exists, is the GIN index the shop made, and this role owns it; the ALTER waits at most 3 s for
 * the lock (a long search in progress) and otherwise gives up, under a savepoint, leaving the row-by-row path. Undone
 * with the transaction when anything fails. Answers null when not used.
 */
async function bulkSearchIndex(trx: Queryable, writes: number): Promise<{ finish: () => Promise<void> } | null> {
  if (writes < BULK_SEARCH_INDEX_FROM || !isPostgres(trx)) return null;
  const { rows } = await sql<{ owned: boolean; options: string[] | null }>`
    select pg_has_role(c.relowner, 'MEMBER') as owned, c.reloptions as options
    from pg_class c join pg_am a on a.oid = c.relam
    where c.oid = to_regclass(${SEARCH_INDEX}) and c.relkind = 'i' and a.amname = 'gin'
  `.execute(trx);
  const index = rows[0];
  if (!index?.owned) return null;
  const wasOff = (index.options ?? []).includes("fastupdate=off");
  if (!wasOff) return null; // fast update is on already: inserts are cheap, and nothing to restore
  await sql`savepoint bulk_search_index`.execute(trx);
  try {
    await sql`set local lock_timeout = '3s'`.execute(trx);
    await sql`set local gin_pending_list_limit = '1GB'`.execute(trx);
    await sql`alter index ${sql.id(SEARCH_INDEX)} set (fastupdate = on)`.execute(trx);
    await sql`set local lock_timeout to default`.execute(trx);
    await sql`release savepoint bulk_search_index`.execute(trx);
  } catch (error) {
    await sql`rollback to savepoint bulk_search_index`.execute(trx);
    logger.warn({ err: error }, "product import: the search index is updated row by row (its lock wasn't free)");
    return null;
  }
  return {
    finish: async () => {
      await sql`select gin_clean_pending_list(${SEARCH_INDEX}::regclass)`.execute(trx);
      await sql`alter index ${sql.id(SEARCH_INDEX)} set (fastupdate = off)`.execute(trx);
    },
  };
}

/**
 * Every write of the plan, inside the caller's transaction: new categories, new products with their sizes, changed
 * products, new and changed sizes, their tiers; then each written product's summary of its sizes (docs/decisions/049).
 * A size the file doesn't name is left as it is: an import never removes one.
 */
async function writePlan(trx: Queryable, plan: Plan, importId: string, onWrite?: (written: number) => void) {
  const now = new Date().toISOString();
  const categoryIds = new Map<string, string>();
  const newCategories = [...plan.newCategories].map(([slug, name]) => ({ id: newId(), name: name.replace(/\s+/g, " ").trim(), slug, created_at: now }));
  await insertCategoriesBulk(trx, newCategories);
  const toWrite = plan.products.filter(writes);
  const slugs = [...new Set(toWrite.map((p) => p.target.category).filter((s): s is string => !!s))];
  for (const part of chunks(slugs)) {
    for (const c of await trx.selectFrom("categories").select(["id", "slug"]).where("slug", "in", part).execute()) categoryIds.set(c.slug, c.id);
  }
  const categoryId = (slug: string | null) => (slug ? (categoryIds.get(slug) ?? null) : null);
  const columns = (t: ProductState) => ({
    sku: t.sku,
    name: t.name,
    slug: t.slug,
    description: t.description,
    images: JSON.stringify(t.images),
    category_id: categoryId(t.category),
    meta_title: t.meta_title,
    meta_desc: t.meta_desc,
    inspired_house: t.inspired_house,
    inspired_fragrance: t.inspired_fragrance,
    scent_family: t.scent_family,
    scent_top: t.scent_top,
    scent_heart: t.scent_heart,
    scent_base: t.scent_base,
    scent_intensity: t.scent_intensity,
    scent_occasion: t.scent_occasion,
    scent_seasons: t.scent_seasons,
    scent_for: t.scent_for,
  });
  const sizeColumns = (t: SizeState) => ({
    label: t.label,
    code: t.code,
    size_ml: t.size_ml,
    price_cents: t.price_cents,
    was_price_cents: t.was_price_cents,
    sku: t.sku,
    stock: t.stock,
    weight_grams: t.weight_grams,
  });
  let written = 0;
  const start = Date.now();
  /** the products written whose row has images: their missing images are the row's failures now */
  const missing: Array<{ productId: string; planned: PlannedProduct }> = [];
  const newSizes: Array<ReturnType<typeof sizeColumns> & { id: string; product_id: string; position: number; hidden: number; created_at: string }> = [];
  const newTiers: Array<{ id: string; product_id: string; size_id: string; min_quantity: number; max_quantity: number | null; price_cents: number }> = [];
  const tiersOf = (productId: string, sizeId: string, tiers: PriceTier[]) => {
    for (const t of tiers) newTiers.push({ id: newId(), product_id: productId, size_id: sizeId, min_quantity: t.minQuantity, max_quantity: t.maxQuantity, price_cents: t.priceCents });
  };
  const writtenIds: string[] = [];
  for (const part of chunks(toWrite.filter((p) => !p.existing), CHUNK)) {
    const values = part.map((p, i) => {
      const id = newId();
      writtenIds.push(id);
      if (p.hasImages) missing.push({ productId: id, planned: p });
      for (const [position, size] of p.sizes.entries()) {
        // the first size takes the product's id, as every product's one size does (docs/decisions/049)
        const sizeId = position === 0 ? id : newId();
        newSizes.push({ id: sizeId, product_id: id, ...sizeColumns(size.target), position, hidden: 0, created_at: now });
        tiersOf(id, sizeId, size.target.tiers);
      }
      // the price is the summary of its sizes, written again from them below (refreshProductSummaries)
      // One millisecond apart in file order, so "newest first" lists them in a fixed order.
      return { id, ...columns(p.target), price_cents: p.sizes[0]!.target.price_cents, created_at: new Date(start + written + i).toISOString() };
    });
    await insertProductsBulk(trx, values);
    written += part.length;
    onWrite?.(written);
  }
  const replacedTiers: string[] = [];
  for (const p of toWrite) {
    const before = p.existing;
    if (!before) continue;
    writtenIds.push(before.id);
    if (p.hasImages) missing.push({ productId: before.id, planned: p });
    if (p.changes.length) {
      const after = columns(p.target);
      const current = { ...columns(before), category_id: undefined };
      const changed: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(after)) {
        if (key === "category_id") {
          if (before.category !== p.target.category) changed.category_id = value;
        } else if (value !== (current as Record<string, unknown>)[key]) changed[key] = value;
      }
      await updateProductColumns(trx, before.id, changed);
    }
    let position = Math.max(-1, ...before.sizes.map((s) => s.position)) + 1;
    for (const size of p.sizes) {
      if (!size.existing) {
        const sizeId = newId();
        newSizes.push({ id: sizeId, product_id: before.id, ...sizeColumns(size.target), position: position++, hidden: 0, created_at: now });
        tiersOf(before.id, sizeId, size.target.tiers);
        continue;
      }
      if (!size.changes.length) continue;
      const after = sizeColumns(size.target);
      const current = sizeColumns(size.existing);
      const changed = Object.fromEntries(Object.entries(after).filter(([key, value]) => value !== current[key as keyof typeof current]));
      await updateSizeColumns(trx, size.existing.id, changed);
      if (!sameTiers(size.existing.tiers, size.target.tiers)) {
        replacedTiers.push(size.existing.id);
        tiersOf(before.id, size.existing.id, size.target.tiers);
      }
    }
    written++;
    onWrite?.(written);
  }
  await insertSizesBulk(trx, newSizes);
  await deleteTiersOfSizes(trx, replacedTiers);
  await insertTiersBulk(trx, newTiers);
  // The product row keeps the summary of its sizes that lists, sort and the price filter read.
  await refreshProductSummaries(trx, writtenIds);
  for (const { productId, planned } of missing) await replaceMissingImages(trx, productId, planned.failures, importId, planned.lead?.report.row ?? 0);
}
