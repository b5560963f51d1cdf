/**
 * The shop's sales for a range of South African days: the one definition the dashboard and the accountant's export
 * share (issue 20), so their totals agree.
 *
 * A sale is an order whose payment is completed (payment_status 'completed': the provider confirmed it, or the owner
 * marked a bank transfer paid), counted on the day it was placed (created_at, South African time), whatever its order
 * status. Every amount is in cents and VAT-inclusive, as stored on the order.
 */
import type { Queryable } from "~/db/db.server";
import { daySums, PAID } from "~/modules/order-days/order-days.server";
import { rangeBounds, type DayRange } from "~/utils/sa-days";

export interface SalesTotals {
  /** paid orders placed in the range */
  orders: number;
  /** what they paid: the sum of their totals (VAT included) */
  revenueCents: number;
  /** the lines at the prices charged, before discounts and delivery */
  subtotalCents: number;
  discountCents: number;
  deliveryCents: number;
  /**
   * The VAT (15 %) contained in the revenue, as the invoices state it: round(total × 15 / 115) per order, summed
   * (invoice.logic vatInInclusiveTotal; its integer form floor((6t + 23) / 46) here, so each order's VAT is exactly
   * its invoice's).
   */
  vatCents: number;
  /**
   * What was refunded on those orders (their credit notes, docs/decisions/041), whenever it was refunded: the revenue
   * stays what the invoices say, and the refunds stand beside it, as the export's Refunds column has them.
   */
  refundedCents: number;
}


export async function salesTotals(db: Queryable, range: DayRange): Promise<SalesTotals> {
  const { start, end } = rangeBounds(range);
  const refunds = db
    .selectFrom("returns as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select((eb) => eb.fn.sum<number>("r.refund_cents").as("refunded"))
    .where("r.status", "=", "refunded")
    .where("o.payment_status", "=", PAID)
    .where("o.created_at", ">=", start)
    .where("o.created_at", "<", end)
    .executeTakeFirst();
  const totals = daySums(db, range, "order_day_totals", { group: [], sums: ["orders", "revenue", "subtotal", "discount", "shipping", "vat"], paidOnly: true });
  const [[row], refunded] = await Promise.all([totals, refunds]);
  return {
    orders: row?.orders ?? 0,
    revenueCents: row?.revenue ?? 0,
    subtotalCents: row?.subtotal ?? 0,
    discountCents: row?.discount ?? 0,
    deliveryCents: row?.shipping ?? 0,
    vatCents: row?.vat ?? 0,
    refundedCents: Number(refunded?.refunded ?? 0),
  };
}
