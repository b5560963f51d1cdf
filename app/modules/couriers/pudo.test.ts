/**
 * The PUDO client's contract, over real HTTP against the local fake (fake-pudo.server.ts). The contract block
 * asserts shapes and invariants only (no fake prices or codes), so it runs unchanged against PUDO's sandbox when
 * PUDO_SANDBOX_URL and PUDO_SANDBOX_API_KEY are set; what needs the fake's controls (its clock, failNext, delays)
 * is in the fake-only block. The clock is injected: nothing here sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CourierError, TRACKING_STATUSES, type BookingRequest, type CourierAddress, type CourierClient, type Parcel, type PickupPoint, type QuoteRequest } from "./courier";
import { createPudoClient, formatHours, smallestBox } from "./pudo.server";
import { distanceKm, PLACES } from "./places";
import { createFakePudo, startFakePudo, type RunningFakePudo } from "./fake-pudo.server";

const MINUTE = 60_000;
let clock = Date.parse("2026-03-02T07:00:00.000Z");
let fake: RunningFakePudo;

beforeAll(async () => {
  fake = await startFakePudo({ now: () => clock });
});
afterAll(async () => {
  await fake.close();
});

const shop: CourierAddress = {
  type: "business",
  company: "Scentara",
  streetAddress: "12 Kloof Street",
  localArea: "Gardens",
  city: "Cape Town",
  zone: "Western Cape",
  code: "8001",
  country: "ZA",
};
const rondebosch = PLACES.find((p) => p.suburb === "Rondebosch")!;
/** One boxed bottle: fits the extra-small door (60×17×8 cm, 2 kg). */
const perfume: Parcel = { lengthCm: 14, widthCm: 9, heightCm: 7, weightKg: 0.6 };

function quote(pointCode: string, parcel: Parcel = perfume): QuoteRequest {
  return { collection: shop, delivery: { pointCode }, parcels: [parcel], declaredValueCents: 149_900 };
}
function booking(pointCode: string, serviceCode: string, reference: string, parcel: Parcel = perfume): BookingRequest {
  return {
    reference,
    collection: shop,
    collectionContact: { name: "Scentara dispatch", mobileNumber: "0215550100", email: "dispatch@scentara.co.za" },
    delivery: { pointCode },
    deliveryContact: { name: "Thandi Mokoena", mobileNumber: "+27821234567", email: "thandi@example.co.za" },
    parcels: [parcel],
    declaredValueCents: 149_900,
    serviceCode,
  };
}

/** The CourierError a call fails with (anything else fails the test). */
async function failure(work: Promise<unknown>): Promise<CourierError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CourierError);
  return error as CourierError;
}

const nearest = (points: PickupPoint[], to: { lat: number; lng: number }) =>
  [...points].sort((a, b) => distanceKm(a, to) - distanceKm(b, to));

interface Target {
  name: string;
  client: () => CourierClient;
  badKey: () => CourierClient;
}
const targets: Target[] = [
  {
    name: "the local fake",
    client: () => createPudoClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, test: true }),
    badKey: () => createPudoClient({ baseUrl: fake.baseUrl, apiKey: "not-the-key", test: true }),
  },
];
if (process.env.PUDO_SANDBOX_URL && process.env.PUDO_SANDBOX_API_KEY) {
  const baseUrl = process.env.PUDO_SANDBOX_URL;
  const apiKey = process.env.PUDO_SANDBOX_API_KEY;
  targets.push({
    name: "PUDO's sandbox",
    client: () => createPudoClient({ baseUrl, apiKey, test: true, timeoutMs: 20_000 }),
    badKey: () => createPudoClient({ baseUrl, apiKey: "not-the-key", test: true, timeoutMs: 20_000 }),
  });
}

