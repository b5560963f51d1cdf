/**
 * Returns for integration tests (docs/decisions/041): a delivered, paid order, and a return of it taken to a status
 * through the real use cases (request, approve, receive, refund by EFT), so its credit note exists when refunded.
 */
import type { DB } from "~/db/db.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { refundReturn } from "~/modules/flows/return-refunded.server";
import { approveReturn, receiveReturn } from "~/modules/returns/returns-admin.server";
import { requestReturn } from "~/modules/returns/returns.server";
import { insertAwaitingOrder } from "./payments";

/** A paid order (its invoice numbered) of this user's, delivered now: one line, R349.99, R70 delivery. */
export async function deliveredOrderOf(db: DB, userId: string) {
  const order = await insertAwaitingOrder(db, { userId });
  await db.transaction().execute((trx) => markOrderPaid(trx, order.id));
  await setOrderStatus(db, order.id, "delivered");
  return order;
}

/** A return of one unit of a fresh delivered order of this user's, taken as far as `status`. */
export async function returnOf(db: DB, userId: string, status: "requested" | "approved" | "received" | "refunded" = "requested") {
  const order = await deliveredOrderOf(db, userId);
  const { id } = await requestReturn(db, { id: userId, isAdmin: false }, { orderId: order.id, reason: "changed_mind", note: "", opened: false, lines: [{ lineId: order.lines[0]!.id, quantity: 1 }] });
  if (status !== "requested") await approveReturn(db, id, "");
  if (status === "received" || status === "refunded") await receiveReturn(db, id, {});
  if (status === "refunded") await refundReturn(db, id, { amountCents: order.lines[0]!.unitPriceCents, method: "eft", reference: "" });
  return { id, order };
}
