import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { loader } from "./order-confirmation";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertOrder, type InsertedOrder } from "../../tests/factories/orders";
import { createActors, createUser, sessionCookieFor } from "../../tests/factories/users";

const db = () => getDb();
let actors: Awaited<ReturnType<typeof createActors>>;
let otherCookie: string;
let order: InsertedOrder;

beforeAll(async () => {
  actors = await createActors(db());
  const other = await createUser(db());
  otherCookie = await sessionCookieFor(db(), other.id);
  order = await insertOrder(db(), {
    userId: actors.customer.id,
    status: "processing",
    paymentStatus: "completed",
    lines: [
      { name: "Oud Noir", quantity: 2, unitPriceCents: 45000 },
      { name: "Rose Velours", quantity: 1, unitPriceCents: 32000 },
    ],
    couponCode: "WELCOME10",
    discountCents: 12200,
    shippingCents: 0,
  });
});

const path = () => `/order-confirmation?id=${order.id}`;

describe("/order-confirmation", () => {
  it("id=test is the test order, shown as paid to anyone, nothing looked up (SPEC §4)", async () => {
    const result = await callLoader(loader, "/order-confirmation?id=test");
    expect(statusOf(result)).toBe(200);
    expect(await dataOf(result)).toEqual({ state: "test" });
  });

  it("the owner reads the order: lines, totals, short id", async () => {
    const result = await callLoader(loader, path(), { headers: { cookie: actors.customer.cookie } });
    expect(statusOf(result)).toBe(200);
    const data = await dataOf(result);
    expect(data.state).toBe("found");
    expect(data.order).toMatchObject({
      id: order.id,
      shortId: order.id.slice(0, 8),
      status: "processing",
      paymentStatus: "completed",
      subtotalCents: 122000,
      discountCents: 12200,
      shippingCents: 0,
      totalAmountCents: 109800,
      couponCode: "WELCOME10",
      lines: [
        { name: "Oud Noir", quantity: 2, unitPriceCents: 45000, totalPriceCents: 90000 },
        { name: "Rose Velours", quantity: 1, unitPriceCents: 32000, totalPriceCents: 32000 },
      ],
    });
    expect(data.order.shippingAddress.city).toBe("Pretoria");
  });

  it("an admin reads any order", async () => {
    const data = await dataOf(await callLoader(loader, path(), { headers: { cookie: actors.admin.cookie } }));
    expect(data.state).toBe("found");
    expect(data.order.id).toBe(order.id);
  });

  it("another customer gets Not Found, exactly as for an order that does not exist", async () => {
    const theirs = await callLoader(loader, path(), { headers: { cookie: otherCookie } });
    const missing = await callLoader(loader, "/order-confirmation?id=00000000-0000-4000-8000-000000000000", { headers: { cookie: otherCookie } });
    expect(statusOf(theirs)).toBe(404);
    expect(await dataOf(theirs)).toEqual({ state: "not_found" });
    expect(statusOf(missing)).toBe(404);
    expect(await dataOf(missing)).toEqual({ state: "not_found" });
  });

  it("a visitor is sent to sign in, with a redirect back to this confirmation", async () => {
    const result = await callLoader(loader, path());
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(path())}`);
  });

  it("a visitor arriving by a client-side navigation (a .data request) comes back to the page, not to its data", async () => {
    const result = await callLoader(loader, `/order-confirmation.data?id=${order.id}&_routes=root,routes/order-confirmation`);
    expect((result as Response).headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(path())}`);
  });

  it("no id: 'No order ID provided'", async () => {
    const result = await callLoader(loader, "/order-confirmation");
    expect(statusOf(result)).toBe(400);
    expect(await dataOf(result)).toEqual({ state: "error", message: "No order ID provided" });
  });

  it("an id that cannot be an order id is simply not found", async () => {
    const data = await dataOf(await callLoader(loader, "/order-confirmation?id=' or 1=1 --", { headers: { cookie: actors.customer.cookie } }));
    expect(data).toEqual({ state: "not_found" });
  });
});
