/**
 * A local fake of Pargo's API for pick-up points ("W2P"), answering in the shapes app/modules/couriers/pargo.server.ts
 * documents (and where it read them):
 * - POST /auth { username, password } → { access_token, refresh_token, token_type, expires_in }; POST /auth/refresh
 *   { refresh_token }. Access tokens expire after an hour of the fake's clock (then 401), so the client's renewal is
 *   exercised by moving the clock, not by waiting.
 * - GET /pickup_points (?limit, ?page, ?offset, ?pickupPointCode) → { meta, data: [{ type: "PickupPoint", version: 1,
 *   attributes }] }: a few dozen points in the suburbs of places.ts, across the nine provinces, named and coded the
 *   way Pargo's are ("Clicks - Rondebosch", "pup1234"), with Pargo's openingHours strings.
 * - POST /orders { data: { type: "W2P", attributes: { externalReference, pickupPointCode, consignee, parcels } } } →
 *   { data: { attributes: { orderData: { trackingCode, orderLabel } } } }; the same externalReference answers the same
 *   order; an unknown point or a parcel over 15 kg → 422 { success: false, errors: [{ detail }] }.
 * - GET /orders/{waybill}/label → a small PDF that says it is a test delivery; GET /events/orders/{waybill} →
 *   { data: { events } }; POST /orders/update { data: [{ orderReference, cancel: "true" }] } cancels before collection.
 *
 * The waybill ENCODES ITS BOOKING TIME (PG-<epoch ms, base 36>-<random>): tracking is derived from now − bookedAt, so a
 * process that never saw the booking (the demo runs several workers, each with its own in-process fake) tells the same
 * story: booked → collected (2 min) → in transit (5 min) → ready for collection (10 min) → collected by the customer
 * (15 min). advance() moves one parcel along for tests; a cancellation is remembered by this process only.
 *
 * The handler is a web-standard (Request → Response) function on purpose: the shop's demo calls it in-process through
 * the client's `fetch` option (couriers.server.ts), and startFakePargo() serves the same handler over node:http for
 * tests. Routes are matched at the end of the path, so the fake can sit under any prefix (http://x.invalid/pargo/…).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { pdfBytes } from "~/utils/pdf-bytes.server";
import { PLACES, type Place } from "./places";
import type { TrackingStatus } from "./courier";
import { serveOnLoopback } from "~/utils/fake-http-server.server";

export interface FakePargoPoint {
  name: string;
  pickupPointCode: string;
  country: "ZA";
  province: string;
  suburb: string;
  city: string;
  postalCode: string;
  address1: string;
  address2: string | null;
  coordinates: { lat: number; lng: number };
  locationMapImage: null;
  photo: { small: null; large: null };
  openingHours: string;
}

export interface FakePargoOrder {
  trackingCode: string;
  externalReference: string;
  pickupPointCode: string;
  consignee: { firstName?: string; lastName?: string; email?: string; phoneNumbers?: string[] };
  parcels: unknown[];
  bookedAt: number;
  cancelledAt: number | null;
}

export interface FakePargoOptions {
  /** The fake's clock (ms): token expiry and tracking follow it. Tests move it instead of waiting. */
  now?: () => number;
  username?: string;
  password?: string;
}

export interface FakePargo {
  username: string;
  password: string;
  handler: (request: Request) => Promise<Response>;
  /** The next call (whatever it is) answers this status and body (a string is sent as text, not JSON). */
  failNext(status: number, body?: unknown): void;
  /** Every answer waits this long first (0 to stop); an aborted request stops waiting, as a server would. */
  setDelay(ms: number): void;
  /** Moves a parcel on to this status now (forwards only), whatever the clock says; "cancelled" cancels it. */
  advance(trackingReference: string, status: TrackingStatus): void;
  points: FakePargoPoint[];
  orders: Map<string, FakePargoOrder>;
  /** Every request the fake received, in order (path without the query, which is in `query`). */
  requests: Array<{ method: string; path: string; query: string; body: unknown; status: number }>;
}

export interface StartedFakePargo extends FakePargo {
  baseUrl: string;
  close(): Promise<void>;
}

// --- The points ------------------------------------------------------------------------------------------------------

