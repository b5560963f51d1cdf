import { describe, expect, it } from "vitest";
import { expiryCutoff, expiryCutoffs, hasExpired, holdMinutesFor, holdPolicy } from "./order-expiry.logic";

const now = new Date("2026-12-01T10:00:00.000Z");

describe("unpaid order hold", () => {
  it("the cut-off is now minus the hold", () => {
    expect(expiryCutoff(now, 60).toISOString()).toBe("2026-12-01T09:00:00.000Z");
    expect(expiryCutoff(now, 5 * 24 * 60).toISOString()).toBe("2026-11-26T10:00:00.000Z");
  });

  it("an order expires strictly after its hold: 60 minutes old is still held, a millisecond more is not", () => {
    const policy = holdPolicy(60, {});
    expect(hasExpired(policy, { createdAt: "2026-12-01T09:00:00.000Z", paymentProvider: "yoco" }, now)).toBe(false);
    expect(hasExpired(policy, { createdAt: "2026-12-01T08:59:59.999Z", paymentProvider: "yoco" }, now)).toBe(true);
    expect(hasExpired(policy, { createdAt: "2026-12-01T09:30:00.000Z", paymentProvider: null }, now)).toBe(false);
  });

  it("a provider may hold longer (manual EFT waits days); no provider or an unlisted one gets the default", () => {
    const policy = holdPolicy(60, { eft: 3 * 24 * 60 });
    expect(holdMinutesFor(policy, "eft")).toBe(4320);
    expect(holdMinutesFor(policy, "yoco")).toBe(60);
    expect(holdMinutesFor(policy, null)).toBe(60);
    expect(holdMinutesFor(policy, "constructor")).toBe(60);
    const twoHoursOld = { createdAt: "2026-12-01T08:00:00.000Z" };
    expect(hasExpired(policy, { ...twoHoursOld, paymentProvider: "yoco" }, now)).toBe(true);
    expect(hasExpired(policy, { ...twoHoursOld, paymentProvider: "eft" }, now)).toBe(false);
    expect(hasExpired(policy, { createdAt: "2026-11-27T09:00:00.000Z", paymentProvider: "eft" }, now)).toBe(true);
    expect(expiryCutoffs(policy, now)).toEqual({
      defaultBefore: "2026-12-01T09:00:00.000Z",
      byProvider: [{ provider: "eft", before: "2026-11-28T10:00:00.000Z" }],
    });
  });

  it("refuses a hold that is not a positive number of minutes", () => {
    expect(() => holdPolicy(0)).toThrow(/positive/);
    expect(() => holdPolicy(60, { eft: -1 })).toThrow(/eft/);
    expect(() => holdPolicy(Number.NaN)).toThrow();
  });
});
