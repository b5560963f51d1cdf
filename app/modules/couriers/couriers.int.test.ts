/**
 * Couriers on both databases, against the three fake couriers over HTTP: checkout's quotes (cached, timed out and
 * replaced by the table rate), the order placed with the chosen delivery, booking once, tracking applied once from
 * polling and from the webhook, and bad input refused with nothing changed.
 */
import { newId } from "~/utils/ids";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { checkoutSchema } from "~/modules/orders/orders.schema";
import { checkout } from "~/modules/flows/checkout.server";
import { setCourierClientsForTests } from "./couriers.server";
import { createShiplogicClient } from "./shiplogic.server";
import { deliveryChoices } from "./checkout-delivery.server";
import { purgeExpiredQuotes, saveDeliverySettings } from "./delivery.server";
import { COURIER_WAITING_COUNT_CAP, DEFAULT_DELIVERY_SETTINGS } from "./delivery.logic";
import { applyTracking, pollTracking, receiveTrackingWebhook } from "~/modules/flows/shipment-tracked.server";
import { bookShipment, cancelShipment, paidAwaitingCourier, shipmentForOrder, shipmentLabel } from "~/modules/couriers/shipments.server";
import { installFakeCouriers } from "../../../tests/fakes/couriers";
import { createUser, type TestUser } from "../../../tests/factories/users";
import { insertProduct, updateProduct } from "../../../tests/factories/catalog";
import { insertOrder, insertZone } from "../../../tests/factories/orders";
import { outboxFor } from "../../../tests/factories/payments";
import { saveSampleSettings } from "~/modules/samples/samples.server";
import { DEFAULT_SAMPLE_SETTINGS, DISCOVERY_SET_ID, SAMPLE_SIZE_ID, SAMPLE_WEIGHT_GRAMS, setToken } from "~/modules/samples/samples.logic";

const db = () => getDb();
let clock = Date.parse("2026-11-25T08:00:00Z");
const now = () => clock;
let couriers: Awaited<ReturnType<typeof installFakeCouriers>>;
let shopper: TestUser;

const RONDEBOSCH = { name: "Lerato Dlamini", telephone: "082 555 1234", street: "4 Belmont Road", suburb: "Rondebosch", city: "Cape Town", postalCode: "7700", province: "Western Cape" };

beforeAll(async () => {
  // every kind offered, quotes given time on a busy machine, the shop's clients on the fakes
  couriers = await installFakeCouriers({ now });
  shopper = await createUser(db());
  // These tests are of the courier's prices: door delivery priced by the courier (a fresh install prices it by the
  // zones, docs/decisions/045; checkout.door-zones.int.test.ts).
  await saveDeliverySettings(db(), { ...DEFAULT_DELIVERY_SETTINGS, pricing: { ...DEFAULT_DELIVERY_SETTINGS.pricing, door: { mode: "quote", marginCents: 0, flatCents: 9900 } } });
});

afterAll(async () => {
  await couriers.uninstall();
});

beforeEach(() => {
  couriers.shiplogic.setDelay(0);
});

afterEach(() => {
  couriers.shiplogic.setDelay(0);
});

async function cart(priceCents = 34900, quantity = 1, weight: number | null = null) {
  const product = await insertProduct(db(), { price_cents: priceCents });
  if (weight !== null) await updateProduct(db(), product.id, { weight_grams: weight });
  return [{ productId: product.id, quantity }];
}

