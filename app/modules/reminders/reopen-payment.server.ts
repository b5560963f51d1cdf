/**
 * Where the unpaid-order reminder's link (/orders/:id/pay) takes the shopper (docs/decisions/056): their own order
 * still awaiting payment goes back to the payment page made for it at placement (orders.checkout_url: the provider's
 * checkout, or the form-post page); paid, to its confirmation; closed (expired, cancelled, failed) or never given a
 * payment page, to the cart with a message. Anyone else's order, or no such order: null (not found).
 */
import type { Queryable } from "~/db/db.server";
import { isOrderId } from "~/modules/orders/order-read.server";

export const REOPEN_CLOSED_NOTICE = "closed";

export async function reopenPaymentPath(db: Queryable, orderId: string | undefined, userId: string): Promise<string | null> {
  if (!orderId || !isOrderId(orderId)) return null;
  const order = await db.selectFrom("orders").select(["id", "user_id", "status", "payment_status", "checkout_url"]).where("id", "=", orderId).executeTakeFirst();
  if (!order || order.user_id !== userId) return null;
  if (order.payment_status === "completed") return `/order-confirmation?id=${encodeURIComponent(order.id)}`;
  if (order.status === "pending" && order.payment_status === "pending" && order.checkout_url) return order.checkout_url;
  return `/cart?order=${REOPEN_CLOSED_NOTICE}`;
}
