/**
 * A local fake of Shiplogic's API v2 (The Courier Guy), answering in the real shapes the client is written against
 * (app/modules/couriers/shiplogic.server.ts has the list and where they come from):
 * - POST /v2/rates → { message, rates: [{ rate, rate_excluding_vat, service_level: { id, code, name, description,
 *   collection_date, delivery_date_from, delivery_date_to } }] }: ECO (economy, 2–4 working days) and OVN (overnight)
 *   priced in rand by distance (places.ts) and chargeable weight;
 * - POST /v2/shipments → the shipment { id, short_tracking_reference, status: "submitted", rate, … };
 * - GET /v2/shipments/label?id= → { url } to a one-page PDF saying it is a test delivery (fetched without the key, as
 *   Shiplogic's pre-signed S3 links are);
 * - GET /v2/tracking/shipments?tracking_reference= → { shipments: [{ status, tracking_events newest first }],
 *   tracking_steps };
 * - POST /v2/shipments/cancel { tracking_reference } → the shipment, "cancelled" (refused once collected);
 * - errors as { message } with 400 / 401 / 404.
 *
 * `handler` is a web-standard Request → Response function so the demo can call it in-process through the client's
 * `fetch` option (no socket); startFakeShiplogic() puts the same handler on a loopback port for over-HTTP tests. Any
 * path prefix before /v2/ is ignored (the demo mounts it at http://test-courier.invalid/shiplogic).
 *
 * Tracking is derived, not stored: a tracking reference is the booking second in base 36 plus three random base-36
 * characters, and the shipment id is seconds × 36³ + that suffix, so a worker process that never saw the booking (the
 * demo runs several, each with its own fake) still answers for it: submitted → collected after 2 min → in transit
 * (5 min) → out for delivery (10 min) → delivered (15 min) of the fake's clock. advance() and cancellations override
 * that in the process that made them.
 */
import { createHmac, randomBytes, randomInt } from "node:crypto";
import type { TrackingStatus } from "./courier";
import { serveOnLoopback } from "~/utils/fake-http-server.server";
import { distanceKm, locate } from "./places";
import { centsToRand, randToCents } from "~/utils/money";

const MAX_WEIGHT_KG = 25;
/** The header the shop's webhook signer sets (its own scheme: Shiplogic documents none); see shiplogic.server.ts. */
const SIGNATURE_HEADER = "x-webhook-signature";
const SUFFIX_SPACE = 36 ** 3;
/** Earliest booking a reference may claim (anything earlier is a mistyped reference, not an old shipment). */
const EPOCH_FLOOR_S = Date.UTC(2020, 0, 1) / 1000;
const SAST_OFFSET_MS = 2 * 3600_000;

/** The life of a door delivery in the fake: Shiplogic's statuses, after this long from booking. */
const TIMELINE: ReadonlyArray<{ status: string; afterMs: number; message: string }> = [
  { status: "submitted", afterMs: 0, message: "Shipment submitted" },
  { status: "collection-assigned", afterMs: 30_000, message: "Driver assigned to collect" },
  { status: "collected", afterMs: 2 * 60_000, message: "Collected from sender" },
  { status: "at-hub", afterMs: 3 * 60_000, message: "At origin hub" },
  { status: "in-transit", afterMs: 5 * 60_000, message: "In transit to the destination hub" },
  { status: "at-destination-hub", afterMs: 8 * 60_000, message: "At destination hub" },
  { status: "out-for-delivery", afterMs: 10 * 60_000, message: "Out for delivery" },
  { status: "delivered", afterMs: 15 * 60_000, message: "Delivered (test delivery: nothing was carried)" },
];
const COLLECTED_INDEX = TIMELINE.findIndex((s) => s.status === "collected");

