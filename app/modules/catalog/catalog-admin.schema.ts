import { z } from "zod";
import { MAX_PARCEL_WEIGHT_KG } from "./sizes.logic";
import { parseRandToCents } from "~/utils/money";
import { categorySlug, isSlug, slugify } from "~/utils/slug";
import { INSPIRED_FRAGRANCE_MAX, INSPIRED_HOUSE_MAX } from "./inspired-by.logic";
import { PRODUCT_MESSAGES } from "./product-admin.text";

/** Admin inputs of the catalogue (browser-safe). Messages are the spec's where it has one (SPEC §5, §8). */
export const CATEGORY_MESSAGES = {
  nameRequired: "Category name is required",
  duplicate: "A category with this name already exists",
  added: (name: string) => `Category "${name}" added`,
  deleted: (name: string, moved: number) =>
    moved === 0 ? `Category "${name}" deleted` : `Category "${name}" deleted; ${moved} ${moved === 1 ? "product is" : "products are"} now uncategorised`,
  failedAdd: "Failed to add category",
  failedDelete: "Failed to delete category",
} as const;

/** The category filter's value for products without a category. */
export const UNCATEGORISED = "none";

const id = z.string().trim().min(1).max(100);

export const categoryIntent = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    name: z.string({ error: CATEGORY_MESSAGES.nameRequired }).trim().min(1, CATEGORY_MESSAGES.nameRequired).max(80, "Category name is too long"),
  }),
  z.object({ intent: z.literal("delete"), id }),
]);

/** SPEC §5: the slug is the name lower-cased with spaces turned into '-'; anything a URL can't carry is dropped. */
export function categorySlugFor(name: string): string {
  return categorySlug(name).replace(/[^a-z0-9-]+/g, "").replace(/-+/g, "-").replace(/^-|-$/g, "");
}

export const productListIntent = z.discriminatedUnion("intent", [z.object({ intent: z.literal("delete"), id })]);

// ---------------------------------------------------------------------------------------------------------------
// The product form (SPEC §5): fields in the spec's order, so the first failure is the spec's first message.

const optionalText = (max: number) =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() ?? "")
    .pipe(z.string().max(max, `At most ${max} characters`));

export const SIZE_ML_MAX = 1000;
export const SIZE_MESSAGE = `Size must be a whole number of millilitres from 1 to ${SIZE_ML_MAX}, or empty`;

/** '' (or absent) = not stated (null); otherwise whole millilitres 1–1 000. */
const sizeField = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const value = (v ?? "").trim().replace(/\s*ml$/i, "");
    if (value === "") return null;
    if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > SIZE_ML_MAX) {
      ctx.addIssue({ code: "custom", message: SIZE_MESSAGE });
      return z.NEVER;
    }
    return Number(value);
  });

/** A bottle heavier than one parcel may weigh (25 kg) could never ship: the couriers refuse it. */
export const WEIGHT_GRAMS_MAX = MAX_PARCEL_WEIGHT_KG * 1000;
export const WEIGHT_MESSAGE = `Weight must be a whole number of grams from 1 to ${String(WEIGHT_GRAMS_MAX).replace(/\B(?=(\d{3})+(?!\d))/g, " ")}, or empty for the shop's default bottle weight`;

/** '' (or absent) = the shop's default bottle weight (null, see delivery settings); otherwise whole grams 1–25 000. */
export const weightField = z
  .string()
  .optional()
  .transform((v, ctx) => {
    // "350", "350 g", "1 200" (grouped as the shop groups numbers)
    const value = (v ?? "").trim().replace(/(\d)\s*g$/i, "$1").replace(/[\s\u00a0]/g, "");
    if (value === "") return null;
    if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > WEIGHT_GRAMS_MAX) {
      ctx.addIssue({ code: "custom", message: WEIGHT_MESSAGE });
      return z.NEVER;
    }
    return Number(value);
  });

export const STOCK_MAX = 1_000_000;
export const STOCK_MESSAGE = "Stock must be a whole number from 0, or empty when you don't count this product's stock";

/** '' (or absent) = not tracked (null); otherwise a whole number 0–1 000 000. */
export const stockField = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const value = (v ?? "").trim();
    if (value === "") return null;
    if (!/^\d{1,7}$/.test(value) || Number(value) > STOCK_MAX) {
      ctx.addIssue({ code: "custom", message: STOCK_MESSAGE });
      return z.NEVER;
    }
    return Number(value);
  });

