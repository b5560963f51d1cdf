/**
 * Pargo pick-up points (warehouse to point, "W2P"), spoken in Pargo's own API ("Simba"). What it is built from, and
 * where each fact was read (public sources; Pargo's reference at docs.pargo.co.za is not public without an account):
 *
 * - Hosts: https://api.staging.pargo.co.za and https://api.live.pargo.co.za (Pargo's WooCommerce plugin,
 *   Pargo_Admin_API::PARGO_API_ENDPOINTS; its Magento plugin's etc/config.xml names the same two).
 * - POST /auth { username, password } → { access_token, refresh_token, expires_in } (both plugins;
 *   POST /auth/refresh { refresh_token } renews). Every other call: Authorization: Bearer <access_token>.
 * - GET /pickup_points → { meta: { total, count, limit, offset, page }, data: [{ type: "PickupPoint", attributes:
 *   { name, pickupPointCode ("pup4710"), address1, address2, suburb, city, province, postalCode, country,
 *   coordinates: { lat, lng }, openingHours: "Mon-Fri: 8am-6pm, Sat-Sun: 8am-5pm", photo, … } }] }; `limit`,
 *   `pickupPointCode`, `address` / `lat`+`lng` with `sort=distance+` filter it (Pargo helpdesk "Connecting my store
 *   using the Pargo API"; the WooCommerce plugin's check_pup_code; a captured response in niyaazparker/pargo).
 * - POST /orders { data: { type: "W2P", version: 1, attributes: { externalReference, pickupPointCode, consignee:
 *   { firstName, lastName, email, phoneNumbers[] }, warehouseAddressCode: null (the account's warehouse), … } } } →
 *   data.attributes.orderData.{ trackingCode (the waybill), orderLabel (the label's URL) }; a refusal answers
 *   { success: false, errors: [{ detail }] } (both plugins: Pargo_Orders.php, Observer/ProcessShipment.php).
 * - Order events: order.w2p.status.{pending, confirmed, atCourierForDelivery, atCollectionPoint, completed} (the
 *   WooCommerce plugin's write-back handler), with numeric event codes (1.20.4.400 at the point, 1.20.4.500
 *   collected by the customer…) as third-party integrations list them.
 * - Rates: Pargo publishes no W2P rate call. Both of its plugins price pick-up delivery from a table: the WooCommerce
 *   plugin's defaults are R70 up to 5 kg, R103 up to 10 kg, R136 up to 15 kg per parcel, matching myPargo's three
 *   weight bands (0–5, 5–10, 10–15 kg); /orders/quotation is used only for door delivery (W2D). rates() therefore
 *   answers from that table, which this client documents as Pargo's published flat rate. 15 kg is Pargo's limit.
 * - Not confirmed from a public source (written against third-party integrations, and checked by the contract test
 *   against the fake only): tracking GET /events/orders/{waybill} → { data: { events: [...] } }, the label PDF at
 *   GET /orders/{waybill}/label, and cancelling with POST /orders/update { data: [{ orderReference, cancel: "true" }] }
 *   (Pargo's helpdesk says to cancel through clientsupport@pargo.co.za).
 * - The collection code: Pargo sends the shopper their unique code by SMS and email itself; the API gives it to no one
 *   else that we know of, so collectionPin stays null.
 * - No signed webhooks are documented (Pargo pushes to a URL it is told, unsigned): tracking is polled.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { logger } from "~/utils/logger.server";
import {
  CourierError,
  MAX_PARCEL_WEIGHT_KG,
  type Booking,
  type BookingRequest,
  type CourierClient,
  type DeliveryEnd,
  type Parcel,
  type PickupPoint,
  type QuoteRequest,
  type ServiceRate,
  type TrackingEvent,
  type TrackingStatus,
} from "./courier";
import { abortable, answerJson, courierHttp, isPdf, type CourierAnswer } from "./courier-http.server";

export interface PargoClientOptions {
  /** https://api.live.pargo.co.za, https://api.staging.pargo.co.za, or a fake's base */
  baseUrl: string;
  /** the myPargo account's username (an email address) and password */
  username: string;
  password: string;
  /** the fake, in-process, for the demo and tests */
  fetch?: typeof fetch;
  /** ms before one call to Pargo is abandoned (default 10 s) */
  timeoutMs?: number;
  /** true for the local fake: bookings are test deliveries */
  test?: boolean;
}