/** The shop's words → the fake's Shiplogic status, for advance(). */
const FROM_CONTRACT: Record<TrackingStatus, string> = {
  booked: "submitted",
  collected: "collected",
  in_transit: "in-transit",
  out_for_delivery: "out-for-delivery",
  ready_for_collection: "ready-for-pickup",
  delivered: "delivered",
  cancelled: "cancelled",
  failed: "delivery-failed-attempt",
};
const OFF_TIMELINE_MESSAGE: Record<string, string> = {
  cancelled: "Shipment cancelled",
  "delivery-failed-attempt": "Delivery attempted: nobody was home",
  "delivery-exception": "Delivery exception",
  "ready-for-pickup": "Ready for pickup",
  "returned-to-sender": "Returned to sender",
  undeliverable: "Undeliverable",
};

const SERVICE_LEVELS = {
  ECO: { id: 1, name: "Economy", description: "Economy: 2 to 4 working days" },
  OVN: { id: 2, name: "Overnight", description: "Overnight: the next working day" },
} as const;
type ServiceCode = keyof typeof SERVICE_LEVELS;

interface FakeAddress {
  type?: string;
  company?: string;
  street_address: string;
  local_area: string;
  city: string;
  zone: string;
  code: string;
  country: string;
  lat?: number;
  lng?: number;
}
interface FakeParcel {
  submitted_length_cm: number;
  submitted_width_cm: number;
  submitted_height_cm: number;
  submitted_weight_kg: number;
}
interface FakeContact {
  name: string;
  mobile_number: string;
  email: string;
}

export interface FakeShiplogicShipment {
  id: number;
  trackingReference: string;
  customerReference: string | null;
  bookedAt: number;
  serviceLevelCode: ServiceCode;
  /** rand, as Shiplogic charges it */
  rate: number;
  /** rand */
  declaredValue: number;
  collectionAddress: FakeAddress;
  deliveryAddress: FakeAddress;
  collectionContact: FakeContact;
  deliveryContact: FakeContact;
  parcels: FakeParcel[];
  instructions: string | null;
}

export interface FakeShiplogicRequest {
  method: string;
  /** the path from /v2/ on (or /labels/… for downloads), without the query */
  path: string;
  query: string;
  authorization: string | null;
  body: unknown;
}

export interface FakeShiplogic {
  apiKey: string;
  webhookSecret: string;
  handler(request: Request): Promise<Response>;
  /** The next request (any endpoint) answers this status and body: an object as JSON, a string as it is. */
  failNext(status: number, body?: unknown): void;
  /** Every answer waits this long first (0 to stop): for the client's timeout. */
  setDelay(ms: number): void;
  /** Moves a shipment to this status now (the shop's word or Shiplogic's), whatever the clock says. */
  advance(trackingReference: string, to: TrackingStatus | (string & {})): void;
  /** The shipments booked through this instance, by tracking reference. */
  shipments: Map<string, FakeShiplogicShipment>;
  requests: FakeShiplogicRequest[];
  /** The tracking push Shiplogic would send for this shipment now, signed as the shop's webhook signer signs it. */
  webhook(trackingReference: string): { body: string; headers: Record<string, string> };
}

export interface StartedFakeShiplogic extends FakeShiplogic {
  baseUrl: string;
  close(): Promise<void>;
}

export interface FakeShiplogicOptions {
  /** the fake's clock (ms since the epoch): tracking moves with it */
  now?: () => number;
  apiKey?: string;
  webhookSecret?: string;
}

// ── References ───────────────────────────────────────────────────────────────────────────────────────────────────

function makeReference(bookedAtMs: number): { reference: string; id: number } {
  const seconds = Math.floor(bookedAtMs / 1000);
  const suffix = randomInt(SUFFIX_SPACE);
  return {
    reference: seconds.toString(36).toUpperCase() + suffix.toString(36).toUpperCase().padStart(3, "0"),
    id: seconds * SUFFIX_SPACE + suffix,
  };
}

