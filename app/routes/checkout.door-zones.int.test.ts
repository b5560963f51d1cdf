/**
 * Door delivery priced by the shop's zones and rules (SPEC §9, docs/decisions/045), the default with couriers: the
 * delivery choices (/checkout/delivery) offer the zones serving the shopper's province, each at its rule's rate, else
 * its base rate, else R70; the order placed through /checkout is charged the chosen zone's rate by the server
 * (items − discount + rate), keeps the zone, and the courier books it after payment. Without a zone for the province
 * the spec's R70 stands in; a shop that saved the courier's price keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { DELIVERY_MESSAGES } from "~/modules/couriers/checkout-delivery.server";
import { DEFAULT_DELIVERY_SETTINGS } from "~/modules/couriers/delivery.logic";
import { loadDeliverySettings, saveDeliverySettings, ZONE_MESSAGES } from "~/modules/couriers/delivery.server";
import { bookShipment } from "~/modules/couriers/shipments.server";
import { installFakeCouriers } from "../../tests/fakes/couriers";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct } from "../../tests/factories/catalog";
import { insertCoupon, insertZone, type ZoneRow } from "../../tests/factories/orders";
import { createUser, sessionCookieFor, type TestUser } from "../../tests/factories/users";
import { action as checkoutAction } from "./checkout";
import { loader as deliveryLoader } from "./checkout.delivery";

const db = () => getDb();
let couriers: Awaited<ReturnType<typeof installFakeCouriers>>;
let shopper: TestUser;
let cookie = "";
let productId = "";

const CAPE_TOWN = { name: "Lerato Dlamini", telephone: "082 555 1234", street: "4 Belmont Road", suburb: "Rondebosch", city: "Cape Town", postalCode: "7700", province: "Western Cape" };
const POLOKWANE = { ...CAPE_TOWN, street: "12 Thabo Mbeki Street", suburb: "Polokwane Central", city: "Polokwane", postalCode: "0699", province: "Limpopo" };
const PRICE = 29900;

beforeAll(async () => {
  // every kind offered, quotes given time on a busy machine, the shop's clients on the fakes
  couriers = await installFakeCouriers();
  shopper = await createUser(db());
  cookie = await sessionCookieFor(db(), shopper.id);
  productId = (await insertProduct(db(), { price_cents: PRICE })).id;
});

afterAll(async () => {
  await couriers.uninstall();
});

type Address = typeof CAPE_TOWN;
type Option = { serviceCode: string; serviceName: string; zoneId: string | null; priceCents: number; payCents: number; source: string; totals: { totalCents: number; shippingCents: number } };
type Kind = { kind: string; options: Option[]; note: string | null };

const lines = (quantity = 1) => JSON.stringify([{ productId, quantity }]);

/** The delivery choices the checkout page asks for, as the shopper (or `as`: another cookie, or none). */
async function choices(address: Address, quantity = 1, extra: Record<string, string> = {}, as: string | null = cookie) {
  const { name: _n, telephone: _t, ...where } = address;
  const url = `/checkout/delivery?${new URLSearchParams({ lines: lines(quantity), ...where, ...extra })}`;
  return callLoader(deliveryLoader, url, { headers: as ? { cookie: as } : {} });
}
async function door(address: Address, quantity = 1, extra: Record<string, string> = {}) {
  const answer = await dataOf(await choices(address, quantity, extra));
  return (answer.choices.kinds as Kind[]).find((k) => k.kind === "door")!;
}

