/**
 * The checkout's delivery zones (beyond the spec: zones serve provinces): the zone serving the shopper's province is
 * the one used when none is chosen (the first zone when none serves it), the shopper's explicit choice is kept even
 * when it doesn't list their province (docs/decisions/018), and the quote prices every zone for this cart.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { placeOrder } from "~/modules/flows/order-placed.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct } from "../../tests/factories/catalog";
import { insertCoupon, insertZone, TEST_ADDRESS, type ZoneRow } from "../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { action, loader } from "./checkout";
import { loader as cartLoader } from "./cart";

const db = () => getDb();
let metro: ZoneRow;
let cape: ZoneRow;
let rest: ZoneRow;
let productId = "";

beforeAll(async () => {
  // Listed by name: "A Gauteng Metro" is the first zone.
  metro = await insertZone(db(), { name: "A Gauteng Metro", baseRateCents: 6000, provinces: ["Gauteng"] });
  cape = await insertZone(db(), { name: "B Western Cape", baseRateCents: 8500, provinces: ["Western Cape"], rules: [{ minTotalCents: 40000, maxTotalCents: null, rateCents: 3000 }] });
  rest = await insertZone(db(), { name: "C Rest of South Africa", baseRateCents: 9500, provinces: ["Limpopo", "Free State"] });
  productId = (await insertProduct(db(), { price_cents: 29900 })).id;
});

const capeTown = { ...TEST_ADDRESS, street: "1 Long Street", suburb: "City Bowl", city: "Cape Town", postalCode: "8001", province: "Western Cape" };

describe("quote: every zone priced for this cart", () => {
  it("each zone shows what delivery costs this cart (its rule, else its base rate; Free past the threshold or with a free-delivery coupon)", async () => {
    const one = await quoteCart(db(), { lines: [{ productId, quantity: 1 }] });
    expect(one.zones.map((z) => [z.name, z.deliveryCents, z.provinces])).toEqual([
      ["A Gauteng Metro", 6000, ["Gauteng"]],
      ["B Western Cape", 8500, ["Western Cape"]],
      ["C Rest of South Africa", 9500, ["Free State", "Limpopo"]],
    ]);
    const two = await quoteCart(db(), { lines: [{ productId, quantity: 2 }] });
    expect(two.zones.map((z) => z.deliveryCents)).toEqual([6000, 3000, 9500]);
    const three = await quoteCart(db(), { lines: [{ productId, quantity: 3 }] });
    expect(three.zones.map((z) => z.deliveryCents)).toEqual([0, 0, 0]);
    const coupon = await insertCoupon(db(), { code: "SHIPFREE1", discount_type: "free_delivery", discount_value: 0 });
    const withCoupon = await quoteCart(db(), { lines: [{ productId, quantity: 1 }], couponCode: coupon.code });
    expect(withCoupon.zones.map((z) => z.deliveryCents)).toEqual([0, 0, 0]);
  });

  it.each([
    [null, "Western Cape", "cape", "no zone chosen: the province's zone"],
    [null, "Free State", "rest", "a province of a multi-province zone"],
    [null, "Northern Cape", "metro", "no zone serves the province: the first zone"],
    [null, null, "metro", "no province: the first zone"],
    ["metro", "Western Cape", "metro", "the shopper's explicit choice is kept"],
    ["no-such-zone", "Western Cape", "cape", "an unknown zone: the province's zone"],
  ] as [string | null, string | null, "metro" | "cape" | "rest", string][])("%#: zone %s, province %s → %s (%s)", async (zone, province, expected) => {
    const ids = { metro: metro.id, cape: cape.id, rest: rest.id } as Record<string, string>;
    const q = await quoteCart(db(), { lines: [{ productId, quantity: 1 }], zoneId: zone ? (ids[zone] ?? zone) : null, province });
    expect(q.zoneId).toBe(ids[expected]);
  });
});

describe("placing the order", () => {
  it("without a zone posted, a Cape Town address ships with the Western Cape zone at its rate", async () => {
    const user = await createUser(db());
    const order = await placeOrder(db(), user, { lines: [{ productId, quantity: 1 }], zoneId: null, shippingAddress: capeTown });
    expect(order).toMatchObject({ shippingZoneId: cape.id, shippingCents: 8500, totalAmountCents: 29900 + 8500 });
  });

  it("a zone chosen by hand that doesn't list the province is accepted and charged at its own rate", async () => {
    const user = await createUser(db());
    const order = await placeOrder(db(), user, { lines: [{ productId, quantity: 1 }], zoneId: metro.id, shippingAddress: capeTown });
    expect(order).toMatchObject({ shippingZoneId: metro.id, shippingCents: 6000 });
  });

  it("through the checkout form: an empty zone field uses the province's zone; the loader lists zones with their provinces", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const page = await dataOf(await callLoader(loader, "/checkout", { headers: { cookie } }));
    expect(page.zones.find((z: { id: string }) => z.id === cape.id)).toEqual({ id: cape.id, name: "B Western Cape", provinces: ["Western Cape"] });
    const { name, telephone, street, suburb, city, postalCode, province } = capeTown;
    const result = await callAction(action, "/checkout", { name, telephone, street, suburb, city, postalCode, province, zoneId: "", lines: JSON.stringify([{ productId, quantity: 1 }]) }, { headers: { cookie } });
    expect(statusOf(result)).toBe(302);
    const stored = await db().selectFrom("orders").select(["shipping_zone_id", "shipping_cents"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ shipping_zone_id: cape.id, shipping_cents: 8500 });
  });

  it("the cart's quote (what the checkout shows) carries every zone's price", async () => {
    const url = `/cart?${new URLSearchParams({ quote: JSON.stringify([{ productId, quantity: 1 }]), zone: cape.id })}`;
    const { quote } = await dataOf(await callLoader(cartLoader, url));
    expect(quote.zoneId).toBe(cape.id);
    expect(quote.shippingCents).toBe(8500);
    expect(quote.zones.map((z: { name: string; deliveryCents: number }) => [z.name, z.deliveryCents])).toEqual([
      ["A Gauteng Metro", 6000],
      ["B Western Cape", 8500],
      ["C Rest of South Africa", 9500],
    ]);
  });
});
