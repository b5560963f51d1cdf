/**
 * An order's invoice for one viewer: its owner or an admin (anyone else gets "not found", exactly as for an order
 * that does not exist), and only once its payment is confirmed and its number allocated (docs/decisions/019).
 */
import type { Queryable } from "~/db/db.server";
import { getOrderForViewer } from "~/modules/samples/order-view.server";
import type { Viewer } from "~/modules/orders/order-read.server";
import { giftCardPaymentsOf } from "~/modules/gift-cards/gift-card-orders.server";
import { env, type Env } from "~/utils/env.server";
import { buildInvoiceDocument, type InvoiceDocument, type InvoiceSupplier } from "./invoice.logic";

export const INVOICE_MESSAGES = {
  notFound: "Order not found",
  unpaid: "This order has no invoice yet: an invoice is issued once its payment is confirmed.",
} as const;

export type InvoiceLookup = { state: "found"; invoice: InvoiceDocument } | { state: "not_found" } | { state: "unpaid" };

/** The supplier printed on every invoice, from the configuration (SHOP_VAT_NUMBER makes it a tax invoice). */
export function invoiceSupplier(config: Env = env()): InvoiceSupplier {
  return {
    shopName: config.SHOP_NAME,
    legalName: config.SHOP_LEGAL_NAME ?? config.SHOP_NAME,
    addressLines: config.SHOP_ADDRESS,
    vatNumber: config.SHOP_VAT_NUMBER ?? null,
    email: config.CONTACT_EMAIL,
  };
}

export async function getInvoiceForViewer(db: Queryable, orderId: string, viewer: Viewer, config: Env = env()): Promise<InvoiceLookup> {
  const order = await getOrderForViewer(db, orderId, viewer);
  if (!order) return { state: "not_found" };
  const row = await db
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.user_id")
    .select(["orders.invoice_number", "orders.invoice_issued_at", "orders.payment_method", "users.email"])
    .where("orders.id", "=", order.id)
    .executeTakeFirst();
  // A payment set back from completed (the owner's correction) keeps its number, but shows no invoice until it is
  // completed again: an unpaid order has no invoice.
  if (!row || row.invoice_number === null || row.invoice_issued_at === null || order.paymentStatus !== "completed") return { state: "unpaid" };
  return {
    state: "found",
    invoice: buildInvoiceDocument({
      supplier: invoiceSupplier(config),
      invoiceNumber: Number(row.invoice_number),
      prefix: config.INVOICE_PREFIX,
      issuedAt: row.invoice_issued_at,
      order: { ...order, giftCardPayments: await giftCardPaymentsOf(db, order.id), paymentMethod: row.payment_method },
      customerEmail: row.email,
    }),
  };
}
