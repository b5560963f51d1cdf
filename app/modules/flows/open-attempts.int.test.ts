import { afterAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, openDatabase, type DB } from "~/db/db.server";
import { validateAndApplyCoupon } from "~/modules/coupons/coupons.server";
import { COUPON_MESSAGES } from "~/modules/coupons/coupons.logic";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { couponState, postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { CheckoutAttemptClosedError, checkout } from "~/modules/flows/checkout.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { checkoutSchema } from "~/modules/orders/orders.schema";
import { CouponRejectedError, placeOrder } from "~/modules/flows/order-placed.server";

/**
 * One customer holds at most one unpaid order per limited coupon (docs/decisions/015): a new attempt with the same
 * coupon closes their earlier unpaid ones and takes their reservation's place.
 */
const db = () => getDb();

async function customer(database: DB = db()) {
  const id = newId();
  await database
    .insertInto("users")
    .values({ id, email: `attempts-${id.slice(0, 10)}@example.test`, is_admin: false, email_verified: false, email_notifications: true, email_marketing: false })
    .execute();
  return { id, email: `attempts-${id.slice(0, 10)}@example.test` };
}

async function cart(couponCode?: string) {
  const product = await insertProduct(db(), { price_cents: 40000 });
  return { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS, couponCode: couponCode ?? null };
}

async function statusOf(id: string) {
  return db().selectFrom("orders").select(["status", "payment_status"]).where("id", "=", id).executeTakeFirstOrThrow();
}

async function openOrdersOf(userId: string) {
  return db().selectFrom("orders").select(["id", "coupon_code"]).where("user_id", "=", userId).where("status", "=", "pending").where("payment_status", "=", "pending").execute();
}

describe("one unpaid attempt per customer and limited coupon", () => {
  it("a new attempt with the same limited coupon closes the earlier unpaid one and releases its reservation", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 3 });
    const buyer = await customer();
    const first = await placeOrder(db(), buyer, await cart(coupon.code));
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [first.id] });

    const second = await placeOrder(db(), buyer, await cart(coupon.code));
    expect(second.discountCents).toBe(4000);
    expect(await statusOf(first.id)).toEqual({ status: "cancelled", payment_status: "cancelled" });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [second.id] });
    expect((await openOrdersOf(buyer.id)).map((o) => o.id)).toEqual([second.id]);
  });

  it("one customer can no longer use up a 3-use coupon with 3 unpaid orders: others still get it", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 3 });
    const hoarder = await customer();
    for (let i = 0; i < 3; i++) await placeOrder(db(), hoarder, await cart(coupon.code));
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(1);
    expect(await openOrdersOf(hoarder.id)).toHaveLength(1);
    const a = await placeOrder(db(), await customer(), await cart(coupon.code));
    const b = await placeOrder(db(), await customer(), await cart(coupon.code));
    expect(await couponState(db(), coupon.id)).toMatchObject({ timesRedeemed: 3 });
    expect(a.couponCode).toBe(coupon.code);
    expect(b.couponCode).toBe(coupon.code);
    await expect(placeOrder(db(), await customer(), await cart(coupon.code))).rejects.toThrow(CouponRejectedError);
  });

  it("a retry is not refused when the customer's own unpaid attempt holds the coupon's last redemption; anyone else is", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 1 });
    const buyer = await customer();
    const first = await placeOrder(db(), buyer, await cart(coupon.code));
    // the cart's coupon check agrees with the placement
    expect(await validateAndApplyCoupon(db(), { code: coupon.code, orderTotalCents: 40000, userId: buyer.id })).toMatchObject({ valid: true });
    const other = await customer();
    expect(await validateAndApplyCoupon(db(), { code: coupon.code, orderTotalCents: 40000, userId: other.id })).toMatchObject({ valid: false, error: COUPON_MESSAGES.exhausted });
    await expect(placeOrder(db(), other, await cart(coupon.code))).rejects.toThrow(COUPON_MESSAGES.exhausted);

    const retry = await placeOrder(db(), buyer, await cart(coupon.code));
    expect(await statusOf(first.id)).toMatchObject({ status: "cancelled" });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [retry.id] });
  });

  it("leaves paid orders, other coupons' attempts, unlimited coupons and other customers alone", async () => {
    const limited = await insertCoupon(db(), { max_redemptions: 5 });
    const otherLimited = await insertCoupon(db(), { max_redemptions: 5 });
    const unlimited = await insertCoupon(db(), { max_redemptions: null });
    const buyer = await customer();
    const neighbour = await customer();
    const paid = await placeOrder(db(), buyer, await cart(limited.code));
    await db().transaction().execute((trx) => markOrderPaid(trx, paid.id));
    const otherCoupon = await placeOrder(db(), buyer, await cart(otherLimited.code));
    const free1 = await placeOrder(db(), buyer, await cart(unlimited.code));
    const neighbours = await placeOrder(db(), neighbour, await cart(limited.code));

    const next = await placeOrder(db(), buyer, await cart(limited.code));
    await placeOrder(db(), buyer, await cart(unlimited.code));
    expect(await statusOf(paid.id)).toEqual({ status: "processing", payment_status: "completed" });
    expect(await statusOf(otherCoupon.id)).toMatchObject({ status: "pending" });
    expect(await statusOf(free1.id)).toMatchObject({ status: "pending" });
    expect(await statusOf(neighbours.id)).toMatchObject({ status: "pending" });
    expect(await couponState(db(), limited.id)).toEqual({ timesRedeemed: 3, usageOrders: [paid.id, neighbours.id, next.id].sort() });
  });
});

