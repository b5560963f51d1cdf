import { describe, expect, it } from "vitest";
import { gatherSizeRows, readSizeRows, SIZE_MESSAGES } from "./size-rows.schema";

describe("gatherSizeRows", () => {
  it("collects size.N.* into one sizes field in table order, leaving the product's fields as they are", () => {
    const fields = gatherSizeRows({ name: "Amber", "size.1.label": "100 ml", "size.0.label": "50 ml", "size.0.price": "450", "size.1.price": "720", "size.0.hidden": "1" });
    expect(fields.name).toBe("Amber");
    expect(JSON.parse(fields.sizes!)).toEqual([
      { label: "50 ml", price: "450", hidden: "1" },
      { label: "100 ml", price: "720" },
    ]);
  });

  it("applies the no-JavaScript ↑/↓ button's move; a move past either end changes nothing", () => {
    const rows = { "size.0.label": "A", "size.1.label": "B", "size.2.label": "C" };
    const order = (moveSize: string) => (JSON.parse(gatherSizeRows({ ...rows, moveSize }).sizes!) as Array<{ label: string }>).map((r) => r.label);
    expect(order("2:up")).toEqual(["A", "C", "B"]);
    expect(order("0:down")).toEqual(["B", "A", "C"]);
    expect(order("0:up")).toEqual(["A", "B", "C"]);
    expect(order("2:down")).toEqual(["A", "B", "C"]);
    expect(gatherSizeRows({ ...rows, moveSize: "1:up" })).not.toHaveProperty("moveSize");
  });

  it("adds no sizes field to the one-size form", () => {
    expect(gatherSizeRows({ name: "Amber", price: "450" })).toEqual({ name: "Amber", price: "450" });
  });
});

describe("readSizeRows", () => {
  const read = (rows: unknown[]) => readSizeRows(JSON.stringify(rows));

  it("reads label, millilitres, URL code, prices in cents, SKU, stock and weight; skips a new row left empty", () => {
    const result = read([{ id: "a", label: " 1.7  oz ", price: "R1 299,50", wasPrice: "1500", sku: " SC-1 ", stock: "4", stockWas: "5", weightGrams: "350 g" }, { label: "", price: "" }]);
    expect(result).toEqual({
      ok: true,
      rows: [{ id: "a", label: "1.7 oz", code: "17oz", sizeMl: 50, priceCents: 129950, wasPriceCents: 150000, sku: "SC-1", stock: 4, stockWas: 5, weightGrams: 350, hidden: false, remove: false, index: 0 }],
    });
  });

  it("lets a saved size ticked for deletion go without valid fields, and drops a new one", () => {
    const result = read([{ id: "a", label: "50 ml", price: "450" }, { id: "b", label: "", price: "x", remove: "1" }, { label: "30 ml", price: "", remove: "1" }]);
    expect(result.ok && result.rows.map((r) => [r.id, r.remove])).toEqual([
      ["a", false],
      ["b", true],
    ]);
  });

  it.each([
    [[{ label: "50 ml", price: "450", hidden: "1" }], SIZE_MESSAGES.noneShown, "sizes"],
    [[{ label: "50 ml", price: "450" }, { label: "50ML", price: "500" }], SIZE_MESSAGES.sameLabel("50 ml", "50ML"), "size.1.label"],
    [[{ label: "50 ml", price: "450", sku: "X" }, { label: "100 ml", price: "500", sku: "X" }], SIZE_MESSAGES.sameSku("X", "50 ml", "100 ml"), "size.1.sku"],
    [[{ label: "50 ml", price: "450", weightGrams: "0" }], "50 ml: Weight must be", "size.0.weightGrams"],
    [Array.from({ length: 13 }, (_, i) => ({ label: `${i + 1} ml`, price: "100" })), SIZE_MESSAGES.tooMany, "sizes"],
  ])("refuses %j", (rows, message, field) => {
    const result = read(rows);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message.startsWith(message)).toBe(true);
    expect(result.field).toBe(field);
  });

  it("refuses what isn't a list of rows", () => {
    expect(readSizeRows("{").ok).toBe(false);
    expect(readSizeRows('{"a":1}').ok).toBe(false);
  });
});
