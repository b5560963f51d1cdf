import { describe, expect, it } from "vitest";
import { chooseCredits, cleanPicks, DISCOVERY_SET_ID, parseSetToken, sampleKindOf, SAMPLE_SIZE_ID, setCredits, setToken } from "./samples.logic";

describe("samples.logic", () => {
  it("a set's credits add up to its price, odd cents to the first samples", () => {
    expect(setCredits(15000, 5)).toEqual([3000, 3000, 3000, 3000, 3000]);
    expect(setCredits(14999, 5)).toEqual([3000, 3000, 3000, 3000, 2999]);
    expect(setCredits(14999, 5).reduce((a, b) => a + b, 0)).toBe(14999);
  });

  it("cart lines carry a sample or a set by their size token", () => {
    expect(sampleKindOf({ productId: "p1", sizeId: SAMPLE_SIZE_ID })).toBe("sample");
    expect(sampleKindOf({ productId: DISCOVERY_SET_ID, sizeId: setToken(["a", "b"]) })).toBe("set");
    expect(sampleKindOf({ productId: "p1", sizeId: "s1" })).toBeNull();
    expect(parseSetToken(DISCOVERY_SET_ID, setToken(["a", "b", "c"]))).toEqual(["a", "b", "c"]);
    expect(parseSetToken("p1", setToken(["a"]))).toBeNull();
  });

  it("one credit per bottle, the soonest to expire first, never more than the line or what is left to pay", () => {
    const credits = [
      { id: "late", productId: "p", name: "P", amountCents: 3500, expiresAt: "2026-05-01T00:00:00.000Z" },
      { id: "soon", productId: "p", name: "P", amountCents: 3500, expiresAt: "2026-04-01T00:00:00.000Z" },
      { id: "q", productId: "q", name: "Q", amountCents: 3500, expiresAt: "2026-04-01T00:00:00.000Z" },
    ];
    expect(chooseCredits(credits, [{ productId: "p", quantity: 1, lineTotalCents: 90000 }], 90000).map((c) => c.id)).toEqual(["soon"]);
    expect(chooseCredits(credits, [{ productId: "p", quantity: 2, lineTotalCents: 180000 }], 180000).map((c) => c.id)).toEqual(["soon", "late"]);
    expect(chooseCredits(credits, [{ productId: "p", quantity: 1, lineTotalCents: 2000 }], 2000)).toEqual([{ id: "soon", productId: "p", name: "P", amountCents: 2000 }]);
    expect(chooseCredits(credits, [{ productId: "p", quantity: 2, lineTotalCents: 180000 }], 5000).map((c) => c.amountCents)).toEqual([3500, 1500]);
  });

  it("a set page keeps known, distinct picks up to the set's size and names the rest", () => {
    expect(cleanPicks(["a", "x", "a", "b", "c"], new Set(["a", "b", "c"]), 2)).toEqual({ picks: ["a", "b"], ignored: ["x"] });
  });
});
