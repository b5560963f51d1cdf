/**
 * A local fake of PUDO (The Courier Guy's lockers), answering in the shapes TCG's own plugins read
 * (The-Courier-Guy/PUDO_Common, The-Courier-Guy/Locker-WooCommerce; see app/modules/couriers/pudo.server.ts):
 * - GET  /api/v1/lockers-data → every locker: code, name, latitude/longitude (strings, as PUDO sends them), address,
 *   detailed_address, place, type, status, openinghours[{day, open_time, close_time}], lstTypesBoxes;
 * - POST /api/v1/locker-rates-new → { rates: [one per box size: { rate "72.50", rate_excluding_vat,
 *   service_level { code "D2LM - ECO", name, box_type_name, dimensions, delivery_date_from/to } }] };
 * - POST /api/v1/shipments → { id, custom_tracking_reference, status, rate, … }; the same customer_reference
 *   answers the same shipment; an unknown terminal_id is a 400 with a message;
 * - GET  /api/v1/tracking/shipments?waybill=… → { shipments: [{ …, tracking_events: [...] }] };
 * - PUT  /api/v1/shipments/{id} { status: "cancelled" } → the cancelled shipment (refused once collected);
 * - GET  /generate/waybill/{id}?api_key=… → a small PDF saying it is a test delivery.
 * Every /api/v1 call needs `Authorization: Bearer <apiKey>` (401 { message: "Unauthenticated." } otherwise, as
 * Laravel answers).
 *
 * Stateless tracking: the shop's demo runs several worker processes, each with its own fake in-process, and a parcel
 * booked in one is tracked from another. So the tracking reference (and the numeric id) encode the booking time, and
 * where a parcel is follows from now() − bookedAt alone: booked → collected at 2 min → in transit at 5 min → in the
 * locker (with a PIN derived from the reference) at 10 min → collected by the shopper at 15 min. `advance()` forces a
 * stage for tests; a cancellation is remembered by the process that took it.
 *
 * `handler` is web-standard (Request → Response) so the demo can call it in-process through the client's `fetch`
 * option; `startFakePudo` wraps the same handler in node:http for tests over real HTTP.
 */
import { createHash, randomInt, randomUUID } from "node:crypto";
import { PLACES } from "./places";
import type { TrackingStatus } from "./courier";
import { serveOnLoopback } from "~/utils/fake-http-server.server";
import { centsToRand, randToCents } from "~/utils/money";

// ── lockers ──

export interface FakeLocker {
  code: string;
  name: string;
  latitude: string;
  longitude: string;
  address: string;
  status: "online";
  provider: "TCG";
  type: { id: number; name: "Locker" };
  place: { placeNumber: string; town: string; postalCode: string };
  detailed_address: { formatted_address: string; street_address: string; sublocality: string; locality: string; province: string; postal_code: string; country: string };
  openinghours: { day: string; open_time: string; close_time: string }[];
  lstTypesBoxes: { id: number; name: string; type: string; width: number; height: number; length: number; weight: number }[];
}

/** PUDO's V4 doors as the API lists them on every locker (Locker-WooCommerce PudoApi.php); kept here on purpose so
 *  the fake speaks for PUDO rather than echoing the client's own table. */
const BOXES = [
  { id: 5, name: "V4-XS", size: "XS", type: "10", width: 17, height: 8, length: 60, weight: 2, price: "60.00", label: "Extra Small" },
  { id: 4, name: "V4-S", size: "S", type: "11", width: 41, height: 8, length: 60, weight: 5, price: "65.00", label: "Small" },
  { id: 6, name: "V4-M", size: "M", type: "12", width: 41, height: 19, length: 60, weight: 10, price: "72.50", label: "Medium" },
  { id: 3, name: "V4-L", size: "L", type: "13", width: 41, height: 41, length: 60, weight: 15, price: "80.00", label: "Large" },
  { id: 7, name: "V4-XL", size: "XL", type: "14", width: 41, height: 69, length: 60, weight: 20, price: "89.95", label: "Extra Large" },
] as const;

const WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Public Holidays"] as const;
type Hours = readonly [open: string, close: string];
const hours = (weekday: Hours, saturday: Hours, sunday: Hours) =>
  WEEK.map((day, i) => {
    const [open_time, close_time] = i < 5 ? weekday : i === 5 ? saturday : sunday;
    return { day, open_time, close_time };
  });
/** Fuel stations never close; supermarkets keep shop hours; a few sites close on Sundays ("--", as PUDO writes it). */
const FORECOURT = hours(["00:00:00", "23:59:00"], ["00:00:00", "23:59:00"], ["00:00:00", "23:59:00"]);
const SUPERMARKET = hours(["08:00:00", "20:00:00"], ["08:00:00", "18:00:00"], ["09:00:00", "14:00:00"]);
const MALL = hours(["09:00:00", "18:00:00"], ["09:00:00", "17:00:00"], ["--", "--"]);

/** Site names the way PUDO names its lockers: the host shop and the suburb. */
const SITES: ReadonlyArray<{ name: (suburb: string) => string; hours: typeof FORECOURT; street: string }> = [
  { name: (s) => `${s} Checkers`, hours: SUPERMARKET, street: "Main Road" },
  { name: (s) => `Engen ${s}`, hours: FORECOURT, street: "Church Street" },
  { name: (s) => `Sasol ${s}`, hours: FORECOURT, street: "Voortrekker Road" },
  { name: (s) => `${s} Pick n Pay`, hours: SUPERMARKET, street: "Station Road" },
  { name: (s) => `Shell ${s}`, hours: FORECOURT, street: "Long Street" },
  { name: (s) => `${s} Mall`, hours: MALL, street: "Market Street" },
];

/** Two lockers in every other suburb (and always in Rondebosch, the demo's "near me"), one elsewhere. */
function buildLockers(): FakeLocker[] {
  const lockers: FakeLocker[] = [];
  PLACES.forEach((place, p) => {
    const count = p % 2 === 0 || place.suburb === "Rondebosch" ? 2 : 1;
    for (let k = 0; k < count; k++) {
      const site = SITES[(p + k * 3) % SITES.length]!;
      const suburb = place.suburb.replace(/ (Central|City Centre)$/, "");
      // A few hundred metres from the suburb's centre, a different way for each locker.
      const lat = place.lat + (k === 0 ? 0.0042 : -0.0057) * (p % 3 === 0 ? 1 : -1);
      const lng = place.lng + (k === 0 ? -0.0038 : 0.0061);
      const number = 10 + ((p * 37 + k * 11) % 180);
      const street = `${number} ${site.street}`;
      const formatted = `${street}, ${place.suburb}, ${place.city}, ${place.postalCode}, South Africa`;
      lockers.push({
        code: `CG${101 + lockers.length}`,
        name: site.name(suburb),
        latitude: lat.toFixed(6),
        longitude: lng.toFixed(6),
        address: formatted,
        status: "online",
        provider: "TCG",
        type: { id: 2, name: "Locker" },
        place: { placeNumber: "", town: place.city, postalCode: place.postalCode },
        detailed_address: {
          formatted_address: formatted,
          street_address: street,
          sublocality: place.suburb,
          locality: place.city,
          province: place.province,
          postal_code: place.postalCode,
          country: "South Africa",
        },
        openinghours: site.hours.map((h) => ({ ...h })),
        lstTypesBoxes: BOXES.map(({ id, name, type, width, height, length, weight }) => ({ id, name, type, width, height, length, weight })),
      });
    }
  });
  return lockers;
}

// ── references: the booking time, recoverable in any process ──

const REFERENCE = /^PD([0-9A-Z]{9})([0-9A-Z]{2})$/;

/** id = bookedAt·1000 + a random 0–999; the reference spells the same two numbers in base 36. */
function referenceOf(bookedAt: number, random: number): string {
  return `PD${bookedAt.toString(36).toUpperCase().padStart(9, "0")}${random.toString(36).toUpperCase().padStart(2, "0")}`;
}
function decodeReference(reference: string): { bookedAt: number; random: number; id: number } | null {
  const m = REFERENCE.exec(reference.trim().toUpperCase());
  if (!m) return null;
  const bookedAt = parseInt(m[1]!, 36);
  const random = parseInt(m[2]!, 36);
  if (!Number.isSafeInteger(bookedAt * 1000 + random) || random >= 1000) return null;
  return { bookedAt, random, id: bookedAt * 1000 + random };
}
function decodeId(id: string): { bookedAt: number; random: number; reference: string } | null {
  if (!/^\d{13,16}$/.test(id)) return null;
  const n = Number(id);
  const bookedAt = Math.floor(n / 1000);
  const random = n % 1000;
  return { bookedAt, random, reference: referenceOf(bookedAt, random) };
}

