import { describe, expect, it } from "vitest";
import { chooseZone, FALLBACK_SHIPPING_CENTS, freeDeliveryRemaining, shippingCostFor, zoneRateFor, type ShippingZone } from "./shipping.logic";

const gauteng: ShippingZone = {
  id: "z1",
  name: "Gauteng",
  baseRateCents: 9000,
  rules: [
    { minTotalCents: 30000, maxTotalCents: 49999, rateCents: 5000 },
    { minTotalCents: 0, maxTotalCents: 29999, rateCents: 6500 },
    { minTotalCents: 100000, maxTotalCents: null, rateCents: 2500 },
  ],
};
const noRules: ShippingZone = { id: "z2", name: "Rural", baseRateCents: 12000, rules: [] };
const noBase: ShippingZone = { id: "z3", name: "Islands", baseRateCents: null, rules: [{ minTotalCents: 0, maxTotalCents: 10000, rateCents: 3000 }] };

describe("zoneRateFor (SPEC §9)", () => {
  it.each([
    [gauteng, 0, 6500, "first rule from 0"],
    [gauteng, 29999, 6500, "at a rule's max (inclusive)"],
    [gauteng, 30000, 5000, "at a rule's min (inclusive)"],
    [gauteng, 49999, 5000, "inside the second rule"],
    [gauteng, 50000, 9000, "between rules: the zone's base rate"],
    [gauteng, 99999, 9000, "just below the open-ended rule: base rate"],
    [gauteng, 100000, 2500, "open-ended rule (missing max = unbounded)"],
    [gauteng, 10_000_000, 2500, "far above: still the open-ended rule"],
    [noRules, 5000, 12000, "no rules: base rate"],
    [noBase, 5000, 3000, "rule matches even without a base rate"],
    [noBase, 20000, FALLBACK_SHIPPING_CENTS, "no rule and no base rate: R70"],
    [null, 20000, FALLBACK_SHIPPING_CENTS, "no zone: R70"],
  ] as [ShippingZone | null, number, number, string][])("%#: total %i → %i (%s)", (zone, total, expected) => {
    expect(zoneRateFor(zone, total)).toBe(expected);
  });

  it("a base rate of 0 is a real rate, not 'absent'", () => {
    expect(zoneRateFor({ id: "z", name: "Free", baseRateCents: 0, rules: [] }, 100)).toBe(0);
  });
});

describe("shippingCostFor (free delivery threshold on the total after discount)", () => {
  const threshold = 59900;
  it.each([
    [gauteng, 59899, 9000, "one cent below the threshold pays"],
    [gauteng, 59900, 0, "at the threshold: free"],
    [gauteng, 80000, 0, "above: free"],
    [null, 59899, FALLBACK_SHIPPING_CENTS, "no zones below the threshold: R70"],
    [null, 59900, 0, "no zones at the threshold: free"],
    [noRules, 0, 12000, "an empty basket still quotes the zone rate"],
  ] as [ShippingZone | null, number, number, string][])("%#: %i → %i (%s)", (zone, total, expected) => {
    expect(shippingCostFor({ zone, totalAfterDiscountCents: total, freeThresholdCents: threshold })).toBe(expected);
  });
});

describe("chooseZone", () => {
  const zones = [gauteng, noRules];
  it("the chosen zone when it exists", () => expect(chooseZone(zones, "z2")).toBe(noRules));
  it("the first zone by default", () => expect(chooseZone(zones, undefined)).toBe(gauteng));
  it("an unknown id falls back to the first zone", () => expect(chooseZone(zones, "gone")).toBe(gauteng));
  it("no zones → null (R70 fallback)", () => expect(chooseZone([], "z1")).toBeNull());
});

describe("freeDeliveryRemaining", () => {
  it.each([
    [0, 59900],
    [50000, 9900],
    [59899, 1],
    [59900, 0],
    [70000, 0],
  ])("%i → %i", (total, remaining) => expect(freeDeliveryRemaining(total, 59900)).toBe(remaining));
});