/** The chains Pargo points are in, with the hours such a counter keeps (Pargo's own openingHours format). */
const CHAINS: Array<{ chain: string; hours: string; where: (p: Place, n: number) => string }> = [
  { chain: "Clicks", hours: "Mon-Fri: 9am-6pm, Sat: 8:30am-5pm, Sun: 9am-2pm", where: (p, n) => `Shop ${n}, ${short(p)} Mall` },
  { chain: "Pick n Pay", hours: "Mon-Fri: 8am-8pm, Sat: 8am-6pm, Sun: 9am-4pm", where: (p, n) => `Shop ${n}, ${short(p)} Centre` },
  { chain: "Shell", hours: "Mon-Sun: All day", where: (p, n) => `${n * 3 + 1} Main Road` },
  { chain: "PEP", hours: "Mon-Fri: 8:30am-5:30pm, Sat: 8:30am-3pm", where: (p, n) => `Shop ${n}, ${short(p)} Plaza` },
  { chain: "Bidvest Waltons", hours: "Mon-Fri: 8am-5pm, Sat: 8:30am-1pm", where: (p, n) => `${n * 2 + 10} Church Street` },
  { chain: "Engen", hours: "Mon-Sun: 6am-10pm", where: (p, n) => `Cnr Voortrekker & ${short(p)} Road` },
  { chain: "PostNet", hours: "Mon-Fri: 8:30am-5pm, Sat: 9am-1pm", where: (p, n) => `Shop ${n}, ${short(p)} Square` },
  { chain: "Spar", hours: "Mon-Sat: 7am-8pm, Sun: 8am-2pm", where: (p, n) => `${n + 4} Station Road` },
];
/** Suburbs with a second point (Rondebosch and its neighbours first: the demo's shopper lives there). */
const TWO_POINTS = new Set(["Rondebosch", "Claremont", "Sea Point", "Cape Town City Centre", "Sandton", "Rosebank", "Soweto", "Umhlanga", "Durban Central", "Summerstrand", "Bloemfontein Central", "Polokwane Central", "Mbombela Central", "Kimberley Central", "Rustenburg Central"]);

function short(p: Place): string {
  return p.suburb.replace(/ Central$/, "").replace(/ City Centre$/, "");
}

/** Deterministic: the same points in every process (a code chosen in one worker is known to all). */
function makePoints(): FakePargoPoint[] {
  const points: FakePargoPoint[] = [];
  let i = 0;
  for (const place of PLACES) {
    const count = TWO_POINTS.has(place.suburb) ? 2 : 1;
    for (let k = 0; k < count; k++, i++) {
      const { chain, hours, where } = CHAINS[(i * 5 + k) % CHAINS.length]!;
      // Within ~600 m of the suburb's centre, spread so no two points share a spot.
      const dLat = (((i * 37) % 11) - 5) * 0.0011;
      const dLng = (((i * 53) % 11) - 5) * 0.0012;
      points.push({
        name: `${chain} - ${short(place)}`,
        pickupPointCode: `pup${1200 + i * 7}`,
        country: "ZA",
        province: place.province,
        suburb: place.suburb,
        city: place.city,
        postalCode: place.postalCode,
        address1: where(place, 3 + ((i * 7) % 40)),
        address2: place.suburb,
        coordinates: { lat: Math.round((place.lat + dLat) * 1e6) / 1e6, lng: Math.round((place.lng + dLng) * 1e6) / 1e6 },
        locationMapImage: null,
        photo: { small: null, large: null },
        openingHours: hours,
      });
    }
  }
  return points;
}

// --- Tracking derived from the waybill -------------------------------------------------------------------------------

const MINUTE = 60_000;
const ACCESS_TTL_S = 3600;
const REFRESH_TTL_S = 24 * 3600;
const MAX_PARCEL_KG = 15;

/** Pargo's W2P events in order, with when each happens after booking (fake time). */
const STAGES: Array<{ event: string; code: string; after: number; status: TrackingStatus; title: string }> = [
  { event: "order.w2p.status.confirmed", code: "1.20.4.200", after: 0, status: "booked", title: "Order confirmed: the courier will collect from the warehouse" },
  { event: "order.w2p.status.atCourierForDelivery", code: "1.20.4.300", after: 2 * MINUTE, status: "collected", title: "Parcel collected from the warehouse by the courier" },
  { event: "order.w2p.status.courierInVehicle", code: "1.20.4.303", after: 5 * MINUTE, status: "in_transit", title: "Parcel on route to the Pargo point" },
  { event: "order.w2p.status.atCollectionPoint", code: "1.20.4.400", after: 10 * MINUTE, status: "ready_for_collection", title: "Parcel ready for collection at the Pargo point" },
  { event: "order.w2p.status.completed", code: "1.20.4.500", after: 15 * MINUTE, status: "delivered", title: "Parcel collected by the customer" },
];

