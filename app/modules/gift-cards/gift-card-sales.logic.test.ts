import { describe, expect, it } from "vitest";
import { computeTotals } from "~/modules/pricing/totals.logic";
import { splitRefund } from "~/modules/returns/returns.logic";
import { checkGiftCardRequest, checkRecipientChange, checkResendAddress, DEFAULT_GIFT_CARD_SALE_SETTINGS, giftCardToken, isGiftCardLine, parseGiftCardToken, parseWholeRand, type GiftCardRequest } from "./gift-card-sales.logic";

const ON = { ...DEFAULT_GIFT_CARD_SALE_SETTINGS, enabled: true };
// 09:00 in South Africa on 1 December 2026
const NOW = new Date("2026-12-01T07:00:00.000Z");
const form = (over: Partial<Parameters<typeof checkGiftCardRequest>[0]> = {}) =>
  checkGiftCardRequest({ amountCents: 50000, forSomeoneElse: true, recipientName: " Thandi ", recipientEmail: "Thandi@Example.co.za", senderName: "Sipho", message: "Happy birthday!", sendOn: "2026-12-01", ...over }, ON, NOW);

describe("the gift card line's token", () => {
  it("carries the request through the cart unchanged and is recognised as a gift card line", () => {
    const r: GiftCardRequest = { amountCents: 50000, recipientName: "Thandi", recipientEmail: "thandi@example.co.za", senderName: "Sipho", message: "Line one\nLine two — ✨", sendOn: "2026-12-24" };
    const token = giftCardToken(r);
    expect(parseGiftCardToken(token)).toEqual(r);
    expect(isGiftCardLine({ productId: "gift-card", sizeId: token })).toBe(true);
    expect(isGiftCardLine({ productId: "gift-card", sizeId: "50ml" })).toBe(false);
    expect(parseGiftCardToken('gift:{"a":"500"}')).toBeNull();
    expect(parseGiftCardToken("gift:[1]")).toBeNull();
  });
});

describe("checking what the shopper asks for", () => {
  it("cleans names and e-mail and keeps the message's line breaks", () => {
    const r = form({ message: "Dear T,\r\n\r\n\r\nEnjoy\u0007!" });
    expect(r).toEqual({ ok: true, request: { amountCents: 50000, recipientName: "Thandi", recipientEmail: "thandi@example.co.za", senderName: "Sipho", message: "Dear T,\n\nEnjoy!", sendOn: "2026-12-01" } });
  });

  it("takes a pill or a whole rand in the range, nothing else", () => {
    expect(form({ amountCents: 73000 }).ok).toBe(true);
    expect(form({ amountCents: 73050 }).ok).toBe(false);
    expect(form({ amountCents: 9900 }).ok).toBe(false);
    expect(form({ amountCents: 500100 }).ok).toBe(false);
    expect(checkGiftCardRequest({ amountCents: 73000, forSomeoneElse: false }, { ...ON, minCents: null, maxCents: null }, NOW).ok).toBe(false);
  });

  it("refuses a day before today (South African calendar), a message over 200 characters and a bad address", () => {
    // 23:30 on 30 November UTC is already 1 December in South Africa
    const lateUtc = new Date("2026-11-30T23:30:00.000Z");
    expect(checkGiftCardRequest({ amountCents: 50000, forSomeoneElse: true, recipientName: "T", recipientEmail: "t@example.co.za", sendOn: "2026-11-30" }, ON, lateUtc)).toMatchObject({ ok: false, errors: { sendOn: "Choose today or a later date" } });
    expect(form({ message: "x".repeat(201) })).toMatchObject({ ok: false, errors: { message: "The message can be at most 200 characters" } });
    expect(form({ recipientEmail: "thandi@" })).toMatchObject({ ok: false, errors: { recipientEmail: expect.stringContaining("valid e-mail") } });
    expect(form({ sendOn: "2028-01-01" })).toMatchObject({ ok: false, errors: { sendOn: "Choose a date within the next year" } });
  });

  it("for me: the recipient fields are dropped and it is sent today", () => {
    expect(checkGiftCardRequest({ amountCents: 25000, forSomeoneElse: false, recipientName: "x", recipientEmail: "bad", sendOn: "2027-01-01" }, ON, NOW)).toEqual({
      ok: true,
      request: { amountCents: 25000, recipientName: null, recipientEmail: null, senderName: null, message: null, sendOn: "2026-12-01" },
    });
  });

  it("reads the other amount as whole rand", () => {
    expect(parseWholeRand("R 1 250")).toBe(125000);
    expect(parseWholeRand("250.50")).toBeNull();
  });
});

