import { describe, expect, it } from "vitest";
import { addLine, countItems, parseCart } from "./cart.browser";

const rose = { id: "p1", name: "Velvet Rose", price: 45000, quantity: 1 };

describe("cart storage", () => {
  it("adding a product already in the cart adds to its quantity", () => {
    const once = addLine([], rose);
    const twice = addLine(once, { ...rose, quantity: 3 });
    expect(twice).toEqual([{ ...rose, quantity: 4 }]);
    expect(countItems(twice)).toBe(4);
  });

  it("keeps other lines in their order", () => {
    const lines = addLine(addLine([rose], { id: "p2", name: "Oud", price: 100, quantity: 2 }), { ...rose, quantity: 1 });
    expect(lines.map((l) => [l.id, l.quantity])).toEqual([
      ["p1", 2],
      ["p2", 2],
    ]);
  });

  it("drops malformed stored data instead of breaking the page", () => {
    expect(parseCart("not json")).toEqual([]);
    expect(parseCart('{"id":1}')).toEqual([]);
    expect(parseCart(JSON.stringify([rose, { id: "x", name: "bad", price: 1.5, quantity: 1 }, { ...rose, id: "y", quantity: 0 }]))).toEqual([rose]);
  });
});
