import type { Route } from "./+types/admin.products.images";
import { requirePermissionAction } from "~/modules/accounts/session.server";
import { storeUploadedImage } from "~/modules/catalog/catalog-admin.server";
import { PRODUCT_MESSAGES } from "~/modules/catalog/product-admin.text";
import { DomainError, errorResponse } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { MAX_UPLOAD_BYTES, readForm } from "~/utils/request.server";

/**
 * POST /admin/products/images — one image file (`image`), checked by content and stored as WebP renditions; answers
 * { ok: true, url } for the product form to keep, or the shop's error body. The form's script posts here with
 * XMLHttpRequest so the owner sees upload progress. Admins only.
 */
export async function action({ request }: Route.ActionArgs) {
  await requirePermissionAction(request, "products.edit");
  const form = await readForm(request, { maxBytes: MAX_UPLOAD_BYTES });
  const file = form.get("image");
  if (!(file instanceof File) || file.size === 0) return errorResponse(PRODUCT_MESSAGES.notAnImage, 400);
  try {
    const url = await storeUploadedImage(file);
    return Response.json({ ok: true, url }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DomainError) return errorResponse(error.message, error.status);
    logger.error({ err: error }, "image upload failed");
    return errorResponse(PRODUCT_MESSAGES.uploadFailed, 500);
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
