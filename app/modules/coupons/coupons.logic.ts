/**
 * Coupon rules (SPEC §4, §5, §7, §9), pure and browser-safe. The server applies them to the database's coupon row;
 * nothing here trusts what a browser says a coupon is worth.
 *
 * Values (docs/decisions/009-readings-of-the-spec-money-terms.md):
 * - percentage: discount_value is a whole percent (0–100) of the pre-discount subtotal;
 * - fixed_amount: discount_value is cents off, capped at the subtotal;
 * - free_delivery: discount_value is the minimum spend (cents) to qualify; the discount is the shipping cost.
 * minimum_spend applies to every type. The end date counts to the end of its day in South Africa (SAST, UTC+2).
 */
import { DISCOUNT_TYPES, type DiscountType } from "~/db/schema";
import { formatRand, percentOf } from "~/utils/money";

export { DISCOUNT_TYPES, type DiscountType };

export function isDiscountType(value: unknown): value is DiscountType {
  return (DISCOUNT_TYPES as readonly unknown[]).includes(value);
}

export interface CouponTerms {
  code: string;
  discountType: DiscountType;
  discountValue: number;
  minimumSpendCents: number;
  /** null: unlimited */
  maxRedemptions: number | null;
  timesRedeemed: number;
  /** ISO timestamps */
  startDate: string;
  endDate: string;
  isActive: boolean;
  description: string | null;
}

export const COUPON_MESSAGES = {
  empty: "Please enter a coupon code",
  invalid: "Invalid coupon code",
  failed: "Failed to validate coupon",
  inactive: "This coupon is no longer active",
  notStarted: "This coupon is not valid yet",
  expired: "This coupon has expired",
  exhausted: "This coupon has reached its redemption limit",
  minimumSpend: (cents: number) => `A minimum spend of ${formatRand(cents)} is required for this coupon`,
  applied: (amount: string) => `Coupon applied! You saved R${amount}`,
} as const;

/** Customer coupon entry (SPEC §5): trimmed, upper case, at most 50 characters (couponCodeSchema checks the length). */
export const COUPON_INPUT_MAX = 50;
export function normalizeCouponCode(input: string): string {
  return input.trim().toUpperCase();
}

const SAST_OFFSET_MS = 2 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The last millisecond of the South African calendar day that contains `iso` (23:59:59.999 SAST), as epoch ms. */
export function endOfSastDay(iso: string): number {
  const local = Date.parse(iso) + SAST_OFFSET_MS;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS;
  return dayStart + DAY_MS - 1 - SAST_OFFSET_MS;
}

/** The spend a coupon needs: its minimum spend, and for free delivery also its value (the qualifying spend). */
export function requiredSpendCents(coupon: Pick<CouponTerms, "discountType" | "discountValue" | "minimumSpendCents">): number {
  const base = Math.max(0, coupon.minimumSpendCents);
  return coupon.discountType === "free_delivery" ? Math.max(base, coupon.discountValue) : base;
}

export type CouponCheck = { ok: true } | { ok: false; error: string };

/**
 * Whether a coupon may be used now for a pre-discount subtotal. The checks, in order: exists, active, started,
 * not past the end of its end day, redemptions left, minimum spend met.
 */
export function checkCoupon(
  coupon: CouponTerms | null | undefined,
  args: { subtotalCents: number; now: Date | number },
): CouponCheck {
  if (!coupon) return { ok: false, error: COUPON_MESSAGES.invalid };
  const now = typeof args.now === "number" ? args.now : args.now.getTime();
  if (!coupon.isActive) return { ok: false, error: COUPON_MESSAGES.inactive };
  if (now < Date.parse(coupon.startDate)) return { ok: false, error: COUPON_MESSAGES.notStarted };
  if (now > endOfSastDay(coupon.endDate)) return { ok: false, error: COUPON_MESSAGES.expired };
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return { ok: false, error: COUPON_MESSAGES.exhausted };
  }
  const required = requiredSpendCents(coupon);
  if (args.subtotalCents < required) return { ok: false, error: COUPON_MESSAGES.minimumSpend(required) };
  return { ok: true };
}

/** The discount on the items (percentage, fixed amount), never more than the subtotal; free delivery gives 0 here. */
export function itemDiscountCents(coupon: Pick<CouponTerms, "discountType" | "discountValue">, subtotalCents: number): number {
  const subtotal = Math.max(0, subtotalCents);
  switch (coupon.discountType) {
    case "percentage": {
      const percent = Math.min(100, Math.max(0, coupon.discountValue));
      return Math.min(subtotal, percentOf(subtotal, percent));
    }
    case "fixed_amount":
      return Math.min(subtotal, Math.max(0, coupon.discountValue));
    case "free_delivery":
      return 0;
  }
}

// --- the admin's view (SPEC §4 "Coupon display status (admin)") ---

export type CouponDisplayStatus = "Expired" | "Scheduled" | "Active" | "Inactive";
export const COUPON_STATUS_FILTERS = ["active", "inactive", "expired"] as const;
export type CouponStatusFilter = (typeof COUPON_STATUS_FILTERS)[number];

/** Expired if the end date is past; else Scheduled if the start is in the future; else Active if on; else Inactive. */
export function couponDisplayStatus(coupon: Pick<CouponTerms, "startDate" | "endDate" | "isActive">, now = Date.now()): CouponDisplayStatus {
  if (now > endOfSastDay(coupon.endDate)) return "Expired";
  if (now < Date.parse(coupon.startDate)) return "Scheduled";
  return coupon.isActive ? "Active" : "Inactive";
}

/** SPEC §4 filters: active = on and not expired; inactive = off; expired = end date past. */
export function matchesStatusFilter(coupon: Pick<CouponTerms, "startDate" | "endDate" | "isActive">, filter: CouponStatusFilter, now = Date.now()): boolean {
  const expired = now > endOfSastDay(coupon.endDate);
  if (filter === "expired") return expired;
  if (filter === "inactive") return !coupon.isActive;
  return coupon.isActive && !expired;
}

const SAST_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date the admin picked (YYYY-MM-DD, South African calendar day) → the first millisecond of it, as ISO. */
export function startOfSastDayIso(day: string): string | null {
  if (!SAST_DAY.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00.000+02:00`);
  // An impossible day (30 February) is refused, not rolled over into March.
  if (Number.isNaN(ms) || sastDay(new Date(ms).toISOString()) !== day) return null;
  return new Date(ms).toISOString();
}

/** …and the last millisecond of it (SPEC §5: the end date is stored as the end of that day). */
export function endOfSastDayIso(day: string): string | null {
  const start = startOfSastDayIso(day);
  return start ? new Date(endOfSastDay(start)).toISOString() : null;
}

/** An ISO timestamp → its South African calendar day (YYYY-MM-DD), for date inputs. */
export function sastDay(iso: string): string {
  return new Date(Date.parse(iso) + SAST_OFFSET_MS).toISOString().slice(0, 10);
}