/** Pargo's service: warehouse to pick-up point. Stored on the order and sent back when booking. */
export const PARGO_SERVICE_CODE = "W2P";
/** Pargo's heaviest weight band (myPargo: 0–5, 5–10, 10–15 kg); the contract's own limit is higher. */
export const PARGO_MAX_PARCEL_KG = Math.min(15, MAX_PARCEL_WEIGHT_KG);
/**
 * Pargo's published flat rate per parcel, VAT included, by weight band (the defaults of Pargo's WooCommerce plugin,
 * Pargo_Wp_Shipping_Method: pargo_cost_5 / _10 / _15). Pargo has no rates call for pick-up points.
 */
export const PARGO_FLAT_RATES: ReadonlyArray<{ upToKg: number; cents: number }> = [
  { upToKg: 5, cents: 7_000 },
  { upToKg: 10, cents: 10_300 },
  { upToKg: 15, cents: 13_600 },
];

const DEFAULT_TIMEOUT_MS = 10_000;
/** The access token is renewed this long before Pargo says it expires (a call in flight must not carry a dead one). */
const TOKEN_EARLY_MS = 60_000;
/** Used when Pargo's answer gives no lifetime: short enough to be safe, long enough to matter. */
const TOKEN_FALLBACK_MS = 30 * 60_000;
/** The points list is paged (Pargo's own answer says limit 100); this bounds the walk if paging is ever ignored. */
const POINTS_PAGE = 100;
const POINTS_MAX_PAGES = 100;
const SETTINGS_HINT = "check the Pargo username and password in settings";

// --- Pargo's shapes (only the fields the shop reads; the rest pass through) --------------------------------------

const authResponse = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).nullish(),
  expires_in: z.union([z.number(), z.string()]).nullish(),
});

const errorResponse = z
  .object({
    errors: z
      .array(z.object({ detail: z.string().nullish(), title: z.string().nullish(), message: z.string().nullish() }).loose())
      .nullish(),
    message: z.string().nullish(),
    error_description: z.string().nullish(),
    error: z.string().nullish(),
  })
  .loose();

/** Coordinates and postal codes come as numbers or numeric strings. */
const numeric = z.union([z.number(), z.string().trim().min(1)]).transform((v) => Number(v)).pipe(z.number().finite());
const text = z.string().nullish().transform((v) => v?.trim() ?? "");

const pointsPage = z.object({
  meta: z.object({ total: z.number().int().nonnegative().nullish() }).loose().nullish(),
  data: z.array(z.unknown()),
});

const pointEntry = z.object({
  attributes: z
    .object({
      pickupPointCode: z.string().trim().min(1),
      name: text,
      storeName: text,
      address1: text,
      address2: text,
      suburb: text,
      city: text,
      province: text,
      postalCode: z.union([z.string(), z.number()]).nullish(),
      country: z.string().nullish(),
      coordinates: z.object({ lat: numeric, lng: numeric }),
      openingHours: z.string().nullish(),
    })
    .loose(),
});

const orderResponse = z.object({
  data: z
    .object({
      attributes: z
        .object({
          orderData: z.object({ trackingCode: z.string().trim().min(1), orderLabel: z.string().nullish() }).loose(),
        })
        .loose(),
    })
    .loose(),
});

const eventEntry = z
  .object({
    id: z.union([z.string(), z.number()]).nullish(),
    event: z.string().nullish(),
    eventCode: z.union([z.string(), z.number()]).nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    date: z.string().nullish(),
    timestamp: z.string().nullish(),
    location: z.string().nullish(),
  })
  .loose();
const eventsResponse = z.object({ data: z.object({ events: z.array(eventEntry) }).loose() });

const labelPointer = z
  .object({
    data: z.object({ attributes: z.object({ orderLabel: z.string().nullish(), url: z.string().nullish() }).loose() }).loose().nullish(),
    orderLabel: z.string().nullish(),
    url: z.string().nullish(),
  })
  .loose();

// --- Mapping Pargo's words to the shop's ---------------------------------------------------------------------------

