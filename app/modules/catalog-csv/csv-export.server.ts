/**
 * Every product as a CSV (issue 20, docs/decisions/032), streamed: products are read in batches of 500 in name order
 * (keyset pagination on the products_name_sort_idx index, no connection held between batches) with their category,
 * scent profile (issue 22) and sizes with their tiers (issue 33), and written through csv-stringify as they are read,
 * so 100 000 products cost the memory of one batch. A row per size, in the owner's order, the product's columns
 * repeated on each (docs/decisions/052): a row sorted or filtered in a spreadsheet still says whose size it is. Hidden
 * sizes (no longer sold) are left out, unless all of a product's are. The columns and cell conventions are
 * csv-columns.ts's; the file imports back unchanged (an exact round trip).
 */
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import { keysetBatches } from "~/db/keyset-batches.server";
import { imagesOf } from "~/modules/catalog/catalog.server";
import { listSizes, type SizeRow } from "~/modules/catalog/sizes.server";
import type { PriceTier } from "~/modules/pricing/tiers.logic";
import { profileFromRow, type ScentColumns } from "~/modules/scent/scent-profile";
import { PRODUCT_CSV_COLUMNS } from "./product-columns.server";
import { CSV_BOM, csvAmount, formatTiers, joinList, neutraliseCell, OUR_COLUMNS, scentCells } from "./csv-columns";
import { downloadStream } from "~/utils/download-stream.server";

export const EXPORT_BATCH_SIZE = 500;

interface ExportRow extends ScentColumns {
  id: string;
  sku: string | null;
  slug: string;
  name: string;
  category_name: string | null;
  inspired_house: string | null;
  inspired_fragrance: string | null;
  description: string;
  images: string[];
  meta_title: string | null;
  meta_desc: string | null;
  sort_name: string;
}

/** Products in name order, a batch at a time; each batch starts after the previous batch's last (lower(name), id). */
export type ExportSize = SizeRow & { tiers: PriceTier[] };
export type ExportProduct = ExportRow & { sizes: ExportSize[] };

export async function* productBatches(db: Queryable, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<ExportProduct[]> {
  // The index is on lower(name) (collate "C" on PostgreSQL, so both databases order alike); the key must say the same.
  const sortKey = isPostgres(db) ? sql<string>`lower(p.name) collate "C"` : sql<string>`lower(p.name)`;
  const read = (after: { name: string; id: string } | null, limit: number) => {
    let query = db
      .selectFrom("products as p")
      .leftJoin("categories as c", "c.id", "p.category_id")
      .select([...PRODUCT_CSV_COLUMNS, "c.name as category_name", sql<string>`lower(p.name)`.as("sort_name")]);
    if (after) query = query.where(sql<boolean>`(${sortKey}, p.id) > (${after.name}, ${after.id})`);
    return query.orderBy(sortKey).orderBy("p.id").limit(limit).execute() as Promise<ExportRow[]>;
  };
  for await (const rows of keysetBatches(read, (last) => ({ name: last.sort_name, id: last.id }), batchSize)) {
    const sizes = await listSizes(db, rows.map((r) => r.id), { includeHidden: true });
    const tiers = new Map<string, PriceTier[]>();
    for (let i = 0; i < sizes.length; i += 500) {
      const part = sizes.slice(i, i + 500).map((s) => s.id);
      for (const t of await db.selectFrom("product_tiers").select(["size_id", "min_quantity", "max_quantity", "price_cents"]).where("size_id", "in", part).execute()) {
        const list = tiers.get(t.size_id!) ?? [];
        list.push({ minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity), priceCents: Number(t.price_cents) });
        tiers.set(t.size_id!, list);
      }
    }
    const byProduct = new Map<string, ExportSize[]>();
    for (const s of sizes) byProduct.set(s.productId, [...(byProduct.get(s.productId) ?? []), { ...s, tiers: tiers.get(s.id) ?? [] }]);
    yield rows.map((r) => {
      const all = byProduct.get(r.id) ?? [];
      const shown = all.filter((s) => !s.hidden);
      return { ...r, sizes: shown.length ? shown : all };
    });
  }
}

/** An image as the file shows it: the shop's own paths as full addresses (they import back to the same path). */
function absoluteImage(url: string, baseUrl: string): string {
  return url.startsWith("/") ? `${baseUrl.replace(/\/+$/, "")}${url}` : url;
}

const num = (value: number | null) => (value === null ? "" : String(Number(value)));

/** One size's row: its product's cells and its own, in OUR_COLUMNS order, neutralised for spreadsheets. */
export function exportCells(p: ExportRow, size: ExportSize, baseUrl: string): string[] {
  const values: Record<(typeof OUR_COLUMNS)[number]["key"], string> = {
    sku: p.sku ?? "",
    slug: p.slug,
    name: p.name,
    category: p.category_name ?? "",
    sizeLabel: size.label,
    sizeSku: size.sku ?? "",
    price: csvAmount(size.priceCents),
    wasPrice: size.wasPriceCents === null ? "" : csvAmount(size.wasPriceCents),
    tiers: formatTiers(size.tiers),
    stock: num(size.stock),
    sizeMl: num(size.sizeMl),
    weightGrams: num(size.weightGrams),
    inspiredHouse: p.inspired_house ?? "",
    inspiredFragrance: p.inspired_fragrance ?? "",
    description: p.description,
    images: joinList(imagesOf(p.images).map((u) => absoluteImage(u, baseUrl))),
    metaTitle: p.meta_title ?? "",
    metaDesc: p.meta_desc ?? "",
    ...scentCells(profileFromRow(p)),
  };
  return OUR_COLUMNS.map((c) => neutraliseCell(values[c.key]));
}

/**
 * The whole file as a web stream: the byte-order mark, the header, then the products as they are read
 * (downloadStream: a failure mid-file ends the download with an error, a client who hangs up stops the reading).
 */
export function productsCsvStream(db: Queryable, options: { baseUrl: string; batchSize?: number }): ReadableStream<Uint8Array> {
  return downloadStream(async function* () {
    yield CSV_BOM + toCsv([OUR_COLUMNS.map((c) => c.header)]);
    for await (const batch of productBatches(db, options.batchSize)) {
      yield toCsv(batch.flatMap((p) => p.sizes.map((size) => exportCells(p, size, options.baseUrl))));
    }
  }, { name: "product export" });
}

/** A batch of records → CSV text (csv-stringify quotes what needs quoting: commas, quotes, line breaks, edge spaces). */
function toCsv(records: string[][]): string {
  return stringify(records, { record_delimiter: "\r\n", quoted_match: /^\s|\s$/ });
}

/** The download's name: scentara-products-2026-03-01.csv (the day in South Africa). */
export function productsExportFilename(shopName: string, now = new Date()): string {
  const shop = shopName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "shop";
  const day = new Date(now.getTime() + 2 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return `${shop}-products-${day}.csv`;
}
