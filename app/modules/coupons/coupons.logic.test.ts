import { describe, expect, it } from "vitest";
import { couponCodeSchema } from "./coupons.schema";
import { checkCoupon, COUPON_MESSAGES, COUPON_STATUS_FILTERS, couponDisplayStatus, endOfSastDay, endOfSastDayIso, itemDiscountCents, matchesStatusFilter, normalizeCouponCode, requiredSpendCents, sastDay, startOfSastDayIso, type CouponTerms } from "./coupons.logic";

const NOW = Date.parse("2025-06-15T10:00:00.000Z"); // 12:00 SAST

function coupon(overrides: Partial<CouponTerms> = {}): CouponTerms {
  return {
    code: "WELCOME10",
    discountType: "percentage",
    discountValue: 10,
    minimumSpendCents: 0,
    maxRedemptions: null,
    timesRedeemed: 0,
    startDate: "2025-06-01T00:00:00.000+02:00",
    endDate: "2025-06-30T23:59:59.999+02:00",
    isActive: true,
    description: null,
    ...overrides,
  };
}

describe("checkCoupon", () => {
  it.each<[string, CouponTerms | null, number, number, string | null]>([
    ["valid percentage coupon", coupon(), 10000, NOW, null],
    ["unknown code", null, 10000, NOW, COUPON_MESSAGES.invalid],
    ["inactive", coupon({ isActive: false }), 10000, NOW, COUPON_MESSAGES.inactive],
    ["not yet started", coupon({ startDate: "2025-06-16T00:00:00.000+02:00" }), 10000, NOW, COUPON_MESSAGES.notStarted],
    ["starts exactly now", coupon({ startDate: new Date(NOW).toISOString() }), 10000, NOW, null],
    ["expired yesterday", coupon({ endDate: "2025-06-14T23:59:59.999+02:00" }), 10000, NOW, COUPON_MESSAGES.expired],
    [
      "end date stored as the start of its day still counts to the end of that day (23:59 SAST)",
      coupon({ endDate: "2025-06-15T00:00:00.000+02:00" }),
      10000,
      Date.parse("2025-06-15T23:59:00.000+02:00"),
      null,
    ],
    [
      "one millisecond after the end of the end day",
      coupon({ endDate: "2025-06-15T00:00:00.000+02:00" }),
      10000,
      Date.parse("2025-06-16T00:00:00.000+02:00"),
      COUPON_MESSAGES.expired,
    ],
    ["last millisecond of the end day", coupon(), 10000, Date.parse("2025-06-30T23:59:59.999+02:00"), null],
    ["redemptions left", coupon({ maxRedemptions: 10, timesRedeemed: 9 }), 10000, NOW, null],
    ["no redemptions left", coupon({ maxRedemptions: 10, timesRedeemed: 10 }), 10000, NOW, COUPON_MESSAGES.exhausted],
    ["unlimited redemptions", coupon({ maxRedemptions: null, timesRedeemed: 100000 }), 10000, NOW, null],
    ["minimum spend met exactly", coupon({ minimumSpendCents: 50000 }), 50000, NOW, null],
    ["minimum spend missed by a cent", coupon({ minimumSpendCents: 50000 }), 49999, NOW, COUPON_MESSAGES.minimumSpend(50000)],
    ["free delivery: its value is the qualifying spend", coupon({ discountType: "free_delivery", discountValue: 30000 }), 29999, NOW, COUPON_MESSAGES.minimumSpend(30000)],
    ["free delivery: qualifying spend met", coupon({ discountType: "free_delivery", discountValue: 30000 }), 30000, NOW, null],
    [
      "free delivery: minimum spend above its value wins",
      coupon({ discountType: "free_delivery", discountValue: 30000, minimumSpendCents: 40000 }),
      35000,
      NOW,
      COUPON_MESSAGES.minimumSpend(40000),
    ],
    ["fixed amount: minimum spend applies too", coupon({ discountType: "fixed_amount", discountValue: 5000, minimumSpendCents: 20000 }), 19999, NOW, COUPON_MESSAGES.minimumSpend(20000)],
    ["inactive wins over expired (first failing check)", coupon({ isActive: false, endDate: "2020-01-01T00:00:00.000Z" }), 10000, NOW, COUPON_MESSAGES.inactive],
  ])("%s", (_name, c, subtotal, now, error) => {
    const result = checkCoupon(c, { subtotalCents: subtotal, now });
    if (error === null) expect(result).toEqual({ ok: true });
    else expect(result).toEqual({ ok: false, error });
  });

  it("minimum-spend message shows rand with 2 decimals", () => {
    expect(COUPON_MESSAGES.minimumSpend(129900)).toBe("A minimum spend of R1 299.00 is required for this coupon");
  });
});

