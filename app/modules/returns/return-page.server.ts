import type { Queryable } from "~/db/db.server";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { formatDateZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { getAdminReturn } from "./returns-admin.server";
import { daysUntil, nextSteps } from "./returns.logic";

/**
 * Admin → Returns → one return (app/routes/admin.returns.$id.tsx): the return and its order, its next steps, the days
 * to its refund's due date, its dates in words. The invoice and the credit note only for whoever may see invoices
 * (`invoices`; a packer sees the return without them). Null when there is no such return.
 */
export async function adminReturnPage(db: Queryable, id: string, { invoices, now = new Date() }: { invoices: boolean; now?: Date }) {
  const detail = await getAdminReturn(db, id, now);
  if (!detail) return null;
  const { ret } = detail;
  // the stat cards' short dates ("26 Nov 2026"): the long form wraps on a phone in the cards' large figures
  const day = (iso: string | null) => (iso ? formatDateZA(iso) : null);
  return {
    ...detail,
    ret: invoices ? ret : { ...ret, creditNote: null },
    steps: nextSteps(ret.status),
    days: daysUntil(ret.refundDueAt, now),
    dates: { requested: day(ret.requestedAt)!, due: day(ret.refundDueAt)!, decided: day(ret.decidedAt), received: day(ret.receivedAt), refunded: day(ret.refundedAt), delivered: day(detail.order.deliveredAt) },
    invoice: invoices && detail.order.invoiceNumber !== null ? { number: formatInvoiceNumber(detail.order.invoiceNumber, env().INVOICE_PREFIX), href: invoicePath(detail.order.id) } : null,
  };
}

export type AdminReturnPage = NonNullable<Awaited<ReturnType<typeof adminReturnPage>>>;
