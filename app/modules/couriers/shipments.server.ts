/**
 * From paid to delivered: booking a courier for an order (idempotent on the order), its label, cancelling it, and
 * tracking — events from the courier's webhook or from polling, each applied once, moving the order to Shipped at
 * collection and Delivered at delivery (with the event's time, which the admin metrics use) and telling the shopper.
 */
import { isUniqueViolation, type DB, type Queryable } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { queueOrderUpdate } from "~/modules/whatsapp/outbox.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { sampleLineWeightGrams } from "~/modules/samples/samples.logic";
import type { CourierAddress, CourierName, DeliveryKind, TrackingEvent, TrackingStatus } from "./courier";
import { CourierError, COURIER_NAMES } from "./courier";
import { COURIER_OF_KIND, courierClient } from "./couriers.server";
import { COURIER_WAITING_COUNT_CAP, parcelProblem, parcelsFor, windowLabel, type TrackingView } from "./delivery.logic";
import type { DeliveryPointCopy } from "~/db/schema";
import { courierAddressOf, loadDeliverySettings } from "./delivery.server";
import { SHIPLOGIC_SIGNATURE_HEADER, signShiplogicWebhook } from "./shiplogic.server";
import { timingSafeEqual } from "node:crypto";
import { clearOrderTrackingNumber, setOrderTrackingNumber } from "~/modules/orders/order-writes.server";

