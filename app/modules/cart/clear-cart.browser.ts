import { clearAppliedCoupon } from "./applied-coupon.browser";
import { writeCart } from "./cart.browser";

/**
 * After a verified payment the stored cart and its applied coupon are emptied (SPEC §4). Browser only.
 * Both writers announce the change, so the header badge and any open cart view update at once.
 */
export function clearStoredCart() {
  if (typeof window === "undefined") return;
  clearAppliedCoupon();
  writeCart([]);
}
