import { can, type Permission } from "./permissions";

/**
 * Pages any signed-in person opens for their own records (an order's confirmation, its invoice, a return, a credit
 * note, a gift card) that staff may open for anyone's: a member of staff sees someone else's record only when their
 * role allows what it shows (issue 38); otherwise they are a customer there, and someone else's record is not found.
 */
export function staffViewer(user: { id: string; isAdmin: boolean; permissions: readonly Permission[] }, needed: Permission | readonly Permission[]) {
  return { id: user.id, isAdmin: user.isAdmin && can(user.permissions, needed) };
}

/** Invoices and credit notes: the bookkeeper's (reports), and whoever refunds (orders.money); not the packer's. */
export const INVOICE_PERMISSIONS: readonly Permission[] = ["reports", "orders.money"];
