import { describe, expect, it } from "vitest";
import { getDb, isUniqueViolation } from "~/db/db.server";
import { newId } from "~/utils/ids";
import { insertProduct, insertTier } from "../../../tests/factories/catalog";
import { insertCoupon, insertZone, TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import { COUPON_MESSAGES } from "~/modules/coupons/coupons.logic";
import { releaseCouponRedemption } from "~/modules/coupons/coupons.server";
import { CHECKOUT_MESSAGES } from "~/modules/orders/orders.logic";
import { CartChangedError, CouponRejectedError, placeOrder } from "~/modules/flows/order-placed.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";

const db = () => getDb();

async function storedOrder(id: string) {
  const order = await db().selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const lines = await db().selectFrom("order_lines").selectAll().where("order_id", "=", id).orderBy("position").execute();
  return { order, lines };
}

async function counts() {
  const orders = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const lines = await db().selectFrom("order_lines").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const usage = await db().selectFrom("coupon_usage").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return { orders: Number(orders.n), lines: Number(lines.n), usage: Number(usage.n) };
}

describe("quoteCart", () => {
  it("prices each line from the database with the tier for its quantity", async () => {
    const p = await insertProduct(db(), { price_cents: 34999 });
    await insertTier(db(), p.id, { min_quantity: 3, max_quantity: 5, price_cents: 31999 });
    await insertTier(db(), p.id, { min_quantity: 6, max_quantity: null, price_cents: 28999 });
    const q2 = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 2 }] });
    expect(q2.lines[0]).toMatchObject({ unitPriceCents: 34999, tierApplied: false, nextTier: { minQuantity: 3, priceCents: 31999 } });
    const q4 = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 4 }] });
    expect(q4.lines[0]).toMatchObject({ unitPriceCents: 31999, lineTotalCents: 127996, tierApplied: true });
    const q20 = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 20 }] });
    expect(q20.lines[0]).toMatchObject({ unitPriceCents: 28999, nextTier: null });
    expect(q20.totals).toMatchObject({ subtotalCents: 579980, shippingCents: 0, totalCents: 579980 });
  });

  it("merges duplicate lines and reports products that no longer exist", async () => {
    const p = await insertProduct(db(), { price_cents: 10000 });
    const q = await quoteCart(db(), {
      lines: [
        { productId: p.id, quantity: 1 },
        { productId: "gone", quantity: 2 },
        { productId: p.id, quantity: 2 },
      ],
    });
    expect(q.lines).toHaveLength(1);
    expect(q.lines[0].quantity).toBe(3);
    expect(q.missingProductIds).toEqual(["gone"]);
  });

  it("uses the chosen zone's rules, the first zone by default", async () => {
    const a = await insertZone(db(), { name: "AAA Gauteng", baseRateCents: 9000, rules: [{ minTotalCents: 0, maxTotalCents: 20000, rateCents: 5000 }] });
    const b = await insertZone(db(), { name: "BBB Rural", baseRateCents: 15000 });
    const p = await insertProduct(db(), { price_cents: 10000 });
    const byDefault = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }] });
    expect(byDefault.zoneId).toBe(a.id);
    expect(byDefault.totals.shippingCents).toBe(5000);
    const chosen = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], zoneId: b.id });
    expect(chosen.totals.shippingCents).toBe(15000);
    await db().deleteFrom("shipping_zones").execute();
  });
});

