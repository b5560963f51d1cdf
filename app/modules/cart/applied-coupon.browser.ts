import { useSyncExternalStore } from "react";
import { COUPON_INPUT_MAX, isDiscountType } from "~/modules/coupons/coupons.logic";
import type { AppliedCoupon } from "~/modules/coupons/coupons.schema";

/**
 * The applied coupon in the browser (SPEC §3: localStorage key `appliedCoupon`, {code, discountType, discountAmount,
 * description}). Display only: the server re-validates the code whenever it quotes or places an order.
 */
export const APPLIED_COUPON_KEY = "appliedCoupon";
const EVENT = "scentara:applied-coupon";

export function parseAppliedCoupon(raw: string | null): AppliedCoupon | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as AppliedCoupon;
    if (
      v &&
      typeof v.code === "string" &&
      v.code.length > 0 &&
      v.code.length <= COUPON_INPUT_MAX &&
      isDiscountType(v.discountType) &&
      Number.isSafeInteger(v.discountAmount)
    ) {
      return { code: v.code, discountType: v.discountType, discountAmount: v.discountAmount, description: typeof v.description === "string" ? v.description : null };
    }
  } catch {
    // malformed: treated as none
  }
  return null;
}

let cachedRaw: string | null | undefined;
let cached: AppliedCoupon | null = null;

export function readAppliedCoupon(): AppliedCoupon | null {
  if (typeof window === "undefined") return null;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(APPLIED_COUPON_KEY);
  } catch {
    return null;
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parseAppliedCoupon(raw);
  }
  return cached;
}

export function writeAppliedCoupon(coupon: AppliedCoupon | null) {
  try {
    if (coupon) window.localStorage.setItem(APPLIED_COUPON_KEY, JSON.stringify(coupon));
    else window.localStorage.removeItem(APPLIED_COUPON_KEY);
  } catch {
    // storage disabled: the event still updates this page
  }
  window.dispatchEvent(new Event(EVENT));
}

export function clearAppliedCoupon() {
  writeAppliedCoupon(null);
}

function subscribe(onChange: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === APPLIED_COUPON_KEY) onChange();
  };
  window.addEventListener(EVENT, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener("storage", onStorage);
  };
}

export function useAppliedCoupon(): AppliedCoupon | null {
  return useSyncExternalStore(subscribe, readAppliedCoupon, () => null);
}