/** What a reference says about its shipment, or null when it isn't one the fake could have made. */
function decodeReference(reference: string, now: number): { id: number; bookedAt: number } | null {
  const m = /^([0-9A-Z]{5,8})([0-9A-Z]{3})$/.exec(reference.trim().toUpperCase());
  if (!m) return null;
  const seconds = parseInt(m[1]!, 36);
  const suffix = parseInt(m[2]!, 36);
  if (seconds < EPOCH_FLOOR_S || seconds * 1000 > now + 86_400_000) return null;
  return { id: seconds * SUFFIX_SPACE + suffix, bookedAt: seconds * 1000 };
}

function referenceOfId(id: number, now: number): string | null {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const seconds = Math.floor(id / SUFFIX_SPACE);
  const suffix = id % SUFFIX_SPACE;
  const reference = seconds.toString(36).toUpperCase() + suffix.toString(36).toUpperCase().padStart(3, "0");
  return decodeReference(reference, now) ? reference : null;
}

// ── Dates (South African time, no daylight saving) ───────────────────────────────────────────────────────────────

/** The SAST calendar day of an instant, as a UTC-midnight Date used only for day arithmetic. */
function sastDay(ms: number): Date {
  const d = new Date(ms + SAST_OFFSET_MS);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}
const isWeekend = (day: Date) => day.getUTCDay() === 0 || day.getUTCDay() === 6;
function addWorkingDays(day: Date, n: number): Date {
  const d = new Date(day);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (!isWeekend(d)) left--;
  }
  return d;
}
/** An instant on a SAST day at a SAST hour, as Shiplogic writes it (UTC, "Z"). */
function atSast(day: Date, hour: number): string {
  return new Date(day.getTime() + hour * 3600_000 - SAST_OFFSET_MS).toISOString().replace(".000Z", "Z");
}
/** The day the courier collects: today before the 13:00 cut-off on a weekday, else the next working day. */
function collectionDay(now: number, minDate: string | undefined): Date {
  let day = sastDay(now);
  const sastHour = new Date(now + SAST_OFFSET_MS).getUTCHours();
  if (isWeekend(day) || sastHour >= 13) day = addWorkingDays(day, 1);
  if (minDate && !Number.isNaN(Date.parse(minDate))) {
    const min = sastDay(Date.parse(minDate));
    if (min > day) day = isWeekend(min) ? addWorkingDays(min, 1) : min;
  }
  return day;
}

// ── Validation, in Shiplogic's { message } shape ─────────────────────────────────────────────────────────────────

class Refusal extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

function checkAddress(v: unknown, which: "collection" | "delivery"): FakeAddress {
  if (!isObject(v)) throw new Refusal(`The ${which} address is missing.`);
  const missing = (
    [
      ["street_address", "street address"],
      ["city", "city"],
      ["code", "postal code"],
    ] as const
  )
    .filter(([k]) => !text(v[k]))
    .map(([, label]) => label);
  if (missing.length) throw new Refusal(`The ${which} address is missing its ${missing.join(" and ")}.`);
  if (!/^\d{4}$/.test(text(v.code))) throw new Refusal(`The ${which} address's postal code "${text(v.code)}" is not a South African postal code (4 digits).`);
  const country = text(v.country).toUpperCase();
  if (country && country !== "ZA" && country !== "SOUTH AFRICA") throw new Refusal(`The ${which} address must be in South Africa.`);
  return {
    type: text(v.type) || undefined,
    company: text(v.company) || undefined,
    street_address: text(v.street_address),
    local_area: text(v.local_area),
    city: text(v.city),
    zone: text(v.zone),
    code: text(v.code),
    country: "ZA",
    ...(typeof v.lat === "number" && typeof v.lng === "number" ? { lat: v.lat, lng: v.lng } : {}),
  };
}