/** The last part of Pargo's event names (order.w2p.status.<name>), as the shop follows them. */
const STATUS_BY_EVENT: Record<string, TrackingStatus> = {
  created: "booked",
  pending: "booked",
  confirmed: "booked",
  // "At Courier" in myPargo: the courier has the parcel from the warehouse.
  atCourierForDelivery: "collected",
  courierCollected: "collected",
  // On the road to the point: the shopper's "in transit" (there is no door for it to be out for).
  courierInVehicle: "in_transit",
  courierPOD: "in_transit",
  courierEscalation: "in_transit",
  atCollectionPoint: "ready_for_collection",
  // W2P is finished when the shopper collects, not when the courier reaches the point (courierPOD).
  completed: "delivered",
  POD: "delivered",
  cancelled: "cancelled",
  notCompleted: "failed",
  timeout: "failed",
};
/** The numeric event codes some integrations receive instead (1.20.4.x for W2P). */
const STATUS_BY_CODE: Record<string, TrackingStatus> = {
  "1.20.4.0": "booked",
  "1.20.4.100": "booked",
  "1.20.4.200": "booked",
  "1.20.4.300": "collected",
  "1.20.4.301": "in_transit",
  "1.20.4.302": "in_transit",
  "1.20.4.303": "in_transit",
  "1.20.4.304": "in_transit",
  "1.20.4.400": "ready_for_collection",
  "1.20.4.409": "failed",
  "1.20.4.500": "delivered",
  "1.20.5.503": "delivered",
  "1.20.4.10000": "cancelled",
  "1.20.4.10010": "failed",
  "1.20.4.10030": "in_transit",
};
const DEFAULT_MESSAGE: Record<TrackingStatus, string> = {
  booked: "Booked with Pargo",
  collected: "Collected from the warehouse by Pargo's courier",
  in_transit: "On the way to the Pargo point",
  out_for_delivery: "Out for delivery",
  ready_for_collection: "Ready for collection at the Pargo point",
  delivered: "Collected by the customer",
  cancelled: "Cancelled",
  failed: "Not collected: returning to the shop",
};

function statusOf(event: z.infer<typeof eventEntry>): TrackingStatus | null {
  for (const candidate of [event.event, event.code, event.eventCode, event.title]) {
    if (candidate === null || candidate === undefined) continue;
    const value = String(candidate).trim();
    const byCode = STATUS_BY_CODE[value];
    if (byCode) return byCode;
    const byName = STATUS_BY_EVENT[value.split(".").pop() ?? ""];
    if (byName) return byName;
  }
  return null;
}

/** "KwaZulu - Natal" (as some points carry it) reads as the province is spelt everywhere else. */
function province(value: string): string {
  return value.replace(/\s*-\s*/g, "-").replace(/\s+/g, " ").trim();
}

function postalCode(value: string | number | null | undefined): string {
  const code = String(value ?? "").trim();
  // Codes below 1000 (Pretoria's 0083…) lose their leading zero when sent as numbers.
  return /^\d{1,3}$/.test(code) ? code.padStart(4, "0") : code;
}

const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const dayName = (d: string) => d.charAt(0).toUpperCase() + d.slice(1, 3).toLowerCase();

function clock(hours: string, minutes: string | undefined, meridiem: string | undefined): string {
  let h = Number(hours);
  const ap = meridiem?.toLowerCase();
  if (ap === "pm" && h < 12) h += 12;
  if (ap === "am" && h === 12) h = 0;
  return `${String(h).padStart(2, "0")}:${minutes ?? "00"}`;
}

/**
 * Pargo's opening hours ("Mon-Fri: 8am-6pm, Sat: 8:30am-1pm, Sun: 9am-2pm", "Mon-Sun: All day") as one readable line
 * per group of days: "Mon–Fri 08:00–18:00". A part it can't read is kept as Pargo wrote it rather than dropped.
 */
