import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct, insertTier } from "../../tests/factories/catalog";
import { insertCoupon, insertZone, TEST_ADDRESS } from "../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { action, loader } from "./checkout";

const db = () => getDb();

function form(lines: unknown, extra: Record<string, string> = {}) {
  return {
    name: TEST_ADDRESS.name,
    telephone: "082 123 4567",
    street: TEST_ADDRESS.street,
    suburb: TEST_ADDRESS.suburb,
    city: TEST_ADDRESS.city,
    postalCode: TEST_ADDRESS.postalCode,
    province: TEST_ADDRESS.province,
    lines: JSON.stringify(lines),
    ...extra,
  };
}

async function orderCount() {
  const row = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function customer() {
  const user = await createUser(db());
  return { user, cookie: await sessionCookieFor(db(), user.id) };
}

describe("/checkout loader", () => {
  it("sends a visitor to login and back", async () => {
    const result = await callLoader(loader, "/checkout");
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fcheckout");
  });

  it("gives a customer the shipping zones by name", async () => {
    const { cookie } = await customer();
    await insertZone(db(), { name: "Zz Western Cape" });
    await insertZone(db(), { name: "Aa Gauteng" });
    const data = await dataOf(await callLoader(loader, "/checkout", { headers: { cookie } }));
    expect(data.zones.map((z: { name: string }) => z.name)).toEqual(["Aa Gauteng", "Zz Western Cape"]);
    await db().deleteFrom("shipping_zones").execute();
  });
});

describe("/checkout action", () => {
  it("a visitor gets 'Please sign in to continue' and nothing is stored", async () => {
    const p = await insertProduct(db());
    const before = await orderCount();
    const result = await callAction(action, "/checkout", form([{ productId: p.id, quantity: 1 }]));
    expect(statusOf(result)).toBe(401);
    expect(await dataOf(result)).toMatchObject({ ok: false, error: "Please sign in to continue" });
    expect(await orderCount()).toBe(before);
  });

  it("a customer's order is repriced from the database (tampered prices ignored) and sent to payment", async () => {
    const { user, cookie } = await customer();
    const p = await insertProduct(db(), { name: "Santal Dusk", price_cents: 45000 });
    await insertTier(db(), p.id, { min_quantity: 2, max_quantity: null, price_cents: 40000 });
    const tampered = [{ productId: p.id, quantity: 2, price: 1, unitPrice: 1, totalPrice: 2 }];
    const result = await callAction(action, "/checkout", form(tampered, { total: "2", subtotal: "2" }), { headers: { cookie } });
    expect(statusOf(result)).toBe(302);
    const location = (result as Response).headers.get("Location")!;
    expect(location).toContain("/pay/simulated/");
    const order = await db().selectFrom("orders").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ subtotal_cents: 80000, shipping_cents: 0, total_amount_cents: 80000, status: "pending", payment_status: "pending" });
    expect(order.payment_id).toBeTruthy();
    expect(order.shipping_address).toMatchObject({ telephone: "+27821234567", province: "Gauteng" });
    const lines = await db().selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute();
    expect(lines.map((l) => [l.quantity, l.unit_price_cents, l.total_price_cents])).toEqual([[2, 40000, 80000]]);
  });

  it("a stale coupon is refused with its reason (field couponCode), nothing is placed", async () => {
    const { cookie } = await customer();
    const p = await insertProduct(db(), { price_cents: 30000 });
    await insertCoupon(db(), { code: "GONE5", max_redemptions: 5, times_redeemed: 5 });
    const before = await orderCount();
    const result = await callAction(action, "/checkout", form([{ productId: p.id, quantity: 1 }], { couponCode: "gone5" }), { headers: { cookie } });
    expect(statusOf(result)).toBe(409);
    expect(await dataOf(result)).toMatchObject({ ok: false, error: "This coupon has reached its redemption limit", fieldErrors: { couponCode: "This coupon has reached its redemption limit" } });
    expect(await orderCount()).toBe(before);
  });

  it("an empty cart, bad address fields and missing products are refused without storing anything", async () => {
    const { cookie } = await customer();
    const p = await insertProduct(db());
    const before = await orderCount();
    const empty = await callAction(action, "/checkout", form([]), { headers: { cookie } });
    expect(statusOf(empty)).toBe(400);
    expect((await dataOf(empty)).error).toBe("Your cart is empty");

    const badPhone = await callAction(action, "/checkout", form([{ productId: p.id, quantity: 1 }], { telephone: "12345", postalCode: "123", province: "Atlantis" }), { headers: { cookie } });
    expect(statusOf(badPhone)).toBe(400);
    const fe = (await dataOf(badPhone)).fieldErrors;
    expect(fe.telephone).toMatch(/South African phone number/);
    expect(fe.postalCode).toBe("Postal code must be 4 digits");
    expect(fe.province).toBe("Please choose a province");

    const tooMany = await callAction(action, "/checkout", form([{ productId: p.id, quantity: 101 }]), { headers: { cookie } });
    expect(statusOf(tooMany)).toBe(400);

    const gone = await callAction(action, "/checkout", form([{ productId: "deleted", quantity: 1 }]), { headers: { cookie } });
    expect(statusOf(gone)).toBe(409);
    expect(await dataOf(gone)).toMatchObject({ fieldErrors: { missing: "deleted" } });

    const garbage = await callAction(action, "/checkout", { ...form([]), lines: "not json" }, { headers: { cookie } });
    expect(statusOf(garbage)).toBe(400);
    expect((await dataOf(garbage)).error).toBe("Unable to process your order. Please try again.");
    expect(await orderCount()).toBe(before);
  });

  it("refuses a cross-site post", async () => {
    const { cookie } = await customer();
    const p = await insertProduct(db());
    const result = await callAction(action, "/checkout", form([{ productId: p.id, quantity: 1 }]), { headers: { cookie, origin: "https://evil.example" } });
    expect(statusOf(result)).toBe(403);
  });
});
