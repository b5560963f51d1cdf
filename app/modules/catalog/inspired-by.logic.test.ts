import { describe, expect, it } from "vitest";
import { inspiredByLong, inspiredByShort, inspiredName, normalizeHouse } from "./inspired-by.logic";

describe("inspired by", () => {
  it("says nothing when the product names no fragrance", () => {
    expect(inspiredByShort({ house: null, fragrance: null })).toBeNull();
    expect(inspiredByLong({ house: " ", fragrance: "" })).toBeNull();
  });

  it("is short on cards and careful once on the product page", () => {
    const i = { house: "Dior", fragrance: "Sauvage" };
    expect(inspiredName(i)).toBe("Dior Sauvage");
    expect(inspiredByShort(i)).toBe("Inspired by Dior Sauvage");
    expect(inspiredByLong(i)).toBe("Inspired by Dior Sauvage — our own blend, not affiliated with Dior");
  });

  it("doesn't repeat a house the fragrance already names", () => {
    expect(inspiredByShort({ house: "Chanel", fragrance: "Bleu de Chanel" })).toBe("Inspired by Bleu de Chanel");
    expect(inspiredByLong({ house: "Hermès", fragrance: "Terre d'Hermès" })).toBe("Inspired by Terre d'Hermès — our own blend, not affiliated with Hermès");
  });

  it("works with only a house or only a fragrance", () => {
    expect(inspiredByShort({ house: "Chanel", fragrance: null })).toBe("Inspired by Chanel");
    expect(inspiredByLong({ house: null, fragrance: "Aventus" })).toBe("Inspired by Aventus — our own blend, not affiliated with the trademark owner");
  });

  it("normalises the house filter from the URL", () => {
    expect(normalizeHouse("  Maison   Francis Kurkdjian ")).toBe("Maison Francis Kurkdjian");
    expect(normalizeHouse("a\u0000b")).toBe("ab");
    expect(normalizeHouse("x".repeat(61))).toBe("");
    expect(normalizeHouse(null)).toBe("");
  });
});
