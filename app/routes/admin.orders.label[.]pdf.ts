import type { Route } from "./+types/admin.orders.label[.]pdf";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { shipmentLabel } from "~/modules/couriers/shipments.server";
import { DomainError } from "~/utils/errors";

/** GET /admin/orders/:id/label.pdf — the courier's waybill label for the order's booking, to print (admins only). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "orders.fulfil");
  try {
    const { pdf, filename } = await shipmentLabel(getDb(), params.id);
    return new Response(pdf as BodyInit, { headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${filename}"`, "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof DomainError) return new Response(error.message, { status: error.status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw error;
  }
}
