import { lineName } from "./sizes.logic";
import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { listSizes, type SizeRow } from "./sizes.server";
import { SIZE_MESSAGES, type SizeRowValues } from "./size-rows.schema";

/**
 * The owner's sizes of one product (issue 33, docs/decisions/051): the product form's sizes table written in the
 * form's transaction. A size that any order line names is never deleted (hidden instead), so old orders, invoices
 * and returns keep pointing at it.
 */

export interface AdminSize extends SizeRow {
  /** an order line names it: it can be hidden, not deleted */
  ordered: boolean;
}

/** Every size of the product, hidden ones too, in the owner's order, each saying whether it has been ordered. */
export async function listAdminSizes(db: Queryable, productId: string): Promise<AdminSize[]> {
  const sizes = await listSizes(db, [productId], { includeHidden: true });
  const ordered = await sizesOrdered(db, sizes.map((s) => s.id));
  return sizes.map((s) => ({ ...s, ordered: ordered.has(s.id) }));
}

async function sizesOrdered(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("order_lines").select("size_id").distinct().where("size_id", "in", [...ids]).execute();
  return new Set(rows.map((r) => r.size_id!));
}

/**
 * Refuses SKUs another product holds (on one of its sizes, or as its own SKU: a CSV's parent SKU), naming that product,
 * so the owner knows where to look. `fieldOf` names the form field of each SKU.
 */
export async function assertSkusFree(db: Queryable, productId: string, skus: ReadonlyArray<{ sku: string; field: string }>): Promise<void> {
  if (skus.length === 0) return;
  const wanted = skus.map((s) => s.sku);
  const [onSizes, onProducts] = await Promise.all([
    db
      .selectFrom("product_sizes as s")
      .innerJoin("products as p", "p.id", "s.product_id")
      .select(["s.sku", "s.label", "p.name"])
      .where("s.sku", "in", wanted)
      .where("s.product_id", "<>", productId)
      .execute(),
    db.selectFrom("products").select(["sku", "name"]).where("sku", "in", wanted).where("id", "<>", productId).execute(),
  ]);
  for (const { sku, field } of skus) {
    const size = onSizes.find((r) => r.sku === sku);
    const product = onProducts.find((r) => r.sku === sku);
    const holder = size ? lineName(size.name, size.label) : product?.name;
    if (holder) throw new DomainError(SIZE_MESSAGES.skuTaken(sku, holder), 409, field);
  }
}

/**
 * Writes the table: deletes the sizes ticked for it (refusing any that has been ordered), updates the others in the
 * table's order, adds the new ones. Stock is written only where the owner changed it, so a sale made while the form
 * was open stays taken. The caller refreshes the product's summary in the same transaction.
 */
export async function writeSizes(db: Queryable, productId: string, rows: readonly SizeRowValues[]): Promise<void> {
  const existing = new Map((await listSizes(db, [productId], { includeHidden: true })).map((s) => [s.id, s]));
  for (const row of rows) if (row.id && !existing.has(row.id)) throw new DomainError(SIZE_MESSAGES.gone, 409, `size.${row.index}.label`);

  const removed = rows.filter((r) => r.remove && r.id);
  const ordered = await sizesOrdered(db, removed.map((r) => r.id!));
  const refused = removed.find((r) => ordered.has(r.id!));
  if (refused) throw new DomainError(SIZE_MESSAGES.ordered(existing.get(refused.id!)!.label || refused.label), 409, `size.${refused.index}.remove`);

  const kept = rows.filter((r) => !r.remove);
  await assertSkusFree(
    db,
    productId,
    kept.flatMap((r) => (r.sku ? [{ sku: r.sku, field: `size.${r.index}.sku` }] : [])),
  );

  if (removed.length > 0) await db.deleteFrom("product_sizes").where("id", "in", removed.map((r) => r.id!)).execute();
  // Labels and SKUs may move between sizes in one save (50 ml ↔ 100 ml): free them first, so the unique code per
  // product and the unique SKU never see two sizes holding one value mid-way.
  const updated = kept.filter((r) => r.id);
  if (updated.length > 0) {
    await db
      .updateTable("product_sizes")
      .set({ code: sql`'~' || id`, sku: null })
      .where("id", "in", updated.map((r) => r.id!))
      .execute();
  }
  const now = new Date().toISOString();
  for (const [position, row] of kept.entries()) {
    const values = {
      label: row.label,
      code: row.code,
      size_ml: row.sizeMl,
      price_cents: row.priceCents,
      was_price_cents: row.wasPriceCents,
      sku: row.sku,
      weight_grams: row.weightGrams,
      position,
      hidden: row.hidden ? 1 : 0,
    };
    if (row.id) {
      await db
        .updateTable("product_sizes")
        .set({ ...values, ...(row.stock !== row.stockWas ? { stock: row.stock } : {}) })
        .where("id", "=", row.id)
        .execute();
    } else {
      await db.insertInto("product_sizes").values({ id: newId(), product_id: productId, ...values, stock: row.stock, created_at: now }).execute();
    }
  }
  // A size the form didn't show (added elsewhere while it was open) keeps its place after the table's.
  const unlisted = [...existing.values()].filter((s) => !rows.some((r) => r.id === s.id));
  for (const [i, size] of unlisted.entries()) {
    await db.updateTable("product_sizes").set({ position: kept.length + i }).where("id", "=", size.id).execute();
  }
}
