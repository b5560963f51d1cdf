/**
 * An order that gift cards pay in full needs no payment provider (docs/decisions/053): once placed, it is paid at once
 * through the same markOrderPaid as a verified card payment (processing, stock taken, invoice number allocated), and
 * the shopper goes straight to the confirmation. Kept out of gift-card-orders.server.ts: orders import that file.
 */
import type { DB } from "~/db/db.server";
import { sendOrderPaidEmails } from "~/modules/orders/order-emails.server";
import { markOrderPaid } from "~/modules/orders/order-payment.server";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";

/** orders.payment_provider of an order paid wholly by gift cards */
export const GIFT_CARD_PROVIDER = "gift_card";

/** Marks the placed order paid by its gift cards; false when it was no longer pending (paid or closed meanwhile). */
export async function payOrderWithGiftCards(db: DB, orderId: string, now: Date = new Date()): Promise<boolean> {
  const paid = await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("orders")
      .set({ payment_provider: GIFT_CARD_PROVIDER, updated_at: now.toISOString() })
      .where("id", "=", orderId)
      .where("status", "=", "pending")
      .where("payment_status", "=", "pending")
      .whereRef("gift_card_cents", ">=", "total_amount_cents")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    return markOrderPaid(trx, orderId, now);
  });
  if (!paid) return false;
  logger.info({ orderId }, "payment: order paid in full by gift cards");
  if (paid.stock.changed) storefrontChanged(`stock: order ${orderId} paid by gift card`);
  await sendOrderPaidEmails(db, orderId);
  return true;
}
