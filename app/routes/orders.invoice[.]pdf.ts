/**
 * GET /orders/:id/invoice.pdf — the order's (tax) invoice as a PDF download (a resource route: no page).
 * Its owner or an admin only: a visitor signs in and comes back; anyone else's order, a missing one and a malformed
 * id all answer the same 404; an unpaid order has no invoice (404 saying so).
 */
import type { Route } from "./+types/orders.invoice[.]pdf";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { INVOICE_PERMISSIONS, staffViewer } from "~/modules/accounts/staff-viewer";
import { renderInvoicePdf } from "~/modules/invoices/invoice-pdf.server";
import { getInvoiceForViewer, INVOICE_MESSAGES } from "~/modules/invoices/invoice.server";
import { errorResponse } from "~/utils/errors";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const lookup = await getInvoiceForViewer(getDb(), params.id ?? "", staffViewer(user, INVOICE_PERMISSIONS));
  if (lookup.state === "not_found") return errorResponse(INVOICE_MESSAGES.notFound, 404);
  if (lookup.state === "unpaid") return errorResponse(INVOICE_MESSAGES.unpaid, 404);
  const pdf = await renderInvoicePdf(lookup.invoice);
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${lookup.invoice.filename}"`,
      "Content-Length": String(pdf.byteLength),
      "Cache-Control": "private, no-store",
    },
  });
}
