import { z } from "zod";
import { parseRandToCents } from "~/utils/money";

/** The pricing page's inputs (SPEC §5: min quantity; max optional; price per unit ≥ 0). Browser-safe. */
export const TIER_MESSAGES = {
  minQuantity: "Minimum quantity must be a whole number of at least 1",
  maxQuantity: "Maximum quantity must be a whole number, at least the minimum (or empty for no maximum)",
  price: "Price per unit must be an amount of R0.00 or more",
  overlap: (range: string, size?: string) => `This range overlaps the ${size ? `${size} size's` : "product's"} ${range} tier: quantities may belong to one tier only`,
  sizeGone: "That size no longer exists: reload the page",
  added: "Pricing tier added",
  deleted: "Pricing tier deleted",
  failedAdd: "Failed to add pricing tier",
  failedDelete: "Failed to delete pricing tier",
  noTiers: "No pricing tiers defined",
  noProducts: "No products found. Add some products first.",
} as const;

const wholeNumber = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,6}$/, message)
    .transform(Number);

const id = z.string().trim().min(1).max(100);

export const tierIntent = z.discriminatedUnion("intent", [
  z
    .object({
      intent: z.literal("add"),
      productId: id,
      /** the size the tier prices (issue 33); absent: the product's first size */
      sizeId: z
        .string()
        .trim()
        .max(100)
        .optional()
        .transform((v) => v || null),
      minQuantity: wholeNumber(TIER_MESSAGES.minQuantity).pipe(z.number().min(1, TIER_MESSAGES.minQuantity)),
      maxQuantity: z
        .string()
        .optional()
        .transform((v) => v?.trim() ?? "")
        .pipe(z.union([z.literal("").transform(() => null), wholeNumber(TIER_MESSAGES.maxQuantity)])),
      price: z.string({ error: TIER_MESSAGES.price }).transform((v, ctx) => {
        const cents = parseRandToCents(v);
        if (cents === null) {
          ctx.addIssue({ code: "custom", message: TIER_MESSAGES.price });
          return z.NEVER;
        }
        return cents;
      }),
    })
    .refine((t) => t.maxQuantity === null || t.maxQuantity >= t.minQuantity, { message: TIER_MESSAGES.maxQuantity, path: ["maxQuantity"] }),
  z.object({ intent: z.literal("delete"), id }),
]);