/** The shopper's locker PIN: six digits any process derives from the reference alone. */
export function fakePudoPin(reference: string): string {
  const hash = createHash("sha256").update(`pudo-pin:${reference}`).digest();
  return String(hash.readUInt32BE(0) % 1_000_000).padStart(6, "0");
}

// ── the parcel's journey ──

const MINUTE = 60_000;
const STAGES = [
  { status: "submitted", after: 0, shop: "booked", message: "Shipment booked; the courier will collect it from the sender" },
  { status: "collected", after: 2 * MINUTE, shop: "collected", message: "Collected from sender" },
  { status: "in-transit", after: 5 * MINUTE, shop: "in_transit", message: "In transit to the destination hub" },
  { status: "in-locker", after: 10 * MINUTE, shop: "ready_for_collection", message: "Ready for collection at the locker" },
  { status: "customer-collected", after: 15 * MINUTE, shop: "delivered", message: "Collected from the locker by the recipient" },
] as const;
type Stage = (typeof STAGES)[number];

/** The shop statuses a locker parcel passes through (no out_for_delivery: nobody drives to a door). */
export type FakePudoAdvance = Extract<TrackingStatus, "booked" | "collected" | "in_transit" | "ready_for_collection" | "delivered" | "cancelled">;

export interface FakePudoShipment {
  id: number;
  reference: string;
  bookedAt: number;
  /** null when this process only learnt of the shipment from its reference (booked elsewhere) */
  customerReference: string | null;
  terminalId: string | null;
  serviceLevelCode: string | null;
  rate: string | null;
  cancelledAt: number | null;
  /** a stage forced by advance(): its index and when */
  forced: { stage: number; at: number } | null;
  request: unknown;
}

export interface FakePudo {
  apiKey: string;
  handler: (request: Request) => Promise<Response>;
  /** The next call (any endpoint) answers this: a JSON body, or a string sent as-is (HTML, nonsense). */
  failNext(status: number, body?: unknown): void;
  /** Every answer waits this long first (a request that gives up stops the wait). */
  setDelay(ms: number): void;
  /** Moves a parcel on (or cancels it) now, whatever the clock says; works for a reference booked elsewhere. */
  advance(trackingReference: string, status: FakePudoAdvance): void;
  lockers: FakeLocker[];
  /** By tracking reference. */
  shipments: Map<string, FakePudoShipment>;
  requests: Array<{ method: string; path: string; body: unknown }>;
}