function checkParcels(v: unknown): FakeParcel[] {
  if (!Array.isArray(v) || v.length === 0) throw new Refusal("At least one parcel is required.");
  return v.map((p, i) => {
    const n = i + 1;
    if (!isObject(p)) throw new Refusal(`Parcel ${n} is not a parcel.`);
    const dims = ["submitted_length_cm", "submitted_width_cm", "submitted_height_cm", "submitted_weight_kg"] as const;
    for (const k of dims) {
      const value = p[k];
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new Refusal(`Parcel ${n} needs a ${k.replace("submitted_", "").replace(/_/g, " ")} above 0.`);
    }
    const weight = p.submitted_weight_kg as number;
    if (weight > MAX_WEIGHT_KG) {
      throw new Refusal(`Parcel ${n} weighs ${weight} kg: parcels may weigh at most ${MAX_WEIGHT_KG} kg. Split it into lighter parcels.`);
    }
    return {
      submitted_length_cm: p.submitted_length_cm as number,
      submitted_width_cm: p.submitted_width_cm as number,
      submitted_height_cm: p.submitted_height_cm as number,
      submitted_weight_kg: weight,
    };
  });
}

function checkContact(v: unknown, which: "collection" | "delivery"): FakeContact {
  if (!isObject(v) || !text(v.name)) throw new Refusal(`The ${which} contact needs a name.`);
  if (!text(v.mobile_number) && !text(v.email)) throw new Refusal(`The ${which} contact needs a mobile number or an email address.`);
  return { name: text(v.name), mobile_number: text(v.mobile_number), email: text(v.email) };
}

// ── Prices ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** Rand to the cent, as the service quotes it. */
const toTheCent = (rand: number) => centsToRand(randToCents(rand));

/** Rand, VAT included: a base, a distance part (capped at the country's width) and a part per kg over 2 kg. */
function price(code: ServiceCode, km: number, chargeableKg: number): number {
  const d = Math.min(km, 1600);
  const overKg = Math.max(0, chargeableKg - 2);
  return code === "ECO" ? toTheCent(89 + d * 0.035 + overKg * 5.5) : toTheCent(149 + d * 0.0625 + overKg * 8.5);
}

function quote(body: Record<string, unknown>, now: number) {
  const collection = checkAddress(body.collection_address, "collection");
  const delivery = checkAddress(body.delivery_address, "delivery");
  const parcels = checkParcels(body.parcels);
  if (body.declared_value !== undefined && (typeof body.declared_value !== "number" || body.declared_value < 0)) {
    throw new Refusal("The declared value must be an amount in rand, 0 or more.");
  }
  const from = locate(`${collection.local_area} ${collection.city} ${collection.code}`);
  const to = locate(`${delivery.local_area} ${delivery.city} ${delivery.code}`);
  // An unknown place is priced as a long national trip, so the fake never quotes too little.
  const km = from && to ? distanceKm(from, to) : 800;
  // Couriers charge the larger of the actual and the volumetric weight (L×W×H / 5000).
  const chargeableKg = parcels.reduce((kg, p) => kg + Math.max(p.submitted_weight_kg, (p.submitted_length_cm * p.submitted_width_cm * p.submitted_height_cm) / 5000), 0);
  const collect = collectionDay(now, typeof body.collection_min_date === "string" ? body.collection_min_date : undefined);
  const windows: Record<ServiceCode, [Date, Date]> = {
    ECO: [addWorkingDays(collect, 2), addWorkingDays(collect, 4)],
    OVN: [addWorkingDays(collect, 1), addWorkingDays(collect, 1)],
  };
  const rates = (Object.keys(SERVICE_LEVELS) as ServiceCode[]).map((code) => {
    const rate = price(code, km, chargeableKg);
    return {
      rate,
      rate_excluding_vat: toTheCent(rate / 1.15),
      charged_weight: Math.round(chargeableKg * 100) / 100,
      service_level: {
        id: SERVICE_LEVELS[code].id,
        code,
        name: SERVICE_LEVELS[code].name,
        description: SERVICE_LEVELS[code].description,
        collection_date: atSast(collect, 8),
        delivery_date_from: atSast(windows[code][0], 8),
        delivery_date_to: atSast(windows[code][1], 17),
      },
    };
  });
  return { collection, delivery, parcels, rates };
}