/** A price in rand as the owner types it ("349.99", "R 1 299,00"), up to R1 000 000. */
export const randField = (message: string) =>
  z.string({ error: message }).transform((v, ctx) => {
    const cents = parseRandToCents(v);
    if (cents === null || cents > 100_000_000) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return cents;
  });

/** The price before a sale (issue 32, docs/decisions/044): empty = none; the save checks it is above the price. */
export const wasPriceField = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if ((v ?? "").trim() === "") return null;
    const cents = parseRandToCents(v!);
    if (cents === null || cents > 100_000_000) {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.wasPrice });
      return z.NEVER;
    }
    return cents;
  });

export const SKU_MAX = 64;
/** '' = no SKU (null); absent = left as it is (undefined); a SKU is unique among every product's sizes (checked on save). */
export const skuField = z
  .string()
  .optional()
  .transform((v) => (v === undefined ? undefined : v.trim() || null))
  .pipe(z.string().max(SKU_MAX, `A SKU is at most ${SKU_MAX} characters`).nullable().optional());

// The product's own fields, in the spec's order around the price (which only the one-size form has).
const nameField = z.string({ error: PRODUCT_MESSAGES.nameRequired }).trim().min(1, PRODUCT_MESSAGES.nameRequired).max(120, "Product name is too long");
const productFields = {
  slug: z
    .string({ error: PRODUCT_MESSAGES.slugRequired })
    .trim()
    .min(1, PRODUCT_MESSAGES.slugRequired)
    .max(120, "The slug is too long")
    .refine(isSlug, PRODUCT_MESSAGES.slugInvalid),
  categoryId: z.string({ error: PRODUCT_MESSAGES.categoryRequired }).trim().min(1, PRODUCT_MESSAGES.categoryRequired).max(100),
  description: optionalText(5000),
  metaTitle: optionalText(200),
  metaDesc: optionalText(500),
  /** the images kept, in order (first is the main one), as JSON (paths, or a public bucket's https URLs: saveProduct keeps only
   * the shop's own images); new uploads come as files */
  images: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        const list = JSON.parse(v || "[]") as unknown;
        if (Array.isArray(list) && list.every((u) => typeof u === "string" && /^(\/|https?:\/\/)/.test(u) && u.length <= 300)) return list as string[];
      } catch {
        // fall through
      }
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.saveFailed });
      return z.NEVER;
    }),
  /** present when editing */
  id: z.string().trim().max(100).optional(),
};

export const productFormIntent = z.discriminatedUnion("intent", [
  /** The spec's form: a product sold in one size, whose price, stock and SKU are that size's (docs/decisions/049). */
  z.object({
    intent: z.literal("save"),
    name: nameField,
    price: randField(PRODUCT_MESSAGES.priceRequired),
    ...productFields,
    wasPrice: wasPriceField,
    // Beyond the spec (issue 13), after its fields so its messages come first.
    /** bottles in stock: empty = not tracked (docs/decisions/020) */
    stock: stockField,
    /** the stock the form was opened with: the stock is written only when the owner changed it (a sale meanwhile stays) */
    stockWas: stockField,
    inspiredHouse: optionalText(INSPIRED_HOUSE_MAX),
    inspiredFragrance: optionalText(INSPIRED_FRAGRANCE_MAX),
    /** bottle size in ml: empty = not stated */
    sizeMl: sizeField,
    /** one bottle's packed weight for courier quotes (issue 19): empty = the shop's default */
    weightGrams: weightField,
    sku: skuField,
  }),
  /**
   * The form with a sizes table (issue 33): each size's label, price, was price, SKU, stock and weight come as rows
   * (`size.N.*`, gathered into `sizes` by gatherSizeRows and read by readSizeRows, so a failure names its row).
   */
  z.object({
    intent: z.literal("saveSizes"),
    name: nameField,
    ...productFields,
    inspiredHouse: optionalText(INSPIRED_HOUSE_MAX),
    inspiredFragrance: optionalText(INSPIRED_FRAGRANCE_MAX),
    sizes: z.string().optional().default("[]"),
  }),
]);

export type ProductFormInput = Extract<z.infer<typeof productFormIntent>, { intent: "save" }>;
export type ProductSizesFormInput = Extract<z.infer<typeof productFormIntent>, { intent: "saveSizes" }>;

/** What the form sends before validation: a new product without a slug gets one from its name (SPEC §5). */
export function withGeneratedSlug(fields: Record<string, string>): Record<string, string> {
  if (fields.id || (fields.slug ?? "").trim()) return fields;
  return { ...fields, slug: slugify(fields.name ?? "") };
}
