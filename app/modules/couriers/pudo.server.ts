import { createHash } from "node:crypto";
import { z } from "zod";
import { logger } from "~/utils/logger.server";
import { centsToRand, randToCents } from "~/utils/money";
import {
  CourierError,
  type Booking,
  type BookingRequest,
  type CourierAddress,
  type CourierClient,
  type CourierContact,
  type Parcel,
  type PickupPoint,
  type QuoteRequest,
  type ServiceRate,
  type TrackingEvent,
  type TrackingStatus,
} from "./courier";
import { courierHttp, type CourierAnswer } from "./courier-http.server";
import { locate } from "./places";

/**
 * PUDO (The Courier Guy's lockers), door-to-locker: the shop's courier collects at the shop's door and the shopper
 * collects from a locker with a PIN. Built against what The Courier Guy's own plugins send and read
 * (The-Courier-Guy/PUDO_Common src/Processor/APIProcessor.php + src/Request/ApiRequestBuilder.php,
 * The-Courier-Guy/Locker-WooCommerce classes/PudoApi.php + Pudo_Shipping_Method.php):
 * - every /api/v1 call carries `Authorization: Bearer <account key>` (JSON in, JSON out);
 * - GET  /api/v1/lockers-data → [{ code, name, latitude, longitude, address, openinghours[{day, open_time,
 *   close_time}], type{id,name}, place{town, postalCode}, lstTypesBoxes[{name "V4-M", width, height, length,
 *   weight}], … }];
 * - POST /api/v1/locker-rates-new { collection_address (a door), delivery_address { terminal_id }, parcels [box
 *   dimensions] } → { rates: [{ rate (rand, VAT incl.), rate_excluding_vat, service_level { code "D2LM - ECO", name,
 *   … } }] };
 * - POST /api/v1/shipments { collection_address, collection_contact, delivery_address { terminal_id },
 *   delivery_contact, service_level_code, parcels } → { id, custom_tracking_reference, … };
 * - GET  /generate/waybill/{id}?api_key=<key> → the waybill PDF (outside /api/v1; the key rides in the query).
 * Tracking (GET /api/v1/tracking/shipments?waybill=…) and cancel (PUT /api/v1/shipments/{id} { status: "cancelled" })
 * are not in those plugins; they follow TCG's published Postman collection as third-party integrations use it, so
 * their response parsing is deliberately tolerant. PUDO pushes nothing we rely on: tracking is polled (no
 * verifyWebhook). `baseUrl` is the origin (https://sandbox.api-pudo.co.za), so tests point it at the local fake.
 */
export interface PudoOptions {
  baseUrl: string;
  apiKey: string;
  /** the demo passes the in-process fake's handler here; default: the global fetch */
  fetch?: typeof fetch;
  /** ms before a call to PUDO is abandoned (default 10 s) */
  timeoutMs?: number;
  /** true for the local fake / sandbox: bookings are test deliveries */
  test?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * PUDO's locker boxes, smallest first (Locker-WooCommerce PudoApi.php DEFAULT_LOCKER.lstTypesBoxes: every locker
 * has the same V4 doors). Lockers charge by box, not by weight, so a parcel is sent as the smallest box it fits.
 */
export const PUDO_BOXES = [
  { size: "XS", name: "V4-XS", label: "extra-small", lengthCm: 60, widthCm: 17, heightCm: 8, maxWeightKg: 2 },
  { size: "S", name: "V4-S", label: "small", lengthCm: 60, widthCm: 41, heightCm: 8, maxWeightKg: 5 },
  { size: "M", name: "V4-M", label: "medium", lengthCm: 60, widthCm: 41, heightCm: 19, maxWeightKg: 10 },
  { size: "L", name: "V4-L", label: "large", lengthCm: 60, widthCm: 41, heightCm: 41, maxWeightKg: 15 },
  { size: "XL", name: "V4-XL", label: "extra-large", lengthCm: 60, widthCm: 41, heightCm: 69, maxWeightKg: 20 },
] as const;
export type PudoBox = (typeof PUDO_BOXES)[number];