function safeEqual(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

export const SHIPMENT_MESSAGES = {
  notFound: "Order not found",
  notPaid: "This order is not paid yet: book a courier once its payment is completed.",
  cancelledOrder: "This order is cancelled: there is nothing to send.",
  alreadyDelivered: "This order has already been delivered.",
  inProgress: "A booking for this order is already being made: refresh in a moment.",
  noBooking: "This order has no courier booking.",
  collected: "The courier has already collected this parcel: it can no longer be cancelled here. Contact the courier.",
  noService: "Choose a delivery service for this booking.",
} as const;

/** Where the parcel is, in the shopper's words (timeline and e-mails). */
export const TRACKING_WORDS: Record<TrackingStatus, string> = {
  booked: "Courier booked",
  collected: "Collected by the courier",
  in_transit: "On its way",
  out_for_delivery: "Out for delivery",
  ready_for_collection: "Ready for collection",
  delivered: "Delivered",
  cancelled: "Booking cancelled",
  failed: "Delivery problem",
};

const STATUS_RANK: Record<string, number> = { booking: 0, booked: 1, collected: 2, in_transit: 3, out_for_delivery: 4, ready_for_collection: 4, failed: 4, delivered: 5, cancelled: 6 };
const DISPATCHED: ReadonlySet<string> = new Set(["collected", "in_transit", "out_for_delivery", "ready_for_collection", "delivered"]);
const FINAL: readonly string[] = ["delivered", "cancelled"];

export interface ShipmentView {
  id: string;
  orderId: string;
  courier: CourierName;
  serviceCode: string;
  status: string;
  trackingReference: string | null;
  trackingUrl: string | null;
  priceCents: number | null;
  collectionPin: string | null;
  test: boolean;
  bookedAt: string | null;
  events: Array<{ status: TrackingStatus; label: string; at: string; message: string; location: string | null }>;
}

/** The order's current (not cancelled) shipment with its events, oldest first; null when it has none. */
export async function shipmentForOrder(db: Queryable, orderId: string): Promise<ShipmentView | null> {
  const s = await db.selectFrom("shipments").selectAll().where("order_id", "=", orderId).where("status", "<>", "cancelled").executeTakeFirst();
  if (!s) return null;
  const events = await db.selectFrom("shipment_events").select(["status", "occurred_at", "message", "location"]).where("shipment_id", "=", s.id).orderBy("occurred_at").orderBy("received_at").execute();
  return {
    id: s.id,
    orderId: s.order_id,
    courier: s.courier as CourierName,
    serviceCode: s.service_code,
    status: s.status,
    trackingReference: s.tracking_reference,
    trackingUrl: s.tracking_url,
    priceCents: s.price_cents === null ? null : Number(s.price_cents),
    collectionPin: s.collection_pin,
    test: s.is_test,
    bookedAt: s.booked_at,
    events: events.map((e) => ({ status: e.status as TrackingStatus, label: TRACKING_WORDS[e.status as TrackingStatus] ?? e.status, at: e.occurred_at, message: e.message, location: e.location })),
  };
}

/** YYYY-MM-DD of the next working day (Mon–Fri) after `now`, in South African time (UTC+2, no daylight saving). */
export function nextWorkingDay(now: Date): string {
  const d = new Date(now.getTime() + 2 * 3600_000);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString().slice(0, 10);
}

/**
 * Books the courier the shopper chose (or `override`: another kind or service) for a paid order. A second call for
 * the same order — a double click, a retry, another admin, the batch — answers the booking already made instead of
 * booking twice (a partial unique index allows one active shipment per order). The courier's refusal is said in its
 * plain words and nothing is kept.
 */
export async function bookShipment(
  db: DB,
  orderId: string,
  options: { kind?: DeliveryKind; serviceCode?: string; collectionDate?: string; now?: Date } = {},
): Promise<{ shipment: ShipmentView; created: boolean }> {
  const now = options.now ?? new Date();
  const order = await db
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.user_id")
    .select([
      "orders.id",
      "orders.status",
      "orders.payment_status",
      "orders.shipping_address",
      "orders.subtotal_cents",
      "orders.delivery_kind",
      "orders.delivery_service_code",
      "orders.delivery_point_code",
      "users.email",
    ])
    .where("orders.id", "=", orderId)
    .executeTakeFirst();
  if (!order) throw new DomainError(SHIPMENT_MESSAGES.notFound, 404);
  if (order.status === "cancelled") throw new DomainError(SHIPMENT_MESSAGES.cancelledOrder, 409);
  if (order.payment_status !== "completed") throw new DomainError(SHIPMENT_MESSAGES.notPaid, 409);
  const existing = await shipmentForOrder(db, orderId);
  if (existing) {
    if (existing.status === "booking") throw new DomainError(SHIPMENT_MESSAGES.inProgress, 409);
    return { shipment: existing, created: false };
  }
  if (order.status === "delivered") throw new DomainError(SHIPMENT_MESSAGES.alreadyDelivered, 409);

  const kind: DeliveryKind = options.kind ?? (order.delivery_kind as DeliveryKind | null) ?? "door";
  const client = courierClient(COURIER_OF_KIND[kind]);
  const settings = await loadDeliverySettings(db);
  const lines = await db
    .selectFrom("order_lines")
    .leftJoin("product_sizes", "product_sizes.id", "order_lines.size_id")
    .select((eb) => [
      "order_lines.quantity",
      "order_lines.sample_kind",
      "product_sizes.weight_grams",
      eb.selectFrom("order_line_samples as s").select((e) => e.fn.countAll<number>().as("n")).whereRef("s.order_line_id", "=", "order_lines.id").as("vials"),
    ])
    .where("order_lines.order_id", "=", orderId)
    // a gift card sold is e-mailed, not shipped (docs/decisions/053)
    .where("order_lines.gift_card", "=", 0)
    .execute();
  if (lines.length === 0) throw new DomainError("This order holds only gift cards: they are e-mailed, there is nothing to ship.", 400);
  // a sample line weighs its vials, not a bottle (docs/decisions/054)
  const parcels = parcelsFor(lines.map((l) => ({ quantity: l.quantity, weightGrams: l.weight_grams ?? sampleLineWeightGrams(l.sample_kind, Number(l.vials ?? 0)) })), settings);
  const problem = parcels.map(parcelProblem).find(Boolean);
  if (problem) throw new DomainError(problem, 400);
  const address = order.shipping_address;
  const pointCode = kind === "door" ? null : kind === order.delivery_kind ? order.delivery_point_code : null;
  if (kind !== "door" && !pointCode) throw new DomainError("The shopper chose no locker or pick-up point for this order: book door delivery instead.", 400);
  const serviceCode = options.serviceCode ?? (kind === order.delivery_kind && order.delivery_service_code !== "table" ? order.delivery_service_code : null) ?? (await cheapestService(db, kind, address, pointCode, parcels, settings, Number(order.subtotal_cents)));

  // Claim the order first: of two bookings at once, one inserts and the other finds it (and says so).
  const id = newId();
  const stamp = now.toISOString();
  try {
    await db
      .insertInto("shipments")
      .values({ id, order_id: orderId, courier: client.name, service_code: serviceCode, status: "booking", is_test: client.test, created_at: stamp, updated_at: stamp })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError(SHIPMENT_MESSAGES.inProgress, 409);
    throw error;
  }
  const s = settings;
  const collection: CourierAddress = { type: "business", company: s.collection.company, streetAddress: s.collection.streetAddress, localArea: s.collection.localArea, city: s.collection.city, zone: s.collection.zone, code: s.collection.code, country: "ZA" };
  const collectionDate = options.collectionDate ?? nextWorkingDay(now);
  let booking;
  try {
    booking = await client.book(
      {
        reference: orderId,
        collection,
        collectionContact: s.collectionContact,
        delivery: pointCode ? { pointCode } : { address: courierAddressOf(address) },
        deliveryContact: { name: address.name, mobileNumber: address.telephone, email: order.email ?? s.collectionContact.email },
        parcels,
        declaredValueCents: Number(order.subtotal_cents),
        serviceCode,
        collectionDate,
        instructions: `${env().SHOP_NAME} order ${shortOrderId(orderId)}`,
      },
      AbortSignal.timeout(20_000),
    );
  } catch (error) {
    await db.deleteFrom("shipments").where("id", "=", id).execute();
    throw courierProblem(error, "book");
  }
  await db
    .updateTable("shipments")
    .set({
      status: "booked",
      courier_shipment_id: booking.shipmentId,
      tracking_reference: booking.trackingReference,
      tracking_url: booking.trackingUrl,
      price_cents: booking.priceCents,
      collection_date: collectionDate,
      booked_at: stamp,
      updated_at: stamp,
    })
    .where("id", "=", id)
    .execute();
  // The order's tracking number is the waybill: every existing view and the shipped e-mail show it.
  await setOrderTrackingNumber(db, orderId, booking.trackingReference, now);
  await db
    .insertInto("shipment_events")
    .values({ id: newId(), shipment_id: id, event_key: "booked", status: "booked", occurred_at: stamp, message: `Booked with ${courierTitle(client.name)} for collection on ${collectionDate}`, location: null, source: "shop", received_at: stamp })
    .execute();
  logger.info({ orderId, courier: client.name, trackingReference: booking.trackingReference, test: client.test }, "couriers: shipment booked");
  // the waybill and its tracking link on WhatsApp, for a customer who opted in (no e-mail at this step: its own text is e-mailed if it fails)
  await queueOrderUpdate(db, orderId, "booked", { courier: courierTitle(client.name) });
  return { shipment: (await shipmentForOrder(db, orderId))!, created: true };
}

async function cheapestService(db: Queryable, kind: DeliveryKind, address: { street: string; suburb: string; city: string; province: string; postalCode: string }, pointCode: string | null, parcels: ReturnType<typeof parcelsFor>, settings: Awaited<ReturnType<typeof loadDeliverySettings>>, declaredValueCents: number): Promise<string> {
  const { courierRates } = await import("./delivery.server");
  try {
    const rates = await courierRates(db, kind, pointCode ? { pointCode } : { address }, parcels, { settings, declaredValueCents, timeoutMs: 10_000 });
    return [...rates].sort((a, b) => a.priceCents - b.priceCents)[0]!.serviceCode;
  } catch (error) {
    throw courierProblem(error, "quote");
  }
}

export function courierTitle(name: string): string {
  return name === "shiplogic" ? "The Courier Guy" : name === "pudo" ? "PUDO" : name === "pargo" ? "Pargo" : name;
}

/** A courier's failure as the owner reads it: what happened and what to do; anything else stays an error. */
function courierProblem(error: unknown, what: "book" | "quote" | "cancel" | "label"): unknown {
  if (!(error instanceof CourierError)) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      return new DomainError(`The courier did not answer in time, so nothing was ${what === "book" ? "booked" : "changed"}. Try again in a few minutes.`, 502);
    }
    return error;
  }
  const verb = { book: "booked", quote: "booked", cancel: "cancelled", label: "fetched" }[what];
  if (error.reason === "misconfigured") return new DomainError(`${error.message} Nothing was ${verb}.`, 502);
  if (error.reason === "unavailable") return new DomainError(`The courier is not answering properly right now (${error.message}), so nothing was ${verb}. Try again in a few minutes.`, 502);
  return new DomainError(`The courier refused: ${error.message}. Nothing was ${verb}.`, 422);
}

