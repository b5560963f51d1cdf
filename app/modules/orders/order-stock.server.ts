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
import { giveBackToSize, takeFromSize } from "~/modules/catalog/size-stock.server";

export interface StockOutcome {
  /** a tracked product's stock changed (the storefront must hear of it once the transaction commits) */
  changed: boolean;
  /** lines that could not take their stock: the product had run out */
  short: Array<{ productId: string; name: string; quantity: number }>;
}

const NOTHING: StockOutcome = { changed: false, short: [] };

/**
 * Takes each bottle line's quantity from its size's stock (tracked sizes only, through catalog), or records the line as
 * short. (Samples take their millilitres from their products' bulk in samples/; flows/order-stock.server.ts does both.)
 */
export async function takeBottleStock(trx: Trx, orderId: string): Promise<StockOutcome> {
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
    const taken = await takeFromSize(trx, sizeId, quantity);
    if (taken === "taken") {
      await trx.updateTable("order_lines").set({ stock_taken: quantity, stock_short: 0 }).where("id", "=", line.id).execute();
      outcome.changed = true;
      touched.push(productId);
      continue;
    }
    // Not taken: either the size isn't counted (nothing to do) or it has run out.
    if (taken === "untracked") continue;
    await trx.updateTable("order_lines").set({ stock_short: quantity }).where("id", "=", line.id).execute();
    outcome.short.push({ productId, name: lineName(line.name, line.size_label), quantity });
  }
  await refreshProductSummaries(trx, touched);
  if (outcome.short.length) {
    logger.error({ orderId, short: outcome.short }, "stock: a paid order's product had run out when the payment was confirmed; the order is flagged for the owner");
  }
  return outcome;
}

/** Gives back what the order's payment took from its sizes (still counted) and clears its shortfall flags. */
export async function giveBackBottleStock(trx: Trx, orderId: string): Promise<StockOutcome> {
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
