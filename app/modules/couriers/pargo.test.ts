/**
 * The contract test of the Pargo client: against the local fake over real HTTP (fake-pargo.server.ts), and
 * written so the same assertions run against Pargo's staging API given an account:
 *   PARGO_STAGING_USERNAME=… PARGO_STAGING_PASSWORD=… [PARGO_STAGING_POINT=pup…] npx vitest run --project unit pargo
 * The contract tests check shapes and invariants, never the fake's values. The tests that need to steer the
 * service (its clock, a failure, a delay) run against the fake only. No test sleeps: the fake's clock is moved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakePargo, startFakePargo, type StartedFakePargo } from "./fake-pargo.server";
import { pdfTextRuns } from "../../../tests/factories/pdf-text";
import { CourierError, TRACKING_STATUSES, type BookingRequest, type CourierClient, type Parcel, type QuoteRequest } from "./courier";
import { createPargoClient, localMobile, readableHours } from "./pargo.server";
import { distanceKm, PLACES } from "./places";

const staging = process.env.PARGO_STAGING_USERNAME && process.env.PARGO_STAGING_PASSWORD
  ? { baseUrl: process.env.PARGO_STAGING_URL ?? "https://api.staging.pargo.co.za", username: process.env.PARGO_STAGING_USERNAME, password: process.env.PARGO_STAGING_PASSWORD }
  : null;
const fakeOnly = it.skipIf(staging !== null);

let clock = Date.now();
let fake: StartedFakePargo | null = null;
let target: { baseUrl: string; username: string; password: string };
let client: CourierClient;
let pointCode: string;

const MINUTE = 60_000;
const rondebosch = PLACES.find((p) => p.postalCode === "7700")!;
const box: Parcel = { lengthCm: 25, widthCm: 18, heightCm: 12, weightKg: 1.2 };
const warehouse = { type: "business" as const, company: "Scentara", streetAddress: "12 Main Road", localArea: "Rondebosch", city: "Cape Town", zone: "Western Cape", code: "7700", country: "ZA" as const };
let seq = 0;

function quote(parcels: Parcel[] = [box]): QuoteRequest {
  return { collection: warehouse, delivery: { pointCode }, parcels, declaredValueCents: 120_000 };
}
function booking(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    reference: `SCN-TEST-${Date.now().toString(36)}-${++seq}`,
    collection: warehouse,
    collectionContact: { name: "Scentara dispatch", mobileNumber: "0821234567", email: "dispatch@example.co.za" },
    delivery: { pointCode },
    deliveryContact: { name: "Thandi van der Merwe", mobileNumber: "+27 82 555 0101", email: "thandi@example.co.za" },
    parcels: [box],
    declaredValueCents: 120_000,
    serviceCode: "W2P",
    ...overrides,
  };
}
function clientFor(options: Partial<Parameters<typeof createPargoClient>[0]> = {}): CourierClient {
  return createPargoClient({ ...target, test: staging === null, ...options });
}
async function failure(promise: Promise<unknown>): Promise<CourierError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CourierError);
  return error as CourierError;
}
const authCalls = () => fake!.requests.filter((r) => r.method === "POST" && /\/auth$/.test(r.path)).length;

beforeAll(async () => {
  if (staging) target = staging;
  else {
    fake = await startFakePargo({ now: () => clock });
    target = { baseUrl: fake.baseUrl, username: fake.username, password: fake.password };
  }
  client = clientFor();
  const points = await client.points!();
  const near = [...points].sort((a, b) => distanceKm(a, rondebosch) - distanceKm(b, rondebosch));
  pointCode = process.env.PARGO_STAGING_POINT ?? near[0]!.code;
});

afterAll(async () => {
  await fake?.close();
});

describe("Pargo client: the contract", () => {
  it("names itself a pick-up point courier", () => {
    expect(client.name).toBe("pargo");
    expect(client.kind).toBe("point");
    expect(client.verifyWebhook).toBeUndefined();
  });

  it("lists pick-up points with codes, coordinates inside South Africa, addresses and readable hours", async () => {
    const points = await client.points!();
    expect(points.length).toBeGreaterThan(0);
    expect(new Set(points.map((p) => p.code)).size).toBe(points.length);
    for (const p of points) {
      expect(p).toMatchObject({ courier: "pargo", kind: "point" });
      expect(p.code).toMatch(/^\S+$/);
      expect(p.name.trim()).not.toBe("");
      // South Africa's mainland lies within about 22°–35° S and 16°–33° E.
      expect(p.lat).toBeGreaterThan(-35.2);
      expect(p.lat).toBeLessThan(-22);
      expect(p.lng).toBeGreaterThan(16);
      expect(p.lng).toBeLessThan(33.2);
      expect(Array.isArray(p.hours)).toBe(true);
      for (const line of p.hours) expect(line.trim()).not.toBe("");
    }
    expect(points.some((p) => p.hours.length > 0)).toBe(true);
    expect(points.some((p) => p.postalCode && p.suburb && p.streetAddress)).toBe(true);
  });

  it("rates a parcel to a point at a positive whole number of cents", async () => {
    const rates = await client.rates(quote());
    expect(rates.length).toBeGreaterThan(0);
    for (const r of rates) {
      expect(r.courier).toBe("pargo");
      expect(r.serviceCode).not.toBe("");
      expect(r.serviceName).not.toBe("");
      expect(Number.isSafeInteger(r.priceCents)).toBe(true);
      expect(r.priceCents).toBeGreaterThan(0);
    }
    const heavier = await client.rates(quote([{ ...box, weightKg: 12 }]));
    expect(heavier[0]!.priceCents).toBeGreaterThanOrEqual(rates[0]!.priceCents);
    const two = await client.rates(quote([box, box]));
    expect(two[0]!.priceCents).toBe(2 * rates[0]!.priceCents);
  });

  it("refuses a door address: Pargo delivers to its points only", async () => {
    const error = await failure(client.rates({ ...quote(), delivery: { address: warehouse } }));
    expect(error.reason).toBe("refused");
    expect(error.message).toMatch(/pick-up point/i);
  });

  it("refuses a 30 kg parcel, saying the limit", async () => {
    const heavy = { ...box, weightKg: 30 };
    for (const attempt of [client.rates(quote([heavy])), client.book(booking({ parcels: [heavy] }))]) {
      const error = await failure(attempt);
      expect(error.reason).toBe("refused");
      expect(error.message).toMatch(/15 kg/);
      expect(error.message).toMatch(/30 kg/);
    }
  });

  it("books to a point, gives a waybill and a PDF label, and tracks it from booked", async () => {
    const booked = await client.book(booking());
    expect(booked.courier).toBe("pargo");
    expect(booked.trackingReference).toMatch(/^\S+$/);
    expect(booked.shipmentId).not.toBe("");
    expect(booked.priceCents === null || Number.isSafeInteger(booked.priceCents)).toBe(true);
    if (client.test) expect(booked.trackingUrl).toBeNull();

    const pdf = await client.label(booked);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");

    const events = await client.track(booked);
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]!.status).toBe("booked");
    for (const e of events) {
      expect(TRACKING_STATUSES).toContain(e.status);
      expect(new Date(e.at).toISOString()).toBe(e.at);
      expect(e.message).not.toBe("");
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it("refuses an unknown pick-up point code with Pargo's reason", async () => {
    const error = await failure(client.book(booking({ delivery: { pointCode: "pup0000000" } })));
    expect(error.reason).toBe("refused");
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.message).toMatch(/^Pargo refused the booking/);
  });

  it("cancels a booking that has not been collected", async () => {
    const booked = await client.book(booking());
    await expect(client.cancel(booked)).resolves.toBeUndefined();
  });

  it("says misconfigured, pointing at settings, when the password is wrong", async () => {
    const wrong = clientFor({ password: `${target.password}-wrong` });
    const error = await failure(wrong.points!());
    expect(error.reason).toBe("misconfigured");
    expect(error.message).toMatch(/check the Pargo username and password in settings/);
  });
});

describe("Pargo client against the fake: time, failures and the demo", () => {
  fakeOnly("follows a parcel to ready for collection, then collected, as the fake's clock moves", async () => {
    const booked = await client.book(booking());
    clock += 10 * MINUTE;
    const waiting = await client.track(booked);
    expect(waiting.map((e) => e.status)).toEqual(["booked", "collected", "in_transit", "ready_for_collection"]);
    expect(waiting.at(-1)!.message).toMatch(/ready for collection at /i);
    expect(waiting.at(-1)!.collectionPin).toBeNull();
    clock += 5 * MINUTE;
    const done = await client.track(booked);
    expect(done.at(-1)!.status).toBe("delivered");
    // The same events keep their ids: applying them twice changes nothing.
    expect(done.slice(0, 4).map((e) => e.id)).toEqual(waiting.map((e) => e.id));
  });

  fakeOnly("advance() moves one parcel on now, and its events keep their times", async () => {
    const booked = await client.book(booking());
    fake!.advance(booked.trackingReference, "ready_for_collection");
    const first = await client.track(booked);
    expect(first.at(-1)!.status).toBe("ready_for_collection");
    clock += 11 * MINUTE;
    expect((await client.track(booked)).slice(0, 4)).toEqual(first);
  });

  fakeOnly("books once per order reference, and a cancelled parcel stays cancelled", async () => {
    const request = booking();
    const a = await client.book(request);
    const b = await client.book(request);
    expect(b.trackingReference).toBe(a.trackingReference);
    await client.cancel(a);
    clock += 20 * MINUTE;
    expect((await client.track(a)).map((e) => e.status)).toEqual(["booked", "cancelled"]);
  });

  fakeOnly("refuses to cancel once the courier has collected, in Pargo's words", async () => {
    const booked = await client.book(booking());
    clock += 3 * MINUTE;
    const error = await failure(client.cancel(booked));
    expect(error.reason).toBe("refused");
    expect(error.message).toMatch(/already been collected/);
  });

  fakeOnly("sends Pargo the order as a W2P with the consignee's number written the local way", async () => {
    const request = booking();
    await client.book(request);
    const sent = fake!.requests.findLast((r) => r.method === "POST" && /\/orders$/.test(r.path))!.body as { data: { type: string; attributes: Record<string, unknown> } };
    expect(sent.data.type).toBe("W2P");
    expect(sent.data.attributes).toMatchObject({
      externalReference: request.reference,
      pickupPointCode: pointCode,
      consignee: { firstName: "Thandi", lastName: "van der Merwe", email: "thandi@example.co.za", phoneNumbers: ["0825550101"] },
    });
  });

  fakeOnly("renews an expired token once and carries on", async () => {
    const fresh = clientFor();
    await fresh.points!();
    const before = authCalls();
    clock += 2 * 60 * MINUTE; // past the token's hour; the client's own clock still thinks it fresh
    await expect(fresh.points!()).resolves.not.toHaveLength(0);
    expect(authCalls()).toBe(before + 1);
    expect(fake!.requests.filter((r) => r.status === 401).length).toBeGreaterThan(0);
  });

  fakeOnly("answers unavailable on a 500, and recovers on the next call", async () => {
    await client.points!(); // a live session first, so the failure lands on the points call itself
    fake!.failNext(500);
    expect((await failure(client.points!())).reason).toBe("unavailable");
    await expect(client.points!()).resolves.not.toHaveLength(0);
  });

  fakeOnly("answers unavailable on nonsense: a 200 of the wrong shape, or not JSON", async () => {
    await client.points!();
    fake!.failNext(200, { hello: "world" });
    expect((await failure(client.points!())).reason).toBe("unavailable");
    fake!.failNext(200, "<html><body>Gateway</body></html>");
    expect((await failure(client.track({ shipmentId: "x", trackingReference: "x" }))).reason).toBe("unavailable");
    fake!.failNext(200, { data: { attributes: {} } });
    expect((await failure(client.book(booking()))).reason).toBe("unavailable");
  });

  fakeOnly("passes Pargo's own refusal on in plain words", async () => {
    await client.points!();
    fake!.failNext(422, { success: false, errors: [{ detail: "Consignee email address is invalid" }] });
    const error = await failure(client.book(booking()));
    expect(error.reason).toBe("refused");
    expect(error.message).toBe("Pargo refused the booking: Consignee email address is invalid");
  });

  fakeOnly("takes Pargo's { success: false } in a 200 as the refusal it is", async () => {
    await client.points!();
    fake!.failNext(200, { success: false, errors: [{ detail: "Pickup point is temporarily closed" }] });
    const error = await failure(client.book(booking()));
    expect(error.reason).toBe("refused");
    expect(error.message).toBe("Pargo refused the booking: Pickup point is temporarily closed");
  });

  fakeOnly("walks every page of the points list", async () => {
    const before = fake!.points.length;
    const extra = Array.from({ length: 130 }, (_, i) => ({ ...fake!.points[0]!, name: `Extra point ${i}`, pickupPointCode: `pup${9000 + i}` }));
    fake!.points.push(...extra);
    try {
      const points = await client.points!();
      expect(points).toHaveLength(before + 130);
      expect(fake!.requests.filter((r) => /\/pickup_points$/.test(r.path)).at(-1)!.query).toContain("page=2");
    } finally {
      fake!.points.splice(before);
    }
  });

  fakeOnly("gives up after timeoutMs and says unavailable", async () => {
    const impatient = clientFor({ timeoutMs: 100 });
    await impatient.points!();
    fake!.setDelay(5_000);
    try {
      const error = await failure(impatient.points!());
      expect(error.reason).toBe("unavailable");
      expect(error.message).toMatch(/did not answer/);
    } finally {
      fake!.setDelay(0);
    }
  });

  fakeOnly("passes the caller's own abort through as it is", async () => {
    const controller = new AbortController();
    const reason = new Error("shopper left");
    controller.abort(reason);
    await expect(client.points!(controller.signal)).rejects.toBe(reason);
  });

  fakeOnly("the fake has points near Rondebosch 7700 and in all nine provinces", () => {
    const near = fake!.points.filter((p) => distanceKm(p.coordinates, rondebosch) < 3);
    expect(near.length).toBeGreaterThanOrEqual(2);
    expect(new Set(fake!.points.map((p) => p.province)).size).toBe(9);
    expect(fake!.points.every((p) => /^pup\d{4}$/.test(p.pickupPointCode))).toBe(true);
  });

  fakeOnly("the label says it is a test delivery, with the waybill", async () => {
    const booked = await client.book(booking());
    const text = pdfTextRuns(await client.label(booked)).join("");
    expect(text).toContain("TEST DELIVERY — not a real waybill");
    expect(text).toContain(booked.trackingReference);
  });

  fakeOnly("works in-process under a path prefix, and another process's fake tracks the same waybill", async () => {
    const workerA = createFakePargo({ now: () => clock });
    const workerB = createFakePargo({ now: () => clock });
    const inProcess = (handler: (r: Request) => Promise<Response>): typeof fetch => (input, init) => handler(new Request(input, init));
    const a = createPargoClient({ baseUrl: "http://test-courier.invalid/pargo", username: workerA.username, password: workerA.password, fetch: inProcess(workerA.handler), test: true });
    const b = createPargoClient({ baseUrl: "http://test-courier.invalid/pargo", username: workerB.username, password: workerB.password, fetch: inProcess(workerB.handler), test: true });
    const [point] = await a.points!();
    const booked = await a.book(booking({ delivery: { pointCode: point!.code } }));
    clock += 6 * MINUTE;
    const seenByB = await b.track(booked);
    expect(seenByB.map((e) => e.status)).toEqual(["booked", "collected", "in_transit"]);
    expect(seenByB).toEqual(await a.track(booked));
    expect(new TextDecoder().decode((await b.label(booked)).subarray(0, 5))).toBe("%PDF-");
  });

  fakeOnly("an in-process delay is cut off by the timeout too", async () => {
    const worker = createFakePargo({ now: () => clock });
    const c = createPargoClient({ baseUrl: "http://test-courier.invalid/pargo", username: worker.username, password: worker.password, fetch: (i, init) => worker.handler(new Request(i, init)), timeoutMs: 50, test: true });
    worker.setDelay(5_000);
    expect((await failure(c.points!())).reason).toBe("unavailable");
  });
});

describe("Pargo client: what it reads", () => {
  it("reads Pargo's opening hours as one line per group of days", () => {
    expect(readableHours("Mon-Fri: 8am-6pm, Sat-Sun: 8am-5pm")).toEqual(["Mon–Fri 08:00–18:00", "Sat–Sun 08:00–17:00"]);
    expect(readableHours("Mon-Fri: 8:30am-5pm, Sat: 8am-12pm, Sun: 12am-1pm")).toEqual(["Mon–Fri 08:30–17:00", "Sat 08:00–12:00", "Sun 00:00–13:00"]);
    expect(readableHours("Mon-Sun: All day")).toEqual(["Mon–Sun open 24 hours"]);
    expect(readableHours("")).toEqual([]);
    expect(readableHours("Public holidays: 9am-1pm")).toEqual(["Public holidays: 9am-1pm"]);
  });

  it("writes mobile numbers the way Pargo's SMS wants them", () => {
    expect(localMobile("+27 82 555 0101")).toBe("0825550101");
    expect(localMobile("082-555-0101")).toBe("0825550101");
  });
});