/** PG-<booking time in ms, base 36>-<random>: the booking time can be read back by any process. */
function newTrackingCode(bookedAt: number): string {
  return `PG-${bookedAt.toString(36).toUpperCase()}-${randomBytes(3).toString("hex").toUpperCase()}`;
}

function bookedAtOf(trackingCode: string): number | null {
  const m = /^PG-([0-9A-Z]+)-[0-9A-F]{6}$/.exec(trackingCode);
  if (!m) return null;
  const at = parseInt(m[1]!.toLowerCase(), 36);
  return Number.isSafeInteger(at) && at > 0 ? at : null;
}

/** The small PDF the label route answers: plainly a test, with the waybill on it. */
function testLabel(trackingCode: string, point: FakePargoPoint | undefined): Promise<Uint8Array> {
  return pdfBytes({ size: "A6", margin: 20, info: { Title: `Test waybill ${trackingCode}` } }, (doc) => {
    doc.font("Helvetica-Bold").fontSize(12).text("TEST DELIVERY — not a real waybill", { lineBreak: false });
    doc.moveDown().font("Helvetica").fontSize(11).text("Pargo (local fake)");
    doc.moveDown().font("Helvetica-Bold").fontSize(18).text(trackingCode);
    if (point) doc.moveDown().font("Helvetica").fontSize(10).text(`To: ${point.name} (${point.pickupPointCode}), ${point.suburb} ${point.postalCode}`);
  });
}

// --- The fake --------------------------------------------------------------------------------------------------------