/** The smallest box the parcel fits, turned any way round (sorted sides against sorted sides), or null. */
export function smallestBox(parcel: Parcel): PudoBox | null {
  const p = [parcel.lengthCm, parcel.widthCm, parcel.heightCm].sort((a, b) => b - a);
  for (const box of PUDO_BOXES) {
    const b = [box.lengthCm, box.widthCm, box.heightCm].sort((x, y) => y - x);
    if (p[0]! <= b[0]! && p[1]! <= b[1]! && p[2]! <= b[2]! && parcel.weightKg <= box.maxWeightKg) return box;
  }
  return null;
}

const an = (word: string) => `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;

/** "D2LM - ECO" → door-to-(L)ocker/(K)iosk/(P)ickup point, box M. Spaces vary between TCG's docs and plugins. */
const SERVICE_CODE = /^D2([LKP])(XS|XL|S|M|L)\s*-\s*([A-Z]+)$/i;
function boxOfServiceCode(code: string): PudoBox | null {
  const size = SERVICE_CODE.exec(code.trim())?.[2]?.toUpperCase();
  return PUDO_BOXES.find((b) => b.size === size) ?? null;
}

// ── response shapes (only what we read; everything else passes through) ──

/** Rand as PUDO sends it: "72.50" or 72.5. */
const rand = z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/).transform(Number)]).pipe(z.number().finite().nonnegative());
const coordinate = z.union([z.number(), z.string().trim().min(1).transform(Number)]).pipe(z.number().finite());
const text = z.string().trim().min(1);

const lockerShape = z
  .object({
    code: text,
    name: text,
    latitude: coordinate,
    longitude: coordinate,
    address: z.string().nullish(),
    status: z.string().nullish(),
    type: z.object({ name: z.string().nullish() }).loose().nullish(),
    place: z.object({ town: z.string().nullish(), postalCode: z.union([z.string(), z.number()]).nullish() }).loose().nullish(),
    detailed_address: z
      .object({
        formatted_address: z.string().nullish(),
        street_address: z.string().nullish(),
        sublocality: z.string().nullish(),
        locality: z.string().nullish(),
        province: z.string().nullish(),
        postal_code: z.union([z.string(), z.number()]).nullish(),
      })
      .loose()
      .nullish(),
    openinghours: z
      .array(z.object({ day: z.string(), open_time: z.string().nullish(), close_time: z.string().nullish() }).loose())
      .nullish(),
  })
  .loose();
type PudoLocker = z.infer<typeof lockerShape>;

const ratesShape = z.object({
  rates: z.array(
    z
      .object({
        rate: rand,
        service_level: z
          .object({
            code: text,
            name: z.string().nullish(),
            delivery_date_from: z.string().nullish(),
            delivery_date_to: z.string().nullish(),
          })
          .loose(),
      })
      .loose(),
  ),
});

const shipmentShape = z
  .object({
    id: z.union([z.number().int(), text]),
    custom_tracking_reference: z.string().nullish(),
    tracking_reference: z.string().nullish(),
    short_tracking_reference: z.string().nullish(),
    waybill: z.string().nullish(),
    rate: rand.nullish(),
  })
  .loose();

const pin = z.union([z.string(), z.number()]).nullish();
const eventShape = z
  .object({
    id: z.union([z.string(), z.number()]).nullish(),
    status: text,
    // Shiplogic-style events say `date`/`message`; some PUDO answers say `event_time`/`description`.
    date: z.string().nullish(),
    event_time: z.string().nullish(),
    time: z.string().nullish(),
    message: z.string().nullish(),
    description: z.string().nullish(),
    location: z.string().nullish(),
    terminal_name: z.string().nullish(),
    pincode: pin,
    pin: pin,
    otp: pin,
    collection_pin: pin,
  })
  .loose();
/** Events under `shipments[0]` (a lookup by reference) or at the top (by waybill); an empty list: none yet. */
const trackingShape = z
  .object({
    shipments: z.array(z.object({ tracking_events: z.array(eventShape).nullish() }).loose()).optional(),
    tracking_events: z.array(eventShape).optional(),
  })
  .loose()
  .refine((d) => d.shipments !== undefined || d.tracking_events !== undefined, "no shipments or tracking_events");

// ── PUDO's words → the shop's ──

/**
 * PUDO's status vocabulary (TCG Locker Postman collection as integrators quote it) in the shop's words. A status we
 * don't know is left out rather than guessed, so an unfamiliar word never moves an order on.
 */
const STATUS_MAP: Record<string, TrackingStatus> = {
  "quote-pending": "booked",
  submitted: "booked",
  "deposit-pending": "booked",
  "collection-assigned": "booked",
  "collection-unassigned": "booked",
  "collection-rejected": "booked",
  "collection-exception": "booked",
  "collection-failed": "booked",
  "customer-deposited": "collected",
  "courier-collected": "collected",
  collected: "collected",
  "at-hub": "in_transit",
  "in-transit": "in_transit",
  "at-destination-hub": "in_transit",
  "returned-to-hub": "in_transit",
  "delivery-exception": "in_transit",
  "delivery-failed-attempt": "in_transit",
  "delivery-assigned": "out_for_delivery",
  "out-for-delivery": "out_for_delivery",
  "in-locker": "ready_for_collection",
  "ready-for-collection": "ready_for_collection",
  "customer-collected": "delivered",
  delivered: "delivered",
  cancelled: "cancelled",
  "cancel-booking-expired": "cancelled",
  "payment-failed": "failed",
  "returned-to-sender": "failed",
  returned: "failed",
};

const DEFAULT_MESSAGES: Record<TrackingStatus, string> = {
  booked: "Booked with PUDO",
  collected: "Collected from the shop",
  in_transit: "In transit",
  out_for_delivery: "On its way to the locker",
  ready_for_collection: "Ready for collection at the locker",
  delivered: "Collected from the locker",
  cancelled: "Cancelled",
  failed: "Delivery failed",
};

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** "08:00:00" → "08:00"; null for closed ("--", "closed", empty). */
function hhmm(value: string | null | undefined): string | null {
  const m = /^(\d{1,2}):(\d{2})/.exec((value ?? "").trim());
  return m ? `${m[1]!.padStart(2, "0")}:${m[2]}` : null;
}

/** PUDO's one-row-per-day hours as readable lines: "Mon–Fri 08:00–18:00", "Sun closed", "Public holidays 08:00–13:00". */
export function formatHours(rows: ReadonlyArray<{ day: string; open_time?: string | null; close_time?: string | null }>): string[] {
  const span = (open: string | null, close: string | null) => {
    if (!open || !close) return "closed";
    if (open === "00:00" && (close === "23:59" || close === "24:00")) return "open 24 hours";
    return `${open}–${close}`;
  };
  const byDay = new Map<number, string>();
  let holidays: string | null = null;
  for (const row of rows) {
    const day = row.day.trim().toLowerCase();
    const hours = span(hhmm(row.open_time), hhmm(row.close_time));
    if (day.startsWith("public")) holidays = hours;
    else {
      const index = DAYS.findIndex((d) => day.startsWith(d.toLowerCase()));
      if (index >= 0) byDay.set(index, hours);
    }
  }
  const lines: string[] = [];
  let i = 0;
  while (i < DAYS.length) {
    const hours = byDay.get(i);
    if (hours === undefined) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < DAYS.length && byDay.get(j + 1) === hours) j++;
    lines.push(`${j > i ? `${DAYS[i]}–${DAYS[j]}` : DAYS[i]} ${hours}`);
    i = j + 1;
  }
  if (holidays) lines.push(`Public holidays ${holidays}`);
  return lines;
}


function addressBody(address: CourierAddress) {
  const entered = [address.streetAddress, address.localArea, address.city, address.code].filter(Boolean).join(", ");
  return {
    type: address.type,
    ...(address.company ? { company: address.company } : {}),
    street_address: address.streetAddress,
    local_area: address.localArea,
    suburb: address.localArea,
    city: address.city,
    zone: address.zone,
    code: address.code,
    country: address.country,
    entered_address: entered,
    ...(address.lat !== undefined && address.lng !== undefined ? { lat: address.lat, lng: address.lng } : {}),
  };
}

function contactBody(contact: CourierContact) {
  return { name: contact.name, mobile_number: contact.mobileNumber, email: contact.email };
}

/** PUDO's answer to a refusal, in its own words: Laravel-style { message, errors{field: [..]} } or plain text. */
function serviceMessage(body: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const plain = body.trim();
    return plain && !plain.startsWith("<") ? plain.slice(0, 300) : null;
  }
  if (typeof json === "string") return json.slice(0, 300) || null;
  if (!json || typeof json !== "object") return null;
  const o = json as Record<string, unknown>;
  const parts: string[] = [];
  const error = o.error;
  if (typeof o.message === "string") parts.push(o.message);
  else if (typeof error === "string") parts.push(error);
  else if (error && typeof error === "object" && typeof (error as Record<string, unknown>).message === "string") {
    parts.push((error as Record<string, string>).message!);
  }
  const errors = o.errors ?? (error && typeof error === "object" ? (error as Record<string, unknown>).errors : undefined);
  const details = (Array.isArray(errors) ? errors : errors && typeof errors === "object" ? Object.values(errors) : [])
    .flat()
    .filter((e): e is string => typeof e === "string");
  // "The given data was invalid." says nothing; the first field error says what to change.
  if (details.length && !parts.some((p) => details.includes(p))) parts.push(details[0]!);
  return parts.length ? parts.join(": ").slice(0, 300) : null;
}

export function createPudoClient(options: PudoOptions): CourierClient {
  const origin = options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const test = options.test ?? false;

  const unavailable = (why: string, status?: number) =>
    new CourierError(`PUDO ${why}; try again later.`, "unavailable", status);

  const http = courierHttp({
    service: "PUDO",
    log: "pudo",
    settingsHint: "check the PUDO API key in settings",
    timeoutMs,
    fetch: options.fetch,
    said: (_body, text) => serviceMessage(text),
  });

  /** One call to PUDO; an answer that is not 2xx is its failure (courier-http.server.ts). */
  async function call(what: string, method: "GET" | "POST" | "PUT", path: string, init: { body?: unknown; signal?: AbortSignal; pdf?: boolean }): Promise<CourierAnswer> {
    const headers = {
      Authorization: `Bearer ${options.apiKey}`,
      Accept: init.pdf ? "application/pdf" : "application/json",
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
    };
    const answer = await http.exchange(`${origin}${path}`, { method, headers, body: init.body !== undefined ? JSON.stringify(init.body) : undefined }, what, init.signal);
    return http.succeeded(answer, what);
  }

  /** The one parcel a locker takes, and its box; refused (no call made) when it can't go in a locker. */
  function lockerParcel(parcels: Parcel[]): { parcel: Parcel; box: PudoBox } {
    if (parcels.length !== 1) {
      throw new CourierError(
        parcels.length === 0
          ? "No parcel to send: add the parcel's size and weight."
          : `A locker takes one parcel per delivery and this order needs ${parcels.length}: choose door delivery.`,
        "refused",
      );
    }
    const parcel = parcels[0]!;
    const sides = [parcel.lengthCm, parcel.widthCm, parcel.heightCm, parcel.weightKg];
    if (!sides.every((n) => Number.isFinite(n) && n > 0)) {
      throw new CourierError("The parcel's size and weight must be positive numbers.", "refused");
    }
    const box = smallestBox(parcel);
    if (!box) {
      const largest = PUDO_BOXES[PUDO_BOXES.length - 1]!;
      throw new CourierError(
        `Too big for a locker: ${parcel.lengthCm}×${parcel.widthCm}×${parcel.heightCm} cm, ${parcel.weightKg} kg fits no PUDO box ` +
          `(the largest takes ${largest.lengthCm}×${largest.widthCm}×${largest.heightCm} cm and ${largest.maxWeightKg} kg): choose door delivery.`,
        "refused",
      );
    }
    return { parcel, box };
  }

  /** PUDO picks the locker door from the dimensions, so we send the box's; the weight is the parcel's own. */
  function parcelBody(parcel: Parcel, box: PudoBox) {
    return [
      {
        submitted_length_cm: box.lengthCm,
        submitted_width_cm: box.widthCm,
        submitted_height_cm: box.heightCm,
        submitted_weight_kg: Math.max(0.01, Math.round(parcel.weightKg * 100) / 100),
        parcel_description: `Parcel (${box.name} box)`,
      },
    ];
  }

  function lockerCode(end: QuoteRequest["delivery"], what: string): string {
    if ("pointCode" in end && end.pointCode.trim()) return end.pointCode.trim();
    throw new CourierError(`PUDO delivers to lockers only: choose a locker for the ${what}.`, "refused");
  }

  const ref = (booking: { shipmentId: string }) => encodeURIComponent(booking.shipmentId);

  return {
    name: "pudo",
    kind: "locker",
    test,

    async rates(request: QuoteRequest, signal?: AbortSignal): Promise<ServiceRate[]> {
      const terminal = lockerCode(request.delivery, "quote");
      const { parcel, box } = lockerParcel(request.parcels);
      const answer = await call("the quote", "POST", "/api/v1/locker-rates-new", {
        signal,
        body: {
          collection_address: addressBody(request.collection),
          delivery_address: { terminal_id: terminal },
          parcels: parcelBody(parcel, box),
          declared_value: centsToRand(request.declaredValueCents),
          ...(request.collectionDate ? { collection_min_date: request.collectionDate } : {}),
        },
      });
      const { rates } = http.json(answer, "the quote", ratesShape);
      // PUDO answers one rate per box size; take the parcel's box, else the next larger box it offers.
      const door = rates
        .map((r) => ({ r, box: boxOfServiceCode(r.service_level.code) }))
        .filter((x): x is { r: (typeof rates)[number]; box: PudoBox } => x.box !== null && PUDO_BOXES.indexOf(x.box) >= PUDO_BOXES.indexOf(box))
        .sort((a, b) => PUDO_BOXES.indexOf(a.box) - PUDO_BOXES.indexOf(b.box));
      const best = door[0];
      if (!best) {
        throw new CourierError(`PUDO offers no door-to-locker rate for ${an(box.label)} box to locker ${terminal}: choose another locker or door delivery.`, "refused");
      }
      const priceCents = randToCents(best.r.rate);
      if (priceCents <= 0) throw unavailable("quoted no price");
      return [
        {
          courier: "pudo",
          serviceCode: best.r.service_level.code,
          serviceName: `Door to locker (${best.box.label} box)`,
          priceCents,
          deliveryFrom: best.r.service_level.delivery_date_from ?? null,
          deliveryTo: best.r.service_level.delivery_date_to ?? null,
        },
      ];
    },

    async points(signal?: AbortSignal): Promise<PickupPoint[]> {
      const rows = http.json(await call("the locker list", "GET", "/api/v1/lockers-data", { signal }), "the locker list", z.array(z.unknown()));
      const points: PickupPoint[] = [];
      let unreadable = 0;
      for (const row of rows) {
        const parsed = lockerShape.safeParse(row);
        if (!parsed.success) {
          // One malformed row must not hide two thousand good lockers.
          unreadable++;
          continue;
        }
        const point = toPoint(parsed.data, test);
        if (point) points.push(point);
      }
      if (rows.length > 0 && unreadable === rows.length) throw unavailable("sent a locker list we could not read");
      if (unreadable) logger.warn({ unreadable }, "pudo: skipped unreadable lockers");
      return points;
    },

    async book(request: BookingRequest, signal?: AbortSignal): Promise<Booking> {
      const terminal = lockerCode(request.delivery, "delivery");
      const fitted = lockerParcel(request.parcels);
      // Book the box the shopper was quoted for (the service code names it), if the parcel still fits it.
      const quoted = boxOfServiceCode(request.serviceCode);
      if (quoted && PUDO_BOXES.indexOf(quoted) < PUDO_BOXES.indexOf(fitted.box)) {
        throw new CourierError(`The parcel needs ${an(fitted.box.label)} box but ${request.serviceCode} is for ${an(quoted.label)} box: quote again.`, "refused");
      }
      const box = quoted ?? fitted.box;
      const answer = await call("the booking", "POST", "/api/v1/shipments", {
        signal,
        body: {
          collection_address: addressBody(request.collection),
          collection_contact: contactBody(request.collectionContact),
          delivery_address: { terminal_id: terminal },
          delivery_contact: contactBody(request.deliveryContact),
          service_level_code: request.serviceCode,
          parcels: parcelBody(fitted.parcel, box),
          declared_value: centsToRand(request.declaredValueCents),
          customer_reference: request.reference,
          ...(request.collectionDate ? { collection_min_date: request.collectionDate } : {}),
          ...(request.instructions ? { special_instructions_collection: request.instructions } : {}),
        },
      });
      const shipment = http.json(answer, "the booking", shipmentShape);
      const trackingReference =
        shipment.custom_tracking_reference || shipment.tracking_reference || shipment.waybill || shipment.short_tracking_reference;
      if (!trackingReference) {
        logger.error({ id: shipment.id, reference: request.reference }, "pudo: booking without a tracking reference");
        throw unavailable("booked without a tracking reference (check PUDO before booking again)");
      }
      return {
        courier: "pudo",
        shipmentId: String(shipment.id),
        trackingReference,
        priceCents: shipment.rate != null && shipment.rate > 0 ? randToCents(shipment.rate) : null,
        trackingUrl: null,
      };
    },

    async label(booking, signal?: AbortSignal): Promise<Uint8Array> {
      // The waybill generator sits outside /api/v1 and reads the key from the query (as TCG's plugin calls it).
      const path = `/generate/waybill/${ref(booking)}?api_key=${encodeURIComponent(options.apiKey)}`;
      return http.pdf(await call("the waybill", "GET", path, { signal, pdf: true }), "the waybill");
    },

    async track(booking, signal?: AbortSignal): Promise<TrackingEvent[]> {
      const path = `/api/v1/tracking/shipments?waybill=${encodeURIComponent(booking.trackingReference)}`;
      const data = http.json(await call("the tracking lookup", "GET", path, { signal }), "the tracking lookup", trackingShape);
      const raw = data.tracking_events ?? data.shipments?.[0]?.tracking_events ?? [];
      const events: TrackingEvent[] = [];
      for (const e of raw) {
        const status = STATUS_MAP[e.status.trim().toLowerCase()];
        if (!status) {
          logger.info({ status: e.status }, "pudo: unknown tracking status skipped");
          continue;
        }
        const at = eventTime(e.date ?? e.event_time ?? e.time);
        if (!at) throw unavailable("sent a tracking event without a readable time");
        const collectionPin = status === "ready_for_collection" ? (e.pincode ?? e.pin ?? e.otp ?? e.collection_pin ?? null) : null;
        events.push({
          // PUDO's event id when it gives one, else a hash of what happened when: re-applying one changes nothing.
          id: e.id != null ? String(e.id) : createHash("sha256").update(`${e.status}|${at.toISOString()}`).digest("hex").slice(0, 24),
          status,
          at: at.toISOString(),
          message: (e.message ?? e.description ?? "").trim() || DEFAULT_MESSAGES[status],
          location: (e.location ?? e.terminal_name ?? "").trim() || null,
          ...(status === "ready_for_collection" ? { collectionPin: collectionPin != null ? String(collectionPin) : null } : {}),
        });
      }
      return events.sort((a, b) => a.at.localeCompare(b.at));
    },

    async cancel(booking, signal?: AbortSignal): Promise<void> {
      await call("the cancellation", "PUT", `/api/v1/shipments/${ref(booking)}`, { signal, body: { status: "cancelled" } });
    },
  };
}

/** ISO times as they come; a zone-less "2024-05-01 10:00:00" is read as South African time (UTC+2, no DST). */
function eventTime(value: string | null | undefined): Date | null {
  if (!value) return null;
  const local = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value.trim());
  const at = new Date(local ? `${value.trim().replace(" ", "T")}+02:00` : value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A PUDO locker row as the shop's pick-up point; null for counters and kiosks, lockers offline, or no position. */
function toPoint(l: PudoLocker, test: boolean): PickupPoint | null {
  // Kiosks and pick-up points are staffed counters on other service codes (D2K…, D2P…); this client sends lockers.
  const type = l.type?.name?.trim().toLowerCase();
  if (type && type !== "locker") return null;
  // The sandbox marks every locker offline (as integrators report), so only a live shop drops offline ones.
  if (!test && l.status && l.status.trim().toLowerCase() !== "online") return null;
  if (l.latitude === 0 || l.longitude === 0) return null;
  const d = l.detailed_address;
  const parts = (l.address ?? d?.formatted_address ?? "").split(",").map((p) => p.trim()).filter(Boolean);
  const postalCode = String(d?.postal_code ?? l.place?.postalCode ?? parts.find((p) => /^\d{4}$/.test(p)) ?? "").trim();
  const city = (d?.locality ?? l.place?.town ?? "").trim();
  const suburb = (d?.sublocality ?? parts[1] ?? city).trim();
  return {
    courier: "pudo",
    kind: "locker",
    code: l.code,
    name: l.name,
    streetAddress: (d?.street_address ?? parts[0] ?? "").trim(),
    suburb,
    city,
    // PUDO's flat rows carry no province; the postal code's region says it.
    province: (d?.province ?? (postalCode ? locate(postalCode)?.province : undefined) ?? "").trim(),
    postalCode,
    lat: l.latitude,
    lng: l.longitude,
    hours: formatHours(l.openinghours ?? []),
  };
}
