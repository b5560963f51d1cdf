import { z } from "zod";
import { DISCOUNT_TYPES, endOfSastDayIso, normalizeCouponCode, startOfSastDayIso } from "./coupons.logic";
import { parseRandToCents } from "~/utils/money";

/** The coupons page (SPEC §2, §5 coupon form, §8 messages, §9 defaults). Browser-safe. */
export const COUPON_ADMIN_MESSAGES = {
  created: "Coupon created successfully!",
  updated: "Coupon updated successfully!",
  deleted: "Coupon deleted successfully!",
  activated: "Coupon activated",
  deactivated: "Coupon deactivated",
  failedSave: "Failed to save coupon",
  failedStatus: "Failed to update coupon status",
  failedDelete: "Failed to delete coupon",
  codeRequired: "Coupon code is required",
  codeTooLong: "Coupon code can be at most 20 characters",
  codeTaken: "Another coupon already has this code",
  typeRequired: "Discount type is required",
  valueRequired: "Discount value is required",
  percentRange: "A percentage is a whole number from 0 to 100",
  amount: "Enter an amount of R0.00 or more",
  maxRedemptions: "Max redemptions is a whole number of at least 1, or empty for unlimited",
  startRequired: "Start date is required",
  endRequired: "End date is required",
  endBeforeStart: "The end date can't be before the start date",
  none: "No coupons yet",
  noMatches: "No coupons match your filters",
} as const;

/** SPEC §5/§9: the admin's coupon code is trimmed, upper-cased and at most 20 characters. */
export const ADMIN_COUPON_CODE_MAX = 20;

const id = z.string().trim().min(1).max(100);
const rand = z.string().transform((v, ctx) => {
  const cents = parseRandToCents(v.trim() || "0");
  if (cents === null) {
    ctx.addIssue({ code: "custom", message: COUPON_ADMIN_MESSAGES.amount });
    return z.NEVER;
  }
  return cents;
});
const day = (message: string, toIso: (d: string) => string | null) =>
  z.string({ error: message }).transform((v, ctx) => {
    const iso = toIso(v.trim());
    if (!iso) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return iso;
  });

export const couponSaveSchema = z
  .object({
    intent: z.literal("save"),
    id: id.optional(),
    code: z
      .string({ error: COUPON_ADMIN_MESSAGES.codeRequired })
      .transform(normalizeCouponCode)
      .pipe(z.string().min(1, COUPON_ADMIN_MESSAGES.codeRequired).max(ADMIN_COUPON_CODE_MAX, COUPON_ADMIN_MESSAGES.codeTooLong).regex(/^[A-Z0-9_-]+$/, "Use letters, digits, '-' and '_' in the code")),
    discountType: z.enum(DISCOUNT_TYPES, { error: COUPON_ADMIN_MESSAGES.typeRequired }),
    /** as typed: a whole percent, or rand (fixed amount off; for free delivery, the spend that qualifies) */
    discountValue: z.string({ error: COUPON_ADMIN_MESSAGES.valueRequired }).trim().min(1, COUPON_ADMIN_MESSAGES.valueRequired),
    minimumSpend: rand.optional().transform((v) => v ?? 0),
    maxRedemptions: z
      .string()
      .optional()
      .transform((v) => v?.trim() ?? "")
      .pipe(z.union([z.literal("").transform(() => null), z.string().regex(/^\d{1,7}$/, COUPON_ADMIN_MESSAGES.maxRedemptions).transform(Number).pipe(z.number().min(1, COUPON_ADMIN_MESSAGES.maxRedemptions))])),
    startDate: day(COUPON_ADMIN_MESSAGES.startRequired, startOfSastDayIso),
    endDate: day(COUPON_ADMIN_MESSAGES.endRequired, endOfSastDayIso),
    description: z
      .string()
      .optional()
      .transform((v) => v?.trim() || null)
      .pipe(z.string().max(300).nullable()),
  })
  .transform((c, ctx) => {
    // The value's unit follows the type (docs/decisions/009): whole percent, or cents.
    let value: number | null;
    if (c.discountType === "percentage") value = /^\d{1,3}$/.test(c.discountValue) && Number(c.discountValue) <= 100 ? Number(c.discountValue) : null;
    else value = parseRandToCents(c.discountValue);
    if (value === null) {
      ctx.addIssue({ code: "custom", path: ["discountValue"], message: c.discountType === "percentage" ? COUPON_ADMIN_MESSAGES.percentRange : COUPON_ADMIN_MESSAGES.amount });
      return z.NEVER;
    }
    if (Date.parse(c.endDate) < Date.parse(c.startDate)) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: COUPON_ADMIN_MESSAGES.endBeforeStart });
      return z.NEVER;
    }
    return { ...c, discountValue: value };
  });

export const couponAdminIntent = z.discriminatedUnion("intent", [
  couponSaveSchema,
  z.object({ intent: z.literal("toggle"), id, isActive: z.enum(["true", "false"]).transform((v) => v === "true") }),
  z.object({ intent: z.literal("delete"), id }),
]);

export type CouponSaveInput = z.output<typeof couponSaveSchema>;
