import { describe, expect, it } from "vitest";
import { CODE_ALPHABET, CODE_BITS, formatGiftCardCode, lastFourOf, normalizeGiftCardCode } from "./gift-card-code.logic";
import { hashGiftCardCode, newGiftCardCode } from "./gift-card-code.server";

describe("a gift card's code", () => {
  it("carries at least 80 bits and leaves out the characters people misread", () => {
    expect(CODE_BITS).toBeGreaterThanOrEqual(80);
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    for (const ambiguous of ["0", "O", "1", "I"]) expect(CODE_ALPHABET).not.toContain(ambiguous);
  });

  it("is made from crypto's random bytes: 16 symbols of the alphabet, all different codes, every symbol used", () => {
    const codes = Array.from({ length: 2000 }, newGiftCardCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(normalizeGiftCardCode(code)).toBe(code);
    const counts = new Map<string, number>();
    for (const ch of codes.join("")) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 32 000 symbols, 1 000 expected each: a skewed draw (e.g. a modulo bias) would leave some far off.
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });

  it("is shown in four groups of four, and its last four are what people see of it", () => {
    expect(formatGiftCardCode("K7QM2WXEH9TPRB4N")).toBe("K7QM-2WXE-H9TP-RB4N");
    expect(lastFourOf("K7QM2WXEH9TPRB4N")).toBe("RB4N");
  });

  it("is read however it is typed: case, spaces and dashes don't matter, I and 1 are L", () => {
    expect(normalizeGiftCardCode("k7qm-2wxe-h9tp-rb4n")).toBe("K7QM2WXEH9TPRB4N");
    expect(normalizeGiftCardCode(" K7QM 2WXE H9TP RB4N ")).toBe("K7QM2WXEH9TPRB4N");
    expect(normalizeGiftCardCode("KIQM-2WXE-H9TP-RB41")).toBe("KLQM2WXEH9TPRB4L");
  });

  it("is refused when it can't be one: too short, too long, O or 0, other signs", () => {
    for (const bad of ["", "K7QM-2WXE-H9TP", "K7QM-2WXE-H9TP-RB4N-A", "K7QM-2WXE-H9TP-RB40", "K7QM-2WXE-H9TP-RBON", "K7QM-2WXE-H9TP-RB4!"]) {
      expect(normalizeGiftCardCode(bad), bad).toBeNull();
    }
  });

  it("is stored as a hash: the same code always the same hash, the code itself nowhere in it", () => {
    const h = hashGiftCardCode("K7QM2WXEH9TPRB4N");
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(hashGiftCardCode("K7QM2WXEH9TPRB4N")).toBe(h);
    expect(hashGiftCardCode("K7QM2WXEH9TPRB4P")).not.toBe(h);
    expect(h).not.toContain("K7QM");
  });
});
