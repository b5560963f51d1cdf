import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tierFor, tierRangeLabel, tiersOverlap, unitPriceFor, type PriceTier } from "./tiers.logic";

const tiers: PriceTier[] = [
  { minQuantity: 10, maxQuantity: null, priceCents: 25000 },
  { minQuantity: 3, maxQuantity: 5, priceCents: 32000 },
  { minQuantity: 6, maxQuantity: 9, priceCents: 29000 },
];

describe("unitPriceFor (SPEC §9 bulk tiers)", () => {
  it.each([
    [1, 34999, "below every tier: base price"],
    [2, 34999, "below every tier: base price"],
    [3, 32000, "at a tier's min_quantity"],
    [4, 32000, "inside a tier"],
    [5, 32000, "at a tier's max_quantity"],
    [6, 29000, "next tier starts"],
    [9, 29000, "at max of the middle tier"],
    [10, 25000, "open-ended tier from its min"],
    [100, 25000, "open-ended tier far above its min"],
  ])("quantity %i → %i (%s)", (quantity, expected) => {
    expect(unitPriceFor(34999, tiers, quantity)).toBe(expected);
  });

  it("no tiers: base price", () => {
    expect(unitPriceFor(34999, [], 50)).toBe(34999);
  });

  it("a gap between tiers falls back to the base price", () => {
    const gappy: PriceTier[] = [
      { minQuantity: 2, maxQuantity: 3, priceCents: 30000 },
      { minQuantity: 10, maxQuantity: 20, priceCents: 20000 },
    ];
    expect(unitPriceFor(34999, gappy, 5)).toBe(34999);
    expect(unitPriceFor(34999, gappy, 21)).toBe(34999);
    expect(unitPriceFor(34999, gappy, 20)).toBe(20000);
  });

  it("a tier priced 0 is honoured (not mistaken for 'no tier')", () => {
    expect(unitPriceFor(34999, [{ minQuantity: 1, maxQuantity: 1, priceCents: 0 }], 1)).toBe(0);
  });

  it("overlapping tiers: the one with the lowest min_quantity wins, whatever the input order", () => {
    const a = { minQuantity: 2, maxQuantity: null, priceCents: 30000 };
    const b = { minQuantity: 5, maxQuantity: null, priceCents: 20000 };
    expect(tierFor([a, b], 6)).toEqual(a);
    expect(tierFor([b, a], 6)).toEqual(a);
  });

  it("property: the price is the base price or the price of a tier that contains the quantity", () => {
    const tierArb = fc
      .record({ minQuantity: fc.integer({ min: 1, max: 100 }), span: fc.option(fc.integer({ min: 0, max: 50 })), priceCents: fc.integer({ min: 0, max: 200000 }) })
      .map(({ minQuantity, span, priceCents }) => ({ minQuantity, maxQuantity: span === null ? null : minQuantity + span, priceCents }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200000 }), fc.array(tierArb, { maxLength: 6 }), fc.integer({ min: 1, max: 100 }), (base, ts, q) => {
        const price = unitPriceFor(base, ts, q);
        const containing = ts.filter((t) => t.minQuantity <= q && (t.maxQuantity === null || t.maxQuantity >= q));
        if (containing.length === 0) expect(price).toBe(base);
        else expect(containing.map((t) => t.priceCents)).toContain(price);
      }),
    );
  });
});

describe("tiersOverlap (admin: a product's tiers never share a quantity)", () => {
  it.each([
    [{ minQuantity: 2, maxQuantity: 5 }, { minQuantity: 6, maxQuantity: null }, false],
    [{ minQuantity: 2, maxQuantity: 5 }, { minQuantity: 5, maxQuantity: 9 }, true],
    [{ minQuantity: 2, maxQuantity: null }, { minQuantity: 100, maxQuantity: 200 }, true],
    [{ minQuantity: 10, maxQuantity: 20 }, { minQuantity: 1, maxQuantity: 9 }, false],
    [{ minQuantity: 3, maxQuantity: 3 }, { minQuantity: 3, maxQuantity: null }, true],
  ])("%j and %j → %s", (a, b, overlap) => {
    expect(tiersOverlap(a, b)).toBe(overlap);
    expect(tiersOverlap(b, a)).toBe(overlap);
  });

  it("labels ranges as the owner reads them", () => {
    expect(tierRangeLabel({ minQuantity: 2, maxQuantity: 5 })).toBe("2–5");
    expect(tierRangeLabel({ minQuantity: 6, maxQuantity: null })).toBe("6+");
    expect(tierRangeLabel({ minQuantity: 3, maxQuantity: 3 })).toBe("3");
  });
});