export function readableHours(openingHours: string | null | undefined): string[] {
  if (!openingHours?.trim()) return [];
  return openingHours
    .split(/\s*[,;\n]\s*/)
    .filter(Boolean)
    .map((part) => {
      const m = /^([A-Za-z]{3})[a-z]*\.?(?:\s*(?:-|–|to)\s*([A-Za-z]{3})[a-z]*\.?)?\s*:?\s*(.*)$/.exec(part);
      if (!m || !DAYS.includes(m[1]!.toLowerCase()) || (m[2] && !DAYS.includes(m[2].toLowerCase()))) return part;
      const days = m[2] ? `${dayName(m[1]!)}–${dayName(m[2])}` : dayName(m[1]!);
      const rest = m[3]!.trim();
      if (/^(all\s*day|24\s*h(ou)?rs?|open 24 hours)$/i.test(rest)) return `${days} open 24 hours`;
      if (/^closed$/i.test(rest)) return `${days} closed`;
      const t = /^(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm)?\s*(?:-|–|to)\s*(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm)?$/i.exec(rest);
      return t ? `${days} ${clock(t[1]!, t[2], t[3])}–${clock(t[4]!, t[5], t[6])}` : `${days} ${rest}`;
    });
}

function toPickupPoint(entry: unknown): PickupPoint | null {
  const parsed = pointEntry.safeParse(entry);
  if (!parsed.success) return null;
  const a = parsed.data.attributes;
  // Pargo also runs in Egypt; this shop delivers in South Africa only.
  if (a.country && a.country.toUpperCase() !== "ZA") return null;
  const { lat, lng } = a.coordinates;
  if (lat === 0 && lng === 0) return null;
  const name = a.name || a.storeName;
  if (!name) return null;
  // address2 is often the suburb again ("Crawford"); say it once.
  const street = [a.address1, a.address2].filter((part, i, all) => part && part.toLowerCase() !== a.suburb.toLowerCase() && all.indexOf(part) === i);
  return {
    courier: "pargo",
    kind: "point",
    code: a.pickupPointCode,
    name,
    streetAddress: street.join(", "),
    suburb: a.suburb,
    city: a.city,
    province: province(a.province),
    postalCode: postalCode(a.postalCode),
    lat,
    lng,
    hours: readableHours(a.openingHours),
  };
}

/** The rand amount of one parcel's band, in cents. */
function flatRateCents(parcel: Parcel): number {
  const band = PARGO_FLAT_RATES.find((b) => parcel.weightKg <= b.upToKg);
  if (!band) throw new CourierError(tooHeavy(parcel), "refused");
  return band.cents;
}

function tooHeavy(parcel: Parcel): string {
  return `Pargo takes parcels up to ${PARGO_MAX_PARCEL_KG} kg at its pick-up points, and this one weighs ${parcel.weightKg} kg: split the order into more boxes, or send it to the door.`;
}

function checkParcels(parcels: Parcel[]): void {
  if (parcels.length === 0) throw new CourierError("There is no parcel to send.", "refused");
  for (const p of parcels) {
    if (!(p.weightKg > 0)) throw new CourierError("The parcel has no weight: Pargo prices by weight.", "refused");
    if (p.weightKg > PARGO_MAX_PARCEL_KG) throw new CourierError(tooHeavy(p), "refused");
  }
}

function pointCodeOf(end: DeliveryEnd): string {
  if ("pointCode" in end && end.pointCode.trim()) return end.pointCode.trim();
  throw new CourierError("Pargo delivers only to its pick-up points: choose a Pargo point for this order.", "refused");
}

/** Pargo's SMS goes to numbers written the South African way, without spaces or +27 (its merchant guidance). */
export function localMobile(number: string): string {
  const digits = number.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("27")) return `0${digits.slice(2)}`;
  return digits;
}

function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.trim().split(/\s+/).filter(Boolean);
  const firstName = parts[0] ?? "Customer";
  // Pargo's consignee has both names; someone who gave one is greeted by it twice rather than refused.
  return { firstName, lastName: parts.slice(1).join(" ") || firstName };
}

/** Pargo's own words for a refusal, short enough for the admin to read. */
function pargoMessage(body: unknown): string | null {
  const parsed = errorResponse.safeParse(body);
  if (!parsed.success) return null;
  const e = parsed.data;
  const details = (e.errors ?? []).map((x) => x.detail || x.title || x.message).filter((x): x is string => !!x?.trim());
  const message = details.length ? details.join("; ") : e.message || e.error_description || e.error;
  return message ? message.trim().slice(0, 300) : null;
}

interface Session {
  access: string;
  refresh: string | null;
  expiresAt: number;
}

