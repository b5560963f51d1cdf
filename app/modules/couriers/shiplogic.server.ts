import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { logger } from "~/utils/logger.server";
import { centsToRand, randToCents } from "~/utils/money";
import {
  CourierError,
  CourierWebhookError,
  MAX_PARCEL_WEIGHT_KG,
  type Booking,
  type BookingRequest,
  type CourierAddress,
  type CourierClient,
  type CourierContact,
  type DeliveryEnd,
  type Parcel,
  type QuoteRequest,
  type ServiceRate,
  type TrackingEvent,
  type TrackingPush,
  type TrackingStatus,
} from "./courier";
import { courierHttp } from "./courier-http.server";

/**
 * The Courier Guy's door-to-door deliveries through Shiplogic's API v2 (DESIGN.md "Couriers"). JSON over HTTPS with
 * `Authorization: Bearer <API key>`; one host for sandbox and live (the key decides which), api.shiplogic.com:
 * - POST {base}/v2/rates { collection_address, delivery_address, parcels, declared_value (rand), collection_min_date }
 *   → { rates: [{ rate (rand, VAT incl.), rate_excluding_vat, service_level: { code, name, delivery_date_from,
 *   delivery_date_to, … } }] };
 * - POST {base}/v2/shipments { …the same, collection_contact, delivery_contact, service_level_code, customer_reference,
 *   special_instructions_delivery } → the shipment: { id (number), short_tracking_reference, status "submitted",
 *   rate, estimated_delivery_from/to, parcels[].tracking_reference "<ref>/1", … };
 * - GET {base}/v2/shipments/label?id=<shipment id> → { url }: a pre-signed (24 h) link to the waybill PDF, fetched
 *   without our key (it's an S3 link that carries its own signature);
 * - GET {base}/v2/tracking/shipments?tracking_reference=<ref> → { shipments: [{ status, tracking_events: [{ id, date,
 *   status, message, location, source }] newest first }], tracking_steps };
 * - POST {base}/v2/shipments/cancel { tracking_reference } → the shipment, status "cancelled" (only before collection);
 * - tracking webhooks (the "tracking event" topic, registered in the Shiplogic portal) POST { shipment_id,
 *   short_tracking_reference, custom_tracking_reference, status, event_time, service_level_code, tracking_events,
 *   update_type: "shipment" }. Shiplogic is not known to sign them, so the shop registers its webhook URL behind a
 *   signer it controls (see verifyWebhook) and the caller re-confirms every push through track() before applying it.
 * Money: Shiplogic speaks rand as decimals; the shop speaks integer cents, converted at this edge only.
 */
export interface ShiplogicOptions {
  /** the API host, e.g. https://api.shiplogic.com (a trailing /v2 is tolerated) */
  baseUrl: string;
  apiKey: string;
  /** injected for the in-process fake (demo) and tests; defaults to the global fetch */
  fetch?: typeof fetch;
  /** ms before a call is abandoned (default 10 s): checkout must not hang on a slow courier */
  timeoutMs?: number;
  /** true for the local fake: bookings are test deliveries */
  test?: boolean;
  /** the secret the shop's webhook signer uses (see SHIPLOGIC_SIGNATURE_HEADER); without it no push is trusted */
  webhookSecret?: string;
}

/**
 * The header a tracking push must carry: `sha256=<hex HMAC-SHA256 of the raw body, keyed with the webhook secret>`.
 * It is ours, not Shiplogic's (Shiplogic documents no webhook signature): whatever relays Shiplogic's push to the shop
 * signs it with the secret configured here. A valid signature only says "this came through our relay"; the shop
 * still re-reads the shipment through track() before it changes an order, so a replayed or stale push changes nothing.
 */
export const SHIPLOGIC_SIGNATURE_HEADER = "x-webhook-signature";

const DEFAULT_TIMEOUT_MS = 10_000;
const SERVICE = "The Courier Guy (Shiplogic)";

/** The Courier Guy's public tracking page for a waybill (what the shopper's email links to). */
export function trackingUrlFor(trackingReference: string): string {
  return `https://portal.thecourierguy.co.za/track?ref=${encodeURIComponent(trackingReference)}`;
}

