import { describe, expect, it } from "vitest";
import { shownWasPrice } from "./was-price.logic";

describe("the was price a shopper sees", () => {
  it("shows a was price above the price", () => expect(shownWasPrice(89_900, 129_900)).toBe(129_900));
  it("hides one that is not above it: equal, lower, or none", () => {
    expect(shownWasPrice(89_900, 89_900)).toBeNull();
    expect(shownWasPrice(89_900, 50_000)).toBeNull();
    expect(shownWasPrice(89_900, null)).toBeNull();
  });
});