// ── The label: one hand-written PDF page (standard Helvetica, WinAnsi text) ─────────────────────────────────────

function pdfText(s: string): string {
  // WinAnsi: keep printable Latin-1, the em dash as \227; escape what PDF strings treat specially.
  return s
    .replace(/—/g, "\u0097")
    .replace(/[^\u0020-\u00ff]/g, "?")
    .replace(/[\\()]/g, (c) => `\\${c}`)
    .replace(/\u0097/g, "\\227");
}

function labelPdf(lines: ReadonlyArray<{ size: number; text: string }>): Uint8Array<ArrayBuffer> {
  // Wrapped by words to the page's width (Helvetica averages about half an em a character).
  const wrap = (t: string, size: number) => {
    const max = Math.floor(348 / (size * 0.5));
    const out: string[] = [];
    for (const word of t.split(" ")) {
      const last = out.at(-1);
      if (last !== undefined && (last + " " + word).length <= max) out[out.length - 1] = `${last} ${word}`;
      else out.push(word);
    }
    return out;
  };
  let y = 560;
  const content = lines
    .flatMap(({ size, text: t }) =>
      wrap(t, size).map((line, i) => {
        y -= i === 0 ? size + 10 : size + 3;
        return `BT /F1 ${size} Tf 36 ${y} Td (${pdfText(line)}) Tj ET`;
      }),
    )
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
  ];
  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(out, "latin1"));
}

// ── The fake ─────────────────────────────────────────────────────────────────────────────────────────────────────

type Override = { upTo?: { index: number; at: number }; terminal?: { status: string; at: number } };