export function createFakePudo(options: { now?: () => number; apiKey?: string } = {}): FakePudo {
  const now = options.now ?? Date.now;
  const apiKey = options.apiKey ?? `pudo_test_${randomUUID().replaceAll("-", "")}`;
  const lockers = buildLockers();
  const byCode = new Map(lockers.map((l) => [l.code, l]));
  const shipments = new Map<string, FakePudoShipment>();
  const byCustomerReference = new Map<string, string>();
  const requests: FakePudo["requests"] = [];
  let nextFailure: { status: number; body: unknown } | null = null;
  let delayMs = 0;

  const json = (status: number, payload: unknown) =>
    new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });
  const problem = (status: number, message: string, errors?: Record<string, string[]>) => json(status, { message, ...(errors ? { errors } : {}) });

  /** The shipment this process knows, or one rebuilt from the reference (booked by another process). */
  function shipmentFor(reference: string): FakePudoShipment | null {
    const known = shipments.get(reference);
    if (known) return known;
    const decoded = decodeReference(reference);
    if (!decoded) return null;
    const rebuilt: FakePudoShipment = {
      id: decoded.id,
      reference: referenceOf(decoded.bookedAt, decoded.random),
      bookedAt: decoded.bookedAt,
      customerReference: null,
      terminalId: null,
      serviceLevelCode: null,
      rate: null,
      cancelledAt: null,
      forced: null,
      request: null,
    };
    shipments.set(rebuilt.reference, rebuilt);
    return rebuilt;
  }

  /** How far along a parcel is now: the clock's stage, or a later one advance() forced. */
  function stageIndex(s: FakePudoShipment): number {
    const t = now() - s.bookedAt;
    let index = 0;
    STAGES.forEach((stage, i) => {
      if (t >= stage.after) index = i;
    });
    return s.forced ? Math.max(index, s.forced.stage) : index;
  }

  function events(s: FakePudoShipment) {
    const locker = s.terminalId ? byCode.get(s.terminalId) : undefined;
    const where = locker ? `${locker.name} locker` : "the PUDO locker";
    const reached = s.cancelledAt !== null ? STAGES.filter((st) => s.bookedAt + st.after <= s.cancelledAt!).length - 1 : stageIndex(s);
    const list: Array<Record<string, unknown>> = STAGES.slice(0, reached + 1).map((stage: Stage, i) => {
      // A forced stage happened when advance() was called, never later than the clock would have had it.
      const at = s.forced && i <= s.forced.stage ? Math.min(s.bookedAt + stage.after, Math.max(s.forced.at, s.bookedAt)) : s.bookedAt + stage.after;
      return {
        id: `${s.id}-${i + 1}`,
        status: stage.status,
        date: new Date(at).toISOString(),
        message: stage.status === "in-locker" ? `Ready for collection at ${where}` : stage.message,
        location: i >= 3 ? where : i === 2 ? "PUDO hub" : null,
        ...(stage.status === "in-locker" ? { pincode: fakePudoPin(s.reference) } : {}),
      };
    });
    if (s.cancelledAt !== null) {
      list.push({ id: `${s.id}-cancelled`, status: "cancelled", date: new Date(s.cancelledAt).toISOString(), message: "Shipment cancelled by the sender", location: null });
    }
    return list;
  }

  function present(s: FakePudoShipment) {
    const reached = stageIndex(s);
    return {
      id: s.id,
      custom_tracking_reference: s.reference,
      short_tracking_reference: s.reference,
      customer_reference: s.customerReference,
      status: s.cancelledAt !== null ? "cancelled" : STAGES[reached]!.status,
      service_level_code: s.serviceLevelCode,
      rate: s.rate,
      delivery_address: { terminal_id: s.terminalId },
      time_created: new Date(s.bookedAt).toISOString(),
      estimated_delivery_from: new Date(s.bookedAt + 2 * 86_400_000).toISOString().slice(0, 10),
      estimated_delivery_to: new Date(s.bookedAt + 4 * 86_400_000).toISOString().slice(0, 10),
    };
  }

  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

  /** The door end: a street address is all a door collection needs. */
  function missingDoor(address: unknown): string | null {
    if (!isObject(address)) return "The collection address field is required.";
    if (typeof address.street_address !== "string" || !address.street_address.trim()) return "The collection address street address field is required.";
    return null;
  }

  /** A known locker, or the 400 PUDO gives for one it doesn't have. */
  function terminal(body: Record<string, unknown>): FakeLocker | Response {
    const delivery = body.delivery_address;
    const code = isObject(delivery) && typeof delivery.terminal_id === "string" ? delivery.terminal_id.trim() : "";
    if (!code) return problem(400, "The delivery address terminal id field is required.");
    const locker = byCode.get(code);
    return locker ?? problem(400, `Locker ${code} does not exist or is not accepting parcels.`);
  }

  /** A parcel bigger or heavier than the largest door can't be sent to a locker. */
  function oversized(body: Record<string, unknown>): Response | null {
    const parcels = Array.isArray(body.parcels) ? body.parcels : [];
    const xl = BOXES[BOXES.length - 1]!;
    for (const p of parcels) {
      if (!isObject(p)) return problem(400, "Each parcel must be an object.");
      const sides = [p.submitted_length_cm, p.submitted_width_cm, p.submitted_height_cm].map(Number).sort((a, b) => b - a);
      const box = [xl.length, xl.height, xl.width].sort((a, b) => b - a);
      if (sides.some((n) => !Number.isFinite(n)) || sides.some((n, i) => n > box[i]!) || Number(p.submitted_weight_kg) > xl.weight) {
        return problem(400, "The parcel does not fit in any locker box.");
      }
    }
    return null;
  }

  async function route(request: Request, url: URL, body: unknown): Promise<Response> {
    const path = url.pathname.replace(/\/+$/, "");

    // The waybill generator lives outside /api/v1 and takes the key in the query string.
    const label = /^\/generate\/(waybill|sticker)\/([^/]+)$/.exec(path);
    if (request.method === "GET" && label) {
      if (url.searchParams.get("api_key") !== apiKey && request.headers.get("authorization") !== `Bearer ${apiKey}`) {
        return problem(401, "Unauthenticated.");
      }
      const decoded = decodeId(decodeURIComponent(label[2]!));
      if (!decoded) return problem(404, "Shipment not found.");
      const pdf = testWaybill(decoded.reference, decoded.bookedAt, label[1] === "sticker" ? "sticker" : "waybill");
      return new Response(pdf, { status: 200, headers: { "content-type": "application/pdf" } });
    }

    if (request.headers.get("authorization") !== `Bearer ${apiKey}`) return problem(401, "Unauthenticated.");

    if (request.method === "GET" && path === "/api/v1/lockers-data") return json(200, lockers);

    if (request.method === "POST" && path === "/api/v1/locker-rates-new") {
      if (!isObject(body)) return problem(400, "The request body must be a JSON object.");
      const locker = terminal(body);
      if (locker instanceof Response) return locker;
      const door = missingDoor(body.collection_address);
      if (door) return problem(400, door);
      const tooBig = oversized(body);
      if (tooBig) return tooBig;
      const from = new Date(now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(now() + 4 * 86_400_000).toISOString().slice(0, 10);
      return json(200, {
        rates: BOXES.map((b) => ({
          rate: b.price,
          rate_excluding_vat: centsToRand(randToCents(Number(b.price) / 1.15)),
          rate_revision_id: `rev-${b.size}`,
          service_level: {
            id: b.id,
            code: `D2L${b.size} - ECO`,
            name: `Door to Locker ${b.label}`,
            box_type: b.type,
            box_type_name: b.name,
            dimensions: { length: b.length, width: b.width, height: b.height, weight: b.weight },
            delivery_date_from: from,
            delivery_date_to: to,
          },
        })),
      });
    }

    if (request.method === "POST" && path === "/api/v1/shipments") {
      if (!isObject(body)) return problem(400, "The request body must be a JSON object.");
      const customerReference = typeof body.customer_reference === "string" ? body.customer_reference.trim() : "";
      // A retry of the same order answers the shipment already booked, never a second one.
      const earlier = customerReference ? byCustomerReference.get(customerReference) : undefined;
      if (earlier) return json(200, present(shipments.get(earlier)!));
      const locker = terminal(body);
      if (locker instanceof Response) return locker;
      const code = typeof body.service_level_code === "string" ? body.service_level_code : "";
      const box = /^D2L(XS|S|M|L|XL) - ECO$/.exec(code) ? BOXES.find((b) => code === `D2L${b.size} - ECO`) : undefined;
      if (!box) return problem(400, `Service level ${code || "(none)"} is not available for door to locker.`);
      const door = missingDoor(body.collection_address);
      if (door) return problem(400, door);
      const contact = body.delivery_contact;
      if (!isObject(contact) || typeof contact.mobile_number !== "string" || !contact.mobile_number.trim()) {
        return problem(400, "The given data was invalid.", { "delivery_contact.mobile_number": ["The recipient's mobile number is required for the locker PIN."] });
      }
      const tooBig = oversized(body);
      if (tooBig) return tooBig;
      const bookedAt = now();
      let random = randomInt(1000);
      while (shipments.has(referenceOf(bookedAt, random))) random = (random + 1) % 1000;
      const s: FakePudoShipment = {
        id: bookedAt * 1000 + random,
        reference: referenceOf(bookedAt, random),
        bookedAt,
        customerReference: customerReference || null,
        terminalId: locker.code,
        serviceLevelCode: code,
        rate: box.price,
        cancelledAt: null,
        forced: null,
        request: body,
      };
      shipments.set(s.reference, s);
      if (customerReference) byCustomerReference.set(customerReference, s.reference);
      return json(200, present(s));
    }

    if (request.method === "GET" && path === "/api/v1/tracking/shipments") {
      const waybill = url.searchParams.get("waybill") ?? "";
      const s = shipmentFor(waybill);
      if (!s) return problem(404, `No shipment with waybill ${waybill || "(none)"}.`);
      return json(200, { shipments: [{ ...present(s), shipment_id: s.id, tracking_events: events(s) }] });
    }

    const update = /^\/api\/v1\/shipments\/([^/]+)$/.exec(path);
    if (request.method === "PUT" && update) {
      const decoded = decodeId(decodeURIComponent(update[1]!));
      const s = decoded ? shipmentFor(decoded.reference) : null;
      if (!s) return problem(404, "Shipment not found.");
      if (!isObject(body) || body.status !== "cancelled") return problem(400, "Only a cancellation (status cancelled) can be made to a booked shipment.");
      if (s.cancelledAt === null) {
        if (stageIndex(s) >= 1) return problem(400, "The shipment has already been collected and can no longer be cancelled.");
        s.cancelledAt = now();
      }
      return json(200, present(s));
    }

    return problem(404, "Not found.");
  }

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const raw = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    let body: unknown = null;
    let malformed = false;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
        malformed = true;
      }
    }
    requests.push({ method: request.method, path: url.pathname, body });
    if (delayMs > 0) await wait(delayMs, request.signal);
    if (nextFailure) {
      const { status, body: failure } = nextFailure;
      nextFailure = null;
      if (typeof failure === "string") return new Response(failure, { status, headers: { "content-type": "text/html" } });
      return json(status, failure === undefined ? { message: status >= 500 ? "Server Error" : "Error" } : failure);
    }
    if (malformed) return problem(400, "The request body is not valid JSON.");
    return route(request, url, body);
  }

  return {
    apiKey,
    handler,
    failNext(status, body) {
      nextFailure = { status, body };
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    advance(trackingReference, status) {
      const s = shipmentFor(trackingReference);
      if (!s) throw new Error(`not a fake PUDO tracking reference: ${trackingReference}`);
      if (status === "cancelled") {
        s.cancelledAt ??= now();
        return;
      }
      const stage = STAGES.findIndex((st) => st.shop === status);
      s.forced = { stage, at: now() };
    },
    lockers,
    shipments,
    requests,
  };
}

