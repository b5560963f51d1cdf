import { describe, expect, it } from "vitest";
import {
  checkRefundAmount,
  checkReturnRequest,
  daysUntil,
  endOfSaDayAfter,
  endOfSaDayMonthsAfter,
  isOverdue,
  nextSteps,
  refundDueAt,
  RETURN_MESSAGES,
  returnDeadline,
  suggestRefund,
  type ReturnableLine,
  type ReturnPolicy,
} from "./returns.logic";

const POLICY: ReturnPolicy = { windowDays: 7, excludeOpened: false, excludedCategories: [], exclusionReason: null };
const LINES: ReturnableLine[] = [
  { id: "a", name: "Oud Noir", quantity: 2, unitPriceCents: 34999, returned: 0, categorySlug: "for-him", categoryName: "For him" },
  { id: "b", name: "Tester Rose", quantity: 1, unitPriceCents: 9900, returned: 0, categorySlug: "testers", categoryName: "Testers" },
];
// delivered 3 March 2026 at 15:00 in South Africa (13:00 UTC)
const DELIVERED = "2026-03-03T13:00:00.000Z";
const day = (d: Date) => d.toISOString().slice(0, 10);

function check(over: Partial<Parameters<typeof checkReturnRequest>[0]> = {}) {
  return checkReturnRequest({
    order: { paid: true, delivered: true, deliveredAt: DELIVERED, hasOpenReturn: false },
    lines: LINES,
    requested: [{ lineId: "a", quantity: 1 }],
    reason: "changed_mind",
    opened: false,
    policy: POLICY,
    now: new Date("2026-03-05T08:00:00.000Z"),
    formatDay: day,
    ...over,
  });
}

describe("the windows", () => {
  it("the cooling-off period ends at midnight, South African time, 7 days after the day of delivery (ECTA s44(1)(a))", () => {
    // 3 March + 7 days = 10 March, 23:59:59.999 SAST = 21:59:59.999 UTC
    expect(endOfSaDayAfter(DELIVERED, 7).toISOString()).toBe("2026-03-10T21:59:59.999Z");
    // delivered at 01:00 SAST on 4 March (23:00 UTC on 3 March): the South African day counts, so 11 March
    expect(endOfSaDayAfter("2026-03-03T23:00:00.000Z", 7).toISOString()).toBe("2026-03-11T21:59:59.999Z");
    expect(returnDeadline("cooling_off", DELIVERED, 14).toISOString()).toBe("2026-03-17T21:59:59.999Z");
  });

  it("faulty goods have six calendar months (CPA s56(2)), the month's last day when it is shorter", () => {
    expect(returnDeadline("faulty", DELIVERED, 7).toISOString()).toBe("2026-09-03T21:59:59.999Z");
    expect(endOfSaDayMonthsAfter("2026-08-31T10:00:00.000Z", 6).toISOString()).toBe("2027-02-28T21:59:59.999Z");
    expect(endOfSaDayMonthsAfter("2027-08-31T10:00:00.000Z", 6).toISOString()).toBe("2028-02-29T21:59:59.999Z");
  });

  it("a refund is due 30 days after the request (ECTA s44(3)); overdue only while the return is still open", () => {
    expect(refundDueAt("2026-03-05T08:00:00.000Z")).toBe("2026-04-04T08:00:00.000Z");
    const due = "2026-04-04T08:00:00.000Z";
    const after = new Date("2026-04-04T08:00:00.001Z");
    expect(isOverdue({ status: "received", refundDueAt: due }, after)).toBe(true);
    expect(isOverdue({ status: "requested", refundDueAt: due }, new Date(due))).toBe(false);
    expect(isOverdue({ status: "refunded", refundDueAt: due }, after)).toBe(false);
    expect(isOverdue({ status: "declined", refundDueAt: due }, after)).toBe(false);
    expect(daysUntil(due, new Date("2026-04-01T12:00:00.000Z"))).toBe(3);
    expect(daysUntil(due, new Date("2026-04-06T12:00:00.000Z"))).toBe(-2);
  });
});