describe("placeOrder", () => {
  it("stores the order with database prices and tier prices (the browser's prices do not exist here)", async () => {
    const user = await createUser(db());
    const a = await insertProduct(db(), { name: "Oud Noir", price_cents: 34999 });
    const b = await insertProduct(db(), { name: "Rose Veil", price_cents: 12000 });
    await insertTier(db(), b.id, { min_quantity: 3, max_quantity: null, price_cents: 10000 });
    // Whatever else a tampered request carried (price: 1) is not even part of the input type; the route test posts it.
    const order = await placeOrder(db(), user, {
      lines: [
        { productId: a.id, quantity: 1 },
        { productId: b.id, quantity: 3 },
      ],
      shippingAddress: TEST_ADDRESS,
    });
    const { order: row, lines } = await storedOrder(order.id);
    expect(row).toMatchObject({
      user_id: user.id,
      status: "pending",
      payment_status: "pending",
      subtotal_cents: 64999,
      discount_amount_cents: 0,
      shipping_cents: 0,
      total_amount_cents: 64999,
      original_total_cents: null,
      coupon_code: null,
    });
    expect(row.shipping_address).toEqual(TEST_ADDRESS);
    expect(lines.map((l) => [l.name, l.quantity, l.unit_price_cents, l.total_price_cents])).toEqual([
      ["Oud Noir", 1, 34999, 34999],
      ["Rose Veil", 3, 10000, 30000],
    ]);
    expect(order.totalAmountCents).toBe(64999);
  });

  it("applies a coupon, records original total and reserves a redemption", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { price_cents: 40000 });
    const coupon = await insertCoupon(db(), { code: "SAVE10", discount_type: "percentage", discount_value: 10, max_redemptions: 5 });
    const order = await placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }], couponCode: " save10 ", shippingAddress: TEST_ADDRESS });
    const { order: row } = await storedOrder(order.id);
    expect(row).toMatchObject({ subtotal_cents: 40000, discount_amount_cents: 4000, shipping_cents: 7000, total_amount_cents: 43000, original_total_cents: 47000, coupon_code: "SAVE10" });
    const c = await db().selectFrom("coupons").select("times_redeemed").where("id", "=", coupon.id).executeTakeFirstOrThrow();
    expect(c.times_redeemed).toBe(1);
    const usage = await db().selectFrom("coupon_usage").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(usage).toMatchObject({ coupon_id: coupon.id, user_id: user.id, discount_amount_cents: 4000 });

    // released once (cancel/fail), and a second release changes nothing
    expect(await releaseCouponRedemption(db(), order.id)).toBe(true);
    expect(await releaseCouponRedemption(db(), order.id)).toBe(false);
    const after = await db().selectFrom("coupons").select("times_redeemed").where("id", "=", coupon.id).executeTakeFirstOrThrow();
    expect(after.times_redeemed).toBe(0);
  });

  it.each([
    ["expired", { end_date: "2020-01-31T21:59:59.999Z", start_date: "2020-01-01T00:00:00.000Z" }, COUPON_MESSAGES.expired],
    ["inactive", { is_active: false }, COUPON_MESSAGES.inactive],
    ["exhausted", { max_redemptions: 1, times_redeemed: 1 }, COUPON_MESSAGES.exhausted],
    ["minimum spend not met", { minimum_spend_cents: 100000 }, COUPON_MESSAGES.minimumSpend(100000)],
    ["unknown", null, COUPON_MESSAGES.invalid],
  ] as const)("a stale coupon (%s) refuses the placement and changes nothing", async (_n, overrides, message) => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { price_cents: 40000 });
    const code = `STALE${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    if (overrides) await insertCoupon(db(), { code, ...overrides });
    const before = await counts();
    const attempt = placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }], couponCode: code, shippingAddress: TEST_ADDRESS });
    await expect(attempt).rejects.toBeInstanceOf(CouponRejectedError);
    await expect(attempt).rejects.toThrow(message);
    expect(await counts()).toEqual(before);
  });

  it("refuses an empty cart, vanished products and totals under R2.00, storing nothing", async () => {
    const user = await createUser(db());
    const before = await counts();
    await expect(placeOrder(db(), user, { lines: [], shippingAddress: TEST_ADDRESS })).rejects.toThrow("Your cart is empty");
    const p = await insertProduct(db(), { price_cents: 10000 });
    const gone = placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }, { productId: "deleted-product", quantity: 1 }], shippingAddress: TEST_ADDRESS });
    await expect(gone).rejects.toBeInstanceOf(CartChangedError);
    await expect(gone).rejects.toMatchObject({ missingProductIds: ["deleted-product"] });
    // a free sample with a 100% coupon and free delivery threshold 0 is not possible here; use a R1 item and a free-delivery coupon
    const cheap = await insertProduct(db(), { price_cents: 100 });
    await insertCoupon(db(), { code: "FREESHIP1", discount_type: "free_delivery", discount_value: 0 });
    await expect(placeOrder(db(), user, { lines: [{ productId: cheap.id, quantity: 1 }], couponCode: "FREESHIP1", shippingAddress: TEST_ADDRESS })).rejects.toThrow(CHECKOUT_MESSAGES.minimum);
    await expect(placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 101 }], shippingAddress: TEST_ADDRESS })).rejects.toThrow("Quantity must be between 1 and 100");
    expect(await counts()).toEqual(before);
  });

  it("30 concurrent placements with a 10-redemption coupon: exactly 10 get it, the rest are refused and store nothing", async () => {
    const p = await insertProduct(db(), { price_cents: 50000 });
    const coupon = await insertCoupon(db(), { code: "LIMITED10", discount_type: "fixed_amount", discount_value: 5000, max_redemptions: 10 });
    // 30 different buyers: one buyer's repeated attempts would replace each other (docs/decisions/015).
    const users = Array.from({ length: 30 }, () => ({ id: newId() }));
    await db()
      .insertInto("users")
      .values(users.map((u) => ({ id: u.id, email: `limited-${u.id.slice(0, 12)}@example.test`, is_admin: false, email_verified: false, email_notifications: true, email_marketing: false })))
      .execute();
    const before = await counts();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        placeOrder(db(), users[i % users.length], { lines: [{ productId: p.id, quantity: 1 }], couponCode: "LIMITED10", shippingAddress: TEST_ADDRESS }),
      ),
    );
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const r of refused) expect(r.reason).toBeInstanceOf(CouponRejectedError);
    const c = await db().selectFrom("coupons").select("times_redeemed").where("id", "=", coupon.id).executeTakeFirstOrThrow();
    expect(c.times_redeemed).toBe(10);
    const after = await counts();
    expect(after.orders - before.orders).toBe(10);
    expect(after.usage - before.usage).toBe(10);
    const discounted = await db().selectFrom("orders").select("id").where("coupon_code", "=", "LIMITED10").where("discount_amount_cents", "=", 5000).execute();
    expect(discounted).toHaveLength(10);
  });

  it("a checkout token places one order per user: racing placements with it store one order and one coupon reservation", async () => {
    const p = await insertProduct(db(), { price_cents: 50000 });
    const coupon = await insertCoupon(db(), { code: "TOKEN5", discount_type: "fixed_amount", discount_value: 5000, max_redemptions: 5 });
    const [user, other] = await Promise.all([createUser(db()), createUser(db())]);
    const checkoutToken = crypto.randomUUID();
    const input = { checkoutToken, lines: [{ productId: p.id, quantity: 1 }], couponCode: "TOKEN5", shippingAddress: TEST_ADDRESS };
    const before = await counts();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => placeOrder(db(), user, input)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    // The unique index on (user_id, checkout_token) decides the race on both databases; the losers roll back whole.
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of refused) expect(isUniqueViolation(r.reason)).toBe(true);
    const after = await counts();
    expect(after.orders - before.orders).toBe(1);
    expect(after.usage - before.usage).toBe(1);
    expect(after.lines - before.lines).toBe(1);
    const c = await db().selectFrom("coupons").select("times_redeemed").where("id", "=", coupon.id).executeTakeFirstOrThrow();
    expect(c.times_redeemed).toBe(1);
    // The token is the user's: another shopper's form can't collide with it.
    await expect(placeOrder(db(), other, input)).resolves.toMatchObject({ userId: other.id });
  });
});