export function createPargoClient(options: PargoClientOptions): CourierClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const test = options.test ?? false;

  let session: Session | null = null;
  let renewing: Promise<Session> | null = null;

  const http = courierHttp({ service: "Pargo", log: "pargo", settingsHint: SETTINGS_HINT, timeoutMs, fetch: options.fetch, said: pargoMessage });
  const exchange = http.exchange;

  function parseSession(body: unknown, now: number): Session | null {
    const parsed = authResponse.safeParse(body);
    if (!parsed.success) return null;
    const { access_token, refresh_token, expires_in } = parsed.data;
    const seconds = Number(expires_in);
    // expires_in is read as seconds from now; a value that can only be a Unix time (Pargo's WooCommerce plugin
    // compares it with time()) is taken as the moment itself.
    const expiresAt = !Number.isFinite(seconds) || seconds <= 0 ? now + TOKEN_FALLBACK_MS : seconds > 1e9 ? seconds * 1000 : now + seconds * 1000;
    return { access: access_token, refresh: refresh_token ?? null, expiresAt };
  }

  /** POST /auth/refresh with the refresh token when there is one, else (or when Pargo refuses it) POST /auth. */
  async function renew(useRefresh: boolean): Promise<Session> {
    const current = session;
    if (useRefresh && current?.refresh) {
      const answer = await exchange(`${base}/auth/refresh`, post({ refresh_token: current.refresh }), "the token renewal");
      if (answer.status >= 200 && answer.status < 300) {
        const renewed = parseSession(answerJson(answer), Date.now());
        if (renewed) return renewed;
      } else if (answer.status >= 500 || answer.status === 429) {
        throw new CourierError(`Pargo could not renew its session (HTTP ${answer.status}); try again shortly.`, "unavailable", answer.status);
      }
      // A refused or odd refresh falls back to signing in again.
    }
    const answer = await exchange(`${base}/auth`, post({ username: options.username, password: options.password }), "the sign-in");
    const body = answerJson(answer);
    if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
      logger.warn({ status: answer.status, message: pargoMessage(body) }, "pargo: sign-in refused");
      throw new CourierError(`Pargo refused the sign-in: ${SETTINGS_HINT}.`, "misconfigured", answer.status);
    }
    if (answer.status === 429) {
      throw new CourierError("Pargo is limiting sign-ins for this account right now; try again in a few minutes.", "unavailable", 429);
    }
    if (answer.status < 200 || answer.status >= 300) {
      if (answer.status >= 400 && answer.status < 500) throw new CourierError(`Pargo refused the sign-in (HTTP ${answer.status}): ${SETTINGS_HINT}.`, "misconfigured", answer.status);
      throw new CourierError(`Pargo's sign-in is not working (HTTP ${answer.status}); try again shortly.`, "unavailable", answer.status);
    }
    const fresh = parseSession(body, Date.now());
    if (!fresh) {
      logger.error({ status: answer.status }, "pargo: sign-in answer without an access token");
      throw new CourierError("Pargo's sign-in answered without a session; try again shortly.", "unavailable");
    }
    return fresh;
  }

  /** The cached access token, renewed shortly before it expires; one renewal at a time for every caller. */
  async function accessToken(signal?: AbortSignal, force = false): Promise<string> {
    if (!force && session && Date.now() < session.expiresAt - TOKEN_EARLY_MS) return session.access;
    // Shared by every caller waiting for it, so it runs under its own deadline, not one caller's signal.
    renewing ??= renew(!force)
      .then((s) => (session = s))
      .finally(() => (renewing = null));
    const renewed = signal ? await abortable(renewing, signal) : await renewing;
    return renewed.access;
  }

  /** An authenticated call. A 401 means the token died early (expired, revoked): sign in again, once. */
  async function call(path: string, init: RequestInit, what: string, signal?: AbortSignal): Promise<CourierAnswer> {
    let token = await accessToken(signal);
    for (let attempt = 0; ; attempt++) {
      const answer = await exchange(
        path.startsWith("http") ? path : `${base}${path}`,
        { ...init, headers: { Accept: "application/json", ...init.headers, Authorization: `Bearer ${token}` } },
        what,
        signal,
      );
      if (answer.status === 401 && attempt === 0) {
        if (session?.access === token) session = null;
        token = await accessToken(signal, true);
        continue;
      }
      return answer;
    }
  }

  async function callJson(path: string, init: RequestInit, what: string, signal?: AbortSignal): Promise<unknown> {
    const answer = await call(path, init, what, signal);
    const body = http.json(answer, what, z.unknown());
    // Pargo can refuse with a 200 ({ success: false, errors: [{ detail }] }): its own plugins check for it.
    if (typeof body === "object" && body !== null && (body as { success?: unknown }).success === false) {
      const said = pargoMessage(body);
      logger.warn({ status: answer.status, what, message: said }, "pargo: refused in a 200");
      throw new CourierError(said ? `Pargo refused ${what}: ${said}` : `Pargo refused ${what}.`, "refused", answer.status);
    }
    return body;
  }

  const unexpected = http.unexpected;

  const ref = (booking: Pick<Booking, "trackingReference" | "shipmentId">) => encodeURIComponent(booking.trackingReference || booking.shipmentId);

  return {
    name: "pargo",
    kind: "point",
    test,

    async rates(request: QuoteRequest, signal?: AbortSignal): Promise<ServiceRate[]> {
      signal?.throwIfAborted();
      pointCodeOf(request.delivery);
      checkParcels(request.parcels);
      // Pargo charges per parcel by its weight band; no call is made (there is none to make).
      const priceCents = request.parcels.reduce((sum, p) => sum + flatRateCents(p), 0);
      return [{ courier: "pargo", serviceCode: PARGO_SERVICE_CODE, serviceName: "Pargo pick-up point", priceCents, deliveryFrom: null, deliveryTo: null }];
    },

    async points(signal?: AbortSignal): Promise<PickupPoint[]> {
      const byCode = new Map<string, PickupPoint>();
      let skipped = 0;
      let total: number | null = null;
      for (let page = 1; page <= POINTS_MAX_PAGES; page++) {
        // Pargo's answer reports both page and offset; both are sent, consistent, whichever it honours.
        const query = `limit=${POINTS_PAGE}&page=${page}&offset=${(page - 1) * POINTS_PAGE}`;
        const body = await callJson(`/pickup_points?${query}`, { method: "GET" }, "the pick-up points list", signal);
        const parsed = pointsPage.safeParse(body);
        if (!parsed.success) throw unexpected("the pick-up points list", parsed.error.issues);
        const before = byCode.size;
        for (const entry of parsed.data.data) {
          const point = toPickupPoint(entry);
          if (point) byCode.set(point.code, point);
          else skipped++;
        }
        total = parsed.data.meta?.total ?? null;
        // Done at a short page, at the total, or when a page adds nothing new (paging not honoured).
        if (parsed.data.data.length < POINTS_PAGE || (total != null && byCode.size + skipped >= total) || byCode.size === before) break;
      }
      if (total != null && byCode.size + skipped < total) logger.warn({ total, got: byCode.size + skipped }, "pargo: pick-up points list came back short");
      if (skipped) logger.warn({ skipped }, "pargo: pick-up points left out (outside South Africa or incomplete)");
      if (byCode.size === 0 && skipped > 0) throw unexpected("the pick-up points list", { skipped });
      return [...byCode.values()];
    },

    async book(request: BookingRequest, signal?: AbortSignal): Promise<Booking> {
      const pickupPointCode = pointCodeOf(request.delivery);
      checkParcels(request.parcels);
      if (request.serviceCode !== PARGO_SERVICE_CODE) {
        throw new CourierError(`Pargo has no service "${request.serviceCode}"; quote again and book its pick-up point service.`, "refused");
      }
      const { firstName, lastName } = splitName(request.deliveryContact.name);
      const mobile = localMobile(request.deliveryContact.mobileNumber);
      const body = {
        data: {
          type: "W2P",
          version: 1,
          attributes: {
            // null: Pargo collects from the warehouse (and returns to the address) registered on the myPargo account.
            warehouseAddressCode: null,
            returnAddressCode: null,
            trackingCode: null,
            // Our order id: what myPargo shows against the parcel.
            externalReference: request.reference,
            pickupPointCode,
            consignee: { firstName, lastName, email: request.deliveryContact.email, ...(mobile ? { phoneNumbers: [mobile] } : {}) },
            totalParcels: request.parcels.length,
            // The parcel fields of Pargo's Magento plugin (cm and kg); cubicWeight is the courier's volumetric kg.
            parcels: request.parcels.map((p, i) => ({
              externalReference: `${request.reference}-${i + 1}`,
              length: p.lengthCm,
              width: p.widthCm,
              height: p.heightCm,
              weight: p.weightKg,
              deadWeight: p.weightKg,
              cubicWeight: Math.round(((p.lengthCm * p.widthCm * p.heightCm) / 5000) * 1000) / 1000,
            })),
          },
        },
      };
      const answer = await callJson("/orders", post(body), "the booking", signal);
      const parsed = orderResponse.safeParse(answer);
      if (!parsed.success) throw unexpected("the booking", parsed.error.issues);
      const trackingCode = parsed.data.data.attributes.orderData.trackingCode;
      logger.info({ reference: request.reference, trackingCode, pickupPointCode, test }, "pargo: booked");
      return {
        courier: "pargo",
        shipmentId: trackingCode,
        trackingReference: trackingCode,
        // Pargo's order answer carries no price; the charge is the flat rate on Pargo's invoice.
        priceCents: null,
        // Pargo's public track-and-trace page (its Magento plugin links it); a test waybill is not on it.
        trackingUrl: test ? null : `https://pargo.co.za/track-trace/?code=${encodeURIComponent(trackingCode)}`,
      };
    },

    async label(booking, signal?: AbortSignal): Promise<Uint8Array> {
      const what = "the waybill label";
      const answer = await call(`/orders/${ref(booking)}/label`, { method: "GET", headers: { Accept: "application/pdf, application/json" } }, what, signal);
      if (isPdf(http.succeeded(answer, what).bytes)) return answer.bytes;
      // Pargo may answer with where the label is (its order answer's orderLabel is a URL): fetch it from there.
      const pointer = labelPointer.safeParse(answerJson(answer));
      const url = pointer.success ? pointer.data.data?.attributes.orderLabel || pointer.data.data?.attributes.url || pointer.data.orderLabel || pointer.data.url : null;
      if (url && /^https?:\/\//.test(url)) {
        const sameHost = new URL(url).origin === new URL(base).origin;
        const file = sameHost ? await call(url, { method: "GET", headers: { Accept: "application/pdf" } }, what, signal) : await exchange(url, { method: "GET" }, what, signal);
        return http.pdf(file, what);
      }
      return http.pdf(answer, what);
    },

    async track(booking, signal?: AbortSignal): Promise<TrackingEvent[]> {
      const body = await callJson(`/events/orders/${ref(booking)}`, { method: "GET" }, "the tracking", signal);
      const parsed = eventsResponse.safeParse(body);
      if (!parsed.success) throw unexpected("the tracking", parsed.error.issues);
      const events: TrackingEvent[] = [];
      for (const e of parsed.data.data.events) {
        const status = statusOf(e);
        const when = e.date ?? e.timestamp;
        const at = when ? new Date(when) : null;
        // An event the shop has no word for, or with no time, can't move the order: leave it out.
        if (!status || !at || Number.isNaN(at.getTime())) {
          logger.debug({ event: e.event ?? e.code ?? e.eventCode }, "pargo: tracking event left out");
          continue;
        }
        const iso = at.toISOString();
        const name = String(e.event ?? e.code ?? e.eventCode ?? status);
        events.push({
          // Pargo's events carry no id: the name and time identify one, so applying it twice changes nothing.
          id: e.id != null ? String(e.id) : createHash("sha256").update(`${name}|${iso}`).digest("hex").slice(0, 24),
          status,
          at: iso,
          message: e.description?.trim() || e.title?.trim() || DEFAULT_MESSAGE[status],
          location: e.location?.trim() || null,
          collectionPin: null,
        });
      }
      const unique = [...new Map(events.map((e) => [e.id, e])).values()];
      return unique.sort((a, b) => a.at.localeCompare(b.at));
    },

    async cancel(booking, signal?: AbortSignal): Promise<void> {
      // Any 2xx that is not { success: false } is taken as done: the answer's shape is not published.
      await callJson("/orders/update", post({ data: [{ orderReference: booking.trackingReference || booking.shipmentId, cancel: "true" }] }), "the cancellation", signal);
    },
  };
}

function post(body: unknown): RequestInit {
  return { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) };
}
