import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as route from "~/routes/checkout";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { couponState } from "../../../tests/factories/payments";
import { CHECKOUT_MESSAGES } from "./orders.logic";

/**
 * One order per checkout click: concurrent and repeated submissions of the same form (same token) make one order,
 * reserve the coupon once, and all land on the same payment page.
 */
const db = () => getDb();
let shopper: TestUser;
let cookie = "";

beforeAll(async () => {
  shopper = await createUser(db());
  cookie = await sessionCookieFor(db(), shopper.id);
});

async function form(extra: Record<string, string> = {}) {
  const product = await insertProduct(db(), { price_cents: 45000 });
  return { ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), checkoutToken: crypto.randomUUID(), ...extra } as Record<string, string>;
}
const submit = (fields: Record<string, string>) => callAction(route.action, "/checkout", fields, { headers: { cookie } });
const ordersWith = (token: string) => db().selectFrom("orders").select(["id", "payment_id", "checkout_url"]).where("checkout_token", "=", token).execute();

describe("one order per checkout click", () => {
  it("two submissions at once make one order and go to the same payment", async () => {
    const fields = await form();
    const [a, b] = await Promise.all([submit(fields), submit(fields)]);
    expect([statusOf(a), statusOf(b)]).toEqual([302, 302]);
    const [locA, locB] = [(a as Response).headers.get("location"), (b as Response).headers.get("location")];
    expect(locA).toMatch(/^\/pay\/simulated\/sim_/);
    expect(locB).toBe(locA);
    const orders = await ordersWith(fields.checkoutToken!);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.checkout_url).toBe(locA);
  });

  it("five at once with a 3-use coupon reserve it once; a new click (new token) is a new order", async () => {
    const coupon = await insertCoupon(db(), { code: `ONCE${Date.now() % 100000}`, max_redemptions: 3 });
    const fields = await form({ couponCode: coupon.code });
    const results = await Promise.all(Array.from({ length: 5 }, () => submit(fields)));
    const locations = new Set(results.map((r) => (r as Response).headers.get("location")));
    expect(locations.size).toBe(1);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(1);
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(1);

    const again = await submit({ ...fields, checkoutToken: crypto.randomUUID() });
    expect((again as Response).headers.get("location")).not.toBe([...locations][0]);
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(2);
  });

  it("the same form posted after paying goes to the order's confirmation, not to a second payment", async () => {
    const fields = await form();
    await submit(fields);
    const [order] = await ordersWith(fields.checkoutToken!);
    await db().updateTable("orders").set({ payment_status: "completed", status: "processing" }).where("id", "=", order!.id).execute();
    const repeat = await submit(fields);
    expect((repeat as Response).headers.get("location")).toBe(`/order-confirmation?id=${order!.id}`);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(1);
  });

  it("a token whose order was cancelled is refused with the spec's message; the page's next token works", async () => {
    const fields = await form();
    await submit(fields);
    await db().updateTable("orders").set({ status: "cancelled", payment_status: "cancelled" }).where("checkout_token", "=", fields.checkoutToken!).execute();
    const repeat = await submit(fields);
    expect(statusOf(repeat)).toBe(409);
    expect((await dataOf(repeat)).error).toBe(CHECKOUT_MESSAGES.orderFailed);
    expect(statusOf(await submit({ ...fields, checkoutToken: crypto.randomUUID() }))).toBe(302);
  });

  it("another shopper's token is theirs alone", async () => {
    const fields = await form();
    await submit(fields);
    const other = await createUser(db());
    const otherCookie = await sessionCookieFor(db(), other.id);
    const result = await callAction(route.action, "/checkout", fields, { headers: { cookie: otherCookie } });
    expect(statusOf(result)).toBe(302);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(2);
  });
});