describe.each(targets)("PUDO contract against $name", (target) => {
  let points: PickupPoint[] = [];
  let locker: PickupPoint;

  beforeAll(async () => {
    points = await target.client().points!();
    locker = nearest(points, rondebosch)[0]!;
  });

  it("is a test locker courier with no webhook (tracking is polled)", () => {
    const client = target.client();
    expect(client.name).toBe("pudo");
    expect(client.kind).toBe("locker");
    expect(client.test).toBe(true);
    expect(client.verifyWebhook).toBeUndefined();
  });

  it("lists lockers with codes, South African coordinates and readable hours", () => {
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      expect(p).toMatchObject({ courier: "pudo", kind: "locker" });
      expect(p.code).toMatch(/\S/);
      expect(p.name).toMatch(/\S/);
      expect(p.lat).toBeGreaterThan(-35);
      expect(p.lat).toBeLessThan(-22);
      expect(p.lng).toBeGreaterThan(16);
      expect(p.lng).toBeLessThan(33);
      for (const line of p.hours) expect(line).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Public holidays)\b.* (\d\d:\d\d–\d\d:\d\d|closed|open 24 hours)$/);
    }
    expect(new Set(points.map((p) => p.code)).size).toBe(points.length);
    expect(points.some((p) => p.hours.length > 0)).toBe(true);
  });

  it("quotes door to locker as a positive whole number of cents, and a bigger box never costs less", async () => {
    const client = target.client();
    const [small] = await client.rates(quote(locker.code, { lengthCm: 10, widthCm: 10, heightCm: 5, weightKg: 0.3 }));
    const [big] = await client.rates(quote(locker.code, { lengthCm: 55, widthCm: 40, heightCm: 35, weightKg: 12 }));
    for (const rate of [small!, big!]) {
      expect(rate.courier).toBe("pudo");
      expect(rate.serviceCode).toMatch(/\S/);
      expect(rate.serviceName).toMatch(/locker/i);
      expect(Number.isInteger(rate.priceCents)).toBe(true);
      expect(rate.priceCents).toBeGreaterThan(0);
    }
    expect(big!.serviceCode).not.toBe(small!.serviceCode);
    expect(big!.priceCents).toBeGreaterThanOrEqual(small!.priceCents);
  });

  it("books to a locker, prints a PDF waybill and cancels before collection", async () => {
    const client = target.client();
    const [rate] = await client.rates(quote(locker.code));
    const booked = await client.book(booking(locker.code, rate!.serviceCode, `T-${Date.now()}-cancel`));
    expect(booked).toMatchObject({ courier: "pudo" });
    expect(booked.shipmentId).toMatch(/\S/);
    expect(booked.trackingReference).toMatch(/\S/);

    const pdf = await client.label(booked);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");

    const before = await client.track(booked);
    expect(before.length).toBeGreaterThan(0);
    expect(before[0]!.status).toBe("booked");

    await client.cancel(booked);
    const after = await client.track(booked);
    expect(after.at(-1)!.status).toBe("cancelled");
  });

  it("refuses an unknown locker in plain words", async () => {
    const client = target.client();
    const quoted = await failure(client.rates(quote("NOSUCH999")));
    expect(quoted.reason).toBe("refused");
    expect(quoted.message).toMatch(/NOSUCH999/);
    const booked = await failure(client.book(booking("NOSUCH999", "D2LXS - ECO", `T-${Date.now()}-unknown`)));
    expect(booked.reason).toBe("refused");
  });

  it("refuses a 30 kg parcel before asking PUDO: too big for a locker, choose door delivery", async () => {
    const error = await failure(target.client().rates(quote(locker.code, { lengthCm: 40, widthCm: 30, heightCm: 30, weightKg: 30 })));
    expect(error.reason).toBe("refused");
    expect(error.message).toMatch(/too big for a locker/i);
    expect(error.message).toMatch(/door delivery/);
  });

  it("refuses a door address: PUDO delivers to lockers", async () => {
    const request: QuoteRequest = { ...quote(locker.code), delivery: { address: shop } };
    expect((await failure(target.client().rates(request))).reason).toBe("refused");
  });

  it("says a refused key is a settings problem", async () => {
    const error = await failure(target.badKey().points!());
    expect(error.reason).toBe("misconfigured");
    expect(error.message).toMatch(/PUDO API key in settings/);
  });
});

