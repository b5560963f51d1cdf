import { describe, expect, it } from "vitest";
import type { OrderStatus, PaymentStatus } from "~/db/schema";
import { changePayment, changeStatus, confirmsPayment, holdsStock, stockEffect, editedTotals, metricsOf, ORDER_ADMIN_MESSAGES, orderIdPrefix, paymentStatusLabel, summarizeMetrics, tabCountLabel } from "./order-admin.logic";

const NOW = new Date("2026-11-23T10:00:00.000Z");
const at = NOW.toISOString();

describe("changeStatus: any status to any status, with its stamp and its effect on the coupon", () => {
  it.each<[OrderStatus, OrderStatus, object, string, string]>([
    ["pending", "processing", { processing_started_at: at }, "none", "none"],
    ["processing", "shipped", { shipped_at: at }, "none", "none"],
    ["shipped", "delivered", { actual_delivery_date: at }, "none", "none"],
    ["delivered", "pending", {}, "none", "none"],
    ["pending", "cancelled", {}, "release", "give_back"],
    ["shipped", "cancelled", {}, "release", "give_back"],
    ["cancelled", "cancelled", {}, "none", "none"],
    ["cancelled", "pending", {}, "reclaim", "take"],
    ["cancelled", "shipped", { shipped_at: at }, "reclaim", "take"],
  ])("%s → %s stamps %j, coupon %s, stock %s (paid order)", (from, to, stamps, coupon, stock) => {
    expect(changeStatus({ status: from, paymentStatus: "completed" }, to, NOW)).toEqual({ status: to, paymentStatus: "completed", stamps, coupon, stock });
  });
});

describe("changePayment", () => {
  it.each<[OrderStatus, PaymentStatus, PaymentStatus, OrderStatus, object, string, boolean, string]>([
    // SPEC §4: completed on a pending order also moves it to processing and stamps it
    ["pending", "pending", "completed", "processing", { processing_started_at: at }, "none", true, "take"],
    // decision 016: a cancelled order whose money arrives is live again, and reclaims its coupon
    ["cancelled", "cancelled", "completed", "processing", { processing_started_at: at }, "reclaim", true, "take"],
    ["shipped", "completed", "completed", "shipped", {}, "none", false, "none"],
    ["processing", "completed", "failed", "processing", {}, "none", false, "give_back"],
    ["pending", "pending", "cancelled", "pending", {}, "none", false, "none"],
    ["delivered", "failed", "completed", "delivered", {}, "none", true, "take"],
  ])("%s/%s, payment → %s: status %s, stamps %j, coupon %s, confirms %s, stock %s", (status, payment, to, nextStatus, stamps, coupon, confirms, stock) => {
    const next = changePayment({ status, paymentStatus: payment }, to, NOW);
    expect(next).toEqual({ status: nextStatus, paymentStatus: to, stamps, coupon, stock });
    expect(confirmsPayment({ status, paymentStatus: payment }, next)).toBe(confirms);
  });
});

describe("stock (decision 020): an order holds stock while paid and not cancelled", () => {
  it("holds only when paid and not cancelled", () => {
    expect(holdsStock({ status: "processing", paymentStatus: "completed" })).toBe(true);
    expect(holdsStock({ status: "delivered", paymentStatus: "completed" })).toBe(true);
    expect(holdsStock({ status: "cancelled", paymentStatus: "completed" })).toBe(false);
    expect(holdsStock({ status: "pending", paymentStatus: "pending" })).toBe(false);
    expect(holdsStock({ status: "shipped", paymentStatus: "failed" })).toBe(false);
  });
  it("takes on entering, gives back on leaving, nothing otherwise", () => {
    expect(stockEffect({ status: "pending", paymentStatus: "pending" }, { status: "processing", paymentStatus: "completed" })).toBe("take");
    expect(stockEffect({ status: "shipped", paymentStatus: "completed" }, { status: "cancelled", paymentStatus: "completed" })).toBe("give_back");
    expect(stockEffect({ status: "pending", paymentStatus: "pending" }, { status: "cancelled", paymentStatus: "cancelled" })).toBe("none");
    expect(stockEffect({ status: "processing", paymentStatus: "completed" }, { status: "shipped", paymentStatus: "completed" })).toBe("none");
  });
});

