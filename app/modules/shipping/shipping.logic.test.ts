import { describe, expect, it } from "vitest";
import {
  chooseZone,
  FALLBACK_SHIPPING_CENTS,
  findOverlappingRule,
  freeDeliveryRemaining,
  freeDeliveryText,
  preselectZone,
  ruleMatches,
  ruleRangeLabel,
  rulesOverlap,
  shippingCostFor,
  zoneForOrder,
  zoneRateFor,
  zonesServing,
  type ShippingRule,
  type ShippingZone,
} from "./shipping.logic";

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

type Range = Pick<ShippingRule, "minTotalCents" | "maxTotalCents">;
const r = (minTotalCents: number, maxTotalCents: number | null): Range => ({ minTotalCents, maxTotalCents });

describe("rulesOverlap (ranges inclusive at both ends, in cents; a missing max is unbounded)", () => {
  it.each([
    [r(0, 29999), r(30000, 59899), false, "adjacent: the next rule starts one cent after the max"],
    [r(0, 30000), r(30000, 59899), true, "sharing one cent: the max is inclusive"],
    [r(30000, 59899), r(0, 30000), true, "the same, the other way round"],
    [r(0, 29999), r(10000, 20000), true, "one inside the other"],
    [r(10000, 20000), r(0, 29999), true, "one around the other"],
    [r(0, 29999), r(0, 29999), true, "identical"],
    [r(5000, 5000), r(5000, 5000), true, "a single-cent range and itself"],
    [r(5000, 5000), r(5001, 6000), false, "a single cent and the next range"],
    [r(59900, null), r(100000, null), true, "two unbounded ranges always overlap"],
    [r(59900, null), r(0, 59899), false, "unbounded above, and a range just below it"],
    [r(59900, null), r(0, 59900), true, "unbounded above, and a range reaching its min"],
    [r(0, null), r(123456, 123456), true, "everything, and any single cent"],
  ] as [Range, Range, boolean, string][])("%#: %j × %j → %s (%s)", (a, b, expected) => {
    expect(rulesOverlap(a, b)).toBe(expected);
    expect(rulesOverlap(b, a)).toBe(expected);
  });

  it("agrees with ruleMatches: two ranges overlap exactly when some total matches both", () => {
    const ranges = [r(0, 0), r(0, 99), r(50, 150), r(100, 199), r(150, null), r(200, null), r(199, 199)];
    for (const a of ranges) {
      for (const b of ranges) {
        let shared = false;
        for (let total = 0; total <= 300; total++) {
          if (ruleMatches({ ...a, rateCents: 0 }, total) && ruleMatches({ ...b, rateCents: 0 }, total)) shared = true;
        }
        expect(rulesOverlap(a, b), `${JSON.stringify(a)} × ${JSON.stringify(b)}`).toBe(shared);
      }
    }
  });
});

describe("findOverlappingRule", () => {
  const rules = [
    { id: "high", minTotalCents: 60000, maxTotalCents: null },
    { id: "low", minTotalCents: 0, maxTotalCents: 29999 },
    { id: "mid", minTotalCents: 30000, maxTotalCents: 59999 },
  ];
  it.each([
    [r(20000, 40000), undefined, "low", "clashes with two: the lowest is named"],
    [r(59999, 70000), undefined, "mid", "one cent into the mid rule"],
    [r(100000, null), undefined, "high", "inside the unbounded rule"],
    [r(30000, 59999), "mid", null, "editing a rule without changing it clashes with nothing"],
    [r(25000, 59999), "mid", "low", "editing a rule into its neighbour names the neighbour"],
  ] as [Range, string | undefined, string | null, string][])("%#: %j (editing %s) → %s (%s)", (candidate, exceptId, expected) => {
    expect(findOverlappingRule(rules, candidate, exceptId)?.id ?? null).toBe(expected);
  });
  it("no rules: nothing clashes", () => expect(findOverlappingRule([], r(0, null))).toBeNull());
});

describe("preselectZone and zoneForOrder (province → zone)", () => {
  const metro = { id: "gp", name: "Gauteng Metro", provinces: ["Gauteng"] };
  const rest = { id: "rest", name: "Rest of South Africa", provinces: ["Limpopo", "Free State"] };
  const cape = { id: "wc", name: "Western Cape", provinces: ["Western Cape"] };
  const unlisted = { id: "x", name: "Courier (any)" };
  const zones = [metro, rest, cape, unlisted];
  it.each([
    ["Western Cape", "wc", "the zone that serves the province"],
    ["Gauteng", "gp", "another province"],
    ["Free State", "rest", "a province in a multi-province zone"],
    ["Northern Cape", "gp", "no zone serves it: the first zone"],
    ["", "gp", "no province yet: the first zone"],
    [null, "gp", "none at all: the first zone"],
  ] as [string | null, string, string][])("%#: %s → %s (%s)", (province, expected) => {
    expect(preselectZone(zones, province)?.id).toBe(expected);
  });
  it("no zones → null", () => expect(preselectZone([], "Gauteng")).toBeNull());
  it.each([
    ["wc", "Gauteng", "wc", "the shopper's explicit choice wins, even if it doesn't list their province"],
    ["", "Western Cape", "wc", "no choice: the province's zone"],
    ["gone", "Western Cape", "wc", "an unknown zone: the province's zone"],
    [null, "Mpumalanga", "gp", "no choice, province unserved: the first zone"],
  ] as [string | null, string, string, string][])("zoneForOrder %#: zone %s, %s → %s (%s)", (zoneId, province, expected) => {
    expect(zoneForOrder(zones, zoneId, province)?.id).toBe(expected);
  });
});

describe("labels", () => {
  it.each([
    [r(0, 29999), "R0.00 – R299.99"],
    [r(59900, null), "R599.00 and more"],
    [r(100000, 250000), "R1 000.00 – R2 500.00"],
  ] as [Range, string][])("ruleRangeLabel %j → %s", (rule, label) => expect(ruleRangeLabel(rule)).toBe(label));
  it("the free-delivery promise reads the threshold it is given", () => {
    expect(freeDeliveryText(59900)).toBe("Free delivery on orders of R599.00 or more");
    expect(freeDeliveryText(50000)).toBe("Free delivery on orders of R500.00 or more");
    expect(freeDeliveryText(0)).toBe("Free delivery on every order");
  });
});

describe("zonesServing (door delivery priced by zones, docs/decisions/045)", () => {
  const metro = { id: "m", name: "Gauteng Metro", provinces: ["Gauteng"] };
  const cape = { id: "c", name: "Western Cape", provinces: ["Western Cape"] };
  const national = { id: "n", name: "National", provinces: [] as string[] };
  const rural: { id: string; name: string; provinces?: string[] } = { id: "r", name: "Rural areas" };
  const zones = [metro, national, rural, cape];

  it("the zone listing the province comes first (preselected), then every zone that lists no province, in order", () => {
    expect(zonesServing(zones, "Western Cape").map((z) => z.id)).toEqual(["c", "n", "r"]);
    expect(zonesServing(zones, "Gauteng").map((z) => z.id)).toEqual(["m", "n", "r"]);
  });

  it("leaves out zones that list only other provinces", () => {
    expect(zonesServing([metro, cape], "Limpopo")).toEqual([]);
    expect(zonesServing(zones, "Limpopo").map((z) => z.id)).toEqual(["n", "r"]);
  });

  it("no province chosen yet, or no zones: none (the R70 fallback applies)", () => {
    expect(zonesServing(zones, "")).toEqual([]);
    expect(zonesServing(zones, null)).toEqual([]);
    expect(zonesServing([], "Gauteng")).toEqual([]);
  });
});
