/**
 * A payment provider's word on a refund it accepted earlier (Yoco's refund.succeeded / refund.failed webhooks,
 * docs/decisions/041): the return's payout becomes paid, or failed (the owner then pays by EFT and records it).
 * Runs inside the webhook's transaction (flows/payment-events.server.ts applyPaymentEvent), so the event row and the change are
 * one; the return is found by the provider's refund id, never by anything the event could claim about an order.
 */
import type { Trx } from "~/db/db.server";
import type { PaymentEvent, ProviderName } from "~/modules/payments/provider";

export type RefundEventOutcome = "refund_confirmed" | "refund_failed" | "unknown_refund" | "ignored";

export async function applyRefundEvent(trx: Trx, provider: ProviderName, event: PaymentEvent): Promise<{ outcome: RefundEventOutcome; returnId: string | null; orderId: string | null }> {
  if (!event.refundId) return { outcome: "unknown_refund", returnId: null, orderId: null };
  const row = await trx
    .selectFrom("returns")
    .select(["id", "order_id", "refund_cents", "payout_status"])
    .where("refund_provider", "=", provider)
    .where("refund_reference", "=", event.refundId)
    .where("status", "=", "refunded")
    .executeTakeFirst();
  if (!row) return { outcome: "unknown_refund", returnId: null, orderId: null };
  // Only a refund still waiting for its outcome moves; a replay or a late contradiction changes nothing.
  if (row.payout_status !== "pending") return { outcome: "ignored", returnId: row.id, orderId: row.order_id };
  if (event.type === "refund.succeeded" && event.amountCents !== null && event.amountCents !== Number(row.refund_cents)) {
    return { outcome: "ignored", returnId: row.id, orderId: row.order_id };
  }
  const payout = event.type === "refund.succeeded" ? "paid" : "failed";
  await trx
    .updateTable("returns")
    .set({ payout_status: payout, updated_at: new Date().toISOString() })
    .where("id", "=", row.id)
    .where("payout_status", "=", "pending")
    .execute();
  return { outcome: payout === "paid" ? "refund_confirmed" : "refund_failed", returnId: row.id, orderId: row.order_id };
}

/**
 * Does the order paid through this checkout have a return waiting for its refund (received, not refunded yet)? Yoco
 * answers a refund request at once and may send its outcome before our refund's transaction commits.
 */
export async function returnAwaitsRefund(trx: Trx, provider: ProviderName, checkoutId: string): Promise<boolean> {
  const waiting = await trx
    .selectFrom("returns")
    .innerJoin("orders", "orders.id", "returns.order_id")
    .select("returns.id")
    .where("orders.payment_id", "=", checkoutId)
    .where("orders.payment_provider", "=", provider)
    .where("returns.status", "=", "received")
    .executeTakeFirst();
  return waiting !== undefined;
}
