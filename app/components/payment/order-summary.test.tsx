import { describe, expect, it } from "vitest";
import { vatNote } from "./order-summary";

describe("the order summary's VAT line", () => {
  it("says VAT is included on goods, that a gift card sold carries none (VAT Act s10(18)), and both on a mixed order", () => {
    expect(vatNote([{}, { isGiftCard: false }])).toBe("VAT included at 15%");
    expect(vatNote([{ isGiftCard: true }])).toBe("Gift cards carry no VAT when sold: VAT is charged on what they buy");
    expect(vatNote([{}, { isGiftCard: true }])).toBe("VAT included at 15%, except on gift cards");
  });
});
