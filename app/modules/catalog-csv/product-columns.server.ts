import { SCENT_COLUMNS } from "~/modules/scent/scent-profile";

/**
 * The product columns a CSV row carries (on `products as p`), read alike by the export and by the import when it
 * matches a file's rows to the shop's products: a column added to the file is added here once.
 */
export const PRODUCT_CSV_COLUMNS = [
  "p.id",
  "p.sku",
  "p.slug",
  "p.name",
  "p.description",
  "p.images",
  "p.meta_title",
  "p.meta_desc",
  "p.inspired_house",
  "p.inspired_fragrance",
  ...SCENT_COLUMNS.map((c) => `p.${c}` as const),
] as const;
