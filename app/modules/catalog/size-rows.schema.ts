import { PRODUCT_MESSAGES } from "./product-admin.text";
import { randField, skuField, stockField, wasPriceField, weightField } from "./catalog-admin.schema";
import { mlFromLabel, sizeCode } from "./sizes.logic";

/**
 * The product form's sizes table (issue 33, docs/decisions/051), browser-safe. Each row posts as `size.N.<field>` (N
 * its place in the table, so the table's order is the sizes' order); gatherSizeRows collects them into one `sizes`
 * field before validation and readSizeRows checks them, a failure naming the size and its field (`size.N.price`).
 */

export const MAX_SIZES = 12;
export const SIZE_LABEL_MAX = 40;

/** A row as the form posts it: text as typed; the ticks present ("1") or absent. */
export interface SizeRowText {
  /** the size's id; absent for a size added in this form */
  id?: string;
  label?: string;
  price?: string;
  wasPrice?: string;
  sku?: string;
  stock?: string;
  /** the stock the form was opened with: written only when the owner changed it (a sale meanwhile stays) */
  stockWas?: string;
  weightGrams?: string;
  hidden?: string;
  /** delete this size (offered only for sizes never ordered) */
  remove?: string;
}

const ROW_FIELDS = new Set<keyof SizeRowText>(["id", "label", "price", "wasPrice", "sku", "stock", "stockWas", "weightGrams", "hidden", "remove"]);

/** A checked size row, ready to write. */
export interface SizeRowValues {
  /** null: a new size */
  id: string | null;
  label: string;
  code: string;
  sizeMl: number | null;
  priceCents: number;
  wasPriceCents: number | null;
  sku: string | null;
  stock: number | null;
  stockWas: number | null;
  weightGrams: number | null;
  hidden: boolean;
  remove: boolean;
  /** the row's place in the posted table, for the field names of its messages */
  index: number;
}

export const SIZE_MESSAGES = {
  labelRequired: "Give each size a label, e.g. 50 ml",
  labelTooLong: `A size's label is at most ${SIZE_LABEL_MAX} characters`,
  tooMany: `A product can have at most ${MAX_SIZES} sizes`,
  sameLabel: (a: string, b: string) => (a === b ? `Two sizes are called ${a}: give each its own label` : `${a} and ${b} are the same size: give each its own label`),
  sameSku: (sku: string, a: string, b: string) => `SKU ${sku} is given to both ${a} and ${b}: each size needs its own`,
  noneShown: "At least one size must be shown in the shop: untick Hide on a size, or add one",
  skuTaken: (sku: string, product: string) => `SKU ${sku} is already used by ${product}: give this size its own SKU`,
  ordered: (label: string) => `${label} has been ordered, so it can't be deleted (old orders name it): hide it instead`,
  gone: "A size in this form no longer exists (someone else deleted it): reload the page and try again",
} as const;

/** The form's fields with the `size.N.*` rows gathered into `sizes` (JSON, in table order), a no-JavaScript move applied. */
export function gatherSizeRows(fields: Record<string, string>): Record<string, string> {
  const rows = new Map<number, SizeRowText>();
  const rest: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const m = /^size\.(\d{1,3})\.(\w+)$/.exec(key);
    if (m && ROW_FIELDS.has(m[2] as keyof SizeRowText)) {
      const row = rows.get(Number(m[1])) ?? {};
      row[m[2] as keyof SizeRowText] = value;
      rows.set(Number(m[1]), row);
    } else if (key !== "moveSize" && !key.startsWith("size.")) rest[key] = value;
  }
  if (rows.size === 0) return rest;
  const list = [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  // Without JavaScript the ↑/↓ buttons are submit buttons ("2:up"): the save writes the table in its new order.
  const move = /^(\d{1,3}):(up|down)$/.exec(fields.moveSize ?? "");
  if (move) {
    const from = Number(move[1]);
    const to = move[2] === "up" ? from - 1 : from + 1;
    if (list[from] && list[to]) [list[from], list[to]] = [list[to]!, list[from]!];
  }
  return { ...rest, sizes: JSON.stringify(list) };
}

