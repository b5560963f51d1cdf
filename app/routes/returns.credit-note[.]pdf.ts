/**
 * GET /returns/:id/credit-note.pdf — a refund's credit note as a PDF download (docs/decisions/041), drawn like the
 * invoice. The order's owner or an admin: a visitor signs in and comes back; anyone else's, a missing one, a return not
 * refunded and a malformed id all answer the same 404.
 */
import type { Route } from "./+types/returns.credit-note[.]pdf";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { INVOICE_PERMISSIONS, staffViewer } from "~/modules/accounts/staff-viewer";
import { CREDIT_NOTE_NOT_FOUND, getCreditNoteForViewer } from "~/modules/returns/credit-note.server";
import { renderInvoicePdf } from "~/modules/invoices/invoice-pdf.server";
import { errorResponse } from "~/utils/errors";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const note = await getCreditNoteForViewer(getDb(), params.id ?? "", staffViewer(user, INVOICE_PERMISSIONS));
  if (!note) return errorResponse(CREDIT_NOTE_NOT_FOUND, 404);
  const pdf = await renderInvoicePdf(note);
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${note.filename}"`,
      "Content-Length": String(pdf.byteLength),
      "Cache-Control": "private, no-store",
    },
  });
}
