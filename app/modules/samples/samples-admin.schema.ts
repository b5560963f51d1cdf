/** Admin → Samples: the catalogue's sample settings and one product's choice (browser-safe). */
import { z } from "zod";
import { parseRandToCents } from "~/utils/money";
import { SET_SIZE_MAX, SET_SIZE_MIN } from "./samples.logic";

export const SAMPLE_ADMIN_MESSAGES = {
  price: "Sample price must be an amount of R0.00 or more",
  setPrice: "Set price must be an amount of R0.00 or more",
  setSize: `A discovery set holds ${SET_SIZE_MIN} to ${SET_SIZE_MAX} samples`,
  creditDays: "The credit window is 1 to 365 days",
  bulkMl: "Bulk is a whole number of millilitres (or empty: not tracked)",
  saved: "Sample settings saved",
  productSaved: "Product sample settings saved",
  failed: "Failed to save sample settings",
  productGone: "That product no longer exists",
} as const;

const rand = (message: string) =>
  z.string({ error: message }).transform((v, ctx) => {
    const cents = parseRandToCents(v);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return cents;
  });

const whole = (message: string, min: number, max: number) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

export const sampleAdminIntent = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("settings"),
    // a checkbox: present when ticked
    enabled: z.string().optional().transform((v) => v === "on" || v === "1" || v === "true"),
    price: rand(SAMPLE_ADMIN_MESSAGES.price),
    setSize: whole(SAMPLE_ADMIN_MESSAGES.setSize, SET_SIZE_MIN, SET_SIZE_MAX),
    setPrice: rand(SAMPLE_ADMIN_MESSAGES.setPrice),
    creditDays: whole(SAMPLE_ADMIN_MESSAGES.creditDays, 1, 365),
  }),
  z.object({
    intent: z.literal("product"),
    productId: z.string().trim().min(1).max(100),
    offered: z.enum(["catalogue", "on", "off"]),
    bulkMl: z
      .string()
      .optional()
      .transform((v) => v?.trim() ?? "")
      .pipe(z.union([z.literal("").transform(() => null), whole(SAMPLE_ADMIN_MESSAGES.bulkMl, 0, 1_000_000)])),
  }),
]);