/** The checkout form posted as the browser posts it (the zone's radio is the zoneId field). */
async function placeOrder(address: Address, fields: Record<string, string>, as: string | null = cookie) {
  const token = crypto.randomUUID();
  const result = await callAction(checkoutAction, "/checkout", { ...address, lines: lines(Number(fields.quantity ?? 1)), checkoutToken: token, deliveryKind: "door", deliveryService: "table", ...fields }, { headers: as ? { cookie: as } : {} });
  const order = await db().selectFrom("orders").selectAll().where("checkout_token", "=", token).executeTakeFirst();
  return { result, order };
}
const orderCount = async () => Number((await db().selectFrom("orders").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

describe("a fresh install prices door delivery by its zones", () => {
  it("the saved settings' default is zone pricing; lockers and points keep the courier's price", async () => {
    expect((await loadDeliverySettings(db())).pricing).toMatchObject({ door: { mode: "zones" }, locker: { mode: "quote" }, point: { mode: "quote" } });
  });

  it("no zones at all: one standard delivery at the spec's R70, and the order is placed with it", async () => {
    const d = await door(CAPE_TOWN);
    expect(d.options).toEqual([expect.objectContaining({ serviceCode: "table", zoneId: null, serviceName: "Standard delivery", priceCents: 7000, source: "zone" })]);
    expect(d.options[0]!.totals.totalCents).toBe(PRICE + 7000);
    const { result, order } = await placeOrder(CAPE_TOWN, {});
    expect(statusOf(result)).toBe(302);
    expect(order).toMatchObject({ shipping_cents: 7000, total_amount_cents: PRICE + 7000, shipping_zone_id: null, delivery_kind: "door", delivery_price_source: "zone" });
  });
});

describe("with zones", () => {
  let metro: ZoneRow;
  let cape: ZoneRow;
  let national: ZoneRow;

  beforeAll(async () => {
    metro = await insertZone(db(), { name: "A Gauteng Metro", baseRateCents: 6000, provinces: ["Gauteng"] });
    // Below R200 R99, from R400 R30, between them the base rate.
    cape = await insertZone(db(), { name: "B Western Cape", baseRateCents: 8500, provinces: ["Western Cape"], rules: [{ minTotalCents: 0, maxTotalCents: 19999, rateCents: 9900 }, { minTotalCents: 40000, maxTotalCents: null, rateCents: 3000 }] });
    // No province listed: offered everywhere, after the province's own zone.
    national = await insertZone(db(), { name: "C Anywhere in South Africa", baseRateCents: 11000, provinces: [], rules: [{ minTotalCents: 0, maxTotalCents: 29999, rateCents: 12000 }] });
  });

  it("offers the zones serving the province, its own first, each at its rule, else its base rate — and asks no courier for it", async () => {
    const asked = couriers.shiplogic.requests.filter((r) => r.path.includes("rates")).length;
    const one = await door(CAPE_TOWN);
    expect(one.options.map((o) => [o.zoneId, o.serviceName, o.priceCents, o.totals.totalCents])).toEqual([
      [cape.id, "B Western Cape", 8500, PRICE + 8500], // R299: between the rules, the base rate
      [national.id, "C Anywhere in South Africa", 12000, PRICE + 12000], // its rule up to R299.99
    ]);
    const two = await door(CAPE_TOWN, 2);
    expect(two.options.map((o) => o.priceCents)).toEqual([3000, 11000]); // R598: the rule from R400; no rule holds it: the base rate
    expect(couriers.shiplogic.requests.filter((r) => r.path.includes("rates")).length).toBe(asked);
    // Gauteng gets its own zone and the one for anywhere; Limpopo (listed by no zone) only the latter.
    expect((await door({ ...CAPE_TOWN, province: "Gauteng" })).options.map((o) => o.zoneId)).toEqual([metro.id, national.id]);
    expect((await door(POLOKWANE)).options.map((o) => o.zoneId)).toEqual([national.id]);
    // lockers and points keep their courier's price
    const answer = await dataOf(await choices(CAPE_TOWN));
    for (const kind of ["locker", "point"]) expect((answer.choices.kinds as Kind[]).find((k) => k.kind === kind)!.options.every((o) => o.source === "courier")).toBe(true);
  });

  it("before a province is chosen it asks for one rather than guess a price", async () => {
    const d = await door({ ...CAPE_TOWN, province: "" });
    expect(d).toMatchObject({ options: [], note: ZONE_MESSAGES.chooseProvince });
  });

  it("the order's total is items − discount + the chosen zone's rate, computed by the server, and keeps the zone", async () => {
    const coupon = await insertCoupon(db(), { code: "TENOFF45", discount_type: "percentage", discount_value: 10 });
    // R598 − 10% = R538.20: the Western Cape rule from R400 (R30), whatever the browser might say
    const { result, order } = await placeOrder(CAPE_TOWN, { quantity: "2", zoneId: cape.id, couponCode: coupon.code, shippingCents: "0", total: "1" });
    expect(statusOf(result)).toBe(302);
    expect(order).toMatchObject({ subtotal_cents: 2 * PRICE, discount_amount_cents: 5980, shipping_cents: 3000, total_amount_cents: 2 * PRICE - 5980 + 3000, shipping_zone_id: cape.id, delivery_price_source: "zone", delivery_service_code: "table", delivery_service_name: "B Western Cape" });
    // the other zone offered, chosen by hand
    const other = await placeOrder(CAPE_TOWN, { zoneId: national.id });
    expect(other.order).toMatchObject({ shipping_cents: 12000, total_amount_cents: PRICE + 12000, shipping_zone_id: national.id });
  });

  it("no zone posted: the first offered (the province's own); a province no zone lists and none for anywhere: R70", async () => {
    expect((await placeOrder(CAPE_TOWN, {})).order).toMatchObject({ shipping_zone_id: cape.id, shipping_cents: 8500 });
    await db().deleteFrom("shipping_zones").where("id", "=", national.id).execute();
    try {
      const d = await door(POLOKWANE);
      expect(d.options).toEqual([expect.objectContaining({ zoneId: null, serviceName: "Standard delivery", priceCents: 7000 })]);
      expect((await placeOrder(POLOKWANE, {})).order).toMatchObject({ shipping_zone_id: null, shipping_cents: 7000, total_amount_cents: PRICE + 7000 });
    } finally {
      await insertZoneBack(national);
    }
  });

  it("refuses, storing nothing, a zone that doesn't serve the address or no longer exists", async () => {
    for (const zoneId of [metro.id, "no-such-zone"]) {
      const before = await orderCount();
      const { result, order } = await placeOrder(CAPE_TOWN, { zoneId });
      expect(statusOf(result)).toBe(409);
      expect((await dataOf(result)).error).toBe(DELIVERY_MESSAGES.changed);
      expect(order).toBeUndefined();
      expect(await orderCount()).toBe(before);
    }
  });

  it("at the free-delivery threshold every zone is free (not only the cheapest)", async () => {
    const d = await door(CAPE_TOWN, 3);
    expect(d.options.map((o) => [o.priceCents, o.payCents, o.totals.shippingCents])).toEqual([
      [3000, 0, 0],
      [11000, 0, 0],
    ]);
    expect((await placeOrder(CAPE_TOWN, { quantity: "3", zoneId: national.id })).order).toMatchObject({ shipping_cents: 0, total_amount_cents: 3 * PRICE });
  });

  it("the courier still books the parcel: its cheapest service, the waybill on the order", async () => {
    const { order } = await placeOrder(CAPE_TOWN, { zoneId: cape.id });
    await db().updateTable("orders").set({ payment_status: "completed", status: "processing" }).where("id", "=", order!.id).execute();
    const { shipment, created } = await bookShipment(db(), order!.id);
    expect(created).toBe(true);
    expect(shipment.courier).toBe("shiplogic");
    const booked = await db().selectFrom("orders").select("tracking_number").where("id", "=", order!.id).executeTakeFirstOrThrow();
    expect(booked.tracking_number).toBe(shipment.trackingReference);
    expect(booked.tracking_number).toBeTruthy();
  });

  it("a visitor is refused the choices and the order (401); a customer and an admin get them", async () => {
    expect(statusOf(await choices(CAPE_TOWN, 1, {}, null))).toBe(401);
    const before = await orderCount();
    const visitor = await placeOrder(CAPE_TOWN, { zoneId: cape.id }, null);
    expect(statusOf(visitor.result)).toBe(401);
    expect(await orderCount()).toBe(before);
    const admin = await createUser(db(), { isAdmin: true });
    const adminCookie = await sessionCookieFor(db(), admin.id);
    expect(statusOf(await choices(CAPE_TOWN, 1, {}, adminCookie))).toBe(200);
    expect((await placeOrder(CAPE_TOWN, { zoneId: cape.id }, adminCookie)).order).toMatchObject({ user_id: admin.id, shipping_cents: 8500 });
  });

  describe("a shop's saved door pricing", () => {
    it("a saved courier price is kept: the courier's service levels, not the zones", async () => {
      await saveDeliverySettings(db(), { ...DEFAULT_DELIVERY_SETTINGS, pricing: { ...DEFAULT_DELIVERY_SETTINGS.pricing, door: { mode: "quote", marginCents: 0, flatCents: 9900 } } });
      try {
        const d = await door(CAPE_TOWN);
        expect(d.options.length).toBeGreaterThan(0);
        expect(d.options.every((o) => o.source === "courier" && !o.zoneId)).toBe(true);
      } finally {
        await db().deleteFrom("settings").where("key", "=", "delivery").execute();
      }
    });

    it("saved settings that name no door mode (or one door can't have) price it by the zones; the rest is kept", async () => {
      const { door: _door, ...others } = DEFAULT_DELIVERY_SETTINGS.pricing;
      for (const pricing of [{ ...others, locker: { mode: "flat", marginCents: 0, flatCents: 5000 } }, { ...others, door: { mode: "drone", marginCents: 500 } }]) {
        const value = JSON.stringify({ ...DEFAULT_DELIVERY_SETTINGS, bottleWeightGrams: 400, pricing });
        await db().insertInto("settings").values({ key: "delivery", value, updated_at: new Date().toISOString() }).onConflict((oc) => oc.column("key").doUpdateSet({ value })).execute();
        const loaded = await loadDeliverySettings(db());
        expect(loaded.pricing.door.mode).toBe("zones");
        expect(loaded.bottleWeightGrams).toBe(400);
        expect((await door(CAPE_TOWN)).options[0]).toMatchObject({ zoneId: cape.id, priceCents: 8500 });
      }
      expect((await loadDeliverySettings(db())).pricing.door.marginCents).toBe(500);
      await db().deleteFrom("settings").where("key", "=", "delivery").execute();
    });
  });

  /** Puts a deleted zone back as it was (its rule; no province). */
  async function insertZoneBack(zone: ZoneRow) {
    await db().insertInto("shipping_zones").values({ id: zone.id, name: zone.name, base_rate_cents: zone.base_rate_cents, created_at: zone.created_at }).execute();
    await db().insertInto("shipping_rules").values(zone.rules).execute();
  }
});
