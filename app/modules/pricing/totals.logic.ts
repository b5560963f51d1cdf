/**
 * The cart's and the order's totals, in integer cents (pure, browser-safe; the server computes what is charged).
 *   subtotal  = Σ unit price (tier price for the line's quantity) × quantity
 *   discount  = the coupon's item discount (capped at the subtotal), plus the shipping cost for free_delivery
 *   shipping  = 0 when the total after the item discount reaches the free-delivery threshold, else the zone's rate
 *   credit    = sample credits (docs/decisions/054) on the items left after the coupon; counted in the discount
 *   referral  = a friend's reward on their first order (docs/decisions/063), on the items left after those; a discount
 *   points    = reward points spent (docs/decisions/062) on the items left after those; counted in the discount too
 *   total     = subtotal − discount + shipping  (never below 0)
 *   VAT       = included at 15%: (total − gift cards sold) × 15 / 115
 * Gift cards sold in the cart (docs/decisions/053) are outside the coupon, the delivery and the VAT: a voucher's VAT
 * is charged when it is redeemed (VAT Act s10(18)), and there is nothing to deliver. So the coupon, the threshold and
 * the delivery see the other goods only, and an order of gift cards alone has no delivery.
 */
import { vatIncluded } from "~/utils/money";
import { itemDiscountCents, type CouponTerms } from "~/modules/coupons/coupons.logic";
import { freeDeliveryRemaining, shippingCostFor, type ShippingZone } from "~/modules/shipping/shipping.logic";

export interface PricedLine {
  unitPriceCents: number;
  quantity: number;
  /** a gift card sold: no coupon, no delivery, no VAT */
  isGiftCard?: boolean;
}

export interface Totals {
  subtotalCents: number;
  discountCents: number;
  /** The delivery cost (for a free_delivery coupon it is charged and discounted in full). */
  shippingCents: number;
  totalCents: number;
  /** Only when a coupon or a sample credit applies: the total before the discount. */
  originalTotalCents: number | null;
  /** the part of discountCents that is sample credit (docs/decisions/054) */
  sampleCreditCents: number;
  /** the part of discountCents that reward points pay (docs/decisions/062) */
  pointsCents: number;
  /** the part of discountCents that is a friend's reward on their first order (docs/decisions/063) */
  referralCents: number;
  /** the goods paid for after every discount (no delivery, no gift cards sold): what reward points are earned on */
  rewardBaseCents: number;
  /** the part of the subtotal that is gift cards sold (no VAT on it) */
  giftCardLinesCents: number;
  vatIncludedCents: number;
  /** 'Spend R X more for free delivery'; 0 when delivery is already free. */
  freeDeliveryRemainingCents: number;
  /** True when the shopper pays nothing for delivery (threshold reached, a zero rate, or a free-delivery coupon). */
  deliveryFree: boolean;
}

export function lineTotalCents(line: PricedLine): number {
  return line.unitPriceCents * line.quantity;
}

export function subtotalOf(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, l) => sum + lineTotalCents(l), 0);
}

export function computeTotals(args: {
  lines: readonly PricedLine[];
  /** An accepted coupon (checked with checkCoupon first), or null. */
  coupon: Pick<CouponTerms, "discountType" | "discountValue"> | null;
  zone: ShippingZone | null;
  freeThresholdCents: number;
  /**
   * A courier option chosen at checkout (docs/decisions/031): its price replaces the zone's rate; at the threshold the
   * cheapest option of its kind is free and a faster one costs the difference.
   */
  courier?: { priceCents: number; cheapestCents: number } | null;
  /** sample credits the cart uses (docs/decisions/054), at most the items after the coupon; they leave delivery as it is */
  sampleCreditCents?: number;
  /** a friend's reward (docs/decisions/063), at most the items after the coupon and the sample credits; delivery as it is */
  referralCents?: number;
  /** reward points' worth (docs/decisions/062), at most the items after all of those; delivery as it is */
  pointsCents?: number;
}): Totals {
  const subtotalCents = subtotalOf(args.lines);
  const giftCardLinesCents = subtotalOf(args.lines.filter((l) => l.isGiftCard));
  const goodsCents = subtotalCents - giftCardLinesCents;
  const itemDiscount = args.coupon ? itemDiscountCents(args.coupon, goodsCents) : 0;
  const afterDiscount = goodsCents - itemDiscount;
  const shippingCents =
    goodsCents === 0
      ? 0
      : args.courier
        ? afterDiscount >= args.freeThresholdCents
          ? Math.max(0, args.courier.priceCents - args.courier.cheapestCents)
          : args.courier.priceCents
        : shippingCostFor({ zone: args.zone, totalAfterDiscountCents: afterDiscount, freeThresholdCents: args.freeThresholdCents });
  const freeDeliveryCoupon = args.coupon?.discountType === "free_delivery";
  const sampleCreditCents = Math.min(Math.max(0, args.sampleCreditCents ?? 0), afterDiscount);
  const referralCents = Math.min(Math.max(0, args.referralCents ?? 0), afterDiscount - sampleCreditCents);
  const pointsCents = Math.min(Math.max(0, args.pointsCents ?? 0), afterDiscount - sampleCreditCents - referralCents);
  const discountCents = itemDiscount + (freeDeliveryCoupon ? shippingCents : 0) + sampleCreditCents + referralCents + pointsCents;
  const totalCents = Math.max(0, subtotalCents - discountCents + shippingCents);
  const deliveryFree = shippingCents === 0 || freeDeliveryCoupon;
  return {
    subtotalCents,
    discountCents,
    shippingCents,
    totalCents,
    originalTotalCents: args.coupon || sampleCreditCents || referralCents || pointsCents ? subtotalCents + shippingCents : null,
    sampleCreditCents,
    pointsCents,
    referralCents,
    rewardBaseCents: afterDiscount - sampleCreditCents - referralCents - pointsCents,
    giftCardLinesCents,
    vatIncludedCents: vatIncluded(totalCents - giftCardLinesCents),
    freeDeliveryRemainingCents: deliveryFree || afterDiscount >= args.freeThresholdCents ? 0 : freeDeliveryRemaining(afterDiscount, args.freeThresholdCents),
    deliveryFree,
  };
}

/**
 * The part of a discount that is the coupon's own: what is left once the discounts with rows of their own are taken
 * out (sample credits 054, a friend's reward 063, reward points 062). Every total that shows the coupon's row uses it,
 * so a new kind of discount is taken out everywhere at once.
 */
export function couponDiscountCents(d: { discountCents: number; sampleCreditCents?: number; referralCents?: number; pointsCents?: number }): number {
  return d.discountCents - (d.sampleCreditCents ?? 0) - (d.referralCents ?? 0) - (d.pointsCents ?? 0);
}
