/**
 * The stock steps the order flows share (docs/decisions/020, 054): a paid order takes its samples' millilitres from
 * their products' bulk (samples) and its bottles from their sizes (orders → catalog); a cancelled or un-paid one gives
 * both back. Both run in the caller's transaction, beside the status change, so the two never disagree; the caller
 * raises storefrontChanged after its commit when `changed`.
 */
import type { Trx } from "~/db/db.server";
import { giveBackBottleStock, takeBottleStock, type StockOutcome } from "~/modules/orders/order-stock.server";
import { giveBackSampleStock, takeSampleStock } from "~/modules/samples/sample-orders.server";

export type { StockOutcome };

/** Takes the order's stock: samples first, then bottles (the lock order every payment keeps). Undo: giveBackOrderStock. */
export async function takeOrderStock(trx: Trx, orderId: string): Promise<StockOutcome> {
  const samples = await takeSampleStock(trx, orderId);
  const bottles = await takeBottleStock(trx, orderId);
  return { changed: bottles.changed || samples.changed.length > 0, short: [...bottles.short, ...samples.short] };
}

/** Gives back what the order's payment took (to sizes and sample bulks still counted) and clears its shortfall flags. */
export async function giveBackOrderStock(trx: Trx, orderId: string): Promise<StockOutcome> {
  const samples = await giveBackSampleStock(trx, orderId);
  const bottles = await giveBackBottleStock(trx, orderId);
  return { changed: bottles.changed || samples.length > 0, short: [] };
}
