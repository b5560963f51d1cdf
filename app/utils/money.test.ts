import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { centsToRand, formatAmount, formatRand, formatWholeRand, parseRandToCents, percentOf, randToCents, vatIncluded } from "./money";

describe("formatRand", () => {
  it.each([
    [0, "R0.00"],
    [5, "R0.05"],
    [99, "R0.99"],
    [34999, "R349.99"],
    [129900, "R1 299.00"],
    [100000000, "R1 000 000.00"],
    [-1500, "-R15.00"],
  ])("%i cents reads %s", (cents, text) => {
    expect(formatRand(cents)).toBe(text);
  });

  it("refuses fractions of a cent, so a float bug can't reach a price tag", () => {
    expect(() => formatRand(10.5)).toThrow(/whole cents/);
    expect(() => formatRand(Number.NaN)).toThrow();
  });

  it("round-trips any amount through parseRandToCents", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (cents) => parseRandToCents(formatRand(cents)) === cents));
  });
});

describe("formatWholeRand", () => {
  it("drops the cents only when there are none, and groups thousands as formatRand does", () => {
    expect([5000, 1250, 100_000, 99, 0].map(formatWholeRand)).toEqual(["R50", "R12.50", "R1 000", "R0.99", "R0"]);
  });
});

describe("formatAmount", () => {
  it("has no R and no grouping, for the spec's messages", () => {
    expect(formatAmount(123456)).toBe("1234.56");
    expect(formatAmount(5000)).toBe("50.00");
  });
});

describe("parseRandToCents", () => {
  it.each([
    ["349.99", 34999],
    ["R 1 299", 129900],
    ["1299,5", 129950],
    ["0", 0],
    [" 12.3 ", 1230],
    [150, 15000],
  ])("%s is %i cents", (input, cents) => {
    expect(parseRandToCents(input)).toBe(cents);
  });

  it.each(["", "abc", "-5", "1.234", "1e3", "R", "12..3"])("%s is not an amount", (input) => {
    expect(parseRandToCents(input)).toBeNull();
  });
});

describe("percentOf and VAT", () => {
  it("rounds half away from zero to the cent", () => {
    expect(percentOf(999, 10)).toBe(100); // 99.9
    expect(percentOf(1005, 10)).toBe(101); // 100.5 → 101
    expect(percentOf(50000, 100)).toBe(50000);
  });

  it("VAT included at 15% is 15/115 of the price", () => {
    expect(vatIncluded(11500)).toBe(1500);
    expect(vatIncluded(59900)).toBe(7813); // 7813.04
  });
});

describe("rand as the couriers' APIs speak it", () => {
  it("a courier's rand price is the cents the shop charges, float noise and all", () => {
    expect(randToCents(89.95)).toBe(8995); // 89.95 * 100 = 8995.000000000001
    expect(randToCents(118.45)).toBe(11845);
    expect(centsToRand(123456)).toBe(1234.56);
  });

  it("whole cents go to rand and back unchanged", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => randToCents(centsToRand(cents)) === cents));
  });
});
