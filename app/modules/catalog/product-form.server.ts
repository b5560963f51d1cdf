import { adminAction } from "~/modules/admin/admin-action.server";
import { env } from "~/utils/env.server";
import { MAX_UPLOAD_BYTES } from "~/utils/request.server";
import { saveProduct } from "./catalog-admin.server";
import { productFormIntent, withGeneratedSlug } from "./catalog-admin.schema";
import { gatherSizeRows, readSizeRows } from "./size-rows.schema";
import type { AdminActionContext } from "~/modules/admin/admin-action.server";
import type { DB } from "~/db/db.server";
import type { SaveProductInput } from "./catalog-admin.server";
import { PRODUCT_MESSAGES } from "./product-admin.text";
import { parseProfileFields, PROFILE_FIELDS } from "~/modules/scent/scent-profile";
import { DomainError } from "~/utils/errors";

/**
 * The product form's action, shared by /admin/products/add and /admin/products/edit/:id. Without JavaScript the form
 * carries its new image files (one per save: the body limit is one 5 MB image) and "remove" ticks; with JavaScript
 * images were uploaded one by one (with progress) through /admin/products/images, and the form sends their URLs.
 */
async function save(db: DB, input: SaveProductInput, { form }: AdminActionContext) {
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
  const { id, created } = await saveProduct(db, { ...input, images: input.images.filter((url) => !removed.has(url)) }, { uploads, shopName: env().SHOP_NAME, scent: profile });
  return { message: created ? PRODUCT_MESSAGES.created : PRODUCT_MESSAGES.updated, id };
}

/**
 * The product form's action, shared by /admin/products/add and /admin/products/edit/:id. Without JavaScript the form
 * carries its new image files (one per save: the body limit is one 5 MB image) and "remove" ticks; with JavaScript
 * images were uploaded one by one (with progress) through /admin/products/images, and the form sends their URLs.
 * `save` is the spec's one-size form; `saveSizes` the form with its sizes table (issue 33, docs/decisions/051).
 */
export const productFormAction = adminAction(
  productFormIntent,
  {
    save,
    saveSizes: async (db, input, context) => {
      const sizes = readSizeRows(input.sizes);
      if (!sizes.ok) throw new DomainError(sizes.message, 400, sizes.field);
      return save(db, { ...input, sizes: sizes.rows }, context);
    },
  },
  {
    permission: "products.edit",
    record: { type: "product", find: "slug", outside: true },
    failure: { save: PRODUCT_MESSAGES.saveFailed, saveSizes: PRODUCT_MESSAGES.saveFailed },
    storefront: ["save", "saveSizes"],
    maxBytes: MAX_UPLOAD_BYTES,
    prepare: (fields) => gatherSizeRows(withGeneratedSlug(fields)),
  },
);