/** The label of the order's booking, as a PDF. */
export async function shipmentLabel(db: Queryable, orderId: string): Promise<{ pdf: Uint8Array; filename: string }> {
  const s = await db.selectFrom("shipments").selectAll().where("order_id", "=", orderId).where("status", "not in", ["cancelled", "booking"]).executeTakeFirst();
  if (!s || !s.courier_shipment_id || !s.tracking_reference) throw new DomainError(SHIPMENT_MESSAGES.noBooking, 404);
  try {
    const pdf = await courierClient(s.courier as CourierName).label({ shipmentId: s.courier_shipment_id, trackingReference: s.tracking_reference }, AbortSignal.timeout(20_000));
    return { pdf, filename: `label-${s.tracking_reference}.pdf` };
  } catch (error) {
    throw courierProblem(error, "label");
  }
}

/** Cancels the order's booking before collection (the courier first; then the shop forgets the waybill). */
export async function cancelShipment(db: DB, orderId: string, now = new Date()): Promise<void> {
  const s = await db.selectFrom("shipments").selectAll().where("order_id", "=", orderId).where("status", "<>", "cancelled").executeTakeFirst();
  if (!s) throw new DomainError(SHIPMENT_MESSAGES.noBooking, 404);
  if (s.status === "booking") throw new DomainError(SHIPMENT_MESSAGES.inProgress, 409);
  if (s.status !== "booked") throw new DomainError(SHIPMENT_MESSAGES.collected, 409);
  try {
    await courierClient(s.courier as CourierName).cancel({ shipmentId: s.courier_shipment_id!, trackingReference: s.tracking_reference! }, AbortSignal.timeout(20_000));
  } catch (error) {
    throw courierProblem(error, "cancel");
  }
  const stamp = now.toISOString();
  await db.updateTable("shipments").set({ status: "cancelled", cancelled_at: stamp, updated_at: stamp }).where("id", "=", s.id).execute();
  await clearOrderTrackingNumber(db, orderId, s.tracking_reference, now);
  logger.info({ orderId, trackingReference: s.tracking_reference }, "couriers: booking cancelled");
}