/** The HMAC the shop's webhook signer puts in SHIPLOGIC_SIGNATURE_HEADER (exported so the fake and a relay agree). */
export function signShiplogicWebhook(secret: string, rawBody: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody, "utf8").digest("hex")}`;
}

// ── Shiplogic's shapes (only what we read; .loose() because Shiplogic adds fields freely) ────────────────────────

const rateSchema = z
  .object({
    rate: z.number().nonnegative(),
    service_level: z
      .object({
        code: z.string().min(1),
        name: z.string().min(1),
        delivery_date_from: z.string().nullish(),
        delivery_date_to: z.string().nullish(),
      })
      .loose(),
  })
  .loose();
const ratesResponse = z.object({ rates: z.array(rateSchema) }).loose();

const shipmentResponse = z
  .object({
    id: z.union([z.number().int().positive(), z.string().min(1)]),
    short_tracking_reference: z.string().nullish(),
    custom_tracking_reference: z.string().nullish(),
    rate: z.number().nonnegative().nullish(),
    status: z.string().nullish(),
  })
  .loose();

const labelUrl = z.url({ protocol: /^https?$/ });
/** { url } as documented; a bare URL string is taken too (some accounts' answers have been seen that way). */
const labelResponse = z.union([z.object({ url: labelUrl }).loose().transform((l) => l.url), labelUrl]);

const trackingEventSchema = z
  .object({
    id: z.union([z.number(), z.string()]).nullish(),
    date: z.string().min(1),
    status: z.string().min(1),
    message: z.string().nullish(),
    location: z.string().nullish(),
  })
  .loose();
const trackingResponse = z
  .object({
    shipments: z.array(
      z
        .object({
          short_tracking_reference: z.string().nullish(),
          status: z.string().nullish(),
          tracking_events: z.array(trackingEventSchema).nullish(),
        })
        .loose(),
    ),
  })
  .loose();

const cancelResponse = z.object({ status: z.string().nullish() }).loose();

const webhookBody = z
  .object({
    shipment_id: z.union([z.number(), z.string()]).nullish(),
    short_tracking_reference: z.string().nullish(),
    custom_tracking_reference: z.string().nullish(),
    status: z.string().nullish(),
    event_time: z.string().nullish(),
    tracking_events: z.array(trackingEventSchema).nullish(),
  })
  .loose();

/** Shiplogic's error bodies: { message } (sometimes { error }), with per-field { errors: [{ field, message }] }. */
const errorBody = z
  .object({
    message: z.string().nullish(),
    error: z.string().nullish(),
    errors: z.array(z.union([z.string(), z.object({ field: z.string().nullish(), message: z.string().nullish() }).loose()])).nullish(),
  })
  .loose();

// ── Statuses ─────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Every shipment status Shiplogic documents, in the shop's words. Collection hiccups (rejected, failed attempt) keep
 * it "booked": nothing has left the shop. Delivery exceptions and failed attempts read "failed" so the owner sees
 * them; a later out-for-delivery or delivered event moves the order on again.
 */
export const SHIPLOGIC_STATUS: Readonly<Record<string, TrackingStatus>> = {
  submitted: "booked",
  "collection-assigned": "booked",
  "collection-unassigned": "booked",
  "collection-rejected": "booked",
  "collection-exception": "booked",
  "collection-failed-attempt": "booked",
  "awaiting-dropoff": "booked",
  collected: "collected",
  "at-hub": "in_transit",
  "on-hold": "in_transit",
  "on-hold-internal": "in_transit",
  "returned-to-hub": "in_transit",
  manifested: "in_transit",
  "ready-for-dispatch": "in_transit",
  "in-transit": "in_transit",
  "at-destination-hub": "in_transit",
  "floor-check": "in_transit",
  "swad-dimensions": "in_transit",
  "swad-imaging": "in_transit",
  "collect-and-return-to-hub": "in_transit",
  "delivery-assigned": "in_transit",
  "delivery-unassigned": "in_transit",
  "delivery-rejected": "in_transit",
  "out-for-delivery": "out_for_delivery",
  "ready-for-pickup": "ready_for_collection",
  "in-locker": "ready_for_collection",
  "delivery-exception": "failed",
  "delivery-failed-attempt": "failed",
  undeliverable: "failed",
  "returned-to-sender": "failed",
  delivered: "delivered",
  "collected-from-locker": "delivered",
  "collected-from-counter": "delivered",
  cancelled: "cancelled",
};

/** Shiplogic's events often carry an empty message; these are what the shopper reads then. */
const DEFAULT_MESSAGE: Record<TrackingStatus, string> = {
  booked: "Booked with The Courier Guy",
  collected: "Collected from the shop",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  ready_for_collection: "Ready for collection",
  delivered: "Delivered",
  cancelled: "Cancelled",
  failed: "Delivery problem: The Courier Guy will try again or be in touch",
};

function humanStatus(status: string): string {
  return status.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** Shiplogic's events (any order, unknown statuses included) → the shop's, oldest first. */
function mapEvents(events: ReadonlyArray<z.infer<typeof trackingEventSchema>>, reference: string): TrackingEvent[] {
  const mapped: Array<TrackingEvent & { time: number; index: number }> = [];
  events.forEach((event, index) => {
    const status = SHIPLOGIC_STATUS[event.status];
    if (!status) {
      // A status Shiplogic added after this was written: better one step fewer than a wrong one. Logged to add it.
      logger.warn({ status: event.status, reference }, "shiplogic: unknown tracking status skipped");
      return;
    }
    const time = Date.parse(event.date);
    if (Number.isNaN(time)) return;
    const at = new Date(time).toISOString();
    const id = event.id != null && event.id !== "" ? `shiplogic:${event.id}` : `shiplogic:${reference}:${event.status}:${at}`;
    const message = event.message?.trim() || (status === "in_transit" ? humanStatus(event.status) : DEFAULT_MESSAGE[status]);
    mapped.push({ id, status, at, message, location: event.location?.trim() || null, time, index });
  });
  // Shiplogic lists newest first; sort by time, and for equal times keep the reverse of its order (older was later).
  mapped.sort((a, b) => a.time - b.time || b.index - a.index);
  return mapped.map(({ time: _time, index: _index, ...event }) => event);
}

// ── Requests ─────────────────────────────────────────────────────────────────────────────────────────────────────

function toAddress(address: CourierAddress) {
  return {
    type: address.type,
    company: address.company ?? "",
    street_address: address.streetAddress,
    local_area: address.localArea,
    city: address.city,
    zone: address.zone,
    code: address.code,
    country: address.country,
    ...(address.lat != null && address.lng != null ? { lat: address.lat, lng: address.lng } : {}),
  };
}

function toContact(contact: CourierContact) {
  return { name: contact.name, mobile_number: contact.mobileNumber, email: contact.email };
}

/**
 * The shop's parcel limit (courier.ts), checked before asking: the same refusal whether or not Shiplogic would take
 * a heavier parcel on this account, and no round trip for an answer we already know.
 */
function toParcels(parcels: Parcel[]) {
  if (parcels.length === 0) throw new CourierError("There is no parcel to send: add at least one.", "refused");
  parcels.forEach((p, i) => {
    if (!(p.weightKg > 0) || !(p.lengthCm > 0) || !(p.widthCm > 0) || !(p.heightCm > 0)) {
      throw new CourierError(`Parcel ${i + 1} needs a weight and all three sides above 0.`, "refused");
    }
    if (p.weightKg > MAX_PARCEL_WEIGHT_KG) {
      throw new CourierError(`Parcel ${i + 1} weighs ${p.weightKg} kg: The Courier Guy takes parcels of up to ${MAX_PARCEL_WEIGHT_KG} kg. Split it into lighter parcels.`, "refused");
    }
  });
  return parcels.map((p) => ({
    submitted_length_cm: p.lengthCm,
    submitted_width_cm: p.widthCm,
    submitted_height_cm: p.heightCm,
    submitted_weight_kg: p.weightKg,
  }));
}


/**
 * A collection day (YYYY-MM-DD, South African time) as Shiplogic stores it: the instant that day starts in SAST
 * (UTC+2, no daylight saving), e.g. 2026-01-14 → 2026-01-13T22:00:00.000Z, as its own responses show.
 */
function sastDayStart(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00+02:00`))) {
    throw new CourierError(`The collection date "${date}" is not a date (expected YYYY-MM-DD).`, "refused");
  }
  return new Date(`${date}T00:00:00+02:00`).toISOString();
}

