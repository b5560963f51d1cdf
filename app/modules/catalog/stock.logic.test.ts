import { describe, expect, it } from "vitest";
import { PRODUCT_QUANTITIES } from "./product.logic";
import { exceedsStock, isOutOfStock, LOW_STOCK_AT, quantitiesWithin, schemaAvailability, stockLabel, stockShortMessage, stockState } from "./stock.logic";

describe("stock as shoppers see it", () => {
  it("null is not tracked: always available, nothing to say", () => {
    expect(stockState(null)).toEqual({ kind: "untracked" });
    expect(stockLabel(null)).toBeNull();
    expect(isOutOfStock(null)).toBe(false);
    expect(exceedsStock(100, null)).toBe(false);
  });

  it("0 (or a negative that must never happen) is out of stock", () => {
    expect(stockLabel(0)).toBe("Out of stock");
    expect(isOutOfStock(0)).toBe(true);
    expect(isOutOfStock(-1)).toBe(true);
    expect(schemaAvailability(0)).toBe("https://schema.org/OutOfStock");
  });

  it(`says how many are left at ${LOW_STOCK_AT} or fewer, and nothing above`, () => {
    expect(stockLabel(1)).toBe("Only 1 left");
    expect(stockLabel(LOW_STOCK_AT)).toBe(`Only ${LOW_STOCK_AT} left`);
    expect(stockLabel(LOW_STOCK_AT + 1)).toBeNull();
    expect(schemaAvailability(LOW_STOCK_AT + 1)).toBe("https://schema.org/InStock");
  });

  it("flags a line above stock, not one at it", () => {
    expect(exceedsStock(3, 3)).toBe(false);
    expect(exceedsStock(4, 3)).toBe(true);
    expect(exceedsStock(1, 0)).toBe(true);
  });

  it("names the product and how many are left", () => {
    expect(stockShortMessage("Rose Parlour", 0)).toBe("Rose Parlour is out of stock: please remove it from your cart to check out.");
    expect(stockShortMessage("Rose Parlour", 1)).toBe("Only 1 of Rose Parlour is left: please lower the quantity to 1 to check out.");
    expect(stockShortMessage("Rose Parlour", 4)).toBe("Only 4 of Rose Parlour are left: please lower the quantity to 4 to check out.");
  });

  it("offers only the quantities the stock covers", () => {
    expect(quantitiesWithin(PRODUCT_QUANTITIES, null)).toEqual([...PRODUCT_QUANTITIES]);
    expect(quantitiesWithin(PRODUCT_QUANTITIES, 7)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(quantitiesWithin(PRODUCT_QUANTITIES, 0)).toEqual([]);
  });
});