/** Resolves after ms, or at once when the request is abandoned (so a timed-out test leaves no timer behind). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * A one-page PDF written by hand (no stream needed for a few lines): Helvetica with WinAnsi, where the em dash is
 * byte 0x97; the cross-reference offsets are byte offsets, which latin1 keeps equal to string offsets.
 */
function testWaybill(reference: string, bookedAt: number, kind: "waybill" | "sticker"): Uint8Array<ArrayBuffer> {
  const lines = [
    "TEST DELIVERY \u2014 not a real waybill",
    `PUDO ${kind} ${reference}`,
    `Booked ${new Date(bookedAt).toISOString()}`,
    "Nothing will be collected and no locker will open.",
  ];
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/\u2014/g, "\x97");
  const content = ["BT", "/F1 16 Tf", "56 770 Td", ...lines.map((l, i) => `${i ? "0 -24 Td " : ""}(${escape(l)}) Tj`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets = objects.map((object, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, "latin1"));
}

// ── over real HTTP, for tests ──

export interface RunningFakePudo extends FakePudo {
  baseUrl: string;
  close(): Promise<void>;
}

/** The fake over real HTTP on 127.0.0.1 (a free port), for contract tests. */
export async function startFakePudo(options: { now?: () => number; apiKey?: string } = {}): Promise<RunningFakePudo> {
  const fake = createFakePudo(options);
  return { ...fake, ...(await serveOnLoopback(fake.handler, (error) => ({ message: `fake PUDO failed: ${String(error)}` }))) };
}