describe("PUDO against the fake's controls", () => {
  const client = () => createPudoClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, test: true });

  it("has at least two lockers within 3 km of Rondebosch 7700, in every province", async () => {
    const points = await client().points!();
    expect(points.filter((p) => distanceKm(p, rondebosch) <= 3).length).toBeGreaterThanOrEqual(2);
    expect(new Set(points.map((p) => p.province)).size).toBe(9);
    expect(points.length).toBeGreaterThanOrEqual(30);
    const checkers = points.find((p) => p.name === "Rondebosch Checkers")!;
    expect(checkers).toMatchObject({ suburb: "Rondebosch", city: "Cape Town", province: "Western Cape", postalCode: "7700" });
    expect(checkers.hours).toEqual(["Mon–Fri 08:00–20:00", "Sat 08:00–18:00", "Sun 09:00–14:00", "Public holidays 09:00–14:00"]);
  });

  it("maps rand to cents exactly and asks for the smallest box the parcel fits", async () => {
    const code = fake.lockers[0]!.code;
    const [medium] = await client().rates(quote(code, { lengthCm: 30, widthCm: 30, heightCm: 15, weightKg: 3 }));
    expect(medium).toMatchObject({ serviceCode: "D2LM - ECO", priceCents: 7250 });
    const [xl] = await client().rates(quote(code, { lengthCm: 60, widthCm: 41, heightCm: 60, weightKg: 18 }));
    expect(xl).toMatchObject({ serviceCode: "D2LXL - ECO", priceCents: 8995 });
    const sent = fake.requests.at(-1)!.body as { parcels: Array<Record<string, number>>; delivery_address: unknown };
    expect(sent.delivery_address).toEqual({ terminal_id: code });
    expect(sent.parcels[0]).toMatchObject({ submitted_length_cm: 60, submitted_width_cm: 41, submitted_height_cm: 69, submitted_weight_kg: 18 });
  });

  it("follows a parcel booked → collected → in transit → in the locker with a PIN → collected, as the clock moves", async () => {
    const code = fake.lockers[1]!.code;
    const booked = await client().book(booking(code, "D2LS - ECO", "ORD-clock"));
    const statuses = async () => (await client().track(booked)).map((e) => e.status);

    expect(await statuses()).toEqual(["booked"]);
    clock += 3 * MINUTE;
    expect(await statuses()).toEqual(["booked", "collected"]);
    clock += 3 * MINUTE;
    expect((await statuses()).at(-1)).toBe("in_transit");
    clock += 5 * MINUTE;
    const waiting = await client().track(booked);
    const ready = waiting.at(-1)!;
    expect(ready.status).toBe("ready_for_collection");
    expect(ready.collectionPin).toMatch(/^\d{6}$/);
    expect(ready.message).toMatch(new RegExp(fake.lockers[1]!.name));
    clock += 5 * MINUTE;
    const done = await client().track(booked);
    expect(done.map((e) => e.status)).toEqual(["booked", "collected", "in_transit", "ready_for_collection", "delivered"]);

    // Oldest first, known statuses, ids stable across polls so applying an event twice changes nothing.
    expect(done.map((e) => e.at)).toEqual([...done.map((e) => e.at)].sort());
    for (const e of done) expect(TRACKING_STATUSES).toContain(e.status);
    expect(done.slice(0, 4).map((e) => e.id)).toEqual(waiting.map((e) => e.id));
    expect(new Set(done.map((e) => e.id)).size).toBe(done.length);
  });

  it("tracks from another process that never saw the booking, through the client's fetch option", async () => {
    const booked = await client().book(booking(fake.lockers[2]!.code, "D2LXS - ECO", "ORD-elsewhere"));
    const other = createFakePudo({ now: () => clock, apiKey: fake.apiKey });
    const elsewhere = createPudoClient({
      baseUrl: "http://pudo.fake",
      apiKey: fake.apiKey,
      test: true,
      fetch: (url, init) => other.handler(new Request(url, init)),
    });
    clock += 11 * MINUTE;
    const events = await elsewhere.track(booked);
    expect(events.at(-1)).toMatchObject({ status: "ready_for_collection" });
    expect(events.at(-1)!.collectionPin).toBe((await client().track(booked)).at(-1)!.collectionPin);
    expect(new TextDecoder().decode((await elsewhere.label(booked)).subarray(0, 5))).toBe("%PDF-");
  });

  it("moves a parcel on with advance(), and the label says it is a test delivery", async () => {
    const booked = await client().book(booking(fake.lockers[3]!.code, "D2LM - ECO", "ORD-advance"));
    fake.advance(booked.trackingReference, "delivered");
    const events = await client().track(booked);
    expect(events.map((e) => e.status)).toEqual(["booked", "collected", "in_transit", "ready_for_collection", "delivered"]);
    expect(events.every((e) => e.at === events[0]!.at)).toBe(true);
    const pdf = Buffer.from(await client().label(booked)).toString("latin1");
    expect(pdf).toContain("TEST DELIVERY \x97 not a real waybill");
    expect(pdf).toContain(booked.trackingReference);
  });

  it("answers a retried booking with the same shipment", async () => {
    const code = fake.lockers[4]!.code;
    const first = await client().book(booking(code, "D2LXS - ECO", "ORD-retry"));
    const again = await client().book(booking(code, "D2LXS - ECO", "ORD-retry"));
    expect(again).toEqual(first);
    expect(first.priceCents).toBe(6000);
  });

  it("refuses to cancel once the courier has collected", async () => {
    const booked = await client().book(booking(fake.lockers[5]!.code, "D2LXS - ECO", "ORD-late-cancel"));
    fake.advance(booked.trackingReference, "collected");
    const error = await failure(client().cancel(booked));
    expect(error.reason).toBe("refused");
    expect(error.message).toMatch(/already been collected/);
  });

  it("refuses to book a box the parcel no longer fits", async () => {
    const error = await failure(client().book(booking(fake.lockers[0]!.code, "D2LXS - ECO", "ORD-small", { lengthCm: 30, widthCm: 30, heightCm: 15, weightKg: 3 })));
    expect(error.reason).toBe("refused");
  });

  it("calls a 500 unavailable", async () => {
    fake.failNext(500);
    const error = await failure(client().points!());
    expect(error.reason).toBe("unavailable");
    expect(error.status).toBe(500);
  });

  it("calls a nonsense 200 unavailable (wrong shape, not JSON, a waybill that is no PDF)", async () => {
    fake.failNext(200, { hello: "world" });
    expect((await failure(client().points!())).reason).toBe("unavailable");
    fake.failNext(200, "<html>maintenance</html>");
    expect((await failure(client().rates(quote(fake.lockers[0]!.code)))).reason).toBe("unavailable");
    fake.failNext(200, { rates: [{ rate: "free", service_level: { code: "D2LXS - ECO" } }] });
    expect((await failure(client().rates(quote(fake.lockers[0]!.code)))).reason).toBe("unavailable");
    fake.failNext(200, { shipments: [{ tracking_events: [{ status: "in-transit", date: "yesterday-ish" }] }] });
    expect((await failure(client().track({ shipmentId: "1", trackingReference: "X" }))).reason).toBe("unavailable");
    fake.failNext(200, { id: 1 });
    expect((await failure(client().label({ shipmentId: "1", trackingReference: "X" }))).reason).toBe("unavailable");
  });

  it("passes on PUDO's own words when it refuses", async () => {
    fake.failNext(422, { message: "The given data was invalid.", errors: { "delivery_contact.email": ["The email must be a valid email address."] } });
    const error = await failure(client().book(booking(fake.lockers[0]!.code, "D2LXS - ECO", "ORD-422")));
    expect(error).toMatchObject({ reason: "refused", status: 422 });
    expect(error.message).toMatch(/The email must be a valid email address/);
  });

  it("gives up after timeoutMs and calls it unavailable", async () => {
    fake.setDelay(5_000);
    try {
      const started = performance.now();
      const error = await failure(createPudoClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, timeoutMs: 150 }).points!());
      expect(error.reason).toBe("unavailable");
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      fake.setDelay(0);
    }
  });

  it("lets the caller's own abort through as the caller's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("shopper left");
    controller.abort(reason);
    await expect(client().points!(controller.signal)).rejects.toBe(reason);
  });

  it("sends the key as a bearer token", async () => {
    await client().points!();
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/v1/lockers-data" });
  });
});

