/**
 * GET /orders/:id/gift-cards/:cardId/card.pdf — a gift card the order bought, as a printable PDF (docs/decisions/053
 * "Selling gift cards"). The order's buyer or an admin only: a visitor signs in and comes back; anyone else, another
 * order's card, a cancelled card or a missing one all answer the same 404.
 */
import type { Route } from "./+types/orders.gift-card[.]pdf";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { staffViewer } from "~/modules/accounts/staff-viewer";
import { giftCardPdfForViewer } from "~/modules/gift-cards/gift-card-sales.server";
import { isOrderId } from "~/modules/orders/order-read.server";
import { DomainError, errorResponse } from "~/utils/errors";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const orderId = params.id ?? "";
  const cardId = params.cardId ?? "";
  if (!isOrderId(orderId) || !isOrderId(cardId)) return errorResponse("Gift card not found", 404);
  try {
    const { pdf, filename } = await giftCardPdfForViewer(getDb(), orderId, cardId, staffViewer(user, "gift-cards"));
    return new Response(pdf, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Content-Length": String(pdf.byteLength),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof DomainError) return errorResponse(error.message, error.status);
    throw error;
  }
}