export function createFakePargo(options: FakePargoOptions = {}): FakePargo {
  const now = options.now ?? Date.now;
  const username = options.username ?? "shop@example.co.za";
  const password = options.password ?? `pargo-${randomUUID()}`;
  const points = makePoints();
  const orders = new Map<string, FakePargoOrder>();
  const byReference = new Map<string, string>();
  /** advance(): the stage a parcel was moved to, and when. */
  const forced = new Map<string, { stage: number; at: number }>();
  /** advance(..., "failed") / cancellations of parcels this process never booked. */
  const ended = new Map<string, { status: "cancelled" | "failed"; at: number }>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Map<string, number>();
  const requests: FakePargo["requests"] = [];
  let nextFailure: { status: number; body: unknown } | undefined;
  let delayMs = 0;

  const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });
  const refuse = (status: number, detail: string, title = "Unprocessable Entity") => json(status, { success: false, errors: [{ status: String(status), title, detail }] });

  function issueSession() {
    const access = `pat_${randomBytes(16).toString("hex")}`;
    const refresh = `prt_${randomBytes(16).toString("hex")}`;
    accessTokens.set(access, now() + ACCESS_TTL_S * 1000);
    refreshTokens.set(refresh, now() + REFRESH_TTL_S * 1000);
    return { access_token: access, refresh_token: refresh, token_type: "Bearer", expires_in: ACCESS_TTL_S };
  }

  /** Where a parcel is: the stage its age has reached, or the one advance() moved it to, if further. */
  function stageNow(trackingCode: string, bookedAt: number): number {
    const elapsed = now() - bookedAt;
    let stage = 0;
    for (let s = 0; s < STAGES.length; s++) if (elapsed >= STAGES[s]!.after) stage = s;
    return Math.max(stage, forced.get(trackingCode)?.stage ?? 0);
  }

  function events(trackingCode: string, bookedAt: number, order: FakePargoOrder | undefined) {
    const point = order ? points.find((p) => p.pickupPointCode === order.pickupPointCode) : undefined;
    const end = order?.cancelledAt != null ? { status: "cancelled" as const, at: order.cancelledAt } : ended.get(trackingCode);
    const stage = stageNow(trackingCode, bookedAt);
    const f = forced.get(trackingCode);
    const list: Array<Record<string, string>> = [];
    for (let s = 0; s <= stage; s++) {
      const st = STAGES[s]!;
      // A stage advance() reached before its time happened then, and keeps that time (its event must not change).
      const at = f && s <= f.stage && f.at < bookedAt + st.after ? f.at : bookedAt + st.after;
      if (end && at > end.at) break;
      const title = st.status === "ready_for_collection" && point ? `Parcel ready for collection at ${point.name}` : st.title;
      list.push({ event: st.event, code: st.code, title, description: title, date: new Date(at).toISOString(), reference1: trackingCode });
    }
    if (end) {
      const cancelled = end.status === "cancelled";
      list.push({
        event: cancelled ? "order.w2p.status.cancelled" : "order.w2p.status.notCompleted",
        code: cancelled ? "1.20.4.10000" : "1.20.4.10010",
        title: cancelled ? "Order cancelled" : "Parcel not collected in time: returning to the sender",
        description: cancelled ? "Order cancelled" : "Parcel not collected in time: returning to the sender",
        date: new Date(end.at).toISOString(),
        reference1: trackingCode,
      });
    }
    return list;
  }

  function wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  async function route(request: Request, url: URL, body: unknown): Promise<Response> {
    const path = url.pathname.replace(/\/+$/, "");
    const method = request.method.toUpperCase();

    if (method === "POST" && /\/auth$/.test(path)) {
      const b = (body ?? {}) as { username?: unknown; password?: unknown };
      if (b.username !== username || b.password !== password) return refuse(401, "Invalid username or password", "Unauthorized");
      return json(200, issueSession());
    }
    if (method === "POST" && /\/auth\/refresh$/.test(path)) {
      const token = (body as { refresh_token?: unknown } | null)?.refresh_token;
      const until = typeof token === "string" ? refreshTokens.get(token) : undefined;
      if (until === undefined || until <= now()) return refuse(401, "Refresh token expired or invalid", "Unauthorized");
      refreshTokens.delete(token as string);
      return json(200, issueSession());
    }

    const bearer = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    const until = bearer ? accessTokens.get(bearer) : undefined;
    if (until === undefined || until <= now()) return refuse(401, "Token expired or invalid", "Unauthorized");

    if (method === "GET" && /\/pickup_points$/.test(path)) {
      const code = url.searchParams.get("pickupPointCode");
      const matching = code ? points.filter((p) => p.pickupPointCode === code) : points;
      const limit = Math.max(1, Math.min(Number(url.searchParams.get("limit")) || 100, 500));
      const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
      const offset = url.searchParams.has("offset") ? Math.max(0, Number(url.searchParams.get("offset")) || 0) : (page - 1) * limit;
      const slice = matching.slice(offset, offset + limit);
      return json(200, {
        meta: { total: matching.length, count: slice.length, limit, offset, page: Math.floor(offset / limit) + 1 },
        data: slice.map((attributes) => ({ attributes, meta: { distance: null }, type: "PickupPoint", version: 1 })),
      });
    }

    if (method === "POST" && /\/orders\/update$/.test(path)) {
      const items = (body as { data?: unknown } | null)?.data;
      if (!Array.isArray(items) || items.length === 0) return refuse(400, "data must list the orders to update", "Bad Request");
      const results = [];
      for (const item of items as Array<{ orderReference?: unknown; cancel?: unknown }>) {
        const code = String(item.orderReference ?? "");
        const bookedAt = bookedAtOf(code);
        if (bookedAt === null) return refuse(404, `No order with waybill ${code}`, "Not Found");
        if (String(item.cancel) !== "true") return refuse(400, "Only cancel: \"true\" is supported by this fake", "Bad Request");
        const order = orders.get(code);
        const already = order?.cancelledAt ?? (ended.get(code)?.status === "cancelled" ? ended.get(code)!.at : null);
        if (already == null) {
          if (stageNow(code, bookedAt) >= 1) return refuse(422, `Order ${code} has already been collected by the courier and can no longer be cancelled`);
          if (order) order.cancelledAt = now();
          else ended.set(code, { status: "cancelled", at: now() });
        }
        results.push({ orderReference: code, status: "cancelled" });
      }
      return json(200, { success: true, data: results });
    }

    if (method === "POST" && /\/orders$/.test(path)) {
      const data = (body as { data?: { type?: unknown; attributes?: Record<string, unknown> } } | null)?.data;
      const a = data?.attributes;
      if (!data || !a) return refuse(400, "The body must be { data: { type, attributes } }", "Bad Request");
      if (data.type !== "W2P") return refuse(422, `Order type ${String(data.type)} is not available on this account (W2P only)`);
      const externalReference = typeof a.externalReference === "string" ? a.externalReference : "";
      if (!externalReference) return refuse(422, "externalReference is required");
      const existing = byReference.get(externalReference);
      if (existing) return json(200, orderAnswer(orders.get(existing)!, url));
      const code = typeof a.pickupPointCode === "string" ? a.pickupPointCode : "";
      if (!points.some((p) => p.pickupPointCode === code)) return refuse(422, `Pickup point ${code || "(none)"} does not exist or is not active`);
      const consignee = (a.consignee ?? {}) as FakePargoOrder["consignee"];
      if (!consignee.firstName || !consignee.email) return refuse(422, "consignee.firstName and consignee.email are required");
      const parcels = Array.isArray(a.parcels) ? a.parcels : [];
      for (const p of parcels as Array<{ weight?: unknown; deadWeight?: unknown }>) {
        const kg = Number(p.deadWeight ?? p.weight);
        if (kg > MAX_PARCEL_KG) return refuse(422, `A parcel weighs ${kg} kg; Pargo takes parcels up to ${MAX_PARCEL_KG} kg`);
      }
      const bookedAt = now();
      const order: FakePargoOrder = { trackingCode: newTrackingCode(bookedAt), externalReference, pickupPointCode: code, consignee, parcels, bookedAt, cancelledAt: null };
      orders.set(order.trackingCode, order);
      byReference.set(externalReference, order.trackingCode);
      return json(201, orderAnswer(order, url));
    }

    const label = /\/orders\/([^/]+)\/label$/.exec(path);
    if (method === "GET" && label) {
      const code = decodeURIComponent(label[1]!);
      if (bookedAtOf(code) === null) return refuse(404, `No order with waybill ${code}`, "Not Found");
      const order = orders.get(code);
      const pdf = await testLabel(code, order ? points.find((p) => p.pickupPointCode === order.pickupPointCode) : undefined);
      return new Response(new Uint8Array(pdf), { status: 200, headers: { "content-type": "application/pdf", "content-disposition": `inline; filename="${code}.pdf"` } });
    }

    const tracking = /\/events\/orders\/([^/]+)$/.exec(path);
    if (method === "GET" && tracking) {
      const code = decodeURIComponent(tracking[1]!);
      const bookedAt = bookedAtOf(code);
      if (bookedAt === null || bookedAt > now()) return refuse(404, `No order with waybill ${code}`, "Not Found");
      return json(200, { data: { orderReference: code, events: events(code, bookedAt, orders.get(code)) } });
    }

    return refuse(404, `No route ${method} ${path}`, "Not Found");
  }

  function orderAnswer(order: FakePargoOrder, url: URL) {
    // The label URL sits beside the orders route, under whatever prefix the fake is reached at.
    const prefix = url.pathname.replace(/\/orders\/?$/, "");
    return {
      data: {
        type: "W2P",
        id: order.trackingCode,
        attributes: {
          externalReference: order.externalReference,
          pickupPointCode: order.pickupPointCode,
          orderData: { trackingCode: order.trackingCode, orderLabel: `${url.origin}${prefix}/orders/${order.trackingCode}/label` },
        },
      },
    };
  }

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const raw = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    if (delayMs > 0) await wait(delayMs, request.signal);
    let response: Response;
    if (nextFailure) {
      const { status, body: failure } = nextFailure;
      nextFailure = undefined;
      response =
        typeof failure === "string"
          ? new Response(failure, { status, headers: { "content-type": "text/html; charset=utf-8" } })
          : json(status, failure === undefined ? { success: false, errors: [{ status: String(status), detail: `Simulated failure (HTTP ${status})` }] } : failure);
    } else {
      response = await route(request, url, body);
    }
    requests.push({ method: request.method, path: url.pathname, query: url.search, body, status: response.status });
    return response;
  }

  return {
    username,
    password,
    handler,
    failNext(status, body) {
      nextFailure = { status, body };
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    advance(trackingReference, status) {
      const bookedAt = bookedAtOf(trackingReference);
      if (bookedAt === null) throw new Error(`not a fake Pargo waybill: ${trackingReference}`);
      if (status === "cancelled" || status === "failed") {
        const order = orders.get(trackingReference);
        if (status === "cancelled" && order) order.cancelledAt ??= now();
        else ended.set(trackingReference, { status, at: now() });
        return;
      }
      const stage = STAGES.findIndex((s) => s.status === status);
      if (stage < 0) throw new Error(`Pargo's pick-up parcels never reach "${status}"`);
      const current = forced.get(trackingReference);
      if (!current || current.stage < stage) forced.set(trackingReference, { stage, at: now() });
    },
    points,
    orders,
    requests,
  };
}

/** The fake over real HTTP on 127.0.0.1 (a free port), for contract tests. */
export async function startFakePargo(options: FakePargoOptions = {}): Promise<StartedFakePargo> {
  const fake = createFakePargo(options);
  return { ...fake, ...(await serveOnLoopback(fake.handler, () => ({ success: false, errors: [{ detail: "fake Pargo failed" }] }))) };
}