describe("checkout's delivery choices", () => {
  it("offers the courier's service levels for the address, priced, with a window, and asks the courier once per cache period", async () => {
    const lines = await cart();
    const before = couriers.shiplogic.requests.filter((r) => r.path.includes("rates")).length;
    const first = await deliveryChoices(db(), { lines, userId: shopper.id, address: { ...RONDEBOSCH, postalCode: "7708", suburb: "Claremont" } });
    const door = first.kinds.find((k) => k.kind === "door")!;
    expect(door.note).toBeNull();
    expect(door.options.length).toBeGreaterThanOrEqual(2);
    for (const o of door.options) {
      expect(o.source).toBe("courier");
      expect(Number.isInteger(o.priceCents) && o.priceCents > 0).toBe(true);
      expect(o.window).toMatch(/^Arrives /);
      expect(o.totals.totalCents).toBe(34900 + o.payCents);
    }
    await deliveryChoices(db(), { lines, userId: shopper.id, address: { ...RONDEBOSCH, postalCode: "7708", suburb: "Claremont" } });
    expect(couriers.shiplogic.requests.filter((r) => r.path.includes("rates")).length).toBe(before + 1);

    // expired quotes are dropped by the tracking job's purge; live ones stay and are still served from the cache
    const rows = async () => Number((await db().selectFrom("courier_quote_cache").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const live = await rows();
    expect(live).toBeGreaterThan(0);
    expect(await purgeExpiredQuotes(db())).toBe(0);
    expect(await purgeExpiredQuotes(db(), Date.now() + 365 * 24 * 3600_000)).toBe(live);
    expect(await rows()).toBe(0);
  });

  it("lists lockers and pick-up points nearest 'Rondebosch 7700', with distance and hours", async () => {
    const lines = await cart();
    const choices = await deliveryChoices(db(), { lines, userId: shopper.id, address: RONDEBOSCH });
    for (const kind of ["locker", "point"] as const) {
      const k = choices.kinds.find((x) => x.kind === kind)!;
      expect(k.points.length).toBeGreaterThan(1);
      expect(k.points[0]!.distanceKm).toBeLessThan(3);
      expect(k.points.map((p) => p.distanceKm)).toEqual([...k.points.map((p) => p.distanceKm)].sort((a, b) => a! - b!));
      expect(k.points[0]!.hours.length).toBeGreaterThan(0);
      expect(k.pointCode).toBe(k.points[0]!.code);
      expect(k.options.length).toBeGreaterThan(0);
    }
  });

  it("a courier slower than the timeout: the zone's table rate, with a line saying so", async () => {
    await insertZone(db(), { name: "Western Cape courier", baseRateCents: 8800, provinces: ["Western Cape"] });
    const lines = await cart();
    couriers.shiplogic.setDelay(2_000);
    process.env.COURIER_QUOTE_TIMEOUT_MS = "300";
    resetEnvForTests();
    const started = Date.now();
    const choices = await deliveryChoices(db(), { lines, userId: shopper.id, address: { ...RONDEBOSCH, postalCode: "7925", suburb: "Observatory" } }).finally(() => {
      process.env.COURIER_QUOTE_TIMEOUT_MS = "5000";
      resetEnvForTests();
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    const door = choices.kinds.find((k) => k.kind === "door")!;
    expect(door.options).toHaveLength(1);
    expect(door.options[0]).toMatchObject({ serviceCode: "table", source: "table", priceCents: 8800 });
    expect(door.note).toMatch(/unavailable right now.*standard delivery rate/);
  });

  it("a courier answering 500 or nonsense: the table rate, never an error", async () => {
    const lines = await cart();
    couriers.shiplogic.failNext(500, { message: "boom" });
    const a = await deliveryChoices(db(), { lines, userId: shopper.id, address: { ...RONDEBOSCH, postalCode: "8005", suburb: "Sea Point" } });
    expect(a.kinds.find((k) => k.kind === "door")!.options[0]!.source).toBe("table");
    couriers.shiplogic.failNext(200, "<html>not json</html>");
    const b = await deliveryChoices(db(), { lines, userId: shopper.id, address: { ...RONDEBOSCH, postalCode: "8001", suburb: "Cape Town City Centre" } });
    expect(b.kinds.find((k) => k.kind === "door")!.options[0]!.source).toBe("table");
  });
});

describe("placing the order with a delivery", () => {
  const place = async (fields: Record<string, string>) => checkout(db(), { id: shopper.id, email: shopper.email }, checkoutSchema.parse(fields));

  it("stores the chosen service and charges the server's price for it", async () => {
    const lines = await cart(34900);
    const choices = await deliveryChoices(db(), { lines, userId: shopper.id, address: RONDEBOSCH });
    const overnight = [...choices.kinds.find((k) => k.kind === "door")!.options].sort((a, b) => b.priceCents - a.priceCents)[0]!;
    const token = crypto.randomUUID();
    await place({ ...RONDEBOSCH, lines: JSON.stringify(lines), checkoutToken: token, deliveryKind: "door", deliveryService: overnight.serviceCode });
    const order = await db().selectFrom("orders").selectAll().where("checkout_token", "=", token).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ delivery_kind: "door", delivery_courier: "shiplogic", delivery_service_code: overnight.serviceCode, delivery_price_source: "courier", shipping_cents: overnight.priceCents });
    expect(Number(order.total_amount_cents)).toBe(34900 + overnight.priceCents);
  });

  it("over the free-delivery threshold the cheapest service is free and a faster one costs the difference", async () => {
    const lines = await cart(65000);
    const choices = await deliveryChoices(db(), { lines, userId: shopper.id, address: RONDEBOSCH });
    const options = [...choices.kinds.find((k) => k.kind === "door")!.options].sort((a, b) => a.priceCents - b.priceCents);
    expect(options[0]!.payCents).toBe(0);
    expect(options[1]!.payCents).toBe(options[1]!.priceCents - options[0]!.priceCents);
    const token = crypto.randomUUID();
    await place({ ...RONDEBOSCH, lines: JSON.stringify(lines), checkoutToken: token, deliveryKind: "door", deliveryService: options[0]!.serviceCode });
    const order = await db().selectFrom("orders").select(["shipping_cents", "total_amount_cents"]).where("checkout_token", "=", token).executeTakeFirstOrThrow();
    expect(order.shipping_cents).toBe(0);
    expect(Number(order.total_amount_cents)).toBe(65000);
  });

  it("a locker near Rondebosch is kept on the order with what the shopper was shown", async () => {
    const lines = await cart();
    const locker = (await deliveryChoices(db(), { lines, userId: shopper.id, address: RONDEBOSCH })).kinds.find((k) => k.kind === "locker")!;
    const token = crypto.randomUUID();
    await place({ ...RONDEBOSCH, lines: JSON.stringify(lines), checkoutToken: token, deliveryKind: "locker", deliveryService: locker.options[0]!.serviceCode, deliveryPoint: locker.pointCode! });
    const order = await db().selectFrom("orders").selectAll().where("checkout_token", "=", token).executeTakeFirstOrThrow();
    expect(order.delivery_point_code).toBe(locker.pointCode);
    expect(order.delivery_point).toMatchObject({ name: locker.points[0]!.name, suburb: locker.points[0]!.suburb });
  });

  it("refuses, storing nothing: no choice, an unknown locker, a service not on offer", async () => {
    const lines = await cart();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /choose how your order is delivered/],
      [{ deliveryKind: "locker", deliveryService: "L2L", deliveryPoint: "NOPE-1" }, /no longer available/],
      [{ deliveryKind: "door", deliveryService: "FREE-FOREVER" }, /Delivery prices have changed/],
    ];
    for (const [extra, message] of cases) {
      const token = crypto.randomUUID();
      const error = await place({ ...RONDEBOSCH, lines: JSON.stringify(lines), checkoutToken: token, ...extra }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as Error).message).toMatch(message);
      expect(await db().selectFrom("orders").select("id").where("checkout_token", "=", token).execute()).toHaveLength(0);
    }
  });
});

