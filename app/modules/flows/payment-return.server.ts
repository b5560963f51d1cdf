import type { DB } from "~/db/db.server";
import { cancelOrderPayment } from "./order-closed-unpaid.server";
import { findOrder } from "~/modules/orders/order-read.server";
import { shortOrderId } from "~/utils/ids";
import { confirmPaymentWithProvider } from "./payment-events.server";

/**
 * What /payment-status shows after the provider sends the buyer back. It shows the VERIFIED state of the order:
 * the return URL itself marks nothing paid. status=success on an order whose payment has not been verified yet shows
 * "confirming" (the page re-checks; the provider may be asked server to server). status=cancelled closes the buyer's
 * own pending order (coupon released).
 */
export type PaymentReturnView =
  | { view: "success"; orderId: string; shortId: string; test: boolean; totalCents: number | null }
  | { view: "confirming"; orderId: string; shortId: string }
  | { view: "failed"; orderId: string; shortId: string; test: boolean }
  | { view: "error"; message: string; httpStatus: number };

export const PAYMENT_RETURN_MESSAGES = {
  noOrder: "Order ID not found",
  unknownStatus: (status: string) => `Unknown payment status: ${status}`,
  failed: "Failed to process payment status",
} as const;

export const TEST_ORDER_ID = "test";

/** orderId=test: the screen for the status, and no order is read or touched. */
export function testOrderView(status: string | null): PaymentReturnView {
  if (status === "success") return { view: "success", orderId: TEST_ORDER_ID, shortId: TEST_ORDER_ID, test: true, totalCents: null };
  if (status === "cancelled") return { view: "failed", orderId: TEST_ORDER_ID, shortId: TEST_ORDER_ID, test: true };
  return { view: "error", message: PAYMENT_RETURN_MESSAGES.unknownStatus(status ?? ""), httpStatus: 400 };
}

export async function resolvePaymentReturn(
  db: DB,
  input: { orderId: string; status: string | null; userId: string },
): Promise<PaymentReturnView> {
  const { status } = input;
  if (status !== "success" && status !== "cancelled") {
    return { view: "error", message: PAYMENT_RETURN_MESSAGES.unknownStatus(status ?? ""), httpStatus: 400 };
  }
  let order = await findOrder(db, input.orderId);
  // Someone else's order reads as missing: the page never reveals whether it exists.
  if (!order || order.user_id !== input.userId) return { view: "error", message: PAYMENT_RETURN_MESSAGES.noOrder, httpStatus: 404 };
  const ids = { orderId: order.id, shortId: shortOrderId(order.id) };

  if (status === "cancelled" && order.status === "pending" && order.payment_status === "pending") {
    await cancelOrderPayment(db, order.id, input.userId);
    order = (await findOrder(db, order.id)) ?? order;
  }
  if (status === "success" && order.status === "pending" && order.payment_status === "pending") {
    // The webhook may still be on its way: ask the provider when it can be asked (throttled), then read again.
    if (await confirmPaymentWithProvider(db, order)) order = (await findOrder(db, order.id)) ?? order;
  }

  if (order.payment_status === "completed") return { view: "success", ...ids, test: false, totalCents: Number(order.total_amount_cents) };
  if (order.status === "pending" && order.payment_status === "pending") {
    return status === "success" ? { view: "confirming", ...ids } : { view: "failed", ...ids, test: false };
  }
  return { view: "failed", ...ids, test: false };
}