function deliveryAddress(end: DeliveryEnd) {
  if ("address" in end) return toAddress(end.address);
  // Lockers and pick-up points go through PUDO and Pargo; this client books The Courier Guy to a door.
  throw new CourierError(`${SERVICE} delivers to a street address, not to a locker or pick-up point.`, "refused");
}

function plainMessage(body: unknown, raw: string): string | null {
  const parsed = errorBody.safeParse(body);
  if (parsed.success) {
    const { message, error, errors } = parsed.data;
    const details = (errors ?? [])
      .map((e) => (typeof e === "string" ? e : [e.field, e.message].filter(Boolean).join(": ")))
      .filter(Boolean);
    const head = message?.trim() || error?.trim() || "";
    const text = [head, ...details].filter(Boolean).join("; ");
    if (text) return text.slice(0, 300);
  }
  // A short plain-text refusal is still the service's own words; HTML error pages are not worth showing.
  const trimmed = raw.trim();
  if (trimmed && trimmed.length <= 300 && !trimmed.startsWith("<")) return trimmed;
  return null;
}

export function createShiplogicClient(options: ShiplogicOptions): CourierClient {
  const base = options.baseUrl.replace(/\/+$/, "").replace(/\/v2$/, "");
  const http = courierHttp({
    service: SERVICE,
    log: "shiplogic",
    settingsHint: "check the Shiplogic API key in settings",
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: options.fetch,
    said: plainMessage,
  });

  /** One JSON call, its answer checked against `schema`. */
  async function call<T>(what: string, method: "GET" | "POST", path: string, schema: z.ZodType<T>, body: unknown, caller?: AbortSignal): Promise<T> {
    const headers = { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
    const answer = await http.exchange(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, what, caller);
    return http.json(answer, what, schema);
  }

  return {
    name: "shiplogic",
    kind: "door",
    test: options.test ?? false,

    async rates(request: QuoteRequest, signal?: AbortSignal): Promise<ServiceRate[]> {
      const body = {
        collection_address: toAddress(request.collection),
        delivery_address: deliveryAddress(request.delivery),
        parcels: toParcels(request.parcels),
        declared_value: centsToRand(request.declaredValueCents),
        ...(request.collectionDate
          ? { collection_min_date: sastDayStart(request.collectionDate), delivery_min_date: sastDayStart(request.collectionDate) }
          : {}),
      };
      const answer = await call("the quote", "POST", "/v2/rates", ratesResponse, body, signal);
      return answer.rates.map((r) => ({
        courier: "shiplogic" as const,
        serviceCode: r.service_level.code,
        serviceName: r.service_level.name,
        priceCents: randToCents(r.rate),
        deliveryFrom: r.service_level.delivery_date_from || null,
        deliveryTo: r.service_level.delivery_date_to || null,
      }));
    },

    async book(request: BookingRequest, signal?: AbortSignal): Promise<Booking> {
      const body = {
        collection_address: toAddress(request.collection),
        collection_contact: toContact(request.collectionContact),
        delivery_address: deliveryAddress(request.delivery),
        delivery_contact: toContact(request.deliveryContact),
        parcels: toParcels(request.parcels),
        declared_value: centsToRand(request.declaredValueCents),
        service_level_code: request.serviceCode,
        // Our order id: it shows on the waybill and in the portal, and is what a retry is recognised by.
        customer_reference: request.reference,
        ...(request.collectionDate
          ? { collection_min_date: sastDayStart(request.collectionDate), delivery_min_date: sastDayStart(request.collectionDate) }
          : {}),
        ...(request.instructions ? { special_instructions_delivery: request.instructions } : {}),
      };
      const shipment = await call("the booking", "POST", "/v2/shipments", shipmentResponse, body, signal);
      const trackingReference = shipment.short_tracking_reference || shipment.custom_tracking_reference;
      if (!trackingReference) {
        logger.error({ shipmentId: shipment.id, reference: request.reference }, "shiplogic: shipment without a tracking reference");
        throw new CourierError(`${SERVICE} booked the shipment but sent no tracking reference; look it up in the portal by order ${request.reference}.`, "unavailable");
      }
      return {
        courier: "shiplogic",
        shipmentId: String(shipment.id),
        trackingReference,
        priceCents: shipment.rate != null ? randToCents(shipment.rate) : null,
        trackingUrl: trackingUrlFor(trackingReference),
      };
    },

    async label(booking, signal?: AbortSignal): Promise<Uint8Array> {
      const url = await call("the waybill", "GET", `/v2/shipments/label?id=${encodeURIComponent(booking.shipmentId)}`, labelResponse, undefined, signal);
      // a pre-signed link: no Authorization header (S3 refuses a second credential, and the key must not leave)
      return http.pdf(await http.exchange(url, { method: "GET" }, "the waybill", signal), "the waybill");
    },

    async track(booking, signal?: AbortSignal): Promise<TrackingEvent[]> {
      const reference = booking.trackingReference;
      const answer = await call("the tracking", "GET", `/v2/tracking/shipments?tracking_reference=${encodeURIComponent(reference)}`, trackingResponse, undefined, signal);
      const shipment = answer.shipments[0];
      if (!shipment) throw new CourierError(`${SERVICE} has no shipment with tracking reference ${reference}.`, "refused", 404);
      return mapEvents(shipment.tracking_events ?? [], reference);
    },

    async cancel(booking, signal?: AbortSignal): Promise<void> {
      const answer = await call("the cancellation", "POST", "/v2/shipments/cancel", cancelResponse, { tracking_reference: booking.trackingReference }, signal);
      if (answer.status && answer.status !== "cancelled") {
        throw new CourierError(`${SERVICE} did not cancel shipment ${booking.trackingReference}: it is "${humanStatus(answer.status)}".`, "refused");
      }
    },

    /**
     * A tracking push, trusted only with a valid SHIPLOGIC_SIGNATURE_HEADER (constant-time compare). Nothing in it is
     * timed by a signer, so `now` is not used; replays are harmless because the caller re-confirms through track().
     */
    verifyWebhook(rawBody: string, headers: Headers): TrackingPush {
      const secret = options.webhookSecret;
      if (!secret) throw new CourierWebhookError("Shiplogic webhooks are not set up: no webhook secret is configured");
      const header = headers.get(SHIPLOGIC_SIGNATURE_HEADER);
      if (!header) throw new CourierWebhookError(`Missing ${SHIPLOGIC_SIGNATURE_HEADER} header`);
      const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
      if (!match) throw new CourierWebhookError(`Malformed ${SHIPLOGIC_SIGNATURE_HEADER} header`);
      const given = Buffer.from(match[1]!.toLowerCase(), "hex");
      const expected = createHmac("sha256", secret).update(rawBody, "utf8").digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new CourierWebhookError("Webhook signature does not match");
      }

      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new CourierWebhookError("Webhook body is not JSON");
      }
      const parsed = webhookBody.safeParse(json);
      if (!parsed.success) throw new CourierWebhookError("Webhook body has an unexpected shape");
      const push = parsed.data;
      const trackingReference = push.short_tracking_reference || push.custom_tracking_reference;
      if (!trackingReference) throw new CourierWebhookError("Webhook names no tracking reference");
      // A push without its event list still says the shipment's status and when: one event from that.
      const events =
        push.tracking_events && push.tracking_events.length
          ? push.tracking_events
          : push.status && push.event_time
            ? [{ id: null, date: push.event_time, status: push.status, message: null, location: null }]
            : [];
      return { courier: "shiplogic", trackingReference, events: mapEvents(events, trackingReference) };
    },
  };
}
