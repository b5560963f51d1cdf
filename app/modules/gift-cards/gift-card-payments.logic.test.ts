import { describe, expect, it } from "vitest";
import { amountDueCents, GIFT_CARD_MESSAGES, remainderTooSmall, splitGiftCardPayment } from "./gift-card-payments.logic";

describe("gift cards paying an order", () => {
  it("one card pays part: the rest is left for the card payment, the card keeps what it didn't pay", () => {
    expect(splitGiftCardPayment(34999, [{ key: "a", balanceCents: 50000 }])).toEqual({ applied: [{ key: "a", amountCents: 34999 }], giftCardCents: 34999, remainderCents: 0 });
    expect(splitGiftCardPayment(40000, [{ key: "a", balanceCents: 15001 }])).toEqual({ applied: [{ key: "a", amountCents: 15001 }], giftCardCents: 15001, remainderCents: 24999 });
  });

  it("several cards pay in the order entered, each as much as it holds of what is still to pay", () => {
    const split = splitGiftCardPayment(60000, [
      { key: "a", balanceCents: 25000 },
      { key: "b", balanceCents: 50000 },
      { key: "c", balanceCents: 10000 },
    ]);
    expect(split.applied).toEqual([
      { key: "a", amountCents: 25000 },
      { key: "b", amountCents: 35000 },
    ]);
    expect(split.giftCardCents + split.remainderCents).toBe(60000);
    expect(split.remainderCents).toBe(0);
  });

  it("an empty card or the same card twice pays nothing more", () => {
    const split = splitGiftCardPayment(30000, [
      { key: "a", balanceCents: 0 },
      { key: "b", balanceCents: 10000 },
      { key: "b", balanceCents: 10000 },
    ]);
    expect(split).toEqual({ applied: [{ key: "b", amountCents: 10000 }], giftCardCents: 10000, remainderCents: 20000 });
  });

  it("the sum of what cards pay and the remainder is the total, in whole cents, for any balances", () => {
    for (let i = 0; i < 500; i++) {
      const total = Math.floor(Math.random() * 200_000);
      const cards = Array.from({ length: 1 + (i % 4) }, (_, k) => ({ key: String(k), balanceCents: Math.floor(Math.random() * 100_000) }));
      const split = splitGiftCardPayment(total, cards);
      expect(split.giftCardCents + split.remainderCents).toBe(total);
      expect(split.applied.reduce((s, a) => s + a.amountCents, 0)).toBe(split.giftCardCents);
      for (const a of split.applied) expect(a.amountCents).toBeLessThanOrEqual(cards.find((c) => c.key === a.key)!.balanceCents);
      expect(split.remainderCents).toBeGreaterThanOrEqual(0);
    }
  });

  it("refuses a total that isn't whole cents", () => {
    expect(() => splitGiftCardPayment(10.5, [])).toThrow(RangeError);
    expect(() => splitGiftCardPayment(-1, [])).toThrow(RangeError);
  });

  it("the provider is asked for the total less the gift cards; a remainder under R2.00 (but not nothing) can't be paid", () => {
    expect(amountDueCents({ totalAmountCents: 34999, giftCardCents: 15001 })).toBe(19998);
    expect(amountDueCents({ totalAmountCents: 34999, giftCardCents: 34999 })).toBe(0);
    expect(remainderTooSmall(0)).toBe(false);
    expect(remainderTooSmall(199)).toBe(true);
    expect(remainderTooSmall(200)).toBe(false);
    expect(GIFT_CARD_MESSAGES.remainderTooSmall(150)).toContain("R1.50 is left to pay");
  });
});