describe("itemDiscountCents", () => {
  it.each<[string, Pick<CouponTerms, "discountType" | "discountValue">, number, number]>([
    ["10% of R349.99 rounds to the cent", { discountType: "percentage", discountValue: 10 }, 34999, 3500],
    ["15% of R100", { discountType: "percentage", discountValue: 15 }, 10000, 1500],
    ["0%", { discountType: "percentage", discountValue: 0 }, 10000, 0],
    ["100% takes the whole subtotal", { discountType: "percentage", discountValue: 100 }, 10000, 10000],
    ["over 100% is capped", { discountType: "percentage", discountValue: 150 }, 10000, 10000],
    ["fixed R50 off", { discountType: "fixed_amount", discountValue: 5000 }, 10000, 5000],
    ["fixed larger than the subtotal is capped (never below 0)", { discountType: "fixed_amount", discountValue: 50000 }, 10000, 10000],
    ["free delivery takes nothing off the items", { discountType: "free_delivery", discountValue: 0 }, 10000, 0],
    ["empty subtotal", { discountType: "fixed_amount", discountValue: 5000 }, 0, 0],
  ])("%s", (_n, c, subtotal, expected) => {
    expect(itemDiscountCents(c, subtotal)).toBe(expected);
  });
});

describe("helpers", () => {
  it.each([
    ["  welcome10 ", "WELCOME10"],
    ["Save20", "SAVE20"],
    ["", ""],
    ["x".repeat(60), "X".repeat(60)],
  ])("normalizeCouponCode(%j) → %j", (input, out) => expect(normalizeCouponCode(input)).toBe(out));

  it.each([
    [" save20 ", "SAVE20"],
    ["   ", COUPON_MESSAGES.empty],
    ["x".repeat(50), "X".repeat(50)],
    ["x".repeat(51), COUPON_MESSAGES.invalid],
  ])("couponCodeSchema(%j): normalised, then 1 to 50 characters → %j", (input, expected) => {
    const result = couponCodeSchema.safeParse(input);
    expect(result.success ? result.data : result.error.issues[0]?.message).toBe(expected);
  });

  it("endOfSastDay is the last millisecond of the SAST day, and idempotent", () => {
    const end = endOfSastDay("2025-06-30T08:00:00.000Z");
    expect(new Date(end).toISOString()).toBe("2025-06-30T21:59:59.999Z");
    expect(endOfSastDay(new Date(end).toISOString())).toBe(end);
    // 23:30 UTC on the 29th is already the 30th in South Africa
    expect(new Date(endOfSastDay("2025-06-29T23:30:00.000Z")).toISOString()).toBe("2025-06-30T21:59:59.999Z");
  });

  it("requiredSpendCents", () => {
    expect(requiredSpendCents({ discountType: "percentage", discountValue: 90, minimumSpendCents: 100 })).toBe(100);
    expect(requiredSpendCents({ discountType: "free_delivery", discountValue: 30000, minimumSpendCents: 100 })).toBe(30000);
  });
});

describe("the admin's coupon display status and filters (SPEC §4)", () => {
  const now = Date.parse("2026-06-15T10:00:00.000Z");
  const coupon = (startDate: string, endDate: string, isActive: boolean) => ({ startDate, endDate, isActive });
  it.each([
    [coupon("2026-06-01T00:00:00.000Z", "2026-06-10T21:59:59.999Z", true), "Expired", { active: false, inactive: false, expired: true }],
    [coupon("2026-06-01T00:00:00.000Z", "2026-06-10T21:59:59.999Z", false), "Expired", { active: false, inactive: true, expired: true }],
    [coupon("2026-06-20T00:00:00.000Z", "2026-07-10T21:59:59.999Z", true), "Scheduled", { active: true, inactive: false, expired: false }],
    [coupon("2026-06-01T00:00:00.000Z", "2026-07-10T21:59:59.999Z", true), "Active", { active: true, inactive: false, expired: false }],
    [coupon("2026-06-01T00:00:00.000Z", "2026-07-10T21:59:59.999Z", false), "Inactive", { active: false, inactive: true, expired: false }],
    // the end date counts to the end of its South African day: 23:59 SAST on the 15th is not yet expired
    [coupon("2026-06-01T00:00:00.000Z", "2026-06-15T00:00:00.000Z", true), "Active", { active: true, inactive: false, expired: false }],
  ] as const)("%j → %s", (c, status, filters) => {
    expect(couponDisplayStatus(c, now)).toBe(status);
    for (const f of COUPON_STATUS_FILTERS) expect(matchesStatusFilter(c, f, now), f).toBe(filters[f]);
  });

  it("reads the admin's calendar days in South African time", () => {
    expect(startOfSastDayIso("2026-06-15")).toBe("2026-06-14T22:00:00.000Z");
    expect(endOfSastDayIso("2026-06-15")).toBe("2026-06-15T21:59:59.999Z");
    expect(startOfSastDayIso("2026-02-30")).toBeNull();
    expect(startOfSastDayIso("15/06/2026")).toBeNull();
    expect(sastDay("2026-06-14T22:30:00.000Z")).toBe("2026-06-15");
  });
});
