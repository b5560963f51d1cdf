import { z } from "zod";
import { categorySlug } from "~/utils/slug";

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
