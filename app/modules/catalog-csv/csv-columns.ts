/**
 * The product CSV, pure and browser-safe (issue 20, docs/decisions/032): our own columns, how a WooCommerce product
 * export's columns map onto ours, and how one row's cells become a validated product (zod). No I/O here: the server
 * modules parse files (csv-parse), plan, fetch images and write; everything that decides what a cell means is here,
 * unit-tested.
 *
 * Our file: UTF-8 with a byte-order mark (Excel then reads accents right), comma-separated, a header row, one size of
 * a product a row (issue 33: its product's columns repeated on each; a file without the Size columns is one product a
 * row, its one size, as before). Amounts are rand with 2 decimals and a dot, no currency sign or grouping ("1299.00", as the orders export
 * writes them); an import also reads what people type: "R 1 299,00", "1 299.00", "1299,5". Text cells that begin with
 * = + - @, a tab or a line break get a leading apostrophe so no spreadsheet runs them as a formula; the import takes
 * exactly that apostrophe off again, so every value round-trips.
 */
import { z } from "zod";
import { SIZE_ML_MAX, STOCK_MAX, WEIGHT_GRAMS_MAX } from "~/modules/catalog/catalog-admin.schema";
import { INSPIRED_FRAGRANCE_MAX, INSPIRED_HOUSE_MAX } from "~/modules/catalog/inspired-by.logic";
import { tiersOverlap, type PriceTier } from "~/modules/pricing/tiers.logic";
import { unneutraliseCell } from "~/utils/csv-cell";
import { formatAmount } from "~/utils/money";
import { isSlug } from "~/utils/slug";
import type { ScentProfile } from "~/modules/scent/scent.logic";
import { parseNotesField } from "~/modules/scent/scent-profile";
import {
  AUDIENCES,
  INTENSITIES,
  isAudience,
  isFamily,
  isIntensity,
  isOccasion,
  isSeason,
  OCCASIONS,
  SCENT_FAMILIES,
  SEASONS,
  type Audience,
  type Intensity,
  type Occasion,
  type ScentFamily,
  type Season,
} from "~/modules/scent/scent.vocabulary";
import { labelForMl, mlFromLabel } from "~/modules/catalog/sizes.logic";
import { MAX_IMPORT_ROWS } from "./csv-limits";

export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, MAX_IMPORT_UPLOAD_BYTES } from "./csv-limits";

export const CSV_BOM = "\uFEFF";
export const MAX_IMPORT_IMAGES_PER_PRODUCT = 8;
export const MAX_TIERS = 20;
export const MAX_PRICE_CENTS = 100_000_000;

export type CsvFormat = "scentara" | "woocommerce";

export type FieldKey =
  | "sku"
  | "slug"
  | "name"
  | "category"
  | "sizeLabel"
  | "sizeSku"
  | "price"
  | "wasPrice"
  | "tiers"
  | "stock"
  | "sizeMl"
  | "weightGrams"
  | "inspiredHouse"
  | "inspiredFragrance"
  | "description"
  | "images"
  | "metaTitle"
  | "metaDesc"
  | ScentKey;

/** The scent profile's columns (issue 22): each may be left out of a file, and then leaves that part as it is. */
export type ScentKey = "scentFamily" | "scentTop" | "scentHeart" | "scentBase" | "scentIntensity" | "scentOccasion" | "scentSeasons" | "scentFor";

/** Our columns, in the export's order. The header is what Excel shows; the import matches it case-insensitively. */
export const OUR_COLUMNS: ReadonlyArray<{ key: FieldKey; header: string }> = [
  { key: "sku", header: "SKU" },
  { key: "slug", header: "Slug" },
  { key: "name", header: "Name" },
  { key: "category", header: "Category" },
  // A size a row (issue 33, docs/decisions/052): the size's label as the shop shows it ("50 ml") and its own SKU; the
  // columns from here to Weight are the size's, the others the product's, repeated on each of its rows.
  { key: "sizeLabel", header: "Size" },
  { key: "sizeSku", header: "Size SKU" },
  { key: "price", header: "Price (ZAR)" },
  // the price before a sale (issue 32): empty = none
  { key: "wasPrice", header: "Was price (ZAR)" },
  { key: "tiers", header: "Tier prices (ZAR)" },
  { key: "stock", header: "Stock" },
  { key: "sizeMl", header: "Size (ml)" },
  { key: "weightGrams", header: "Weight (g)" },
  { key: "inspiredHouse", header: "Inspired by (house)" },
  { key: "inspiredFragrance", header: "Inspired by (fragrance)" },
  { key: "description", header: "Description" },
  { key: "images", header: "Images" },
  { key: "metaTitle", header: "Meta title" },
  { key: "metaDesc", header: "Meta description" },
  // the scent profile (issue 22): the admin form's values, notes and seasons as lists like Images; empty = not said
  { key: "scentFamily", header: "Scent family" },
  { key: "scentTop", header: "Top notes" },
  { key: "scentHeart", header: "Heart notes" },
  { key: "scentBase", header: "Base notes" },
  { key: "scentIntensity", header: "Intensity" },
  { key: "scentOccasion", header: "Worn" },
  { key: "scentSeasons", header: "Seasons" },
  { key: "scentFor", header: "Made for" },
];

export const OUR_HEADER = OUR_COLUMNS.map((c) => c.header);

/** The columns that describe a size rather than its product (issue 33): the rest are the product's on every row. */
export const SIZE_KEYS: ReadonlySet<FieldKey> = new Set<FieldKey>(["sizeLabel", "sizeSku", "price", "wasPrice", "tiers", "stock", "sizeMl", "weightGrams"]);

