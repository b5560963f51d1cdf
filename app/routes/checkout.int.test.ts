import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct, insertTier } from "../../tests/factories/catalog";
import { insertCoupon, insertOrder, insertZone, TEST_ADDRESS } from "../../tests/factories/orders";
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

describe("/checkout loader: the last shipping address (issue 13)", () => {
  const elsewhere = { name: "Pieter van Wyk", telephone: "+27215550199", street: "4 Kloof Nek Road", suburb: "Tamboerskloof", city: "Cape Town", postalCode: "8001", province: "Western Cape" };

  it("offers a customer where their own most recent order went, the number written the local way", async () => {
    const { user, cookie } = await customer();
    await insertOrder(db(), { userId: user.id, shippingAddress: TEST_ADDRESS, createdAt: "2026-01-05T10:00:00.000Z" });
    await insertOrder(db(), { userId: user.id, shippingAddress: elsewhere, createdAt: "2026-03-01T10:00:00.000Z", status: "cancelled" });
    await insertOrder(db(), { userId: user.id, shippingAddress: { ...TEST_ADDRESS, street: "1 Old Road" }, createdAt: "2025-12-01T10:00:00.000Z" });
    const data = await dataOf(await callLoader(loader, "/checkout", { headers: { cookie } }));
    expect(data.lastAddress).toEqual({ ...elsewhere, telephone: "021 555 0199" });
  });

  it("never offers another customer's address: a first order starts empty even when others ordered just now", async () => {
    const other = await customer();
    await insertOrder(db(), { userId: other.user.id, shippingAddress: elsewhere });
    const { cookie } = await customer();
    const data = await dataOf(await callLoader(loader, "/checkout", { headers: { cookie } }));
    expect(data.lastAddress).toBeNull();
    // and the other customer gets theirs
    expect((await dataOf(await callLoader(loader, "/checkout", { headers: { cookie: other.cookie } }))).lastAddress).toMatchObject({ street: "4 Kloof Nek Road" });
  });

  it("an admin who shops gets their own last address, not one of the orders they manage", async () => {
    const admin = await createUser(db(), { isAdmin: true });
    const shopper = await customer();
    await insertOrder(db(), { userId: shopper.user.id, shippingAddress: elsewhere });
    const data = await dataOf(await callLoader(loader, "/checkout", { headers: { cookie: await sessionCookieFor(db(), admin.id) } }));
    expect(data.lastAddress).toBeNull();
  });

  it("a visitor gets no address at all, only the way to sign in", async () => {
    const result = await callLoader(loader, "/checkout");
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fcheckout");
    expect(await (result as Response).text()).not.toContain("Jacaranda");
  });

  it("an order placed through checkout is the address offered next time", async () => {
    const { cookie } = await customer();
    const p = await insertProduct(db());
    expect(statusOf(await callAction(action, "/checkout", form([{ productId: p.id, quantity: 1 }]), { headers: { cookie } }))).toBe(302);
    const data = await dataOf(await callLoader(loader, "/checkout", { headers: { cookie } }));
    expect(data.lastAddress).toEqual({ ...TEST_ADDRESS, telephone: "082 123 4567" });
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
