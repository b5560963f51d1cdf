import { expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { CouponRejectedError, placeOrder } from "~/modules/flows/order-placed.server";
import { newId } from "~/utils/ids";
import { createCheckoutForOrder } from "~/modules/flows/checkout.server";
import { insertProduct } from "../../../tests/factories/catalog";
import { TEST_ADDRESS, insertCoupon } from "../../../tests/factories/orders";
import { postWebhook, simulatedWebhook } from "../../../tests/factories/payments";

/**
 * 50 buyers check out and pay at the same time, each with the same coupon limited to 10 redemptions.
 * The reservation at placement is the authority (docs/decisions/002): exactly 10 orders get the discount, the other
 * 40 are refused the coupon and pay full price; every order is paid through a verified webhook; the coupon is
 * redeemed exactly 10 times with 10 coupon_usage rows, each belonging to a paid, discounted order.
 */
it("50 concurrent paid checkouts with a 10-redemption coupon give exactly 10 discounted paid orders", async () => {
  const db = getDb();
  const product = await insertProduct(db, { price_cents: 40000 });
  const coupon = await insertCoupon(db, { code: "RUSH10", discount_type: "percentage", discount_value: 10, max_redemptions: 10 });
  const buyers = Array.from({ length: 50 }, (_, i) => ({ id: newId(), email: `rush-${i}-${newId().slice(0, 6)}@example.test` }));
  await db.insertInto("users").values(buyers.map((b) => ({ id: b.id, email: b.email, is_admin: false, email_verified: false, email_notifications: true, email_marketing: false }))).execute();

  const input = { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS };
  const results = await Promise.all(
    buyers.map(async (buyer) => {
      let refused = false;
      let order;
      try {
        order = await placeOrder(db, buyer, { ...input, couponCode: "RUSH10" });
      } catch (error) {
        if (!(error instanceof CouponRejectedError)) throw error;
        // The browser drops the exhausted coupon and the buyer checks out at full price.
        refused = true;
        order = await placeOrder(db, buyer, input);
      }
      const { checkoutId } = await createCheckoutForOrder(db, order, { email: buyer.email, name: TEST_ADDRESS.name, telephone: TEST_ADDRESS.telephone });
      const response = await postWebhook("simulated", simulatedWebhook(checkoutId, order.totalAmountCents));
      return { orderId: order.id, refused, outcome: (await response.json()).outcome as string };
    }),
  );

  expect(results.filter((r) => r.refused)).toHaveLength(40);
  expect(results.every((r) => r.outcome === "paid")).toBe(true);

  const orders = await db.selectFrom("orders").selectAll().where("user_id", "in", buyers.map((b) => b.id)).execute();
  expect(orders).toHaveLength(50);
  expect(orders.every((o) => o.status === "processing" && o.payment_status === "completed" && o.processing_started_at)).toBe(true);
  const discounted = orders.filter((o) => o.coupon_code === "RUSH10");
  expect(discounted).toHaveLength(10);
  expect(discounted.every((o) => o.discount_amount_cents === 4000 && o.total_amount_cents === o.subtotal_cents - 4000 + o.shipping_cents)).toBe(true);
  expect(orders.filter((o) => o.discount_amount_cents > 0)).toHaveLength(10);

  const stored = await db.selectFrom("coupons").select("times_redeemed").where("id", "=", coupon.id).executeTakeFirstOrThrow();
  expect(stored.times_redeemed).toBe(10);
  const usage = await db.selectFrom("coupon_usage").select(["order_id", "discount_amount_cents"]).where("coupon_id", "=", coupon.id).execute();
  expect(usage).toHaveLength(10);
  expect(new Set(usage.map((u) => u.order_id))).toEqual(new Set(discounted.map((o) => o.id)));
  expect(usage.every((u) => u.discount_amount_cents === 4000)).toBe(true);

  // One customer confirmation per order, and one shop notice per order.
  const mail = await db.selectFrom("mail_outbox").select(["to_address"]).execute();
  for (const buyer of buyers) expect(mail.filter((m) => m.to_address === buyer.email)).toHaveLength(1);
});