export function createFakeShiplogic(options: FakeShiplogicOptions = {}): FakeShiplogic {
  const now = options.now ?? Date.now;
  const apiKey = options.apiKey ?? `sl_test_${randomBytes(16).toString("hex")}`;
  const webhookSecret = options.webhookSecret ?? randomBytes(24).toString("base64url");
  const shipments = new Map<string, FakeShiplogicShipment>();
  const byCustomerReference = new Map<string, string>();
  const overrides = new Map<string, Override>();
  const requests: FakeShiplogicRequest[] = [];
  let nextFailure: { status: number; body: unknown } | undefined;
  let delayMs = 0;

  const json = (status: number, payload: unknown) =>
    new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });

  /** The shipment's events now, oldest first, in Shiplogic's shape. */
  function eventsOf(reference: string, at: number) {
    const decoded = decodeReference(reference, at);
    if (!decoded) return null;
    const { id, bookedAt } = decoded;
    const o = overrides.get(reference);
    const frozenAt = o?.terminal ? o.terminal.at : Infinity;
    const events: Array<{ id: number; date: string; status: string; message: string; source: string; parcel_id: number }> = [];
    // A step happens at its time on the clock (unless a cancellation froze the shipment first), or when advance()
    // forced it, whichever is earlier.
    const limit = Math.min(at, frozenAt);
    TIMELINE.forEach((step, index) => {
      const natural = bookedAt + step.afterMs;
      const forced = o?.upTo && index <= o.upTo.index ? o.upTo.at : Infinity;
      const when = Math.min(natural <= limit ? natural : Infinity, forced);
      if (when === Infinity) return;
      events.push({ id: id * 16 + index, date: new Date(when).toISOString(), status: step.status, message: step.message, source: "fake", parcel_id: 0 });
    });
    if (o?.terminal) {
      const { status, at: when } = o.terminal;
      events.push({ id: id * 16 + 8 + Math.max(0, Object.keys(OFF_TIMELINE_MESSAGE).indexOf(status)), date: new Date(when).toISOString(), status, message: OFF_TIMELINE_MESSAGE[status] ?? status, source: "fake", parcel_id: 0 });
    }
    return { id, bookedAt, events };
  }

  function presentShipment(s: FakeShiplogicShipment, status: string) {
    const collect = collectionDay(s.bookedAt, undefined);
    const [from, to] = s.serviceLevelCode === "ECO" ? [addWorkingDays(collect, 2), addWorkingDays(collect, 4)] : [addWorkingDays(collect, 1), addWorkingDays(collect, 1)];
    return {
      id: s.id,
      provider_id: 2,
      short_tracking_reference: s.trackingReference,
      custom_tracking_reference: "",
      customer_reference: s.customerReference ?? "",
      status,
      service_level_code: s.serviceLevelCode,
      service_level_name: SERVICE_LEVELS[s.serviceLevelCode].name,
      rate: s.rate,
      declared_value: s.declaredValue,
      collection_address: s.collectionAddress,
      collection_contact: s.collectionContact,
      delivery_address: s.deliveryAddress,
      delivery_contact: s.deliveryContact,
      special_instructions_delivery: s.instructions ?? "",
      parcels: s.parcels.map((p, i) => ({ id: s.id * 16 + i, tracking_reference: `${s.trackingReference}/${i + 1}`, status, ...p })),
      estimated_collection: atSast(collect, 8),
      estimated_delivery_from: atSast(from, 8),
      estimated_delivery_to: atSast(to, 17),
      time_created: new Date(s.bookedAt).toISOString(),
      tracking_events: null,
    };
  }

  function rates(body: Record<string, unknown>) {
    const { rates } = quote(body, now());
    return json(200, { message: "Success", rates });
  }

  function book(body: Record<string, unknown>) {
    const customerReference = text(body.customer_reference) || null;
    // The same order booked again (a retry after a timeout) is the same shipment, not a second collection.
    const existing = customerReference ? shipments.get(byCustomerReference.get(customerReference) ?? "") : undefined;
    if (existing) return json(200, presentShipment(existing, currentStatus(existing.trackingReference)));
    const { collection, delivery, parcels, rates } = quote(body, now());
    const collectionContact = checkContact(body.collection_contact, "collection");
    const deliveryContact = checkContact(body.delivery_contact, "delivery");
    const code = text(body.service_level_code);
    const chosen = rates.find((r) => r.service_level.code === code);
    if (!chosen) throw new Refusal(`Service level "${code || "(none)"}" is not available for this route; choose one of ${rates.map((r) => r.service_level.code).join(", ")}.`);
    let made = makeReference(now());
    while (shipments.has(made.reference)) made = makeReference(now());
    const shipment: FakeShiplogicShipment = {
      id: made.id,
      trackingReference: made.reference,
      customerReference,
      bookedAt: decodeReference(made.reference, now())!.bookedAt,
      serviceLevelCode: code as ServiceCode,
      rate: chosen.rate,
      declaredValue: typeof body.declared_value === "number" ? body.declared_value : 0,
      collectionAddress: collection,
      deliveryAddress: delivery,
      collectionContact,
      deliveryContact,
      parcels,
      instructions: text(body.special_instructions_delivery) || null,
    };
    shipments.set(shipment.trackingReference, shipment);
    if (customerReference) byCustomerReference.set(customerReference, shipment.trackingReference);
    return json(200, presentShipment(shipment, "submitted"));
  }

  function currentStatus(reference: string): string {
    const state = eventsOf(reference, now());
    return state?.events.at(-1)?.status ?? "submitted";
  }

  function trackingOf(reference: string) {
    const state = eventsOf(reference, now());
    if (!state) return null;
    const known = shipments.get(reference);
    const latest = state.events.at(-1)!;
    const reached = (label: string) => state.events.some((e) => e.status === label);
    return {
      provider_id: 2,
      shipment_id: state.id,
      customer_reference: known?.customerReference ?? "",
      short_tracking_reference: reference,
      custom_tracking_reference: "",
      parcel_tracking_references: [`${reference}/1`],
      status: latest.status,
      service_level_code: known?.serviceLevelCode ?? null,
      service_level_name: known ? SERVICE_LEVELS[known.serviceLevelCode].name : null,
      parcel_count: known?.parcels.length ?? 1,
      // Shiplogic lists the newest first.
      tracking_events: [...state.events].reverse(),
      steps: [
        { step_number: 1, label: "created", progress: "complete" },
        { step_number: 2, label: "collected", progress: reached("collected") ? "complete" : "pending" },
        { step_number: 3, label: "in-transit", progress: reached("in-transit") ? "complete" : "pending" },
        { step_number: 4, label: "delivered", progress: reached("delivered") ? "complete" : "pending" },
      ],
      eventTime: latest.date,
    };
  }

  function cancel(body: Record<string, unknown>) {
    const reference = text(body.tracking_reference).toUpperCase();
    const state = eventsOf(reference, now());
    if (!state) throw new Refusal(`No shipment with tracking reference "${reference}".`, 404);
    const statuses = state.events.map((e) => e.status);
    if (statuses.includes("cancelled")) {
      // Already cancelled: answer as before, so a retried cancel is not an error.
    } else if (statuses.includes(TIMELINE[COLLECTED_INDEX]!.status)) {
      throw new Refusal(`Shipment ${reference} has already been collected and can no longer be cancelled.`);
    } else {
      overrides.set(reference, { ...overrides.get(reference), terminal: { status: "cancelled", at: now() } });
    }
    const known = shipments.get(reference);
    return json(200, known ? presentShipment(known, "cancelled") : { id: state.id, short_tracking_reference: reference, status: "cancelled" });
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const v2 = url.pathname.indexOf("/v2/");
    const labels = url.pathname.indexOf("/labels/");
    const path = v2 >= 0 ? url.pathname.slice(v2) : labels >= 0 ? url.pathname.slice(labels) : url.pathname;
    const raw = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const authorization = request.headers.get("authorization");
    requests.push({ method: request.method, path, query: url.search, authorization, body });

    // The failure asked for belongs to the request that arrives next, not to one still held by a delay.
    const failure = nextFailure;
    nextFailure = undefined;
    if (delayMs > 0) {
      const wait = delayMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        // The client gave up (timeout): stop waiting, nobody reads this answer.
        request.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
    if (failure) {
      const { status, body: failBody } = failure;
      if (typeof failBody === "string") return new Response(failBody, { status, headers: { "content-type": "text/html; charset=utf-8" } });
      return json(status, failBody ?? { message: status >= 500 ? "Internal server error" : `Request failed (${status})` });
    }

    // Label downloads are pre-signed links (as Shiplogic's S3 ones): no API key.
    const label = /^\/labels\/(\d+)\.pdf$/.exec(path);
    if (label && request.method === "GET") {
      const reference = referenceOfId(Number(label[1]), now());
      if (!reference) return new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404, headers: { "content-type": "application/xml" } });
      const known = shipments.get(reference);
      const pdf = labelPdf([
        { size: 18, text: "TEST DELIVERY — not a real waybill" },
        { size: 10, text: "The shop's test courier (a fake of The Courier Guy's Shiplogic): nothing will be collected or delivered." },
        { size: 26, text: reference },
        { size: 11, text: `Shipment ${label[1]}${known ? ` · ${SERVICE_LEVELS[known.serviceLevelCode].name}` : ""}` },
        ...(known
          ? [
              { size: 11, text: `Order: ${known.customerReference ?? "-"}` },
              { size: 11, text: `From: ${known.collectionAddress.company ?? ""} ${known.collectionAddress.street_address}, ${known.collectionAddress.local_area}, ${known.collectionAddress.city} ${known.collectionAddress.code}` },
              { size: 11, text: `To: ${known.deliveryContact.name}, ${known.deliveryAddress.street_address}, ${known.deliveryAddress.local_area}, ${known.deliveryAddress.city} ${known.deliveryAddress.code}` },
              { size: 11, text: `Parcels: ${known.parcels.length}` },
            ]
          : []),
      ]);
      return new Response(pdf, { status: 200, headers: { "content-type": "application/pdf" } });
    }

    if (authorization !== `Bearer ${apiKey}`) return json(401, { message: "Unauthorized: invalid API key" });

    try {
      if (path === "/v2/rates" && request.method === "POST") {
        if (!isObject(body)) throw new Refusal("The request body must be a JSON object.");
        return rates(body);
      }
      if (path === "/v2/shipments" && request.method === "POST") {
        if (!isObject(body)) throw new Refusal("The request body must be a JSON object.");
        return book(body);
      }
      if (path === "/v2/shipments/label" && request.method === "GET") {
        const id = Number(url.searchParams.get("id"));
        if (!referenceOfId(id, now())) throw new Refusal("Shipment not found.", 404);
        const prefix = v2 > 0 ? url.pathname.slice(0, v2) : "";
        return json(200, { url: `${url.origin}${prefix}/labels/${id}.pdf?X-Amz-Expires=86400` });
      }
      if (path === "/v2/tracking/shipments" && request.method === "GET") {
        const reference = (url.searchParams.get("tracking_reference") ?? "").trim().toUpperCase();
        const shipment = trackingOf(reference);
        if (!shipment) throw new Refusal(`No shipment with tracking reference "${reference}".`, 404);
        const { steps, eventTime: _eventTime, ...rest } = shipment;
        return json(200, { shipments: [rest], tracking_steps: steps });
      }
      if (path === "/v2/shipments/cancel" && request.method === "POST") {
        if (!isObject(body)) throw new Refusal("The request body must be a JSON object.");
        return cancel(body);
      }
      return json(404, { message: `No route ${request.method} ${path}` });
    } catch (error) {
      if (error instanceof Refusal) return json(error.status, { message: error.message });
      throw error;
    }
  }

  return {
    apiKey,
    webhookSecret,
    handler: route,
    failNext(status, body) {
      nextFailure = { status, body };
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    advance(trackingReference, to) {
      const reference = trackingReference.toUpperCase();
      if (!decodeReference(reference, now())) throw new Error(`fake-shiplogic: ${trackingReference} is not a reference this fake made`);
      const status = (FROM_CONTRACT as Record<string, string>)[to] ?? to;
      const index = TIMELINE.findIndex((s) => s.status === status);
      const o = overrides.get(reference) ?? {};
      if (index >= 0) overrides.set(reference, { ...o, upTo: { index: Math.max(index, o.upTo?.index ?? -1), at: now() } });
      else overrides.set(reference, { ...o, terminal: { status, at: now() } });
    },
    shipments,
    requests,
    webhook(trackingReference) {
      const shipment = trackingOf(trackingReference.toUpperCase());
      if (!shipment) throw new Error(`fake-shiplogic: ${trackingReference} is not a reference this fake made`);
      // The "tracking event" topic's body, as Shiplogic posts it.
      const body = JSON.stringify({
        custom_tracking_reference: shipment.custom_tracking_reference,
        event_time: shipment.eventTime,
        service_level_code: shipment.service_level_code,
        shipment_id: shipment.shipment_id,
        short_tracking_reference: shipment.short_tracking_reference,
        status: shipment.status,
        tracking_events: shipment.tracking_events,
        update_type: "shipment",
      });
      const signature = `sha256=${createHmac("sha256", webhookSecret).update(body, "utf8").digest("hex")}`;
      return { body, headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature } };
    },
  };
}

/** The fake on a loopback port (for tests over real HTTP). */
export async function startFakeShiplogic(options: FakeShiplogicOptions = {}): Promise<StartedFakeShiplogic> {
  const fake = createFakeShiplogic(options);
  return { ...fake, ...(await serveOnLoopback(fake.handler, (error) => ({ message: `fake-shiplogic: ${(error as Error).message}` }))) };
}
