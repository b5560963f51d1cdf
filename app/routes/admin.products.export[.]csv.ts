/**
 * GET /admin/products/export.csv — every product as a CSV (issue 20): UTF-8 with a byte-order mark, our columns
 * (app/modules/catalog-csv/csv-columns.ts), streamed as it is read. Admins only: a visitor signs in and comes back, a
 * customer gets 403. The file imports back unchanged through /admin/products/import.
 */
import { recordAdminEvent } from "~/modules/admin/admin-audit.server";
import type { Route } from "./+types/admin.products.export[.]csv";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { productsCsvStream, productsExportFilename } from "~/modules/catalog-csv/csv-export.server";
import { env } from "~/utils/env.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "products.io");
  await recordAdminEvent(getDb(), { admin, context }, { kind: "export.products", record: { type: "export", id: "products" }, summary: "Downloaded the products CSV" });
  const config = env();
  return new Response(productsCsvStream(getDb(), { baseUrl: config.PUBLIC_BASE_URL }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${productsExportFilename(config.SHOP_NAME)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
