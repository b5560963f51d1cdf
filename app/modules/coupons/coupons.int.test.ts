import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { insertCoupon, insertOrder } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import { confirmCouponRedemption, releaseCouponRedemption, reserveCouponRedemption, validateAndApplyCoupon } from "./coupons.server";

const db = () => getDb();
const timesRedeemed = async (id: string) => (await db().selectFrom("coupons").select("times_redeemed").where("id", "=", id).executeTakeFirstOrThrow()).times_redeemed;

describe("coupon redemptions", () => {
  it("30 concurrent reservations (each in its own transaction) on a 10-redemption coupon: exactly 10 succeed", async () => {
    const user = await createUser(db());
    const coupon = await insertCoupon(db(), { max_redemptions: 10 });
    const orders = await Promise.all(Array.from({ length: 30 }, () => insertOrder(db(), { userId: user.id, couponCode: coupon.code })));
    const outcomes = await Promise.all(
      orders.map((o) =>
        db()
          .transaction()
          .execute((trx) => reserveCouponRedemption(trx, { couponId: coupon.id, orderId: o.id, userId: user.id, discountCents: 100 })),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(10);
    expect(await timesRedeemed(coupon.id)).toBe(10);
    const usage = await db().selectFrom("coupon_usage").select("order_id").where("coupon_id", "=", coupon.id).execute();
    expect(usage).toHaveLength(10);

    // confirm is bookkeeping only; release gives one back (once), and the freed redemption can be reserved again
    const held = orders.find((o) => usage.some((u) => u.order_id === o.id))!;
    const notHeld = orders.find((o) => !usage.some((u) => u.order_id === o.id))!;
    expect(await confirmCouponRedemption(db(), held.id)).toBe(true);
    expect(await confirmCouponRedemption(db(), notHeld.id)).toBe(false);
    expect(await timesRedeemed(coupon.id)).toBe(10);
    expect(await releaseCouponRedemption(db(), held.id)).toBe(true);
    expect(await releaseCouponRedemption(db(), held.id)).toBe(false);
    expect(await timesRedeemed(coupon.id)).toBe(9);
    expect(await reserveCouponRedemption(db(), { couponId: coupon.id, orderId: notHeld.id, userId: user.id, discountCents: 100 })).toBe(true);
    expect(await timesRedeemed(coupon.id)).toBe(10);
  });

  it("an unlimited coupon always reserves; an inactive one never does", async () => {
    const user = await createUser(db());
    const unlimited = await insertCoupon(db(), { max_redemptions: null, times_redeemed: 500 });
    const inactive = await insertCoupon(db(), { is_active: false });
    const a = await insertOrder(db(), { userId: user.id });
    const b = await insertOrder(db(), { userId: user.id });
    expect(await reserveCouponRedemption(db(), { couponId: unlimited.id, orderId: a.id, userId: user.id, discountCents: 1 })).toBe(true);
    expect(await reserveCouponRedemption(db(), { couponId: inactive.id, orderId: b.id, userId: user.id, discountCents: 1 })).toBe(false);
    expect(await timesRedeemed(inactive.id)).toBe(0);
  });
});

describe("validateAndApplyCoupon", () => {
  it.each([
    ["percentage", { discount_type: "percentage" as const, discount_value: 15 }, 20000, 3000],
    ["fixed amount capped at the total", { discount_type: "fixed_amount" as const, discount_value: 50000 }, 20000, 20000],
    ["free delivery with no zones: the R70 fallback", { discount_type: "free_delivery" as const, discount_value: 10000 }, 20000, 7000],
    ["free delivery above the threshold saves nothing", { discount_type: "free_delivery" as const, discount_value: 10000 }, 60000, 0],
  ])("%s", async (_n, overrides, total, discount) => {
    const c = await insertCoupon(db(), overrides);
    const r = await validateAndApplyCoupon(db(), { code: c.code.toLowerCase(), orderTotalCents: total, userId: null });
    expect(r).toMatchObject({ valid: true, code: c.code, discount_type: overrides.discount_type, discount_amount: discount, error: null });
  });

  it("end date counts to the end of its South African day", async () => {
    const c = await insertCoupon(db(), { start_date: "2025-06-01T00:00:00.000Z", end_date: "2025-06-30T00:00:00.000+02:00" });
    const late = await validateAndApplyCoupon(db(), { code: c.code, orderTotalCents: 1000, userId: null, now: new Date("2025-06-30T23:30:00.000+02:00") });
    expect(late.valid).toBe(true);
    const next = await validateAndApplyCoupon(db(), { code: c.code, orderTotalCents: 1000, userId: null, now: new Date("2025-07-01T00:00:01.000+02:00") });
    expect(next).toMatchObject({ valid: false, error: "This coupon has expired" });
  });
});