async function paidOrder(overrides: Partial<Parameters<typeof insertOrder>[1]> = {}, delivery: Record<string, unknown> = { delivery_kind: "door", delivery_service_code: "ECO" }) {
  const order = await insertOrder(db(), { userId: shopper.id, status: "processing", paymentStatus: "completed", ...overrides });
  await db().updateTable("orders").set({ shipping_address: JSON.stringify(RONDEBOSCH), ...delivery }).where("id", "=", order.id).execute();
  return order;
}

describe("booking the courier", () => {
  it("books once however often it is asked, stores the waybill on the order, and the label is a PDF", async () => {
    const order = await paidOrder();
    const results = await Promise.allSettled([bookShipment(db(), order.id, { now: new Date(clock) }), bookShipment(db(), order.id, { now: new Date(clock) })]);
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const again = await bookShipment(db(), order.id);
    expect(again.created).toBe(false);
    const atCourier = [...couriers.shiplogic.shipments.values()].filter((s) => s.customerReference === order.id);
    expect(atCourier).toHaveLength(1);
    const stored = await db().selectFrom("orders").select("tracking_number").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(stored.tracking_number).toBe(again.shipment.trackingReference);
    const label = await shipmentLabel(db(), order.id);
    expect(Buffer.from(label.pdf).subarray(0, 4).toString()).toBe("%PDF");
  });

  it("refuses an unpaid or cancelled order, and a 30 kg bottle, booking nothing", async () => {
    const unpaid = await paidOrder({ status: "pending", paymentStatus: "pending" });
    await expect(bookShipment(db(), unpaid.id)).rejects.toThrow(/not paid yet/);
    const cancelled = await paidOrder({ status: "cancelled", paymentStatus: "cancelled" });
    await expect(bookShipment(db(), cancelled.id)).rejects.toThrow(/cancelled/);
    const heavy = await paidOrder({ lines: [{ productId: (await insertProduct(db())).id }] });
    const line = await db().selectFrom("order_lines").select("product_id").where("order_id", "=", heavy.id).executeTakeFirstOrThrow();
    await updateProduct(db(), line.product_id!, { weight_grams: 30_000 });
    await expect(bookShipment(db(), heavy.id)).rejects.toThrow(/over the couriers' limit of 25 kg/);
    for (const o of [unpaid, cancelled, heavy]) expect(await db().selectFrom("shipments").select("id").where("order_id", "=", o.id).execute()).toHaveLength(0);
  });

  it("weighs each line by the size it bought: a 100 ml bottle over the limit is refused, the 50 ml of the same scent books", async () => {
    const product = await insertProduct(db(), { size_ml: 50 });
    await updateProduct(db(), product.id, { weight_grams: 300 });
    const big = newId();
    await db().insertInto("product_sizes").values({ id: big, product_id: product.id, label: "100 ml", code: "100ml", size_ml: 100, price_cents: 59900, weight_grams: 30_000, position: 1 }).execute();
    const heavy = await paidOrder({ lines: [{ productId: product.id, sizeId: big, sizeLabel: "100 ml" }] });
    await expect(bookShipment(db(), heavy.id)).rejects.toThrow(/over the couriers' limit of 25 kg/);
    const light = await paidOrder({ lines: [{ productId: product.id }] });
    expect((await bookShipment(db(), light.id)).created).toBe(true);
    const booked = [...couriers.shiplogic.shipments.values()].find((s) => s.customerReference === light.id)!;
    expect(booked.parcels.reduce((kg, p) => kg + p.submitted_weight_kg, 0)).toBeLessThan(1);
  });

  it("weighs a sample and a discovery set by their vials, at checkout's quote and when booked, however heavy the bottle", async () => {
    await saveSampleSettings(db(), { ...DEFAULT_SAMPLE_SETTINGS, enabled: true, setSize: 3 });
    const scents = await Promise.all([1, 2, 3].map(() => insertProduct(db())));
    for (const p of scents) await updateProduct(db(), p.id, { weight_grams: 30_000 }); // a bottle over the limit
    const { packagingGrams } = DEFAULT_DELIVERY_SETTINGS;
    const kg = (grams: number) => (grams + packagingGrams) / 1000;

    // the checkout's quote: two samples and a set of three are five vials
    const lines = [
      { productId: scents[0]!.id, sizeId: SAMPLE_SIZE_ID, quantity: 2 },
      { productId: DISCOVERY_SET_ID, sizeId: setToken(scents.map((p) => p.id)), quantity: 1 },
    ];
    const before = couriers.shiplogic.requests.length;
    const choices = await deliveryChoices(db(), { lines, userId: shopper.id, address: { ...RONDEBOSCH, postalCode: "7701", suburb: "Mowbray" } });
    expect(choices.kinds.find((k) => k.kind === "door")!.options[0]!.source).toBe("courier");
    const rates = couriers.shiplogic.requests.slice(before).find((r) => r.path.includes("rates"))!;
    const asked = (rates.body as { parcels: Array<{ submitted_weight_kg: number }> }).parcels;
    expect(asked.reduce((sum, p) => sum + p.submitted_weight_kg, 0)).toBeCloseTo(kg(5 * SAMPLE_WEIGHT_GRAMS), 6);

    // the parcel booked for a paid order holding that set: its three vials (not a default set's five)
    const order = await paidOrder({ lines: [{ productId: scents[0]!.id }] });
    const line = await db().selectFrom("order_lines").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
    await db().updateTable("order_lines").set({ sample_kind: "set", product_id: null, size_id: null }).where("id", "=", line.id).execute();
    await db()
      .insertInto("order_line_samples")
      .values(scents.map((p, i) => ({ id: newId(), order_line_id: line.id, product_id: p.id, name: `Scent ${i}`, ml: 2, credit_cents: 1000, position: i })))
      .execute();
    expect((await bookShipment(db(), order.id)).created).toBe(true);
    const booked = [...couriers.shiplogic.shipments.values()].find((x) => x.customerReference === order.id)!;
    expect(booked.parcels.reduce((sum, p) => sum + p.submitted_weight_kg, 0)).toBeCloseTo(kg(3 * SAMPLE_WEIGHT_GRAMS), 6);
    await saveSampleSettings(db(), DEFAULT_SAMPLE_SETTINGS);
  });

  it("a courier failing the booking: said in plain words, nothing kept, and a retry books", async () => {
    const order = await paidOrder();
    couriers.shiplogic.failNext(500, { message: "Internal error" });
    await expect(bookShipment(db(), order.id)).rejects.toThrow(/not answering properly.*nothing was booked.*Try again/);
    expect(await db().selectFrom("shipments").select("id").where("order_id", "=", order.id).execute()).toHaveLength(0);
    expect((await bookShipment(db(), order.id)).created).toBe(true);
  });

  it("a locker order may be sent to the door instead: The Courier Guy, to the shopper's address, its cheapest service", async () => {
    const order = await paidOrder({}, { delivery_kind: "locker", delivery_service_code: "D2LM", delivery_point_code: "NO-LONGER-THERE" });
    const { shipment } = await bookShipment(db(), order.id, { kind: "door" });
    expect(shipment.courier).toBe("shiplogic");
    const booked = [...couriers.shiplogic.shipments.values()].find((s) => s.customerReference === order.id)!;
    expect(booked.deliveryAddress).toMatchObject({ local_area: "Rondebosch", code: "7700" });
  });

  it("cancels a booking before collection, and then a new one may be made", async () => {
    const order = await paidOrder();
    await bookShipment(db(), order.id);
    await cancelShipment(db(), order.id);
    expect(await shipmentForOrder(db(), order.id)).toBeNull();
    expect((await db().selectFrom("orders").select("tracking_number").where("id", "=", order.id).executeTakeFirstOrThrow()).tracking_number).toBeNull();
    expect((await bookShipment(db(), order.id)).created).toBe(true);
  });
});

describe("tracking", () => {
  it("polling moves the order to Shipped at collection and Delivered at delivery, with the courier's times, exactly once", async () => {
    const order = await paidOrder();
    const { shipment } = await bookShipment(db(), order.id, { now: new Date(clock) });
    couriers.shiplogic.advance(shipment.trackingReference!, "collected");
    await pollTracking(db(), { now: new Date(clock + 60 * 60_000), staleMs: 0 });
    let o = await db().selectFrom("orders").select(["status", "shipped_at", "actual_delivery_date"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(o.status).toBe("shipped");
    expect(o.shipped_at).not.toBeNull();
    const shippedAt = o.shipped_at;
    const again = await pollTracking(db(), { now: new Date(clock + 61 * 60_000), staleMs: 0 });
    expect(again.applied).toBe(0);
    couriers.shiplogic.advance(shipment.trackingReference!, "delivered");
    await pollTracking(db(), { now: new Date(clock + 120 * 60_000), staleMs: 0 });
    o = await db().selectFrom("orders").select(["status", "shipped_at", "actual_delivery_date"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(o.status).toBe("delivered");
    expect(o.shipped_at).toBe(shippedAt);
    expect(o.actual_delivery_date).not.toBeNull();
    const metrics = await db().selectFrom("order_metrics").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(metrics.delivery_time).not.toBeNull();
    const mails = await outboxFor(db(), shopper.email);
    expect(mails.filter((m) => m.subject.includes("is on its way") && m.text_body.includes(shipment.trackingReference!))).toHaveLength(1);
    const view = await shipmentForOrder(db(), order.id);
    expect(view!.events.map((e) => e.status)).toEqual(expect.arrayContaining(["booked", "collected", "delivered"]));
  });

  it("a locker parcel waiting for collection: one e-mail with the PIN", async () => {
    const lines = await cart();
    const locker = (await deliveryChoices(db(), { lines, userId: shopper.id, address: RONDEBOSCH })).kinds.find((k) => k.kind === "locker")!;
    const order = await paidOrder({}, { delivery_kind: "locker", delivery_service_code: locker.options[0]!.serviceCode, delivery_point_code: locker.pointCode, delivery_point: JSON.stringify({ name: locker.points[0]!.name, streetAddress: locker.points[0]!.streetAddress, suburb: "Rondebosch", city: "Cape Town", province: "Western Cape", postalCode: "7700", hours: locker.points[0]!.hours }) });
    const { shipment } = await bookShipment(db(), order.id);
    expect(shipment.courier).toBe("pudo");
    couriers.pudo.advance(shipment.trackingReference!, "ready_for_collection");
    await pollTracking(db(), { now: new Date(clock + 3 * 3600_000), staleMs: 0 });
    await pollTracking(db(), { now: new Date(clock + 4 * 3600_000), staleMs: 0 });
    const view = await shipmentForOrder(db(), order.id);
    expect(view!.status).toBe("ready_for_collection");
    expect(view!.collectionPin).toMatch(/^\d{4,8}$/);
    const mails = (await outboxFor(db(), shopper.email)).filter((m) => m.subject.includes("ready for collection") && m.text_body.includes(view!.collectionPin!));
    expect(mails).toHaveLength(1);
  });

  it("the webhook: a signed push is confirmed with the courier and applied once; a replay changes nothing; a forged one is refused", async () => {
    const order = await paidOrder();
    const { shipment } = await bookShipment(db(), order.id);
    couriers.shiplogic.advance(shipment.trackingReference!, "in-transit");
    const push = couriers.shiplogic.webhook(shipment.trackingReference!);
    const first = await receiveTrackingWebhook(db(), "shiplogic", push.body, new Headers(push.headers));
    expect(first.status).toBe(200);
    expect((await db().selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("shipped");
    const events = await db().selectFrom("shipment_events").select("id").where("shipment_id", "=", shipment.id).execute();
    const replay = await receiveTrackingWebhook(db(), "shiplogic", push.body, new Headers(push.headers));
    expect(replay).toMatchObject({ status: 200, message: "nothing new" });
    expect(await db().selectFrom("shipment_events").select("id").where("shipment_id", "=", shipment.id).execute()).toHaveLength(events.length);

    const other = await paidOrder();
    const booked = await bookShipment(db(), other.id);
    couriers.shiplogic.advance(booked.shipment.trackingReference!, "delivered");
    const real = couriers.shiplogic.webhook(booked.shipment.trackingReference!);
    const forged = await receiveTrackingWebhook(db(), "shiplogic", real.body, new Headers({ ...real.headers, "x-webhook-signature": "sha256=" + "0".repeat(64) }));
    expect(forged.status).toBe(401);
    const tampered = await receiveTrackingWebhook(db(), "shiplogic", real.body.replace(/"/, '" '), new Headers(real.headers));
    expect(tampered.status).toBe(401);
    expect((await db().selectFrom("orders").select("status").where("id", "=", other.id).executeTakeFirstOrThrow()).status).toBe("processing");
    expect(await receiveTrackingWebhook(db(), "dhl", "{}", new Headers())).toMatchObject({ status: 404 });
  });

  it("a parcel delivered days after its order: the webhook's request sums that day again, not the owner's next page", async () => {
    const { sql } = await import("kysely");
    const { action: courierWebhook } = await import("~/routes/webhooks.couriers");
    const { sumSettledOrderDays } = await import("~/modules/order-days/order-days.server");
    const { saDay } = await import("~/utils/sa-days");
    const placedAt = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const order = await paidOrder({ createdAt: placedAt });
    const { shipment } = await bookShipment(db(), order.id);
    await sumSettledOrderDays(db()); // the past days summed, as the background job does
    const day = saDay(placedAt);
    const deliveredThatDay = async () =>
      Number((await sql<{ n: number | null }>`select sum(orders) as n from order_day_totals where day = ${day} and status = 'delivered'`.execute(db())).rows[0]?.n ?? 0);
    const before = await deliveredThatDay();

    couriers.shiplogic.advance(shipment.trackingReference!, "delivered");
    const push = couriers.shiplogic.webhook(shipment.trackingReference!);
    const request = new Request("http://localhost:3000/webhooks/couriers/shiplogic", { method: "POST", body: push.body, headers: push.headers });
    const response = (await courierWebhook({ request, params: { courier: "shiplogic" } } as never)) as Response;
    expect(response.status).toBe(200);
    expect((await db().selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("delivered");
    // no stale mark left for the day: the stored sums already count the order as delivered
    expect((await sql<{ day: string }>`select day from order_days_stale where day = ${day}`.execute(db())).rows).toEqual([]);
    expect(await deliveredThatDay()).toBe(before + 1);
  });

  it("the webhook as Shiplogic sends it (unsigned, the secret in the URL): the right token is applied, a wrong one refused", async () => {
    process.env.SHIPLOGIC_WEBHOOK_SECRET = couriers.shiplogic.webhookSecret;
    resetEnvForTests();
    try {
      const order = await paidOrder();
      const { shipment } = await bookShipment(db(), order.id);
      couriers.shiplogic.advance(shipment.trackingReference!, "collected");
      const { body } = couriers.shiplogic.webhook(shipment.trackingReference!);
      const unsigned = new Headers({ "content-type": "application/json" });
      expect((await receiveTrackingWebhook(db(), "shiplogic", body, unsigned, new Date(), "not-the-secret")).status).toBe(401);
      expect((await receiveTrackingWebhook(db(), "shiplogic", body, unsigned, new Date(), null)).status).toBe(401);
      expect((await db().selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("processing");
      expect((await receiveTrackingWebhook(db(), "shiplogic", body, unsigned, new Date(), couriers.shiplogic.webhookSecret)).status).toBe(200);
      expect((await db().selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("shipped");
    } finally {
      delete process.env.SHIPLOGIC_WEBHOOK_SECRET;
      resetEnvForTests();
    }
  });

  it("events applied twice at once (webhook and poll together) move the order once", async () => {
    const order = await paidOrder();
    const { shipment } = await bookShipment(db(), order.id);
    const events = [{ id: "evt-1", status: "collected" as const, at: new Date(clock).toISOString(), message: "Collected", location: "Cape Town" }];
    const applied = await Promise.all([applyTracking(db(), shipment.id, events, "webhook"), applyTracking(db(), shipment.id, events, "poll")]);
    expect(applied.reduce((a, b) => a + b, 0)).toBe(1);
    const mails = (await outboxFor(db(), shopper.email)).filter((m) => m.text_body.includes(shipment.trackingReference!) && m.subject.includes("on its way"));
    expect(mails).toHaveLength(1);
  });
});

describe("credentials", () => {
  it("a refused API key: the owner hears to check the key, nothing is booked", async () => {
    setCourierClientsForTests({ ...couriers.clients, shiplogic: createShiplogicClient({ baseUrl: couriers.shiplogic.baseUrl, apiKey: "wrong", timeoutMs: 2000 }) });
    try {
      const order = await paidOrder();
      await expect(bookShipment(db(), order.id)).rejects.toThrow(/API key/);
      expect(await db().selectFrom("shipments").select("id").where("order_id", "=", order.id).execute()).toHaveLength(0);
    } finally {
      setCourierClientsForTests(couriers.clients);
    }
  });
});

describe("the paid orders waiting for a courier (the batch button's count)", () => {
  it("counts paid orders being prepared without a booking, and stops counting past its cap: a backlog costs no more than a thousand", { timeout: 60_000 }, async () => {
    const db = getDb();
    await db.deleteFrom("orders").where("status", "=", "processing").execute();
    const product = await insertProduct(db, { price_cents: 30_000 });
    const booked = await insertOrder(db, { userId: null, status: "processing", paymentStatus: "completed", lines: [{ productId: product.id }] });
    await insertOrder(db, { userId: null, status: "processing", paymentStatus: "pending", lines: [{ productId: product.id }] });
    await insertOrder(db, { userId: null, status: "shipped", paymentStatus: "completed", lines: [{ productId: product.id }] });
    await insertOrder(db, { userId: null, status: "processing", paymentStatus: "completed", lines: [{ productId: product.id }] });
    const now = new Date().toISOString();
    await db.insertInto("shipments").values({ id: newId(), order_id: booked.id, courier: "shiplogic", service_code: "ECO", status: "booked", created_at: now, updated_at: now }).execute();
    expect(await paidAwaitingCourier(db)).toBe(1);
    // a backlog past the cap: counted to the cap and one more ("more than 1 000" on the page)
    const backlog = Array.from({ length: COURIER_WAITING_COUNT_CAP + 50 }, () => ({
      id: newId(), user_id: null, status: "processing" as const, payment_status: "completed" as const, subtotal_cents: 30_000, discount_amount_cents: 0, shipping_cents: 0,
      total_amount_cents: 30_000, shipping_address: JSON.stringify({ name: "A", telephone: "0821234567", street: "1 Main Road", suburb: "Central", city: "Cape Town", postalCode: "8001", province: "Western Cape" }),
      created_at: now, updated_at: now,
    }));
    for (let i = 0; i < backlog.length; i += 200) await db.insertInto("orders").values(backlog.slice(i, i + 200) as never).execute();
    expect(await paidAwaitingCourier(db)).toBe(COURIER_WAITING_COUNT_CAP + 1);
  });
});
