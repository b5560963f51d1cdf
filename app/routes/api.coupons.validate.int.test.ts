import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callAction, dataOf, statusOf, TEST_ORIGIN } from "../../tests/setup/route";
import { insertProduct, insertTier } from "../../tests/factories/catalog";
import { insertCoupon, insertZone } from "../../tests/factories/orders";
import { action, loader } from "./api.coupons.validate";

const db = () => getDb();
const post = async (body: Record<string, string>) => {
  const result = await callAction(action, "/api/coupons/validate", body);
  return { status: statusOf(result), body: await dataOf(result) };
};

describe("POST /api/coupons/validate", () => {
  it("answers the spec §7 shape with the success message 'Coupon applied! You saved R{amount}'", async () => {
    await insertCoupon(db(), { code: "WELCOME10", discount_type: "percentage", discount_value: 10, description: "10% off your first order" });
    const { status, body } = await post({ code: "  welcome10 ", orderTotal: "34999" });
    expect(status).toBe(200);
    expect(body).toEqual({
      valid: true,
      code: "WELCOME10",
      discount_type: "percentage",
      discount_amount: 3500,
      description: "10% off your first order",
      error: null,
      message: "Coupon applied! You saved R35.00",
    });
  });

  it.each([
    ["", "Please enter a coupon code"],
    ["   ", "Please enter a coupon code"],
    ["NOPE", "Invalid coupon code"],
    ["X".repeat(51), "Invalid coupon code"],
  ])("code %j → %s", async (code, message) => {
    const { body } = await post({ code, orderTotal: "10000" });
    expect(body.valid).toBe(false);
    expect(body.error).toBe(message);
    expect(body.message).toBe(message);
  });

  it.each([
    ["inactive", { is_active: false }, "This coupon is no longer active"],
    ["not started", { start_date: new Date(Date.now() + 86_400_000).toISOString(), end_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }, "This coupon is not valid yet"],
    ["expired", { start_date: "2024-01-01T00:00:00.000Z", end_date: "2024-01-31T21:59:59.999Z" }, "This coupon has expired"],
    ["used up", { max_redemptions: 3, times_redeemed: 3 }, "This coupon has reached its redemption limit"],
    ["minimum spend", { minimum_spend_cents: 50000 }, "A minimum spend of R500.00 is required for this coupon"],
  ] as const)("the server's reason when %s", async (_n, overrides, message) => {
    const code = `C${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
    await insertCoupon(db(), { code, ...overrides });
    const { body } = await post({ code, orderTotal: "10000" });
    expect(body).toMatchObject({ valid: false, discount_amount: 0, error: message });
  });

  it("recomputes the total from the posted lines (DB and tier prices), ignoring the posted orderTotal", async () => {
    const p = await insertProduct(db(), { price_cents: 30000 });
    await insertTier(db(), p.id, { min_quantity: 2, max_quantity: null, price_cents: 25000 });
    await insertCoupon(db(), { code: "BIGSPEND", discount_type: "fixed_amount", discount_value: 10000, minimum_spend_cents: 50000 });
    // A browser claiming R1 000 for one bottle does not reach the minimum spend
    const one = await post({ code: "BIGSPEND", orderTotal: "100000", lines: JSON.stringify([{ productId: p.id, quantity: 1 }]) });
    expect(one.body).toMatchObject({ valid: false, error: "A minimum spend of R500.00 is required for this coupon" });
    // two bottles at the tier price: R500.00 exactly
    const two = await post({ code: "BIGSPEND", orderTotal: "0", lines: JSON.stringify([{ productId: p.id, quantity: 2 }]) });
    expect(two.body).toMatchObject({ valid: true, discount_amount: 10000, message: "Coupon applied! You saved R100.00" });
  });

  it("accepts JSON bodies; free_delivery saves the shipping of the first zone", async () => {
    await insertZone(db(), { name: "AAAA first", baseRateCents: 8500 });
    await insertCoupon(db(), { code: "SHIPFREE", discount_type: "free_delivery", discount_value: 20000 });
    const request = new Request(new URL("/api/coupons/validate", TEST_ORIGIN), {
      method: "POST",
      headers: { "content-type": "application/json", origin: TEST_ORIGIN },
      body: JSON.stringify({ code: "shipfree", orderTotal: 25000 }),
    });
    const result = await action({ request, params: {}, context: undefined as never } as never);
    expect(await dataOf(result)).toMatchObject({ valid: true, discount_type: "free_delivery", discount_amount: 8500, message: "Coupon applied! You saved R85.00" });
    await db().deleteFrom("shipping_zones").execute();
  });

  it("refuses cross-site posts and GET", async () => {
    const result = await callAction(action, "/api/coupons/validate", { code: "X", orderTotal: "1" }, { headers: { origin: "https://evil.example" } });
    expect(statusOf(result)).toBe(403);
    expect(statusOf(await loader())).toBe(405);
  });
});