export const CSV_MESSAGES = {
  empty: "The file is empty",
  noRows: "The file has a header row but no products under it",
  utf16: "The file is UTF-16 (Excel's \"Unicode Text\"), not UTF-8: in Excel choose File → Save As → \"CSV UTF-8 (Comma delimited)\", or download the sheet as CSV from Google Sheets, and upload that",
  xlsx: "This is an Excel workbook, not a CSV: in Excel choose File → Save As → \"CSV UTF-8 (Comma delimited)\" and upload that file",
  binary: "The file has NUL bytes: it isn't a text CSV",
  notUtf8: (line: number, byte: number) =>
    `The file isn't UTF-8: line ${line} has a byte (0x${byte.toString(16).toUpperCase().padStart(2, "0")}) that UTF-8 doesn't allow, so it was probably saved as Windows-1252 / Latin-1 (Excel's plain "CSV"). In Excel choose "CSV UTF-8 (Comma delimited)", or download the sheet as CSV from Google Sheets, and upload it again`,
  tooManyRows: `The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US").replace(/,/g, " ")} product rows: split it into files of at most ${MAX_IMPORT_ROWS.toLocaleString("en-US").replace(/,/g, " ")} rows (each import is one transaction)`,
  unknownFormat:
    'The header row isn\'t ours or WooCommerce\'s: our export has "Name" and "Price (ZAR)"; a WooCommerce product export has "Name" and "Regular price"',
  missingColumns: (missing: string[], format: CsvFormat) =>
    `The file has no ${missing.map((m) => `"${m}"`).join(" or ")} column${missing.length > 1 ? "s" : ""}: ${format === "woocommerce" ? "a WooCommerce product export" : "our product file"} needs ${
      format === "woocommerce" ? '"Name" and "Regular price"' : '"Name" and "Price (ZAR)"'
    }`,
  duplicateHeader: (header: string) => `The header row names "${header}" twice: which one is meant?`,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Cells: formula neutralising, amounts, lists

export { neutraliseCell, unneutraliseCell } from "~/utils/csv-cell";

/** An amount for the file: rand with 2 decimals and a dot, no currency sign or grouping ("1299.00"). */
export function csvAmount(cents: number): string {
  return formatAmount(cents);
}

/**
 * A decimal number as people, spreadsheets and WooCommerce write it → its digits with a point ("1299.5"), or null.
 * Spaces (also no-break) group thousands; the decimal mark is a comma (en-ZA) or a point, and the other one may group
 * thousands when both are there: "1 299,00", "1,299.50", "1.299,50", "0.2" and WooCommerce's ".2" (it writes no
 * leading zero). At most `maxDecimals` decimals, so "1,299" is refused where 2 are allowed (1.299 or 1299?).
 */
function decimalDigits(input: string, maxDecimals: number): string | null {
  let text = input.replace(/[\s\u00a0\u202f]/g, "");
  if (text === "") return null;
  const comma = text.lastIndexOf(",");
  const dot = text.lastIndexOf(".");
  if (comma >= 0 && dot >= 0) {
    // the later one is the decimal mark; the other groups thousands
    const group = comma > dot ? "." : ",";
    const [whole, fraction] = [text.slice(0, Math.max(comma, dot)), text.slice(Math.max(comma, dot) + 1)];
    if (!new RegExp(`^\\d{1,3}(\\${group}\\d{3})*$`).test(whole)) return null;
    text = `${whole.split(group).join("")}.${fraction}`;
  } else if (comma >= 0) {
    text = text.replace(",", ".");
  }
  if (!new RegExp(`^(\\d{1,9}(\\.\\d{1,${maxDecimals}})?|\\.\\d{1,${maxDecimals}})$`).test(text)) return null;
  return text.startsWith(".") ? `0${text}` : text;
}

/**
 * Rand as people and spreadsheets write it → cents, or null: an optional R, then a number as decimalDigits reads it
 * with at most 2 decimals: "R 1 299,00", "R1,299.00", "1 299.00", "1299", "1.299,50", ".50".
 */
export function parseCsvAmount(input: string): number | null {
  const text = decimalDigits(input.trim().replace(/^R\s*/i, ""), 2);
  if (text === null) return null;
  const [whole, fraction = ""] = text.split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** A measurement (a weight, a length) as decimalDigits reads it, up to 6 decimals: ".2" → 0.2, "1 299,5" → 1299.5. */
export function parseCsvDecimal(input: string): number | null {
  const text = decimalDigits(input.trim(), 6);
  return text === null ? null : Number(text);
}

/** Splits a list cell on commas that aren't escaped with a backslash (WooCommerce's convention), unescaping "\,". */
export function splitList(cell: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i];
    if (ch === "\\" && cell[i + 1] === ",") {
      current += ",";
      i++;
    } else if (ch === ",") {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

export function joinList(values: string[]): string {
  return values.map((v) => v.replace(/,/g, "\\,")).join(", ");
}

/** Tiers as one cell: "5-9: 299.00; 10+: 279.00" (a range, or a minimum and +, then the unit price in rand). */
export function formatTiers(tiers: readonly PriceTier[]): string {
  return [...tiers]
    .sort((a, b) => a.minQuantity - b.minQuantity || a.priceCents - b.priceCents)
    .map((t) => `${t.maxQuantity === null ? `${t.minQuantity}+` : t.maxQuantity === t.minQuantity ? `${t.minQuantity}` : `${t.minQuantity}-${t.maxQuantity}`}: ${csvAmount(t.priceCents)}`)
    .join("; ");
}

export const TIERS_MESSAGE = 'Write tier prices like "5-9: 299.00; 10+: 279.00" (a quantity range or a minimum with +, a colon, the unit price)';

/** The inverse of formatTiers, or a message saying what is wrong. Tiers may not share a quantity. */
export function parseTiers(cell: string): { tiers: PriceTier[] } | { error: string } {
  const parts = cell.split(";").map((s) => s.trim()).filter(Boolean);
  if (parts.length > MAX_TIERS) return { error: `At most ${MAX_TIERS} tier prices` };
  const tiers: PriceTier[] = [];
  for (const part of parts) {
    const m = /^(\d{1,6})\s*(?:(\+)|[-–]\s*(\d{1,6}))?\s*:\s*(.+)$/.exec(part);
    if (!m) return { error: `"${clip(part)}": ${TIERS_MESSAGE}` };
    const minQuantity = Number(m[1]);
    const maxQuantity = m[2] ? null : m[3] ? Number(m[3]) : minQuantity;
    const priceCents = parseCsvAmount(m[4]!);
    if (minQuantity < 1) return { error: `"${clip(part)}": the smallest quantity is 1` };
    if (maxQuantity !== null && maxQuantity < minQuantity) return { error: `"${clip(part)}": the range ends before it starts` };
    if (priceCents === null || priceCents > MAX_PRICE_CENTS) return { error: `"${clip(part)}": the unit price isn't an amount in rand` };
    const clash = tiers.find((t) => tiersOverlap(t, { minQuantity, maxQuantity }));
    if (clash) return { error: `"${clip(part)}" overlaps another tier: a quantity may belong to one tier only` };
    tiers.push({ minQuantity, maxQuantity, priceCents });
  }
  return { tiers: tiers.sort((a, b) => a.minQuantity - b.minQuantity) };
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// ---------------------------------------------------------------------------------------------------------------
// The file as bytes: encoding and delimiter

export type Decoded = { ok: true; text: string } | { ok: false; message: string };

/** Where the first byte that isn't valid UTF-8 is, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) need = 2;
    else if (b >= 0xf0 && b <= 0xf4) need = 3;
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * The uploaded bytes as text: UTF-8 (a byte-order mark is dropped). Anything else is refused with what to do, never
 * guessed: UTF-16 (Excel's "Unicode Text"), an Excel workbook, Latin-1 / Windows-1252 bytes, NUL bytes.
 */
export function decodeCsvBytes(bytes: Uint8Array): Decoded {
  if (bytes.length === 0) return { ok: false, message: CSV_MESSAGES.empty };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return { ok: false, message: CSV_MESSAGES.utf16 };
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return { ok: false, message: CSV_MESSAGES.xlsx };
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) return { ok: false, message: CSV_MESSAGES.xlsx };
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // Text in UTF-16 without a byte-order mark: every other byte of ASCII is 0.
    const head = bytes.subarray(0, 200);
    const zeros = head.filter((b) => b === 0).length;
    return { ok: false, message: zeros > head.length / 4 ? CSV_MESSAGES.utf16 : CSV_MESSAGES.binary };
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    let line = 1;
    for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
    return { ok: false, message: CSV_MESSAGES.notUtf8(line, bytes[bad]!) };
  }
  let text = new TextDecoder("utf-8").decode(bytes); // drops a leading BOM
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") return { ok: false, message: CSV_MESSAGES.empty };
  return { ok: true, text };
}

/**
 * The header line's delimiter: a comma, or the semicolon Excel writes where the decimal mark is a comma, or a tab.
 * Counted outside quotes on the first line only.
 */
export function detectDelimiter(text: string): "," | ";" | "\t" {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (let i = 0; i < text.length && i < 64_000; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts]++;
  }
  const best = (Object.keys(counts) as Array<keyof typeof counts>).sort((a, b) => counts[b] - counts[a])[0]!;
  return counts[best] > 0 ? best : ",";
}

// ---------------------------------------------------------------------------------------------------------------
// The header: which format, which column is which

/** A WooCommerce column we read besides the ones that map onto ours. */
type WooExtra = "type" | "published" | "inStock" | "shortDescription" | "salePrice" | "saleStarts" | "saleEnds" | "wooId" | "parent";
const WOO_EXTRAS: ReadonlySet<string> = new Set<WooExtra>(["type", "published", "inStock", "shortDescription", "salePrice", "saleStarts", "saleEnds", "wooId", "parent"]);

export interface HeaderMap {
  format: CsvFormat;
  /** field → column index */
  fields: Partial<Record<FieldKey | WooExtra, number>>;
  /** field → the header as the file spells it, for messages */
  labels: Partial<Record<FieldKey, string>>;
  /** WooCommerce's weight unit → grams per unit */
  weightFactor?: number;
  /** the weight unit the header names ("lbs"), when it isn't grams: the preview says once that weights were converted */
  weightUnit?: string;
  /** WooCommerce's attribute columns: name and value(s) index pairs (a "Size" attribute gives the bottle size) */
  attributes: Array<{ name: number; value: number }>;
  /** columns that mean nothing here, as the file spells them */
  ignored: string[];
}

const norm = (header: string) => header.replace(/^\uFEFF/, "").trim().replace(/\s+/g, " ").toLowerCase();

const WOO_FIELDS: Record<string, FieldKey | WooExtra> = {
  sku: "sku",
  name: "name",
  "regular price": "price",
  description: "description",
  "short description": "shortDescription",
  categories: "category",
  images: "images",
  stock: "stock",
  "in stock?": "inStock",
  type: "type",
  published: "published",
  "sale price": "salePrice",
  "date sale price starts": "saleStarts",
  "date sale price ends": "saleEnds",
  // a variation names its variable product by its SKU, or by "id:" and this ID when it has none (issue 33)
  id: "wooId",
  parent: "parent",
};

const WOO_WEIGHT_UNITS: Record<string, number> = { kg: 1000, g: 1, lbs: 453.59237, lb: 453.59237, oz: 28.349523125 };

/** Which format the header is, and where each column we read is; or a message for a header we can't use. */
export function mapHeader(rawHeaders: string[]): { ok: true; map: HeaderMap } | { ok: false; message: string } {
  const headers = rawHeaders.map(norm);
  const seen = new Set<string>();
  for (const [i, h] of headers.entries()) {
    if (h && seen.has(h)) return { ok: false, message: CSV_MESSAGES.duplicateHeader(rawHeaders[i]!.trim()) };
    seen.add(h);
  }
  const ours = headers.includes("price (zar)");
  const woo = !ours && (headers.includes("regular price") || (headers.includes("type") && headers.includes("published")));
  if (!ours && !woo) {
    if (!headers.includes("name")) return { ok: false, message: CSV_MESSAGES.unknownFormat };
    return { ok: false, message: CSV_MESSAGES.missingColumns(["Price (ZAR)"], "scentara") };
  }
  const map: HeaderMap = { format: ours ? "scentara" : "woocommerce", fields: {}, labels: {}, attributes: [], ignored: [] };
  const used = new Set<number>();
  if (ours) {
    for (const column of OUR_COLUMNS) {
      const i = headers.indexOf(norm(column.header));
      if (i >= 0) {
        map.fields[column.key] = i;
        map.labels[column.key] = column.header;
        used.add(i);
      }
    }
    const missing = (["name", "price"] as const).filter((k) => map.fields[k] === undefined).map((k) => OUR_COLUMNS.find((c) => c.key === k)!.header);
    if (missing.length) return { ok: false, message: CSV_MESSAGES.missingColumns(missing, "scentara") };
  } else {
    for (const [i, h] of headers.entries()) {
      const key = WOO_FIELDS[h];
      if (key) {
        map.fields[key] = i;
        if (!WOO_EXTRAS.has(key)) map.labels[key as FieldKey] = rawHeaders[i]!.trim();
        else if (key === "salePrice") map.labels.wasPrice = rawHeaders[i]!.trim();
        used.add(i);
        continue;
      }
      const weight = /^weight \((kg|g|lbs|lb|oz)\)$/.exec(h);
      if (weight) {
        map.fields.weightGrams = i;
        map.labels.weightGrams = rawHeaders[i]!.trim();
        map.weightFactor = WOO_WEIGHT_UNITS[weight[1]!];
        if (weight[1] !== "g") map.weightUnit = weight[1];
        used.add(i);
        continue;
      }
      const attribute = /^attribute (\d+) name$/.exec(h);
      if (attribute) {
        const value = headers.indexOf(`attribute ${attribute[1]} value(s)`);
        if (value >= 0) {
          map.attributes.push({ name: i, value });
          used.add(i).add(value);
        }
      }
    }
    if (map.attributes.length) map.labels.sizeMl = map.labels.sizeLabel = "Attribute (Size)";
    if (map.labels.sku) map.labels.sizeSku = map.labels.sku;
    if (map.fields.stock === undefined && map.fields.inStock !== undefined) map.labels.stock = "In stock?";
    if (map.fields.description === undefined && map.fields.shortDescription !== undefined) map.labels.description = "Short description";
    const missing = [map.fields.name === undefined ? "Name" : "", map.fields.price === undefined ? "Regular price" : ""].filter(Boolean);
    if (missing.length) return { ok: false, message: CSV_MESSAGES.missingColumns(missing, "woocommerce") };
  }
  map.ignored = rawHeaders.filter((h, i) => !used.has(i) && h.trim() !== "").map((h) => h.trim());
  return { ok: true, map };
}

/** The header's label for a field (the file's own spelling), for messages that name a column. */
export function columnLabel(map: HeaderMap, key: FieldKey | "row"): string {
  if (key === "row") return "";
  return map.labels[key] ?? OUR_COLUMNS.find((c) => c.key === key)?.header ?? key;
}

// ---------------------------------------------------------------------------------------------------------------
// WooCommerce's conventions → ours

const ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ndash: "–", mdash: "—", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”",
  hellip: "…", bull: "•", middot: "·", copy: "©", reg: "®", trade: "™", deg: "°", eacute: "é", egrave: "è", ecirc: "ê", euml: "ë",
  agrave: "à", aacute: "á", acirc: "â", auml: "ä", ccedil: "ç", iacute: "í", iuml: "ï", oacute: "ó", ocirc: "ô", ouml: "ö",
  uacute: "ú", uuml: "ü", ntilde: "ñ", szlig: "ß", times: "×",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "";
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

/**
 * A WooCommerce description (HTML, or WordPress text whose line breaks are its paragraphs) as the shop's plain text:
 * block ends and <br> become line breaks, list items lines of their own, tags go, entities are decoded.
 */
export function htmlToText(html: string): string {
  let text = html.replace(/\r\n?/g, "\n");
  if (/<\/?[a-z][^>]*>/i.test(text)) {
    // Line breaks beside a block tag are layout, not text (WordPress writes "</li>\n<li>").
    const block = "(?:p|div|ul|ol|li|h[1-6]|blockquote|table|tbody|thead|tr|td|th|br)\\b";
    text = text
      .replace(new RegExp(`\\s*\\n\\s*(?=<\\/?${block})`, "gi"), "")
      .replace(new RegExp(`(<\\/?${block}[^>]*>)\\s*\\n\\s*`, "gi"), "$1")
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<li\b[^>]*>/gi, "\n• ")
      .replace(/<\/(p|div|h[1-6]|ul|ol|blockquote|table|tr)\s*>/gi, "\n\n")
      .replace(/<\/?[a-z][^>]*>/gi, "");
  }
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** WooCommerce's exporter writes a line break in a description as the two characters \n (and a real "\n" as \\n). */
export function unescapeWooNewlines(text: string): string {
  return text.replace(/\\\\n|\\n/g, (m) => (m === "\\n" ? "\n" : "\\n"));
}

/** WooCommerce categories ("Fragrances > For Her, Gift sets"): the first one's own name ("For Her"); none for Uncategorized. */
export function wooCategory(cell: string): string {
  const first = splitList(cell)[0] ?? "";
  const leaf = first.split(">").map((s) => s.trim()).filter(Boolean).pop() ?? "";
  return /^uncategori[sz]ed$/i.test(leaf) ? "" : leaf;
}

/**
 * A WooCommerce attribute that is the bottle's size: its label as WooCommerce exports it ("Size"), or the taxonomy's
 * name where the label is gone ("pa_size").
 */
export function isSizeAttribute(name: string): boolean {
  return /^(pa_)?(size|sizes|volume|bottle[ _-]?size|capacity)$/i.test(name.trim());
}

const attributeList = (attributes: Array<{ name: string; value: string }>) => attributes.map((a) => `${a.name} (${clip(a.value, 30)})`).join(", ");

/** What the preview says about a WooCommerce variable product's rows (issue 33). */
export const VARIATION_MESSAGES = {
  noParent: "A variation without a Parent: it can't be put with its product",
  draft: "A variation of a draft in WooCommerce: not imported",
  disabled: "A disabled variation in WooCommerce: not imported",
  notBySize: (others: Array<{ name: string; value: string }>) => `Varies by ${attributeList(others)}, not by size: only sizes are imported`,
  alsoBy: (others: Array<{ name: string; value: string }>, size: string) =>
    `Varies by ${attributeList(others)} as well as by size (${clip(size, 30)}): only sizes are imported, each one bottle of its own`,
  noSize: "A variation that names no size: only sizes are imported",
  stockOnParent: "WooCommerce counts this stock on the variable product, for all its sizes: this size's stock isn't counted here (set it on the size)",
  noSizes: (variations: number, by: string[]) =>
    `A variable product none of whose ${variations} ${variations === 1 ? "variation is a size" : "variations is a size"}${by.length ? ` (they vary by ${by.join(", ")})` : ""}: not imported`,
  noVariations: "A variable product without its variations in this file: export it again with its variations",
  sizes: (labels: string[]) => `${labels.length} ${labels.length === 1 ? "size" : "sizes"}: ${labels.join(", ")}`,
  parentMissing: (parent: string) => `Its variable product "${clip(parent)}" is neither in this file nor in the shop: import it with its product's row`,
  parentSkipped: (row: number) => `Its product (row ${row}) isn't imported`,
  parentError: (row: number) => `Its product (row ${row}) has errors`,
} as const;

/** The day in South Africa (UTC+2, no daylight saving) of an instant: "2026-11-28". Sale dates are shop days. */
export function southAfricanDay(at: Date): string {
  return new Date(at.getTime() + 2 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** A WooCommerce sale date ("2026-12-01", "2026-12-01 00:00:00", "2026-12-01T00:00:00") → its day; "" → null. */
function wooDay(cell: string | undefined): { day: string | null } | { error: string } {
  const value = (cell ?? "").trim();
  if (value === "") return { day: null };
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(value);
  if (!m || Number.isNaN(Date.parse(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`)) || new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`).toISOString().slice(0, 10) !== `${m[1]}-${m[2]}-${m[3]}`) {
    return { error: ROW_MESSAGES.saleDate(value) };
  }
  return { day: `${m[1]}-${m[2]}-${m[3]}` };
}

/**
 * WooCommerce's sale (issue 32): a product on sale today comes in at its sale price with its regular price as the was
 * price; one whose sale has ended, or not yet started (the dates are days, the end day included, as WooCommerce runs
 * them), or whose sale price isn't below the regular price, at its regular price without one. An empty Sale price:
 * not on sale (a was price the product had is cleared). Without a Sale price column nothing is said (undefined).
 */
export function readWooSale(
  regular: string | undefined,
  sale: string | undefined,
  starts: string | undefined,
  ends: string | undefined,
  today: string,
): { price?: string; wasPrice?: string; note?: string; error?: { column: string; message: string } } {
  if (sale === undefined) return {};
  if (sale.trim() === "") return { wasPrice: "" };
  const saleCents = parseCsvAmount(sale);
  if (saleCents === null) return { error: { column: "salePrice", message: ROW_MESSAGES.salePrice(sale) } };
  const from = wooDay(starts);
  if ("error" in from) return { error: { column: "Date sale price starts", message: from.error } };
  const to = wooDay(ends);
  if ("error" in to) return { error: { column: "Date sale price ends", message: to.error } };
  if (to.day !== null && to.day < today) return { wasPrice: "", note: ROW_MESSAGES.saleEnded(to.day) };
  if (from.day !== null && from.day > today) return { wasPrice: "", note: ROW_MESSAGES.saleNotStarted(from.day) };
  const regularCents = parseCsvAmount(regular ?? "");
  if (regularCents === null) return {}; // the price's own message says what is wrong
  if (saleCents >= regularCents) return { wasPrice: "", note: ROW_MESSAGES.saleNotLower };
  return { price: sale, wasPrice: regular! };
}

// ---------------------------------------------------------------------------------------------------------------
// One row → a product (zod)

/** What one row asks for. A field left undefined: the file has no such column (an update leaves it as it is). */
export interface ProductCsvRow {
  sku?: string | null;
  /** null: the cell is empty (a new product's slug comes from its name; an update keeps its slug) */
  slug?: string | null;
  name: string;
  /** the category's name; null: uncategorised */
  category?: string | null;
  /** the size's label ("50 ml"); null: an empty cell (the label follows the millilitres) */
  sizeLabel?: string | null;
  /** the size's own SKU; null: an empty cell */
  sizeSku?: string | null;
  priceCents: number;
  /** the price before a sale; null: none (an empty cell, or a WooCommerce row not on sale) */
  wasPriceCents?: number | null;
  tiers?: PriceTier[];
  /** null: stock not counted */
  stock?: number | null;
  sizeMl?: number | null;
  weightGrams?: number | null;
  inspiredHouse?: string | null;
  inspiredFragrance?: string | null;
  description?: string;
  /** image URLs and paths, in order (first is the main one); [] for an empty cell */
  images?: string[];
  metaTitle?: string | null;
  metaDesc?: string | null;
  /** the scent profile, column by column; null / [] for an empty cell ("not said") */
  scentFamily?: ScentFamily | null;
  scentTop?: string[];
  scentHeart?: string[];
  scentBase?: string[];
  scentIntensity?: Intensity | null;
  scentOccasion?: Occasion | null;
  scentSeasons?: Season[];
  scentFor?: Audience | null;
}

export interface CellError {
  /** the column as the file names it ("" for the row as a whole) */
  column: string;
  message: string;
}

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Optional text: trimmed; empty → null; at most `max` characters, no control characters. */
const optionalText = (label: string, max: number) =>
  z
    .string()
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .max(max, `${label} is longer than ${max} characters`)
        .refine((v) => !CONTROL.test(v), `${label} has control characters`),
    )
    .transform((v) => (v === "" ? null : v))
    .optional();

/** A whole number min–max, or empty → null; `prepare` takes a unit off first ("100 ml"). */
const wholeNumber = (message: string, min: number, max: number, prepare: (v: string) => string = (v) => v) =>
  z
    .string()
    .transform((v, ctx) => {
      const value = prepare(v.trim()).replace(/[\s\u00a0]/g, "");
      if (value === "") return null;
      if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
        ctx.addIssue({ code: "custom", message: `"${clip(v.trim())}": ${message}` });
        return z.NEVER;
      }
      return Number(value);
    })
    .optional();

export const ROW_MESSAGES = {
  nameRequired: "Name is required",
  priceRequired: "Price is required",
  price: (value: string) => `"${clip(value)}" isn't an amount in rand: write it like 1299.00 (or R 1 299,00)`,
  wasPriceNotHigher: "The was price must be higher than the price (it shows struck through as the price before a sale), or empty",
  salePrice: (value: string) => `"${clip(value)}" isn't an amount: write the sale price like 899.00, or leave it empty`,
  saleDate: (value: string) => `"${clip(value)}" isn't a date: write it like 2026-12-01`,
  saleEnded: (day: string) => `The sale ended on ${day}: imported at the regular price, without a was price`,
  saleNotStarted: (day: string) => `The sale starts on ${day}: imported at the regular price for now (the shop doesn't start sales by date; set the price and the was price on that day)`,
  saleNotLower: "The sale price isn't below the regular price: imported at the regular price",
  sku: "SKU: at most 64 characters, no control characters",
  slug: "Use lower-case letters, digits and single hyphens in the slug",
  stock: "Stock must be a whole number from 0, or empty when you don't count this product's stock",
  size: `Size must be a whole number of millilitres from 1 to ${SIZE_ML_MAX}, or empty`,
  weight: `Weight must be a whole number of grams from 1 to ${WEIGHT_GRAMS_MAX}, or empty for the shop's default bottle weight`,
  scentChoice: (value: string, allowed: readonly string[]) =>
    `"${clip(value.trim())}" isn't one of the choices: write ${allowed.slice(0, -1).join(", ")} or ${allowed[allowed.length - 1]}, or leave the cell empty`,
  season: (value: string) => `"${clip(value.trim())}" isn't a season: write any of ${SEASONS.join(", ")} (separated by commas), or leave the cell empty`,
} as const;

/** One of a fixed list (the admin form's select values), any case; empty → null ("not said"). */
const scentChoice = <T extends string>(allowed: readonly T[], is: (v: unknown) => v is T) =>
  z
    .string()
    .transform((v, ctx) => {
      const value = v.trim().toLowerCase();
      if (value === "") return null;
      if (is(value)) return value;
      ctx.addIssue({ code: "custom", message: ROW_MESSAGES.scentChoice(v, allowed) });
      return z.NEVER;
    })
    .optional();

/** One tier of notes: the admin form's own rules (parseNotesField); empty → []. */
const scentNotes = (tier: "top" | "heart" | "base") =>
  z
    .string()
    .transform((v, ctx) => {
      const { notes, error } = parseNotesField(v, tier);
      if (error) {
        ctx.addIssue({ code: "custom", message: error });
        return z.NEVER;
      }
      return notes;
    })
    .optional();

/** The scent profile's cells as the export writes them (the import reads them back to the same profile). */
export function scentCells(p: ScentProfile): Record<ScentKey, string> {
  return {
    scentFamily: p.family ?? "",
    scentTop: joinList(p.top),
    scentHeart: joinList(p.heart),
    scentBase: joinList(p.base),
    scentIntensity: p.intensity ?? "",
    scentOccasion: p.occasion ?? "",
    scentSeasons: joinList(SEASONS.filter((s) => p.seasons.includes(s))),
    scentFor: p.audience ?? "",
  };
}

/** One row's cells (as strings, our conventions; absent columns absent) → the product, validated. */
export const productCsvRow = z.object({
  sku: z
    .string()
    .transform((v) => v.trim())
    .pipe(z.string().max(64, ROW_MESSAGES.sku).refine((v) => !CONTROL.test(v), ROW_MESSAGES.sku))
    .transform((v) => (v === "" ? null : v))
    .optional(),
  slug: z
    .string()
    .transform((v) => v.trim())
    .pipe(z.string().max(120, "The slug is longer than 120 characters").refine((v) => v === "" || isSlug(v), ROW_MESSAGES.slug))
    .transform((v) => (v === "" ? null : v))
    .optional(),
  name: z
    .string({ error: ROW_MESSAGES.nameRequired })
    .transform((v) => v.trim().replace(/\s+/g, " "))
    .pipe(
      z
        .string()
        .min(1, ROW_MESSAGES.nameRequired)
        .max(120, "Name is longer than 120 characters")
        .refine((v) => !CONTROL.test(v), "Name has control characters"),
    ),
  category: optionalText("The category", 80),
  sizeLabel: optionalText("The size", 40),
  sizeSku: z
    .string()
    .transform((v) => v.trim())
    .pipe(z.string().max(64, ROW_MESSAGES.sku).refine((v) => !CONTROL.test(v), ROW_MESSAGES.sku))
    .transform((v) => (v === "" ? null : v))
    .optional(),
  price: z.string({ error: ROW_MESSAGES.priceRequired }).transform((v, ctx) => {
    if (v.trim() === "") {
      ctx.addIssue({ code: "custom", message: ROW_MESSAGES.priceRequired });
      return z.NEVER;
    }
    const cents = parseCsvAmount(v);
    if (cents === null || cents > MAX_PRICE_CENTS) {
      ctx.addIssue({ code: "custom", message: ROW_MESSAGES.price(v) });
      return z.NEVER;
    }
    return cents;
  }),
  wasPrice: z
    .string()
    .transform((v, ctx) => {
      if (v.trim() === "") return null;
      const cents = parseCsvAmount(v);
      if (cents === null || cents > MAX_PRICE_CENTS) {
        ctx.addIssue({ code: "custom", message: ROW_MESSAGES.price(v) });
        return z.NEVER;
      }
      return cents;
    })
    .optional(),
  tiers: z
    .string()
    .transform((v, ctx) => {
      const parsed = parseTiers(v);
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.tiers;
    })
    .optional(),
  stock: wholeNumber(ROW_MESSAGES.stock, 0, STOCK_MAX),
  sizeMl: wholeNumber(ROW_MESSAGES.size, 1, SIZE_ML_MAX, (v) => v.replace(/\s*ml$/i, "")),
  weightGrams: wholeNumber(ROW_MESSAGES.weight, 1, WEIGHT_GRAMS_MAX, (v) => v.replace(/(\d)\s*g$/i, "$1")),
  inspiredHouse: optionalText("Inspired by (house)", INSPIRED_HOUSE_MAX),
  inspiredFragrance: optionalText("Inspired by (fragrance)", INSPIRED_FRAGRANCE_MAX),
  description: z
    .string()
    .transform((v) => v.trim())
    .pipe(z.string().max(5000, "Description is longer than 5 000 characters").refine((v) => !/\u0000/.test(v), "Description has NUL characters"))
    .optional(),
  images: z
    .string()
    .transform((v, ctx) => {
      const list = splitList(v);
      for (const url of list) {
        if (url.length > 2000 || !/^(\/[^/]|https?:\/\/)/i.test(url) || /\s/.test(url)) {
          ctx.addIssue({ code: "custom", message: `"${clip(url)}" isn't a web address (http:// or https://)` });
          return z.NEVER;
        }
      }
      return list;
    })
    .optional(),
  metaTitle: optionalText("Meta title", 200),
  metaDesc: optionalText("Meta description", 500),
  scentFamily: scentChoice(SCENT_FAMILIES, isFamily),
  scentTop: scentNotes("top"),
  scentHeart: scentNotes("heart"),
  scentBase: scentNotes("base"),
  scentIntensity: scentChoice(INTENSITIES, isIntensity),
  scentOccasion: scentChoice(OCCASIONS, isOccasion),
  scentSeasons: z
    .string()
    .transform((v, ctx) => {
      const seasons: Season[] = [];
      for (const part of splitList(v)) {
        const value = part.toLowerCase();
        if (!isSeason(value)) {
          ctx.addIssue({ code: "custom", message: ROW_MESSAGES.season(part) });
          return z.NEVER;
        }
        if (!seasons.includes(value)) seasons.push(value);
      }
      return SEASONS.filter((s) => seasons.includes(s));
    })
    .optional(),
  scentFor: scentChoice(AUDIENCES, isAudience),
});

export type RowFields = Partial<Record<FieldKey, string>>;

export interface RowRead {
  /** a reason when the row is not a product of ours (a WooCommerce variation, a draft) */
  skip?: string;
  product?: ProductCsvRow;
  errors: CellError[];
  /** remarks that change nothing's validity ("only the first 8 images are kept") */
  notes: string[];
  /** the row's SKU, slug and name as written, for the report even when the row has errors */
  label: { sku: string; slug: string; name: string };
  /**
   * WooCommerce (issue 33): the row's ID and SKU, which its variations name as their Parent ("id:44" or the SKU); a
   * variable product (its sizes are its variations' rows), or a variation and the Parent it names
   */
  woo?: { id: string; sku: string; variable?: boolean; parent?: string; by?: string[] };
}

/**
 * One row of cells → what it asks for, or its errors (each naming its column), or why it is skipped. Cells are taken
 * out of their formula neutralising first (ours and WooCommerce's).
 */
export function readRow(rawCells: string[], map: HeaderMap, today: string = southAfricanDay(new Date())): RowRead {
  const cells = rawCells.map(unneutraliseCell);
  const cell = (key: FieldKey | WooExtra) => {
    const i = map.fields[key];
    return i === undefined ? undefined : (cells[i] ?? "");
  };
  const fields: RowFields = {};
  const errors: CellError[] = [];
  const notes: string[] = [];
  if (map.format === "scentara") {
    for (const column of OUR_COLUMNS) {
      const value = cell(column.key);
      if (value !== undefined) fields[column.key] = value;
    }
  } else {
    const type = (cell("type") ?? "simple").toLowerCase();
    const published = (cell("published") ?? "1").trim();
    const label = { sku: (cell("sku") ?? "").trim(), slug: "", name: (cell("name") ?? "").trim() };
    const woo = { id: (cell("wooId") ?? "").trim(), sku: label.sku };
    if (/\bvariation\b/.test(type)) {
      const parent = (cell("parent") ?? "").trim();
      if (!parent) return { skip: VARIATION_MESSAGES.noParent, errors, notes, label };
      const skip = (reason: string, by?: string[]): RowRead => ({ skip: reason, errors, notes, label, woo: { ...woo, parent, ...(by ? { by } : {}) } });
      if (published === "-1") return skip(VARIATION_MESSAGES.draft);
      if (published === "0") return skip(VARIATION_MESSAGES.disabled);
      const attributes = map.attributes
        .map(({ name, value }) => ({ name: (cells[name] ?? "").trim(), value: (cells[value] ?? "").trim().replace(/\\,/g, ",") }))
        .filter((a) => a.name);
      const size = attributes.find((a) => isSizeAttribute(a.name) && a.value);
      const others = attributes.filter((a) => !isSizeAttribute(a.name) && a.value);
      if (others.length) return skip(size ? VARIATION_MESSAGES.alsoBy(others, size.value) : VARIATION_MESSAGES.notBySize(others), others.map((a) => a.name));
      if (!size) return skip(VARIATION_MESSAGES.noSize);
      const ml = mlFromLabel(size.value);
      fields.sizeLabel = ml !== null ? labelForMl(ml) : size.value;
      fields.sizeMl = ml === null ? "" : String(ml);
      fields.sizeSku = label.sku;
      // the product's name is its variable product's; a variation's own ("Velvet Rose - 50ml") is for the report
      fields.name = label.name || parent;
      readWooSize(cell, map, fields, errors, notes, today, true);
      return finishRow(fields, errors, notes, map, { ...label, name: label.name }, { ...woo, parent });
    }
    if (/\bvariable\b/.test(type)) {
      if (published === "-1") return { skip: "A draft in WooCommerce: not imported", errors, notes, label, woo: { ...woo, variable: true } };
      if (published === "0") return { skip: "Private in WooCommerce: not imported", errors, notes, label, woo: { ...woo, variable: true } };
      // Its sizes are its variations' rows; its own price cells are empty. Its weight is theirs when they give none.
      readWooProduct(cell, fields);
      const weight = readWooWeight(cell("weightGrams"), map, errors);
      if (weight !== undefined) fields.weightGrams = weight;
      fields.price = "0";
      fields.sku = label.sku;
      fields.name = cell("name") ?? "";
      return finishRow(fields, errors, notes, map, label, { ...woo, variable: true });
    }
    if (/\bgrouped\b/.test(type)) return { skip: "A grouped product: a group isn't a product here", errors, notes, label };
    if (/\bexternal\b/.test(type)) return { skip: "An external (affiliate) product: it isn't sold here", errors, notes, label };
    if (published === "-1") return { skip: "A draft in WooCommerce: not imported", errors, notes, label };
    if (published === "0") return { skip: "Private in WooCommerce: not imported", errors, notes, label };
    for (const key of ["sku", "name"] as const) {
      const value = cell(key);
      if (value !== undefined) fields[key] = value;
    }
    readWooProduct(cell, fields);
    readWooSize(cell, map, fields, errors, notes, today, false);
    for (const { name, value } of map.attributes) {
      if (!isSizeAttribute((cells[name] ?? "").trim())) continue;
      const raw = (cells[value] ?? "").trim();
      const size = mlFromLabel(raw);
      if (size !== null && size <= SIZE_ML_MAX) fields.sizeMl = String(size);
      else if (raw) notes.push(`Size "${clip(raw)}" isn't one bottle size in ml: not imported`);
    }
    return finishRow(fields, errors, notes, map, undefined, woo);
  }
  return finishRow(fields, errors, notes, map);
}

type WooCell = (key: FieldKey | WooExtra) => string | undefined;

/** A WooCommerce product's own cells (a simple or variable product): description, category, images. */
function readWooProduct(cell: WooCell, fields: RowFields) {
  const long = cell("description");
  const short = cell("shortDescription");
  if (long !== undefined || short !== undefined) {
    fields.description = [short, long]
      .map((v) => htmlToText(unescapeWooNewlines(v ?? "")))
      .filter(Boolean)
      .join("\n\n");
  }
  const categories = cell("category");
  if (categories !== undefined) fields.category = wooCategory(categories);
  const images = cell("images");
  if (images !== undefined) fields.images = images;
}

/** A weight in the unit the header names (".2" lbs → 91 g), as our cell; empty or 0: the shop's default bottle weight. */
function readWooWeight(weight: string | undefined, map: HeaderMap, errors: CellError[]): string | undefined {
  if (weight === undefined) return undefined;
  const value = parseCsvDecimal(weight);
  if (weight.trim() === "" || value === 0) return "";
  if (value !== null && value < 1_000_000) return String(Math.max(1, Math.round(value * (map.weightFactor ?? 1000))));
  errors.push({ column: columnLabel(map, "weightGrams"), message: `"${clip(weight)}" isn't a weight` });
  return undefined;
}

/** What a simple product or a variation sells at: its price and sale, stock and weight. */
function readWooSize(cell: WooCell, map: HeaderMap, fields: RowFields, errors: CellError[], notes: string[], today: string, variation: boolean) {
  const price = cell("price");
  if (price !== undefined) fields.price = price;
  const sale = readWooSale(cell("price"), cell("salePrice"), cell("saleStarts"), cell("saleEnds"), today);
  if (sale.error) errors.push({ column: sale.error.column === "salePrice" ? columnLabel(map, "wasPrice") : sale.error.column, message: sale.error.message });
  if (sale.note) notes.push(sale.note);
  if (sale.price !== undefined) fields.price = sale.price;
  if (sale.wasPrice !== undefined) fields.wasPrice = sale.wasPrice;
  const stock = cell("stock");
  const inStock = cell("inStock");
  if (stock !== undefined || inStock !== undefined) {
    const count = (stock ?? "").trim();
    if (/^-\d+$/.test(count)) {
      fields.stock = "0";
      notes.push(`Stock ${count} in WooCommerce (back-orders) is imported as 0`);
    } else if (/^\d+$/.test(count)) fields.stock = count;
    else if (count === "" || count === "parent") {
      fields.stock = (inStock ?? "").trim() === "0" ? "0" : "";
      // WooCommerce counts it on the variable product, for all its sizes: here each size has its own count
      if (count === "parent" && variation && fields.stock === "") notes.push(VARIATION_MESSAGES.stockOnParent);
    } else fields.stock = count; // let the schema say what is wrong with it
  }
  const weight = readWooWeight(cell("weightGrams"), map, errors);
  if (weight !== undefined) fields.weightGrams = weight;
}

/** The row's fields as strings → the product (zod), or its errors each naming its column. */
function finishRow(fields: RowFields, errors: CellError[], notes: string[], map: HeaderMap, shown?: RowRead["label"], woo?: RowRead["woo"]): RowRead {
  const label = shown ?? { sku: (fields.sku ?? "").trim(), slug: (fields.slug ?? "").trim(), name: (fields.name ?? "").trim() };
  const parsed = productCsvRow.safeParse(fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      errors.push({ column: columnLabel(map, key as FieldKey), message: issue.message });
    }
  }
  if (errors.length || !parsed.success) return { errors, notes, label, ...(woo ? { woo } : {}) };
  const { price, wasPrice, ...rest } = parsed.data;
  const product: ProductCsvRow = { ...rest, priceCents: price, ...(wasPrice !== undefined ? { wasPriceCents: wasPrice } : {}) };
  if (map.format === "scentara" && wasPrice != null && wasPrice <= price) {
    return { errors: [{ column: columnLabel(map, "wasPrice"), message: ROW_MESSAGES.wasPriceNotHigher }], notes, label };
  }
  if (product.images && product.images.length > MAX_IMPORT_IMAGES_PER_PRODUCT) {
    notes.push(`Only the first ${MAX_IMPORT_IMAGES_PER_PRODUCT} of its ${product.images.length} images are kept`);
    product.images = product.images.slice(0, MAX_IMPORT_IMAGES_PER_PRODUCT);
  }
  return { product, errors, notes, label, ...(woo ? { woo } : {}) };
}

// ---------------------------------------------------------------------------------------------------------------
// The import's report (the preview page shows it; the server stores it with the import)

export type RowAction = "create" | "update" | "unchanged" | "skip" | "error";

export interface ImportRowReport {
  /** the spreadsheet's row number (the header is row 1) */
  row: number;
  action: RowAction;
  sku: string;
  slug: string;
  name: string;
  /** the size the row is (issue 33: "50 ml"), when the file has sizes; its SKU is `sku` */
  size?: string;
  /** the columns whose values will change (an update), as the file names them */
  changes?: string[];
  errors?: CellError[];
  notes?: string[];
  /** images the product comes in without: the address and why (issue 32) */
  imageFailures?: Array<{ url: string; reason: string }>;
}

export interface ImportCounts {
  create: number;
  update: number;
  unchanged: number;
  skip: number;
  error: number;
}

export interface ImportReport {
  format: CsvFormat;
  counts: ImportCounts;
  rows: ImportRowReport[];
  /** categories the import makes */
  newCategories: string[];
  /** distinct image URLs the apply will fetch */
  imagesToFetch: number;
  /** images that can't be had, counted per row (absent in reports stored before issue 32) */
  imagesFailed?: number;
  /** what the preview says once for the whole file (units converted) */
  notes?: string[];
  /** columns that mean nothing here, as the file spells them */
  ignoredColumns: string[];
  /** products the apply creates or changes (a product's size rows count once; absent before issue 33: the rows) */
  products?: number;
}

const UNIT_NAMES: Record<string, string> = { kg: "kilograms", lbs: "pounds (lbs)", lb: "pounds (lb)", oz: "ounces (oz)" };

/** What the preview says once about the whole file: the weight unit its header names, converted to grams. */
export function fileNotes(map: HeaderMap): string[] {
  if (!map.weightUnit || map.fields.weightGrams === undefined) return [];
  return [`Weights are in ${UNIT_NAMES[map.weightUnit] ?? map.weightUnit} in this file ("${map.labels.weightGrams}"): converted to grams.`];
}

export const FORMAT_LABELS: Record<CsvFormat, string> = { scentara: "Scentara product file", woocommerce: "WooCommerce product export" };
