import { describe, expect, it } from "vitest";
import { lotExpiry, maxRedeemablePoints, pointsEarned, proportionalShare, redeemRefusal, rewardSettingsSchema, settingsFromForm, totalsOfEntry } from "./rewards.logic";

describe("reward points' rules", () => {
  it("earns whole points, rounded down, by the rule of the day; nothing on nothing", () => {
    expect(pointsEarned(45_050, 1000)).toBe(45);
    expect(pointsEarned(999, 1000)).toBe(0);
    expect(pointsEarned(0, 1000)).toBe(0);
    expect(pointsEarned(10_000, 500)).toBe(20);
  });

  it("spends at most what the shopper has and the goods allow, and none below the owner's minimum", () => {
    expect(maxRedeemablePoints({ available: 1000, capCents: 4_999, pointValueCents: 10, minRedeemPoints: 100 })).toBe(499);
    expect(maxRedeemablePoints({ available: 300, capCents: 100_000, pointValueCents: 10, minRedeemPoints: 100 })).toBe(300);
    expect(maxRedeemablePoints({ available: 99, capCents: 100_000, pointValueCents: 10, minRedeemPoints: 100 })).toBe(0);
    expect(maxRedeemablePoints({ available: 500, capCents: -50, pointValueCents: 10, minRedeemPoints: 1 })).toBe(0);
    const s = { minRedeemPoints: 100 };
    expect(redeemRefusal(0, 0, s)).toBeNull();
    expect(redeemRefusal(150, 300, s)).toBeNull();
    expect(redeemRefusal(50, 300, s)).toBe("Spend at least 100 points, or none.");
    expect(redeemRefusal(400, 300, s)).toBe("You can spend at most 300 points on this order.");
    expect(redeemRefusal(100, 0, s)).toBe("You can spend points from 100 points on an order's goods.");
    expect(redeemRefusal(1.5, 300, s)).toBe("Points are spent in whole points.");
  });

  it("takes back a refund's share on the running sum: parts add up to the whole, never more", () => {
    // 74 points on R740; refunds of R185 four times
    let taken = 0;
    const steps = [18_500, 37_000, 55_500, 74_000].map((soFar) => {
      const due = proportionalShare(74, 74_000, soFar, taken);
      taken += due;
      return due;
    });
    expect(steps).toEqual([19, 18, 19, 18]);
    expect(taken).toBe(74);
    expect(proportionalShare(74, 74_000, 999_999, 74)).toBe(0);
    expect(proportionalShare(74, 0, 100, 0)).toBe(0);
  });

  it("a lot lasts its months to the same day, or the month's last day", () => {
    expect(lotExpiry(new Date("2026-01-31T10:00:00Z"), 1).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(lotExpiry(new Date("2026-12-06T10:00:00Z"), 12).toISOString()).toBe("2027-12-06T10:00:00.000Z");
  });

  it("reads the owner's form: rand per point to cents, a checkbox, whole numbers with their reasons", () => {
    const REFERRALS = { friendRewardRand: "50", referrerRewardRand: "50,00", referralMinOrderRand: "300", referralsPerWeek: "5", friendsPerAddressPerWeek: "3" };
    const ok = rewardSettingsSchema.parse({ pointsOn: "on", earnRand: "12.50", pointValueCents: "10", minRedeemPoints: "100", pointsMonths: "12", ...REFERRALS, referralsOn: "on" });
    expect(settingsFromForm(ok)).toEqual({
      pointsOn: true,
      earnCentsPerPoint: 1250,
      pointValueCents: 10,
      minRedeemPoints: 100,
      pointsMonths: 12,
      referralsOn: true,
      friendRewardCents: 5000,
      referrerRewardCents: 5000,
      referralMinOrderCents: 30_000,
      referralsPerWeek: 5,
      friendsPerAddressPerWeek: 3,
    });
    expect(settingsFromForm(rewardSettingsSchema.parse({ earnRand: " 10,50 ", pointValueCents: "10", minRedeemPoints: "100", pointsMonths: "12", ...REFERRALS })).earnCentsPerPoint).toBe(1050);
    const off = rewardSettingsSchema.parse({ earnRand: "10", pointValueCents: "10", minRedeemPoints: "1", pointsMonths: "1", ...REFERRALS });
    expect([off.pointsOn, off.referralsOn]).toEqual([false, false]);
    const bad = rewardSettingsSchema.safeParse({ earnRand: "0.5", pointValueCents: "1.5", minRedeemPoints: "0", pointsMonths: "200", ...REFERRALS, friendRewardRand: "R50" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      "Rand per point must be at least R1",
      "A point's worth in cents must be a whole number",
      "The fewest points to spend must be at least 1",
      "Months a point lasts must be at most 120",
      "The friend's reward must be an amount in rand",
    ]);
  });
});

describe("a ledger entry's share of its member's totals (Admin → Rewards' figures)", () => {
  it("counts each kind once, a credit's points after paying what is owed, and changes by hand by their sign", () => {
    expect(totalsOfEntry("earned", { available: 0, pending: 300, owed: 0 })).toEqual({ earned_total: 300 });
    expect(totalsOfEntry("available", { available: 200, pending: -200, owed: 0 })).toEqual({ made_available_total: 200 });
    expect(totalsOfEntry("redeemed", { available: -120, pending: 0, owed: 0 })).toEqual({ spent_total: 120 });
    // 20 released to a member who owed 5: 15 available, and spending counts 20 fewer
    expect(totalsOfEntry("released", { available: 15, pending: 0, owed: -5 })).toEqual({ spent_total: -20 });
    expect(totalsOfEntry("given_back", { available: 6, pending: 0, owed: -4 })).toEqual({ given_back_total: 10 });
    // 40 pending, 10 available and 25 already spent, taken back by one refund
    expect(totalsOfEntry("reversed", { available: -10, pending: -40, owed: 25 })).toEqual({ reversed_total: 75 });
    expect(totalsOfEntry("expired", { available: -50, pending: 0, owed: 0 })).toEqual({ expired_total: 50 });
    expect(totalsOfEntry("adjusted", { available: 5, pending: 0, owed: -25 })).toEqual({ added_by_hand_total: 30 });
    expect(totalsOfEntry("adjusted", { available: -5, pending: 0, owed: 0 })).toEqual({ removed_by_hand_total: 5 });
  });
});