describe("paymentStatusLabel", () => {
  it.each([
    ["pending", "Pending"],
    ["completed", "Completed"],
    ["failed", "Failed"],
    ["cancelled", "Cancelled"],
    ["refunded", "Unknown"],
    ["", "Unknown"],
  ])("%j → %s", (status, label) => expect(paymentStatusLabel(status)).toBe(label));
});

describe("metrics (SPEC §9)", () => {
  it("measures processing from its start to shipping and delivery from shipping to the door, in seconds", () => {
    expect(metricsOf({ processingStartedAt: "2026-11-01T08:00:00Z", shippedAt: "2026-11-02T10:30:00Z", deliveredAt: "2026-11-05T10:30:00Z" })).toEqual({ processingTime: 95400, deliveryTime: 259200 });
    expect(metricsOf({ processingStartedAt: "2026-11-01T08:00:00Z", shippedAt: null, deliveredAt: null })).toEqual({ processingTime: null, deliveryTime: null });
    // a stamp out of order (a status set back and forth) is no measurement
    expect(metricsOf({ processingStartedAt: "2026-11-03T08:00:00Z", shippedAt: "2026-11-02T08:00:00Z", deliveredAt: null }).processingTime).toBeNull();
  });

  it.each([
    [{ rows: 0, withDelivery: 0, avgProcessingSeconds: null, avgDeliverySeconds: null }, { avgProcessingHours: null, avgDeliveryDays: null, completionRate: null }],
    [{ rows: 3, withDelivery: 2, avgProcessingSeconds: 95400, avgDeliverySeconds: 259200 }, { avgProcessingHours: 27, avgDeliveryDays: 3, completionRate: 67 }],
    [{ rows: 8, withDelivery: 1, avgProcessingSeconds: 5400, avgDeliverySeconds: 129600 }, { avgProcessingHours: 2, avgDeliveryDays: 2, completionRate: 13 }],
  ])("%j → %j", (input, output) => expect(summarizeMetrics(input)).toEqual(output));
});

describe("editedTotals (decision 016: lines − discount + delivery)", () => {
  it("keeps the delivery and the discount the customer was given", () => {
    expect(editedTotals([{ quantity: 3, unitPriceCents: 25050 }, { quantity: 1, unitPriceCents: 15000 }], { discountCents: 5000, shippingCents: 7000, hadCoupon: true })).toEqual({
      lineTotals: [75150, 15000],
      subtotalCents: 90150,
      discountCents: 5000,
      totalAmountCents: 92150,
      originalTotalCents: 97150,
    });
  });

  it("never goes below zero: the discount shrinks to what is left", () => {
    expect(editedTotals([{ quantity: 1, unitPriceCents: 1000 }], { discountCents: 10000, shippingCents: 7000, hadCoupon: true })).toMatchObject({ discountCents: 8000, totalAmountCents: 0 });
    expect(editedTotals([{ quantity: 2, unitPriceCents: 0 }], { discountCents: 0, shippingCents: 0, hadCoupon: false })).toMatchObject({ totalAmountCents: 0, originalTotalCents: null });
  });
});

describe("orderIdPrefix", () => {
  it.each([
    ["3f2a9c1e", "3f2a9c1e"],
    [" #3F2A9C1E ", "3f2a9c1e"],
    ["3f2a9c1e-77b0", "3f2a9c1e-77b0"],
    ["thandi@", null],
    ["-3f2a", null],
    ["", null],
    ["3f2a9c1e%", null],
  ])("%j → %j", (q, prefix) => expect(orderIdPrefix(q)).toBe(prefix));
});

describe("tabCountLabel: a tab's count as its badge shows it", () => {
  it("groups thousands with a no-break space, and marks a count a broad search stopped at", () => {
    expect(tabCountLabel(0)).toBe("0");
    expect(tabCountLabel(999)).toBe("999");
    expect(tabCountLabel(866271)).toBe("866\u00a0271");
    expect(tabCountLabel(1000, true)).toBe("1\u00a0000+");
    expect(ORDER_ADMIN_MESSAGES.manyMatches(tabCountLabel(1000))).toContain("More than 1\u00a0000 orders in this tab match your search: the newest 1\u00a0000 are listed");
  });
});