/**
 * Books every paid order that is being prepared and has no booking yet, for one collection day. Each order is its own
 * booking (a failure is reported and the rest go on); a repeat books only what is left.
 */
export async function bookAllPaid(db: DB, options: { collectionDate?: string; now?: Date; limit?: number } = {}) {
  const now = options.now ?? new Date();
  const collectionDate = options.collectionDate ?? nextWorkingDay(now);
  const open = await db
    .selectFrom("orders")
    .select("orders.id")
    .where("orders.status", "=", "processing")
    .where("orders.payment_status", "=", "completed")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("shipments").select("shipments.id").whereRef("shipments.order_id", "=", "orders.id").where("shipments.status", "<>", "cancelled"))))
    .orderBy("orders.created_at")
    .limit(options.limit ?? 100)
    .execute();
  const booked: string[] = [];
  const failed: Array<{ orderId: string; reason: string }> = [];
  for (const { id } of open) {
    try {
      const r = await bookShipment(db, id, { collectionDate, now });
      if (r.created) booked.push(id);
    } catch (error) {
      if (!(error instanceof DomainError)) logger.error({ err: error, orderId: id }, "couriers: batch booking failed for an order");
      failed.push({ orderId: id, reason: error instanceof DomainError ? error.message : "unexpected error" });
    }
  }
  return { collectionDate, booked, failed };
}

// ---------------------------------------------------------------------------------------------------------------
// Tracking

/**
 * How tracking moves the order: the owner's status change (flows/shipment-tracked.server.ts passes
 * flows/order-changed-by-owner's setOrderStatus: its stock, e-mails and WhatsApp follow). Couriers knows no order flow.
 */
export type MoveOrder = (db: DB, orderId: string, status: "shipped" | "delivered", at: Date) => Promise<unknown>;

/**
 * Applies the courier's events to a shipment: each event once (unique per shipment and key), the shipment's status
 * to the furthest, and the order along: Shipped at collection, Delivered at delivery, with the event's own time.
 * The shopper hears of the dispatch (the shipped e-mail, with the tracking link) and, once, when it is out for
 * delivery or waiting at the locker (with the PIN). Returns how many events were new.
 */
