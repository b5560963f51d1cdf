import { adminAction } from "~/modules/admin/admin-action.server";
import { env } from "~/utils/env.server";
import { MAX_UPLOAD_BYTES } from "~/utils/request.server";
import { saveProduct } from "./catalog-admin.server";
import { productFormIntent, withGeneratedSlug } from "./catalog-admin.schema";
import { PRODUCT_MESSAGES } from "./product-admin.text";

/**
 * The product form's action, shared by /admin/products/add and /admin/products/edit/:id. Without JavaScript the form
 * carries its new image files (one per save: the body limit is one 5 MB image) and "remove" ticks; with JavaScript
 * images were uploaded one by one (with progress) through /admin/products/images, and the form sends their URLs.
 */
export const productFormAction = adminAction(
  productFormIntent,
  {
    save: async (db, input, { form }) => {
      const removed = new Set(form.getAll("removeImage").filter((v): v is string => typeof v === "string"));
      const uploads = form.getAll("newImages").filter((v): v is File => v instanceof File);
      const { id, created } = await saveProduct(db, { ...input, images: input.images.filter((url) => !removed.has(url)) }, { uploads, shopName: env().SHOP_NAME });
      return { message: created ? PRODUCT_MESSAGES.created : PRODUCT_MESSAGES.updated, id };
    },
  },
  { failure: { save: PRODUCT_MESSAGES.saveFailed }, storefront: ["save"], maxBytes: MAX_UPLOAD_BYTES, prepare: withGeneratedSlug },
);