describe("PUDO boxes and hours", () => {
  it("fits a parcel any way round into the smallest box by size and weight", () => {
    expect(smallestBox({ lengthCm: 10, widthCm: 10, heightCm: 5, weightKg: 0.5 })?.name).toBe("V4-XS");
    expect(smallestBox({ lengthCm: 8, widthCm: 60, heightCm: 17, weightKg: 2 })?.name).toBe("V4-XS");
    expect(smallestBox({ lengthCm: 10, widthCm: 10, heightCm: 5, weightKg: 2.5 })?.name).toBe("V4-S");
    expect(smallestBox({ lengthCm: 30, widthCm: 30, heightCm: 15, weightKg: 3 })?.name).toBe("V4-M");
    expect(smallestBox({ lengthCm: 65, widthCm: 10, heightCm: 10, weightKg: 1 })?.name).toBe("V4-XL");
    expect(smallestBox({ lengthCm: 70, widthCm: 10, heightCm: 10, weightKg: 1 })).toBeNull();
    expect(smallestBox({ lengthCm: 61, widthCm: 61, heightCm: 10, weightKg: 1 })).toBeNull();
    expect(smallestBox({ lengthCm: 10, widthCm: 10, heightCm: 10, weightKg: 21 })).toBeNull();
  });

  it("writes PUDO's day rows as readable lines", () => {
    const day = (d: string, open: string, close: string) => ({ day: d, open_time: open, close_time: close });
    expect(
      formatHours([
        day("Monday", "08:00:00", "17:00:00"),
        day("Tuesday", "08:00:00", "17:00:00"),
        day("Wednesday", "08:00:00", "17:00:00"),
        day("Thursday", "08:00:00", "17:00:00"),
        day("Friday", "08:00:00", "17:00:00"),
        day("Saturday", "08:00:00", "13:00:00"),
        day("Sunday", "--", "--"),
        day("Public Holidays", "08:00:00", "13:00:00"),
      ]),
    ).toEqual(["Mon–Fri 08:00–17:00", "Sat 08:00–13:00", "Sun closed", "Public holidays 08:00–13:00"]);
    expect(formatHours(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map((d) => day(d, "00:00:00", "23:59:00")))).toEqual([
      "Mon–Sun open 24 hours",
    ]);
  });
});
