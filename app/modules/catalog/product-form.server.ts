import { adminAction } from "~/modules/admin/admin-action.server";
import { env } from "~/utils/env.server";
import { MAX_UPLOAD_BYTES } from "~/utils/request.server";
import { saveProduct } from "./catalog-admin.server";
import { productFormIntent, withGeneratedSlug } from "./catalog-admin.schema";
import { PRODUCT_MESSAGES } from "./product-admin.text";
import { parseProfileFields, PROFILE_FIELDS } from "~/modules/scent/scent-profile";
import { DomainError } from "~/utils/errors";

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
      // the scent profile (issue 22): its own parser, since seasons are repeated checkboxes; a bad value is refused
      // by name like any other field, and nothing is saved
      const text = (name: string) => {
        const v = form.get(name);
        return typeof v === "string" ? v : "";
      };
      const { profile, errors } = parseProfileFields(text, (name) => form.getAll(name).filter((v): v is string => typeof v === "string"));
      const failed = (Object.keys(errors) as Array<keyof typeof errors>)[0];
      if (failed) throw new DomainError(errors[failed]!, 400, PROFILE_FIELDS[failed]);
      const { id, created } = await saveProduct(
        db,
        { ...input, images: input.images.filter((url) => !removed.has(url)) },
        { uploads, shopName: env().SHOP_NAME, scent: profile },
      );
      return { message: created ? PRODUCT_MESSAGES.created : PRODUCT_MESSAGES.updated, id };
    },
  },
  { failure: { save: PRODUCT_MESSAGES.saveFailed }, storefront: ["save"], maxBytes: MAX_UPLOAD_BYTES, prepare: withGeneratedSlug },
);
