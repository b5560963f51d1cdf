import { z } from "zod";
import { COUPON_INPUT_MAX, COUPON_MESSAGES, normalizeCouponCode, type DiscountType } from "./coupons.logic";

/** The coupon code a customer typed: trimmed, upper case, 1–50 characters (SPEC §5). */
export const couponCodeSchema = z
  .string()
  .transform(normalizeCouponCode)
  .pipe(z.string().min(1, COUPON_MESSAGES.empty).max(COUPON_INPUT_MAX, COUPON_MESSAGES.invalid));

/** What the browser keeps under localStorage 'appliedCoupon' (display only; the server re-validates). */
export interface AppliedCoupon {
  code: string;
  discountType: DiscountType;
  /** cents */
  discountAmount: number;
  description: string | null;
}

/** The remote function's answer (SPEC §7 validate_and_apply_coupon); discount_amount is in cents. */
export interface CouponValidation {
  valid: boolean;
  code: string;
  discount_type: AppliedCoupon["discountType"] | null;
  discount_amount: number;
  description: string | null;
  error: string | null;
}