export async function applyTracking(db: DB, shipmentId: string, events: TrackingEvent[], source: "webhook" | "poll", now: Date, moveOrder: MoveOrder): Promise<number> {
  const s = await db.selectFrom("shipments").selectAll().where("id", "=", shipmentId).executeTakeFirst();
  if (!s || s.status === "cancelled" || s.status === "booking") return 0;
  const fresh: TrackingEvent[] = [];
  const stamp = now.toISOString();
  for (const e of [...events].sort((a, b) => a.at.localeCompare(b.at))) {
    if (e.status === "booked") continue; // the shop recorded its own booking
    const inserted = await db
      .insertInto("shipment_events")
      .values({ id: newId(), shipment_id: s.id, event_key: e.id.slice(0, 200), status: e.status, occurred_at: e.at, message: e.message.slice(0, 500), location: e.location?.slice(0, 200) ?? null, source, received_at: stamp })
      .onConflict((oc) => oc.columns(["shipment_id", "event_key"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) fresh.push(e);
  }
  await db.updateTable("shipments").set({ last_polled_at: source === "poll" ? stamp : s.last_polled_at, updated_at: stamp }).where("id", "=", s.id).execute();
  if (!fresh.length) return 0;
  const furthest = fresh.reduce((best, e) => ((STATUS_RANK[e.status] ?? 0) >= (STATUS_RANK[best.status] ?? 0) ? e : best));
  const pin = fresh.map((e) => e.collectionPin).filter(Boolean).pop() ?? s.collection_pin;
  if ((STATUS_RANK[furthest.status] ?? 0) >= (STATUS_RANK[s.status] ?? 0)) {
    await db.updateTable("shipments").set({ status: furthest.status, collection_pin: pin ?? null, updated_at: stamp }).where("id", "=", s.id).execute();
  }

  const order = await db.selectFrom("orders").select(["id", "status"]).where("id", "=", s.order_id).executeTakeFirst();
  if (order && order.status !== "cancelled") {
    const dispatched = fresh.find((e) => DISPATCHED.has(e.status));
    const delivered = fresh.find((e) => e.status === "delivered");
    if (dispatched && order.status === "processing") await moveOrder(db, order.id, "shipped", new Date(dispatched.at));
    if (delivered && order.status !== "delivered") await moveOrder(db, order.id, "delivered", new Date(delivered.at));
  }
  // "Out for delivery" / "waiting at the locker" are worth an e-mail only while true: not when the same news says it
  // has already been delivered (a poll that missed the steps in between).
  const deliveredNow = fresh.some((e) => e.status === "delivered") || s.status === "delivered";
  for (const e of deliveredNow ? [] : fresh) {
    if (e.status !== "out_for_delivery" && e.status !== "ready_for_collection") continue;
    const earlier = await db.selectFrom("shipment_events").select("id").where("shipment_id", "=", s.id).where("status", "=", e.status).where("event_key", "<>", e.id).executeTakeFirst();
    if (!earlier) await sendDeliveryUpdate(db, s.order_id, e, pin ?? null);
  }
  logger.info({ orderId: s.order_id, courier: s.courier, events: fresh.length, status: furthest.status, source }, "couriers: tracking applied");
  return fresh.length;
}

async function sendDeliveryUpdate(db: Queryable, orderId: string, event: TrackingEvent, pin: string | null) {
  try {
    const order = await db
      .selectFrom("orders")
      .leftJoin("users", "users.id", "orders.user_id")
      .select(["orders.id", "orders.shipping_address", "orders.delivery_point", "users.email"])
      .where("orders.id", "=", orderId)
      .executeTakeFirst();
    if (!order?.email) return;
    const config = env();
    const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
    const short = shortOrderId(orderId);
    const atPoint = event.status === "ready_for_collection";
    const point = order.delivery_point;
    const sent = await sendMail(
      {
        to: order.email,
        subject: atPoint ? `${config.SHOP_NAME}: your order ${short} is ready for collection` : `${config.SHOP_NAME}: your order ${short} is out for delivery`,
        text: [
          `Hi ${order.shipping_address.name || "there"},`,
          "",
          atPoint
            ? `Your order is waiting for you${point ? ` at ${point.name}, ${point.streetAddress}, ${point.suburb}` : ""}.${pin ? ` Your collection PIN: ${pin}` : ""}`
            : "Your order is out for delivery today. Please keep your phone nearby for the driver.",
          ...(point?.hours?.length && atPoint ? ["", `Opening hours: ${point.hours.join(", ")}`] : []),
          "",
          `Follow your parcel: ${base}/order-confirmation?id=${orderId}`,
          "",
          config.SHOP_NAME,
        ].join("\n"),
        replyTo: config.CONTACT_EMAIL,
        // the footer links the e-mail preferences (mail-footer.ts)
        kind: "transactional",
      },
      db,
    );
    // waiting at the locker or point: its code and address on WhatsApp too, for a customer who opted in
    if (atPoint) await queueOrderUpdate(db, orderId, "ready_for_collection", { pin, emailId: sent.id });
  } catch (error) {
    logger.error({ err: error, orderId }, "couriers: delivery update e-mail failed");
  }
}

/** Asks the couriers about shipments on their way that were not heard of for a while (a job, one runner at a time). */
export async function pollTracking(db: DB, moveOrder: MoveOrder, options: { now?: Date; staleMs?: number; limit?: number } = {}) {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - (options.staleMs ?? 10 * 60_000)).toISOString();
  const due = await db
    .selectFrom("shipments")
    .selectAll()
    .where("status", "not in", [...FINAL, "booking", "failed"])
    .where((eb) => eb.or([eb("last_polled_at", "is", null), eb("last_polled_at", "<", before)]))
    .orderBy("last_polled_at")
    .limit(options.limit ?? 50)
    .execute();
  let applied = 0;
  for (const s of due) {
    try {
      const events = await courierClient(s.courier as CourierName).track({ shipmentId: s.courier_shipment_id!, trackingReference: s.tracking_reference! }, AbortSignal.timeout(15_000));
      applied += await applyTracking(db, s.id, events, "poll", now, moveOrder);
    } catch (error) {
      logger.warn({ err: error, orderId: s.order_id, courier: s.courier }, "couriers: tracking poll failed; tried again next run");
      await db.updateTable("shipments").set({ last_polled_at: now.toISOString() }).where("id", "=", s.id).execute();
    }
  }
  return { polled: due.length, applied };
}

/**
 * A courier's tracking webhook: verified by the client (signature), then the shipment's events are asked of the
 * courier itself before anything changes — a forged push that passed a leaked secret still moves nothing the courier
 * doesn't confirm, and a replayed one changes nothing (events apply once).
 */
export async function receiveTrackingWebhook(db: DB, moveOrder: MoveOrder, courier: string, rawBody: string, headers: Headers, now = new Date(), urlToken?: string | null): Promise<{ status: number; message: string }> {
  if (!(COURIER_NAMES as readonly string[]).includes(courier)) return { status: 404, message: "unknown courier" };
  const client = courierClient(courier as CourierName);
  if (!client.verifyWebhook) return { status: 404, message: "this courier sends no webhooks" };
  let push;
  try {
    // Shiplogic signs nothing itself: its webhook is registered with the secret in the URL (?token=…). A matching
    // token stands for the signature; either way the events are then confirmed with the courier's API below.
    const secret = env().SHIPLOGIC_WEBHOOK_SECRET;
    if (courier === "shiplogic" && secret && urlToken && safeEqual(urlToken, secret)) {
      headers = new Headers(headers);
      headers.set(SHIPLOGIC_SIGNATURE_HEADER, signShiplogicWebhook(secret, rawBody));
    }
    push = client.verifyWebhook(rawBody, headers, now);
  } catch (error) {
    logger.warn({ courier, reason: (error as Error).message }, "couriers: tracking webhook refused");
    return { status: 401, message: "webhook not verified" };
  }
  const s = await db.selectFrom("shipments").selectAll().where("courier", "=", courier).where("tracking_reference", "=", push.trackingReference).where("status", "<>", "cancelled").executeTakeFirst();
  if (!s) return { status: 200, message: "no such shipment here" };
  const confirmed = await client.track({ shipmentId: s.courier_shipment_id!, trackingReference: s.tracking_reference! }, AbortSignal.timeout(15_000));
  const applied = await applyTracking(db, s.id, confirmed, "webhook", now, moveOrder);
  return { status: 200, message: applied ? `applied ${applied}` : "nothing new" };
}

/** The dashboard's delivery figures. */
export async function shipmentCounts(db: Queryable) {
  const rows = await db.selectFrom("shipments").select(["status", db.fn.countAll<number>().as("n")]).groupBy("status").execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
}

/** For the admin's order list: each order's delivery choice and its booking (one query each for the page). */
export async function deliveryForOrders(db: Queryable, orderIds: string[]) {
  if (!orderIds.length) return new Map<string, OrderDelivery>();
  const [orders, shipments] = await Promise.all([
    db
      .selectFrom("orders")
      .select(["id", "delivery_kind", "delivery_courier", "delivery_service_name", "delivery_point", "delivery_price_source", "delivery_window_from", "delivery_window_to"])
      .where("id", "in", orderIds)
      .execute(),
    db.selectFrom("shipments").selectAll().where("order_id", "in", orderIds).where("status", "<>", "cancelled").execute(),
  ]);
  const byOrder = new Map(shipments.map((s) => [s.order_id, s]));
  return new Map(
    orders.map((o): [string, OrderDelivery] => {
      const s = byOrder.get(o.id);
      return [
        o.id,
        {
          kind: (o.delivery_kind as DeliveryKind | null) ?? null,
          courier: o.delivery_courier ? courierTitle(o.delivery_courier) : null,
          serviceName: o.delivery_service_name,
          point: o.delivery_point ? `${o.delivery_point.name}, ${o.delivery_point.suburb}` : null,
          priceSource: o.delivery_price_source,
          shipment: s
            ? { status: s.status, label: TRACKING_WORDS[s.status as TrackingStatus] ?? "Booking…", trackingReference: s.tracking_reference, trackingUrl: s.tracking_url, test: s.is_test, courier: courierTitle(s.courier), collectionDate: s.collection_date }
            : null,
        },
      ];
    }),
  );
}

export interface OrderDelivery {
  kind: DeliveryKind | null;
  courier: string | null;
  serviceName: string | null;
  point: string | null;
  priceSource: string | null;
  shipment: { status: string; label: string; trackingReference: string | null; trackingUrl: string | null; test: boolean; courier: string; collectionDate: string | null } | null;
}

/**
 * Paid orders being prepared that have no courier booking yet (the batch button's count), counted up to one more than
 * COURIER_WAITING_COUNT_CAP: a constant cost whatever the backlog (the page says "more than" past the cap).
 */
export async function paidAwaitingCourier(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("orders")
        .select("orders.id")
        .where("orders.status", "=", "processing")
        .where("orders.payment_status", "=", "completed")
        .where((w) => w.not(w.exists(w.selectFrom("shipments").select("shipments.id").whereRef("shipments.order_id", "=", "orders.id").where("shipments.status", "<>", "cancelled"))))
        .limit(COURIER_WAITING_COUNT_CAP + 1)
        .as("waiting"),
    )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How the shopper chose delivery (null on orders from before couriers): the service and window, or the locker / point. */
export type ChosenDeliveryView = { serviceName: string | null; window: string | null; point: DeliveryPointCopy | null };

/**
 * What the shopper's order page shows of its delivery: the choice made at checkout, and the parcel's tracking once a
 * courier is booked (its events, the waybill, and the collection PIN while it waits in a locker).
 */
export async function deliveryViewForOrder(db: Queryable, orderId: string): Promise<{ delivery: ChosenDeliveryView | null; tracking: TrackingView | null }> {
  const [o, s] = await Promise.all([
    db.selectFrom("orders").select(["delivery_kind", "delivery_service_name", "delivery_point", "delivery_window_from", "delivery_window_to"]).where("id", "=", orderId).executeTakeFirst(),
    shipmentForOrder(db, orderId),
  ]);
  const delivery = o?.delivery_kind ? { serviceName: o.delivery_service_name, window: windowLabel({ deliveryFrom: o.delivery_window_from, deliveryTo: o.delivery_window_to }), point: o.delivery_point } : null;
  const tracking: TrackingView | null =
    s && s.status !== "booking"
      ? {
          courier: courierTitle(s.courier),
          trackingReference: s.trackingReference,
          trackingUrl: s.trackingUrl,
          status: s.status,
          collectionPin: s.status === "ready_for_collection" ? s.collectionPin : null,
          test: s.test,
          point: o?.delivery_point ?? null,
          events: s.events,
        }
      : null;
  return { delivery, tracking };
}