describe("several placements by the same customer at once", () => {
  const others: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(others.map((o) => o.close()));
  });
  function secondServer(): DB {
    if (!isPostgres(db())) return db();
    const handle = openDatabase(env().DATABASE_URL);
    others.push(handle);
    return handle.db;
  }

  it("leave exactly one unpaid order holding the coupon, with times_redeemed counting it once", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 3 });
    const buyer = await customer();
    const carts = await Promise.all(Array.from({ length: 8 }, () => cart(coupon.code)));
    const other = secondServer();
    const neighbour = await customer();
    const results = await Promise.allSettled([
      ...carts.map((c, i) => placeOrder(i % 2 ? other : db(), buyer, c)),
      placeOrder(db(), neighbour, carts[0]!),
    ]);
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const open = await openOrdersOf(buyer.id);
    expect(open).toHaveLength(1);
    const state = await couponState(db(), coupon.id);
    expect(state.timesRedeemed).toBe(2);
    expect(state.usageOrders.sort()).toEqual([open[0]!.id, (await openOrdersOf(neighbour.id))[0]!.id].sort());
    const closed = await db().selectFrom("orders").select("id").where("user_id", "=", buyer.id).where("status", "=", "cancelled").execute();
    expect(closed).toHaveLength(7);
  });
});

describe("the checkout with an earlier attempt closed by a newer one", () => {
  it("same token resumes the same order; a new token closes the old attempt; the old page's token is spent; its late payment is refused and kept for a refund", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 2 });
    const buyer = await customer();
    const product = await insertProduct(db(), { price_cents: 40000 });
    const fields = (token: string) =>
      checkoutSchema.parse({ ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), couponCode: coupon.code, checkoutToken: token });
    const oldToken = crypto.randomUUID();
    const first = await checkout(db(), buyer, fields(oldToken));
    // the same click again: the same order and payment page, nothing closed
    expect(await checkout(db(), buyer, fields(oldToken))).toEqual(first);
    const [oldOrder] = await db().selectFrom("orders").select(["id", "payment_id", "total_amount_cents"]).where("checkout_token", "=", oldToken).execute();
    expect(await statusOf(oldOrder!.id)).toMatchObject({ status: "pending" });

    const second = await checkout(db(), buyer, fields(crypto.randomUUID()));
    expect(second.redirectTo).not.toBe(first.redirectTo);
    expect(await statusOf(oldOrder!.id)).toEqual({ status: "cancelled", payment_status: "cancelled" });
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(1);

    // the old page posted again: its attempt is over, the page gets a new token
    await expect(checkout(db(), buyer, fields(oldToken))).rejects.toThrow(CheckoutAttemptClosedError);

    // the shopper pays on the old payment page after all: the money is not taken as payment of a closed order
    const response = await postWebhook("simulated", simulatedWebhook(oldOrder!.payment_id!, oldOrder!.total_amount_cents));
    expect((await response.json()).outcome).toBe("order_not_payable");
    expect(await statusOf(oldOrder!.id)).toEqual({ status: "cancelled", payment_status: "cancelled" });
    const event = await db().selectFrom("payment_events").select(["outcome", "order_id"]).where("order_id", "=", oldOrder!.id).executeTakeFirstOrThrow();
    expect(event.outcome).toBe("order_not_payable");
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(1);
  });
});
