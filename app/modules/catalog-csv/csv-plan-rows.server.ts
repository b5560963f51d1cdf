/**
 * The import's rows read and grouped for the plan (csv-plan.server.ts): each row's cells, a product's rows together
 * when our file carries sizes (issue 33), a size's target from its row, and how far a plan is (PlanProgress).
 */
import { labelForMl, mlFromLabel, sizeCode } from "~/modules/catalog/sizes.logic";
import type { PriceTier } from "~/modules/pricing/tiers.logic";
import { slugify } from "~/utils/slug";
import { columnLabel, SIZE_KEYS, unneutraliseCell, VARIATION_MESSAGES, type CellError, type FieldKey, type HeaderMap, type ProductCsvRow, type RowRead } from "./csv-columns";
import { IMPORT_MESSAGES } from "./import-messages";
import { yieldToEventLoop } from "~/utils/event-loop";
import { type ParsedCsv } from "./csv-parse.server";
import { type ExistingSize, type SizeState, sameTiers, sameValue } from "./csv-plan-model.server";

export type PlanProgress = (done: number, total: number) => Promise<void>;
export const PLAN_SLICE = 500;

/**
 * Every PLAN_SLICE rows the plan says how far it is and lets the process's other requests run (a 10 000-row file
 * would otherwise hold the event loop for a second or more: the import page's own progress request among them).
 */
export async function pause(onProgress: PlanProgress | undefined, done: number, total: number) {
  await onProgress?.(Math.floor(done), total);
  await yieldToEventLoop();
}

/** Does our file carry sizes (issue 33)? Then each row is a size, and a product's rows are grouped by its slug. */
export const hasSizeColumns = (map: HeaderMap) => map.format === "scentara" && (map.fields.sizeLabel !== undefined || map.fields.sizeSku !== undefined);

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
export function fillProductCells(parsed: ParsedCsv, map: HeaderMap): Array<{ cells: string[]; key: string; errors: CellError[] }> {
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

export interface Read {
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
export function groupRows(reads: Read[], map: HeaderMap): Group[] {
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
export function targetSize(p: ProductCsvRow, base: ExistingSize | null, options: { single: boolean; productSku: string | null; inheritedWeight?: number | null }): SizeState {
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
export function sizeColumn(map: HeaderMap, key: FieldKey): string {
  if (key === "sizeLabel" && map.fields.sizeLabel === undefined && !map.labels.sizeLabel) return columnLabel(map, "sizeMl");
  if (key === "sizeSku" && map.fields.sizeSku === undefined && !map.labels.sizeSku) return columnLabel(map, "sku");
  return columnLabel(map, key);
}

export const differs = <T extends object>(a: T, b: T, field: keyof T) =>
  field === "tiers" ? !sameTiers(a[field] as PriceTier[], b[field] as PriceTier[]) : !sameValue(a[field], b[field]);