const GONE = { code: "", sizeMl: null, priceCents: 0, wasPriceCents: null, sku: null, stock: null, stockWas: null, weightGrams: null, hidden: true, remove: true } as const;
const text = (v: unknown) => (typeof v === "string" ? v : "");
const isBlank = (row: SizeRowText) => !row.id && ["label", "price", "wasPrice", "sku", "stock", "weightGrams"].every((k) => text(row[k as keyof SizeRowText]).trim() === "");

export type SizeRowsResult = { ok: true; rows: SizeRowValues[] } | { ok: false; message: string; field: string };

/**
 * Checks the posted table: every size labelled, priced (a was price above the price), stock and weight as the
 * one-size form takes them; labels and SKUs distinct; at least one size left to show. A new row left empty is
 * skipped (the no-JavaScript form offers one).
 */
export function readSizeRows(json: string): SizeRowsResult {
  let posted: unknown;
  try {
    posted = JSON.parse(json);
  } catch {
    posted = null;
  }
  if (!Array.isArray(posted)) return { ok: false, message: PRODUCT_MESSAGES.saveFailed, field: "sizes" };
  const rows: SizeRowValues[] = [];
  for (const [index, raw] of (posted as SizeRowText[]).entries()) {
    if (!raw || typeof raw !== "object" || isBlank(raw)) continue;
    const id = text(raw.id).trim() || null;
    if (raw.remove) {
      // A new row ticked for deletion was never saved: nothing to do. A saved one needs no valid fields to go.
      if (id) rows.push({ ...GONE, id, label: text(raw.label).trim(), index });
      continue;
    }
    const field = (name: string) => `size.${index}.${name}`;
    const label = text(raw.label).trim().replace(/\s+/g, " ");
    if (!label) return { ok: false, message: SIZE_MESSAGES.labelRequired, field: field("label") };
    if (label.length > SIZE_LABEL_MAX) return { ok: false, message: SIZE_MESSAGES.labelTooLong, field: field("label") };
    const fail = (name: string, message: string): SizeRowsResult => ({ ok: false, message: `${label}: ${message}`, field: field(name) });
    const price = randField(PRODUCT_MESSAGES.priceRequired).safeParse(text(raw.price));
    if (!price.success) return fail("price", PRODUCT_MESSAGES.priceRequired);
    const wasPrice = wasPriceField.safeParse(text(raw.wasPrice));
    if (!wasPrice.success) return fail("wasPrice", PRODUCT_MESSAGES.wasPrice);
    if (wasPrice.data !== null && wasPrice.data <= price.data) return fail("wasPrice", PRODUCT_MESSAGES.wasPriceNotHigher);
    const sku = skuField.safeParse(text(raw.sku));
    if (!sku.success) return fail("sku", sku.error.issues[0]!.message);
    const stock = stockField.safeParse(text(raw.stock));
    if (!stock.success) return fail("stock", stock.error.issues[0]!.message);
    const stockWas = stockField.safeParse(text(raw.stockWas));
    const weight = weightField.safeParse(text(raw.weightGrams));
    if (!weight.success) return fail("weightGrams", weight.error.issues[0]!.message);
    rows.push({
      id,
      label,
      code: sizeCode(label),
      sizeMl: mlFromLabel(label),
      priceCents: price.data,
      wasPriceCents: wasPrice.data,
      sku: sku.data ?? null,
      stock: stock.data,
      stockWas: stockWas.success ? stockWas.data : null,
      weightGrams: weight.data,
      hidden: !!raw.hidden,
      remove: !!raw.remove,
      index,
    });
  }
  const kept = rows.filter((r) => !r.remove);
  if (kept.length > MAX_SIZES) return { ok: false, message: SIZE_MESSAGES.tooMany, field: "sizes" };
  for (const [i, row] of kept.entries()) {
    const earlier = kept.slice(0, i);
    const sameCode = earlier.find((r) => r.code === row.code);
    if (sameCode) return { ok: false, message: SIZE_MESSAGES.sameLabel(sameCode.label, row.label), field: `size.${row.index}.label` };
    const sameSku = row.sku === null ? undefined : earlier.find((r) => r.sku === row.sku);
    if (sameSku) return { ok: false, message: SIZE_MESSAGES.sameSku(row.sku!, sameSku.label, row.label), field: `size.${row.index}.sku` };
  }
  if (!kept.some((r) => !r.hidden)) return { ok: false, message: SIZE_MESSAGES.noneShown, field: "sizes" };
  return { ok: true, rows };
}
