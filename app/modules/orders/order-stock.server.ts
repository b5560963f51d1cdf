/**
 * Stock and orders (docs/decisions/020). An order holds stock exactly while its payment is completed and it is not
 * cancelled: the verified payment (markOrderPaid) and the owner's "payment completed" take it; cancelling a paid
 * order (or the owner taking its payment back) gives it back. Both run in the caller's transaction, beside the status
 * change, so the two never disagree.
 *
 * Stock is counted per size (docs/decisions/049): a line takes from the size it bought, and the product's summary
 * (its sizes' total) is rewritten after, in the same transaction (refreshProductSummaries).
 *
 * Taking is one conditional UPDATE per line — `stock = stock - q WHERE id = ? AND stock >= q` — so under any number of
 * concurrent payments stock never goes below 0 (SQLite: one writer at a time; PostgreSQL: the second UPDATE of a row
 * waits for the first and re-checks its WHERE on the new value). Lines are taken in product-id and size-id order, so two orders
 * with the same products lock them in the same order and cannot deadlock. A line whose product has run out by the
 * time the money arrives takes nothing and records the shortfall (stock_short): the payment stands (the money is
 * taken), and the owner sees the order flagged.
 */
import { lineName } from "~/modules/catalog/sizes.logic";
import type { Trx } from "~/db/db.server";
import { logger } from "~/utils/logger.server";
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { giveBackSampleStock, takeSampleStock } from "~/modules/samples/sample-orders.server";

export interface StockOutcome {
  /** a tracked product's stock changed (the storefront must hear of it once the transaction commits) */
  changed: boolean;
  /** lines that could not take their stock: the product had run out */
  short: Array<{ productId: string; name: string; quantity: number }>;
}

const NOTHING: StockOutcome = { changed: false, short: [] };

/**
 * Takes each line's quantity from its size's stock (tracked sizes only), or records the line as short; samples take
 * their millilitres from their products' bulk (docs/decisions/054).
 */
export async function takeOrderStock(trx: Trx, orderId: string): Promise<StockOutcome> {
  const samples = await takeSampleStock(trx, orderId);
  const bottles = await takeBottleStock(trx, orderId);
  return { changed: bottles.changed || samples.changed.length > 0, short: [...bottles.short, ...samples.short] };
}

async function takeBottleStock(trx: Trx, orderId: string): Promise<StockOutcome> {
  const lines = await trx
    .selectFrom("order_lines")
    .select(["id", "product_id", "size_id", "name", "size_label", "quantity"])
    .where("order_id", "=", orderId)
    .where("product_id", "is not", null)
    .where("size_id", "is not", null)
    .where("stock_taken", "=", 0)
    .orderBy("product_id")
    .orderBy("size_id")
    .orderBy("id")
    .execute();
  if (lines.length === 0) return NOTHING;
  const outcome: StockOutcome = { changed: false, short: [] };
  const touched: string[] = [];
  for (const line of lines) {
    const productId = line.product_id!;
    const sizeId = line.size_id!;
    const quantity = Number(line.quantity);
    if (quantity <= 0) continue;
    const taken = await trx
      .updateTable("product_sizes")
      .set((eb) => ({ stock: eb("stock", "-", quantity) }))
      .where("id", "=", sizeId)
      .where("stock", "is not", null)
      .where("stock", ">=", quantity)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      await trx.updateTable("order_lines").set({ stock_taken: quantity, stock_short: 0 }).where("id", "=", line.id).execute();
      outcome.changed = true;
      touched.push(productId);
      continue;
    }
    // Not taken: either the size isn't counted (nothing to do) or it has run out.
    const size = await trx.selectFrom("product_sizes").select("stock").where("id", "=", sizeId).executeTakeFirst();
    if (!size || size.stock === null) continue;
    await trx.updateTable("order_lines").set({ stock_short: quantity }).where("id", "=", line.id).execute();
    outcome.short.push({ productId, name: lineName(line.name, line.size_label), quantity });
  }
  await refreshProductSummaries(trx, touched);
  if (outcome.short.length) {
    logger.error({ orderId, short: outcome.short }, "stock: a paid order's product had run out when the payment was confirmed; the order is flagged for the owner");
  }
  return outcome;
}

/** Gives back what the order's payment took (to sizes and sample bulks still counted) and clears its shortfall flags. */
export async function giveBackOrderStock(trx: Trx, orderId: string): Promise<StockOutcome> {
  const samples = await giveBackSampleStock(trx, orderId);
  const bottles = await giveBackBottleStock(trx, orderId);
  return { changed: bottles.changed || samples.length > 0, short: [] };
}

async function giveBackBottleStock(trx: Trx, orderId: string): Promise<StockOutcome> {
  const lines = await trx
    .selectFrom("order_lines")
    .select(["id", "product_id", "size_id", "stock_taken", "stock_short"])
    .where("order_id", "=", orderId)
    .where((eb) => eb.or([eb("stock_taken", ">", 0), eb("stock_short", ">", 0)]))
    .orderBy("product_id")
    .orderBy("size_id")
    .orderBy("id")
    .execute();
  const touched: string[] = [];
  for (const line of lines) {
    const taken = Number(line.stock_taken);
    if (taken > 0 && line.size_id && line.product_id) {
      const back = await giveBackToSize(trx, line.size_id, taken);
      if (back) touched.push(line.product_id);
    }
    await trx.updateTable("order_lines").set({ stock_taken: 0, stock_short: 0 }).where("id", "=", line.id).execute();
  }
  await refreshProductSummaries(trx, touched);
  return { changed: touched.length > 0, short: [] };
}

/** Puts bottles back on a size's shelf when the size counts its stock; false when it doesn't (or is gone). */
export async function giveBackToSize(trx: Trx, sizeId: string, quantity: number): Promise<boolean> {
  const back = await trx
    .updateTable("product_sizes")
    .set((eb) => ({ stock: eb("stock", "+", quantity) }))
    .where("id", "=", sizeId)
    .where("stock", "is not", null)
    .executeTakeFirst();
  return Number(back.numUpdatedRows) === 1;
}