describe("a return request", () => {
  it("is allowed within the window, for what is left, as a cooling-off return", () => {
    expect(check()).toEqual({ ok: true, kind: "cooling_off" });
    expect(check({ now: new Date("2026-03-10T21:59:59.999Z") })).toEqual({ ok: true, kind: "cooling_off" });
  });

  it("outside the cooling-off window is refused, naming the last day and the faulty-goods route", () => {
    const late = check({ now: new Date("2026-03-10T22:00:00.000Z") });
    expect(late).toEqual({ ok: false, message: RETURN_MESSAGES.outsideWindow(7, "2026-03-10") });
    // … a faulty item may still come back, for six months
    expect(check({ now: new Date("2026-03-10T22:00:00.000Z"), reason: "faulty" })).toEqual({ ok: true, kind: "faulty" });
    expect(check({ now: new Date("2026-09-03T22:00:00.000Z"), reason: "faulty" })).toEqual({ ok: false, message: RETURN_MESSAGES.outsideFaultyWindow("2026-09-03") });
  });

  it("is refused before delivery, without payment, with another return open, or with nothing chosen", () => {
    expect(check({ order: { paid: true, delivered: false, deliveredAt: null, hasOpenReturn: false } })).toEqual({ ok: false, message: RETURN_MESSAGES.notDelivered });
    expect(check({ order: { paid: false, delivered: true, deliveredAt: DELIVERED, hasOpenReturn: false } })).toEqual({ ok: false, message: RETURN_MESSAGES.notPaid });
    expect(check({ order: { paid: true, delivered: true, deliveredAt: DELIVERED, hasOpenReturn: true } })).toEqual({ ok: false, message: RETURN_MESSAGES.openReturn });
    expect(check({ requested: [{ lineId: "a", quantity: 0 }] })).toEqual({ ok: false, message: RETURN_MESSAGES.noItems });
  });

  it("can't ask for more than is left, or for a line of another order", () => {
    expect(check({ requested: [{ lineId: "a", quantity: 3 }] })).toEqual({ ok: false, message: RETURN_MESSAGES.tooMany("Oud Noir", 2) });
    const oneBack = LINES.map((l) => (l.id === "a" ? { ...l, returned: 1 } : l));
    expect(check({ lines: oneBack, requested: [{ lineId: "a", quantity: 2 }] })).toEqual({ ok: false, message: RETURN_MESSAGES.tooMany("Oud Noir", 1) });
    expect(check({ requested: [{ lineId: "zzz", quantity: 1 }] })).toEqual({ ok: false, message: RETURN_MESSAGES.unknownLine });
    expect(check({ requested: [{ lineId: "a", quantity: 1 }, { lineId: "a", quantity: 1 }] })).toEqual({ ok: false, message: RETURN_MESSAGES.unknownLine });
    const allBack = LINES.map((l) => ({ ...l, returned: l.quantity }));
    expect(check({ lines: allBack })).toEqual({ ok: false, message: RETURN_MESSAGES.nothingLeft });
  });

  it("the owner's exclusions refuse opened bottles and excluded categories in the cooling-off period only, with the owner's reasoning", () => {
    const policy: ReturnPolicy = { ...POLICY, excludeOpened: true, excludedCategories: ["testers"], exclusionReason: "Opened scents can't be resold." };
    expect(check({ policy, opened: true })).toEqual({ ok: false, message: RETURN_MESSAGES.excludedOpened("Opened scents can't be resold.") });
    expect(check({ policy, requested: [{ lineId: "b", quantity: 1 }] })).toEqual({ ok: false, message: RETURN_MESSAGES.excludedCategory("Tester Rose", "Opened scents can't be resold.") });
    expect(check({ policy })).toEqual({ ok: true, kind: "cooling_off" });
    // faulty goods are never excluded
    expect(check({ policy, opened: true, reason: "faulty", requested: [{ lineId: "b", quantity: 1 }] })).toEqual({ ok: true, kind: "faulty" });
    // without the setting, an opened bottle is returned like any other
    expect(check({ opened: true })).toEqual({ ok: true, kind: "cooling_off" });
  });
});

describe("the refund", () => {
  const order = { subtotalCents: 79898, discountCents: 7990, shippingCents: 7000, totalAmountCents: 78908 };

  it("is the goods less their share of the discount; the delivery comes back with the last item", () => {
    const part = suggestRefund({ order, returnLines: [{ quantity: 1, unitPriceCents: 34999 }], completesOrder: false, refundedCents: 0 });
    // 7 990 × 34 999 / 79 898 = 3 499.9 → 3 500
    expect(part).toEqual({ goodsCents: 34999, discountCents: 3500, deliveryCents: 0, amountCents: 31499, maxCents: 78908 });
    const rest = suggestRefund({ order, returnLines: [{ quantity: 1, unitPriceCents: 34999 }, { quantity: 1, unitPriceCents: 9900 }], completesOrder: true, refundedCents: 31499 });
    expect(rest.deliveryCents).toBe(7000);
    // what is left of the payment: 78 908 − 31 499 = 47 409, exactly goods − share + delivery
    expect(rest).toMatchObject({ maxCents: 47409, amountCents: 47409 });
    expect(part.amountCents + rest.amountCents).toBe(order.totalAmountCents);
  });

  it("an amount is more than zero and at most what is left; nothing is left after a full refund", () => {
    expect(checkRefundAmount(47409, 47409)).toEqual({ ok: true });
    expect(checkRefundAmount(47410, 47409)).toEqual({ ok: false, message: RETURN_MESSAGES.refundTooLarge(47409) });
    expect(checkRefundAmount(0, 47409)).toEqual({ ok: false, message: RETURN_MESSAGES.refundAmount });
    expect(checkRefundAmount(100, 0)).toEqual({ ok: false, message: RETURN_MESSAGES.refundZero });
    expect(RETURN_MESSAGES.refundTooLarge(47409)).toBe("The refund can't be more than R474.09: what the customer paid for this order, less earlier refunds.");
  });
});

describe("the course of a return", () => {
  it("requested → approved or declined → received → refunded; declined and refunded are final", () => {
    expect(nextSteps("requested")).toEqual(["approve", "decline"]);
    expect(nextSteps("approved")).toEqual(["receive", "decline"]);
    expect(nextSteps("received")).toEqual(["refund"]);
    expect(nextSteps("refunded")).toEqual([]);
    expect(nextSteps("declined")).toEqual([]);
  });
});
