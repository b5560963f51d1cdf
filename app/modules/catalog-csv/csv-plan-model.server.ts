/**
 * What the import's plan works with (issue 20; csv-plan.server.ts): a product's and a size's state as the import
 * compares and writes them, the catalogue's products the file names (loadExisting), and the small rules the plan
 * shares with the writes (chunks, sameTiers, an image's kind).
 */
import { listSizes } from "~/modules/catalog/sizes.server";
import { type Queryable } from "~/db/db.server";
import { DEFAULT_PRODUCT_IMAGES } from "~/modules/media/images";
import { isStoredProductImage } from "~/modules/media/product-images.server";
import type { PriceTier } from "~/modules/pricing/tiers.logic";
import { profileFromRow, profileToColumns, type ScentColumns } from "~/modules/scent/scent-profile";
import { PRODUCT_CSV_COLUMNS } from "./product-columns.server";
import { type ScentProfile } from "~/modules/scent/scent.logic";
import { type FieldKey, type HeaderMap, type ImportRowReport, type ProductCsvRow, type RowRead } from "./csv-columns";
import { type ImageFailure } from "./missing-images.server";
import { checkImageUrl } from "./remote-image.server";

/** A product's own columns as the import compares and writes them; the scent columns as profileToColumns writes them (issue 22). */
export interface ProductState extends ScentColumns {
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
export interface SizeState {
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

export interface ExistingSize extends SizeState {
  id: string;
  position: number;
  hidden: boolean;
}

export interface Existing extends ProductState {
  id: string;
  /** every size, hidden ones too, in the owner's order */
  sizes: ExistingSize[];
}

/** Which column of our file each product field is (for the report's list of changes). */
export const PRODUCT_FIELDS: Array<[keyof ProductState, FieldKey]> = [
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
export const SIZE_FIELDS: Array<[keyof SizeState, FieldKey]> = [
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
export function targetScent(p: ProductCsvRow, base: ScentColumns): ScentColumns {
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
export interface PlannedRow {
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
export interface PlannedProduct {
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
export const writes = (p: PlannedProduct) => !p.existing || p.changes.length > 0 || p.sizes.some((s) => !s.existing || s.changes.length > 0);

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

export const chunks = <T,>(list: T[], size = 400): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

export function isDefaultImage(url: string) {
  return (Object.values(DEFAULT_PRODUCT_IMAGES) as string[]).includes(url);
}

/**
 * An image value of the file, as products.images would keep it: a path here, or a remote URL to fetch; one the server
 * may not fetch (a private address, not http) is refused (the product comes in without it); what isn't an address at
 * all is the row's error.
 */
export function classifyImage(value: string, ownOrigin: string, isAllowedAddress?: (address: string) => boolean): { local: string } | { remote: string } | { refused: string } | { error: string } {
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

export function sameTiers(a: PriceTier[], b: PriceTier[]) {
  const key = (t: PriceTier[]) => JSON.stringify([...t].sort((x, y) => x.minQuantity - y.minQuantity).map((x) => [x.minQuantity, x.maxQuantity, x.priceCents]));
  return key(a) === key(b);
}

export function sameValue(a: unknown, b: unknown) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => JSON.stringify(v) === JSON.stringify(b[i]));
  return a === b;
}

export async function loadExisting(db: Queryable, skus: string[], slugs: string[]): Promise<Existing[]> {
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
export function flagDuplicates(rows: Array<{ row: number; value: string; read: RowRead }>, column: string, what: string, each = "each product may appear once") {
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