describe("totals with a gift card", () => {
  it("no VAT, delivery or coupon on the card; VAT on the goods and delivery exactly", () => {
    const zone = { id: "z", name: "Gauteng", baseRateCents: 7000, rules: [] };
    const t = computeTotals({ lines: [{ unitPriceCents: 89900, quantity: 1 }, { unitPriceCents: 50000, quantity: 1, isGiftCard: true }], coupon: { discountType: "percentage", discountValue: 10 }, zone, freeThresholdCents: 100000 });
    expect(t.discountCents).toBe(8990);
    expect(t.shippingCents).toBe(7000);
    expect(t.totalCents).toBe(89900 - 8990 + 7000 + 50000);
    expect(t.vatIncludedCents).toBe(Math.round(((89900 - 8990 + t.shippingCents) * 15) / 115));
    const alone = computeTotals({ lines: [{ unitPriceCents: 50000, quantity: 2, isGiftCard: true }], coupon: null, zone, freeThresholdCents: 100000 });
    expect(alone).toMatchObject({ shippingCents: 0, totalCents: 100000, vatIncludedCents: 0 });
  });
});

describe("where a refund goes", () => {
  it("the provider at most what it took, the cards the rest; a new card only when chosen", () => {
    expect(splitRefund({ amountCents: 96900, refundTo: "original", providerTookCents: 76900, providerRefundedCents: 0 })).toEqual({ providerCents: 76900, cardsCents: 20000, newCardCents: 0 });
    expect(splitRefund({ amountCents: 30000, refundTo: "original", providerTookCents: 76900, providerRefundedCents: 60000 })).toEqual({ providerCents: 16900, cardsCents: 13100, newCardCents: 0 });
    expect(splitRefund({ amountCents: 30000, refundTo: "original", providerTookCents: 0, providerRefundedCents: 0 })).toEqual({ providerCents: 0, cardsCents: 30000, newCardCents: 0 });
    expect(splitRefund({ amountCents: 30000, refundTo: "gift_card", providerTookCents: 76900, providerRefundedCents: 0 })).toEqual({ providerCents: 0, cardsCents: 0, newCardCents: 30000 });
  });
});

describe("the owner's sales form", () => {
  it("reads amounts and a range in whole rand, and refuses half a range or nothing to sell", async () => {
    const { giftCardAdminIntent } = await import("./gift-cards-admin.schema");
    expect(giftCardAdminIntent.parse({ intent: "sales", enabled: "on", amounts: "1 000, 250, R500", min: "100", max: "5000" })).toEqual({
      intent: "sales",
      enabled: true,
      amountsCents: [25000, 50000, 100000],
      minCents: 10000,
      maxCents: 500000,
    });
    expect(giftCardAdminIntent.parse({ intent: "sales", amounts: "300", min: "", max: "" })).toMatchObject({ enabled: false, minCents: null, maxCents: null });
    expect(giftCardAdminIntent.safeParse({ intent: "sales", amounts: "300", min: "100", max: "" }).success).toBe(false);
    expect(giftCardAdminIntent.safeParse({ intent: "sales", amounts: "", min: "", max: "" }).success).toBe(false);
    expect(giftCardAdminIntent.safeParse({ intent: "sales", amounts: "250.50" }).success).toBe(false);
  });
});

describe("the owner's correction of a sold card (the shop form's rules)", () => {
  const named = { named: true, currentSendOn: "2026-12-24" };
  it("cleans the name and address, keeps the day when none is given, and takes today to a year ahead", () => {
    expect(checkRecipientChange({ recipientName: " Thandiwe ", recipientEmail: " Thandiwe@Example.co.za ", sendOn: "" }, named, NOW)).toEqual({ ok: true, value: { recipientName: "Thandiwe", recipientEmail: "thandiwe@example.co.za", sendOn: "2026-12-24" } });
    expect(checkRecipientChange({ recipientName: "T", recipientEmail: "t@example.co.za", sendOn: "2026-12-01" }, named, NOW).ok).toBe(true);
    expect(checkRecipientChange({ recipientName: "T", recipientEmail: "t@example.co.za", sendOn: "2026-11-30" }, named, NOW)).toEqual({ ok: false, errors: { sendOn: "Choose today or a later date" } });
    expect(checkRecipientChange({ recipientName: "T", recipientEmail: "t@example.co.za", sendOn: "2027-12-03" }, named, NOW)).toEqual({ ok: false, errors: { sendOn: "Choose a date within the next year" } });
  });

  it("a card for the buyer themself gets no name, only an address", () => {
    expect(checkRecipientChange({ recipientName: "Someone", recipientEmail: "me@example.co.za" }, { named: false, currentSendOn: "2026-12-01" }, NOW)).toEqual({ ok: true, value: { recipientName: null, recipientEmail: "me@example.co.za", sendOn: "2026-12-01" } });
    expect(checkRecipientChange({ recipientName: "", recipientEmail: "" }, { named: true, currentSendOn: "2026-12-01" }, NOW)).toEqual({ ok: false, errors: { recipientName: "Enter the recipient's name", recipientEmail: "Enter the recipient's e-mail address" } });
  });

  it("a resend goes to the address on record unless a valid one is given", () => {
    expect(checkResendAddress("", "thandi@example.co.za")).toEqual({ ok: true, value: "thandi@example.co.za" });
    expect(checkResendAddress(" Naledi@Example.co.za", "thandi@example.co.za")).toEqual({ ok: true, value: "naledi@example.co.za" });
    expect(checkResendAddress("naledi@", "thandi@example.co.za").ok).toBe(false);
  });
});
