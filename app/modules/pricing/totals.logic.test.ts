import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ShippingZone } from "~/modules/shipping/shipping.logic";
import { DISCOUNT_TYPES, type DiscountType } from "~/modules/coupons/coupons.logic";
import { computeTotals } from "./totals.logic";

const T = 59900;
const zone: ShippingZone = { id: "z", name: "Gauteng", baseRateCents: 9000, rules: [{ minTotalCents: 0, maxTotalCents: 29999, rateCents: 6500 }] };
const line = (unitPriceCents: number, quantity = 1) => ({ unitPriceCents, quantity });

describe("computeTotals", () => {
  it.each<[string, Parameters<typeof computeTotals>[0], Partial<ReturnType<typeof computeTotals>>]>([
    [
      "no coupon, no zones: R70 fallback, hint, VAT included",
      { lines: [line(34999)], coupon: null, zone: null, freeThresholdCents: T },
      { subtotalCents: 34999, discountCents: 0, shippingCents: 7000, totalCents: 41999, originalTotalCents: null, vatIncludedCents: 5478, freeDeliveryRemainingCents: 24901, deliveryFree: false },
    ],
    [
      "at the threshold: free delivery, no hint",
      { lines: [line(29950, 2)], coupon: null, zone: null, freeThresholdCents: T },
      { subtotalCents: 59900, shippingCents: 0, totalCents: 59900, freeDeliveryRemainingCents: 0, deliveryFree: true },
    ],
    [
      "percentage coupon pushes the total below the threshold: shipping charged on the discounted total",
      { lines: [line(60000)], coupon: { discountType: "percentage", discountValue: 10 }, zone, freeThresholdCents: T },
      { subtotalCents: 60000, discountCents: 6000, shippingCents: 9000, totalCents: 63000, originalTotalCents: 69000, freeDeliveryRemainingCents: 5900 },
    ],
    [
      "zone rule by the total after discount",
      { lines: [line(30000)], coupon: { discountType: "fixed_amount", discountValue: 5000 }, zone, freeThresholdCents: T },
      { subtotalCents: 30000, discountCents: 5000, shippingCents: 6500, totalCents: 31500 },
    ],
    [
      "fixed coupon larger than the subtotal: total is just shipping, never negative",
      { lines: [line(5000)], coupon: { discountType: "fixed_amount", discountValue: 20000 }, zone: null, freeThresholdCents: T },
      { subtotalCents: 5000, discountCents: 5000, shippingCents: 7000, totalCents: 7000 },
    ],
    [
      "free_delivery coupon: the discount is the shipping cost",
      { lines: [line(34999)], coupon: { discountType: "free_delivery", discountValue: 30000 }, zone, freeThresholdCents: T },
      { subtotalCents: 34999, discountCents: 9000, shippingCents: 9000, totalCents: 34999, originalTotalCents: 43999, freeDeliveryRemainingCents: 0, deliveryFree: true },
    ],
    [
      "free_delivery coupon above the threshold: nothing to discount",
      { lines: [line(70000)], coupon: { discountType: "free_delivery", discountValue: 0 }, zone, freeThresholdCents: T },
      { discountCents: 0, shippingCents: 0, totalCents: 70000 },
    ],
    [
      "empty cart: all zero",
      { lines: [], coupon: null, zone, freeThresholdCents: T },
      { subtotalCents: 0, shippingCents: 0, totalCents: 0, vatIncludedCents: 0 },
    ],
    [
      "VAT included is total × 15/115, rounded",
      { lines: [line(11500)], coupon: null, zone: { ...zone, rules: [], baseRateCents: 0 }, freeThresholdCents: T },
      { totalCents: 11500, vatIncludedCents: 1500, deliveryFree: true, freeDeliveryRemainingCents: 0 },
    ],
  ])("%s", (_n, input, expected) => {
    expect(computeTotals(input)).toMatchObject(expected);
  });
});

describe("computeTotals properties", () => {
  const lines = fc.array(fc.record({ unitPriceCents: fc.integer({ min: 0, max: 500000 }), quantity: fc.integer({ min: 1, max: 100 }) }), { maxLength: 8 });
  const coupon = fc.option(
    fc.record({
      discountType: fc.constantFrom<DiscountType>(...DISCOUNT_TYPES),
      discountValue: fc.integer({ min: 0, max: 10_000_000 }),
    }).map((c) => (c.discountType === "percentage" ? { ...c, discountValue: c.discountValue % 101 } : c)),
  );
  const zoneArb = fc.option(
    fc.record({
      id: fc.constant("z"),
      name: fc.constant("Z"),
      baseRateCents: fc.option(fc.integer({ min: 0, max: 50000 })),
      rules: fc.array(
        fc.record({ minTotalCents: fc.integer({ min: 0, max: 100000 }), span: fc.option(fc.integer({ min: 0, max: 100000 })), rateCents: fc.integer({ min: 0, max: 50000 }) })
          .map(({ minTotalCents, span, rateCents }) => ({ minTotalCents, maxTotalCents: span === null ? null : minTotalCents + span, rateCents })),
        { maxLength: 4 },
      ),
    }),
  );
  const threshold = fc.integer({ min: 0, max: 200000 });

  it("total ≥ 0, total = subtotal − discount + shipping, discount ≤ subtotal + shipping, all whole cents", () => {
    fc.assert(
      fc.property(lines, coupon, zoneArb, threshold, (ls, c, z, t) => {
        const r = computeTotals({ lines: ls, coupon: c, zone: z, freeThresholdCents: t });
        expect(r.totalCents).toBeGreaterThanOrEqual(0);
        expect(r.totalCents).toBe(r.subtotalCents - r.discountCents + r.shippingCents);
        expect(r.discountCents).toBeGreaterThanOrEqual(0);
        expect(r.discountCents).toBeLessThanOrEqual(r.subtotalCents + r.shippingCents);
        expect(r.subtotalCents).toBe(ls.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0));
        for (const v of [r.subtotalCents, r.discountCents, r.shippingCents, r.totalCents, r.vatIncludedCents, r.freeDeliveryRemainingCents]) {
          expect(Number.isSafeInteger(v)).toBe(true);
        }
        expect(r.vatIncludedCents).toBeLessThanOrEqual(r.totalCents);
        if (c) expect(r.originalTotalCents).toBe(r.subtotalCents + r.shippingCents);
        else expect(r.originalTotalCents).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it("delivery is free whenever the total after the item discount reaches the threshold", () => {
    fc.assert(
      fc.property(lines, coupon, zoneArb, threshold, (ls, c, z, t) => {
        const r = computeTotals({ lines: ls, coupon: c, zone: z, freeThresholdCents: t });
        const itemDiscount = c?.discountType === "free_delivery" ? 0 : r.discountCents;
        if (r.subtotalCents - itemDiscount >= t) expect(r.shippingCents).toBe(0);
        else if (r.shippingCents > 0 && c?.discountType !== "free_delivery") expect(r.freeDeliveryRemainingCents).toBe(t - (r.subtotalCents - itemDiscount));
      }),
      { numRuns: 300 },
    );
  });
});
