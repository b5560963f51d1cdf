import { describe, expect, it } from "vitest";
import { changeBetween, changeRows, parseActivityQuery, recordHref } from "./activity.logic";

describe("the change between two snapshots", () => {
  it("keeps only the fields that differ, a size named by its label, JSON text read as JSON, 1/0 the same as true/false", () => {
    const before = { name: "Amber", price_cents: 34999, is_active: 1, address: '{"city":"Cape Town","street":"1 Long St"}', sizes: [{ key: "50 ml", price_cents: 34999, stock: 12 }, { key: "100 ml", price_cents: 52000, stock: 3 }] };
    const after = { name: "Amber", price_cents: 39900, is_active: true, address: '{"city":"Durban","street":"1 Long St"}', sizes: [{ key: "50 ml", price_cents: 39900, stock: 7 }, { key: "100 ml", price_cents: 52000, stock: 3 }] };
    expect(changeBetween(before, after)).toEqual({
      before: { price_cents: 34999, "address › city": "Cape Town", "sizes › 50 ml › price_cents": 34999, "sizes › 50 ml › stock": 12 },
      after: { price_cents: 39900, "address › city": "Durban", "sizes › 50 ml › price_cents": 39900, "sizes › 50 ml › stock": 7 },
    });
  });

  it("a created record has no before, a deleted one no after; a size added or removed shows on its side only", () => {
    expect(changeBetween(null, { code: "X" })).toEqual({ before: null, after: { code: "X" } });
    expect(changeBetween({ code: "X" }, null)).toEqual({ before: { code: "X" }, after: null });
    const change = changeBetween({ sizes: [{ key: "50 ml", stock: 1 }] }, { sizes: [{ key: "50 ml", stock: 1 }, { key: "100 ml", stock: 2 }] });
    expect(change).toEqual({ before: {}, after: { "sizes › 100 ml › stock": 2 } });
    expect(changeRows(change.before, change.after)).toEqual([{ field: "sizes › 100 ml › stock", before: "—", after: "2" }]);
  });
});

describe("the Activity page's address", () => {
  it("reads its filters and cursors, and refuses what it doesn't know", () => {
    const q = parseActivityQuery(new URLSearchParams("person=u1&kind=order.status&type=order&record=abc&from=2026-03-01&to=2026-13-99&before=120&after=-3"));
    expect(q).toEqual({ filters: { person: "u1", kind: "order.status", type: "order", record: "abc", from: "2026-03-01", to: "" }, before: 120, after: undefined });
    expect(parseActivityQuery(new URLSearchParams("type=nonsense&record=abc")).filters).toMatchObject({ type: "", record: "" });
  });

  it("links each record to its admin page", () => {
    expect(recordHref("product", "p1")).toBe("/admin/products/edit/p1");
    expect(recordHref("gift-card", "g1")).toBe("/admin/gift-cards/g1");
    expect(recordHref("order", "1a2b3c4d5e6f")).toBe("/admin/orders?q=1a2b3c4d&status=all");
    expect(recordHref("settings", "delivery")).toBe("/admin/shipping");
    expect(recordHref("export", "orders")).toBeNull();
  });
});
