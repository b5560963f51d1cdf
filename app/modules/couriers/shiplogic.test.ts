/**
 * The Shiplogic client against the contract (courier.ts), over real HTTP to the local fake. The "contract" block
 * asserts only shapes and invariants, so it runs unchanged against Shiplogic's sandbox when a sandbox key is given
 * (SHIPLOGIC_SANDBOX_API_KEY, optionally SHIPLOGIC_SANDBOX_BASE); the fake-only block drives failures, the clock and
 * webhooks, which only the fake can. No test sleeps: tracking moves with an injected clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CourierError, CourierWebhookError, TRACKING_STATUSES, type BookingRequest, type CourierAddress, type CourierClient, type QuoteRequest, type TrackingStatus } from "./courier";
import { SHIPLOGIC_SIGNATURE_HEADER, createShiplogicClient, trackingUrlFor } from "./shiplogic.server";
import { createFakeShiplogic, startFakeShiplogic, type StartedFakeShiplogic } from "./fake-shiplogic.server";

const collection: CourierAddress = {
  type: "business",
  company: "Scentara",
  streetAddress: "12 Main Road",
  localArea: "Rondebosch",
  city: "Cape Town",
  zone: "Western Cape",
  code: "7700",
  country: "ZA",
};
const delivery: CourierAddress = {
  type: "residential",
  streetAddress: "10 Oxford Road",
  localArea: "Rosebank",
  city: "Johannesburg",
  zone: "Gauteng",
  code: "2196",
  country: "ZA",
};
const box = { lengthCm: 25, widthCm: 18, heightCm: 12, weightKg: 1.2 };
const quoteRequest: QuoteRequest = { collection, delivery: { address: delivery }, parcels: [box], declaredValueCents: 123_456 };

let orderSeq = 0;
function bookingRequest(serviceCode: string, reference = `TEST-${Date.now().toString(36)}-${++orderSeq}`): BookingRequest {
  return {
    reference,
    collection,
    collectionContact: { name: "Scentara dispatch", mobileNumber: "0821234567", email: "dispatch@example.co.za" },
    delivery: { address: delivery },
    deliveryContact: { name: "Thandi Mokoena", mobileNumber: "+27831234567", email: "thandi@example.co.za" },
    parcels: [box],
    declaredValueCents: 123_456,
    serviceCode,
    instructions: "Test shipment: do not collect",
  };
}

const isIsoish = (s: string) => !Number.isNaN(Date.parse(s));

interface Target {
  client: CourierClient;
  badKeyClient: CourierClient;
  /** moves a shipment on (only the fake can) */
  moveTo?: (trackingReference: string, status: TrackingStatus) => void;
}

function contract(name: string, setup: () => Promise<Target & { close(): Promise<void> }>) {
  describe(`Shiplogic client contract (${name})`, () => {
    let target: Target & { close(): Promise<void> };
    beforeAll(async () => {
      target = await setup();
    });
    afterAll(async () => {
      await target?.close();
    });

    it("quotes at least one service with a whole-cent price and a delivery window", async () => {
      const rates = await target.client.rates(quoteRequest);
      expect(rates.length).toBeGreaterThanOrEqual(1);
      for (const rate of rates) {
        expect(rate.courier).toBe("shiplogic");
        expect(rate.serviceCode).toMatch(/\S/);
        expect(rate.serviceName).toMatch(/\S/);
        expect(Number.isInteger(rate.priceCents)).toBe(true);
        expect(rate.priceCents).toBeGreaterThan(0);
        for (const end of [rate.deliveryFrom, rate.deliveryTo]) if (end !== null) expect(isIsoish(end)).toBe(true);
        if (rate.deliveryFrom && rate.deliveryTo) expect(Date.parse(rate.deliveryFrom)).toBeLessThanOrEqual(Date.parse(rate.deliveryTo));
      }
      expect(rates.some((r) => r.deliveryFrom !== null || r.deliveryTo !== null)).toBe(true);
    });

    it("books, hands over a PDF waybill, tracks it as booked and (where the clock can move) delivered", async () => {
      const [rate] = await target.client.rates(quoteRequest);
      const booking = await target.client.book(bookingRequest(rate!.serviceCode));
      expect(booking.courier).toBe("shiplogic");
      expect(booking.shipmentId).toMatch(/\S/);
      expect(booking.trackingReference).toMatch(/^\S+$/);
      expect(booking.trackingUrl).toBe(trackingUrlFor(booking.trackingReference));
      if (booking.priceCents !== null) {
        expect(Number.isInteger(booking.priceCents)).toBe(true);
        expect(booking.priceCents).toBeGreaterThan(0);
      }

      const pdf = await target.client.label(booking);
      expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");

      const events = await target.client.track(booking);
      expect(events.length).toBeGreaterThanOrEqual(1);
      expect(events[0]!.status).toBe("booked");
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      for (const e of events) {
        expect(TRACKING_STATUSES).toContain(e.status);
        expect(isIsoish(e.at)).toBe(true);
        expect(e.message).toMatch(/\S/);
      }
      const times = events.map((e) => Date.parse(e.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));

      if (target.moveTo) {
        target.moveTo(booking.trackingReference, "delivered");
        const later = await target.client.track(booking);
        expect(later.at(-1)!.status).toBe("delivered");
        // What was already reported keeps its id, so applying the list again changes nothing.
        expect(later.map((e) => e.id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));
      }
    });

    it("cancels a shipment that has not been collected", async () => {
      const [rate] = await target.client.rates(quoteRequest);
      const booking = await target.client.book(bookingRequest(rate!.serviceCode));
      await target.client.cancel(booking);
      const events = await target.client.track(booking);
      expect(events.at(-1)!.status).toBe("cancelled");
    });

    it("says the API key is wrong as 'misconfigured', pointing at the settings", async () => {
      const error = await target.badKeyClient.rates(quoteRequest).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe("misconfigured");
      expect((error as CourierError).message).toMatch(/check the Shiplogic API key in settings/);
    });

    it("refuses a 30 kg parcel with a message that says what to change", async () => {
      const error = await target.client.rates({ ...quoteRequest, parcels: [{ ...box, weightKg: 30 }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe("refused");
      expect((error as CourierError).message).toMatch(/30 kg/);
      expect((error as CourierError).message).toMatch(/25 kg/);
    });

    it("refuses an address without a street, in the service's own words", async () => {
      const error = await target.client.rates({ ...quoteRequest, delivery: { address: { ...delivery, streetAddress: "" } } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe("refused");
      expect((error as CourierError).message).toMatch(/refused the quote: \S/);
    });
  });
}

// Monday 2 March 2026, 08:00 in Johannesburg: a working day before the collection cut-off.
const START = Date.parse("2026-03-02T08:00:00+02:00");
let clock = START;
const now = () => clock;

contract("local fake over HTTP", async () => {
  const fake = await startFakeShiplogic({ now });
  return {
    client: createShiplogicClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, test: true }),
    badKeyClient: createShiplogicClient({ baseUrl: fake.baseUrl, apiKey: "sl_wrong", test: true }),
    moveTo: (ref, status) => fake.advance(ref, status),
    close: fake.close,
  };
});

const sandboxKey = process.env.SHIPLOGIC_SANDBOX_API_KEY;
if (sandboxKey) {
  contract("Shiplogic sandbox", async () => {
    const baseUrl = process.env.SHIPLOGIC_SANDBOX_BASE ?? "https://api.shiplogic.com";
    return {
      client: createShiplogicClient({ baseUrl, apiKey: sandboxKey, timeoutMs: 30_000 }),
      badKeyClient: createShiplogicClient({ baseUrl, apiKey: "not-a-real-key", timeoutMs: 30_000 }),
      close: async () => {},
    };
  });
}

describe("Shiplogic client against the fake (what only the fake can make happen)", () => {
  let fake: StartedFakeShiplogic;
  let client: CourierClient;

  beforeAll(async () => {
    fake = await startFakeShiplogic({ now });
    client = createShiplogicClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, test: true, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    clock = START;
    fake.setDelay(0);
  });

  async function book(reference?: string) {
    const booking = await client.book(bookingRequest("ECO", reference));
    return booking;
  }

  describe("the request it sends", () => {
    it("speaks Shiplogic's field names, with rand (not cents) for the declared value", async () => {
      await client.rates({ ...quoteRequest, collectionDate: "2026-03-03" });
      const sent = fake.requests.at(-1)!;
      expect(sent.method).toBe("POST");
      expect(sent.path).toBe("/v2/rates");
      expect(sent.authorization).toBe(`Bearer ${fake.apiKey}`);
      expect(sent.body).toMatchObject({
        collection_address: { type: "business", company: "Scentara", street_address: "12 Main Road", local_area: "Rondebosch", city: "Cape Town", zone: "Western Cape", code: "7700", country: "ZA" },
        delivery_address: { type: "residential", street_address: "10 Oxford Road", local_area: "Rosebank", code: "2196" },
        parcels: [{ submitted_length_cm: 25, submitted_width_cm: 18, submitted_height_cm: 12, submitted_weight_kg: 1.2 }],
        declared_value: 1234.56,
        // The start of 3 March in South Africa, as Shiplogic stores collection days.
        collection_min_date: "2026-03-02T22:00:00.000Z",
      });
    });

    it("books with the contacts, service level and our order id as customer_reference", async () => {
      const booking = await client.book(bookingRequest("OVN", "ORDER-1001"));
      const sent = fake.requests.at(-1)!;
      expect(sent.path).toBe("/v2/shipments");
      expect(sent.body).toMatchObject({
        collection_contact: { name: "Scentara dispatch", mobile_number: "0821234567", email: "dispatch@example.co.za" },
        delivery_contact: { name: "Thandi Mokoena", mobile_number: "+27831234567", email: "thandi@example.co.za" },
        service_level_code: "OVN",
        customer_reference: "ORDER-1001",
        special_instructions_delivery: "Test shipment: do not collect",
        declared_value: 1234.56,
      });
      // The price it charged, in whole cents, equals its rand figure exactly.
      const shipment = fake.shipments.get(booking.trackingReference)!;
      expect(booking.priceCents).toBe(Math.round(shipment.rate * 100));
    });

    it("answers a repeated booking of the same order with the same shipment", async () => {
      const first = await book("ORDER-2002");
      const count = fake.shipments.size;
      const again = await book("ORDER-2002");
      expect(again.shipmentId).toBe(first.shipmentId);
      expect(again.trackingReference).toBe(first.trackingReference);
      expect(fake.shipments.size).toBe(count);
    });

    it("refuses a locker or pick-up point as the delivery end (those go through PUDO and Pargo)", async () => {
      const error = await client.rates({ ...quoteRequest, delivery: { pointCode: "CG54" } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe("refused");
    });
  });

  describe("when Shiplogic misbehaves", () => {
    const expectReason = async (promise: Promise<unknown>, reason: CourierError["reason"]) => {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe(reason);
      return error as CourierError;
    };

    it("a 500 is 'unavailable'", async () => {
      fake.failNext(500);
      const error = await expectReason(client.rates(quoteRequest), "unavailable");
      expect(error.status).toBe(500);
    });

    it("a 200 with nonsense (not JSON) is 'unavailable'", async () => {
      fake.failNext(200, "<html><body>Service temporarily unavailable</body></html>");
      await expectReason(client.rates(quoteRequest), "unavailable");
    });

    it("a 200 in the wrong shape is 'unavailable'", async () => {
      fake.failNext(200, { rates: [{ rate: "ninety", service_level: {} }] });
      await expectReason(client.rates(quoteRequest), "unavailable");
      fake.failNext(200, { id: 1 });
      await expectReason(client.book(bookingRequest("ECO")), "unavailable");
    });

    it("another 4xx is 'refused' with the service's own message", async () => {
      fake.failNext(422, { message: "The delivery address could not be geocoded." });
      const error = await expectReason(client.rates(quoteRequest), "refused");
      expect(error.message).toContain("The delivery address could not be geocoded.");
      expect(error.status).toBe(422);
    });

    it("a 403 is 'misconfigured'", async () => {
      fake.failNext(403, { message: "Forbidden" });
      await expectReason(client.rates(quoteRequest), "misconfigured");
    });

    it("an answer slower than the timeout is 'unavailable', within about the timeout", async () => {
      const quick = createShiplogicClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, timeoutMs: 150 });
      fake.setDelay(5_000);
      const started = performance.now();
      const error = await expectReason(quick.rates(quoteRequest), "unavailable");
      const took = performance.now() - started;
      expect(error.message).toMatch(/did not answer within 0\.15 s/);
      expect(took).toBeGreaterThanOrEqual(100);
      expect(took).toBeLessThan(1_500);
    });

    it("an unreachable host is 'unavailable'", async () => {
      const nowhere = createShiplogicClient({ baseUrl: "http://127.0.0.1:9", apiKey: "x", timeoutMs: 1_000 });
      await expectReason(nowhere.rates(quoteRequest), "unavailable");
    });

    it("the caller's own abort passes through as the caller's reason, not as a courier failure", async () => {
      const controller = new AbortController();
      fake.setDelay(5_000);
      const pending = client.rates(quoteRequest, controller.signal).catch((e: unknown) => e);
      controller.abort(new Error("shopper left"));
      const error = await pending;
      expect(error).not.toBeInstanceOf(CourierError);
      expect((error as Error).message).toBe("shopper left");
    });
  });

  describe("tracking", () => {
    it("follows the fake's clock: collected after 2 min, in transit, out for delivery, delivered after 15 min", async () => {
      const booking = await book();
      const statusAt = async (minutes: number) => {
        clock = START + minutes * 60_000;
        return (await client.track(booking)).at(-1)!.status;
      };
      expect(await statusAt(0)).toBe("booked");
      expect(await statusAt(2)).toBe("collected");
      expect(await statusAt(6)).toBe("in_transit");
      expect(await statusAt(11)).toBe("out_for_delivery");
      expect(await statusAt(16)).toBe("delivered");
      const events = await client.track(booking);
      expect(events.map((e) => e.status)).toEqual(["booked", "booked", "collected", "in_transit", "in_transit", "in_transit", "out_for_delivery", "delivered"]);
    });

    it("is derived from the reference alone: another process's fake that never saw the booking tells the same story", async () => {
      const booking = await book();
      clock = START + 11 * 60_000;
      const here = await client.track(booking);
      // The demo's other workers: a separate in-memory fake, reached in-process (no socket) through `fetch`.
      const elsewhere = createFakeShiplogic({ now, apiKey: "other-worker" });
      const otherClient = createShiplogicClient({
        baseUrl: "http://test-courier.invalid/shiplogic",
        apiKey: "other-worker",
        fetch: (input, init) => elsewhere.handler(new Request(input, init)),
        test: true,
      });
      const there = await otherClient.track(booking);
      expect(there.map(({ id, status, at }) => ({ id, status, at }))).toEqual(here.map(({ id, status, at }) => ({ id, status, at })));
      const pdf = await otherClient.label(booking);
      expect(Buffer.from(pdf).toString("latin1")).toContain(booking.trackingReference);
    });

    it("keeps a cancelled shipment cancelled as the clock moves on, and refuses to cancel once collected", async () => {
      const cancelled = await book();
      await client.cancel(cancelled);
      clock = START + 30 * 60_000;
      expect((await client.track(cancelled)).at(-1)!.status).toBe("cancelled");

      clock = START;
      const collected = await book();
      clock = START + 3 * 60_000;
      const error = await client.cancel(collected).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe("refused");
      expect((error as CourierError).message).toMatch(/already been collected/);
    });

    it("an unknown tracking reference is 'refused'", async () => {
      const error = await client.track({ shipmentId: "1", trackingReference: "NOPE" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CourierError);
      expect((error as CourierError).reason).toBe("refused");
    });
  });

  describe("the label", () => {
    it("is a one-page test waybill naming the tracking reference", async () => {
      const booking = await book();
      const pdf = Buffer.from(await client.label(booking)).toString("latin1");
      expect(pdf.startsWith("%PDF-1.4")).toBe(true);
      expect(pdf).toContain("/Count 1");
      expect(pdf).toContain("TEST DELIVERY \\227 not a real waybill");
      expect(pdf).toContain(booking.trackingReference);
      expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true);
      // The download is a pre-signed link: it went without our API key.
      const download = fake.requests.at(-1)!;
      expect(download.path).toMatch(/^\/labels\/\d+\.pdf$/);
      expect(download.authorization).toBeNull();
    });
  });

  describe("verifyWebhook", () => {
    const headersOf = (h: Record<string, string>) => new Headers(h);

    it("accepts the signed push and says which shipment and what happened", async () => {
      const booking = await book();
      clock = START + 3 * 60_000;
      const { body, headers } = fake.webhook(booking.trackingReference);
      const push = client.verifyWebhook!(body, headersOf(headers));
      expect(push.courier).toBe("shiplogic");
      expect(push.trackingReference).toBe(booking.trackingReference);
      expect(push.events.map((e) => e.status)).toEqual(["booked", "booked", "collected", "in_transit"]);
      // The same events, with the same ids, as track() reports: the caller re-confirms through track().
      expect(push.events).toEqual(await client.track(booking));
    });

    it("refuses a forged signature, a tampered body, a missing or malformed header, and a shop without a secret", async () => {
      const booking = await book();
      const { body, headers } = fake.webhook(booking.trackingReference);
      const forged = { ...headers, [SHIPLOGIC_SIGNATURE_HEADER]: `sha256=${"0".repeat(64)}` };
      expect(() => client.verifyWebhook!(body, headersOf(forged))).toThrow(CourierWebhookError);
      const tampered = body.replace('"submitted"', '"delivered"');
      expect(tampered).not.toBe(body);
      expect(() => client.verifyWebhook!(tampered, headersOf(headers))).toThrow(CourierWebhookError);
      const { [SHIPLOGIC_SIGNATURE_HEADER]: _dropped, ...unsigned } = headers;
      expect(() => client.verifyWebhook!(body, headersOf(unsigned))).toThrow(CourierWebhookError);
      expect(() => client.verifyWebhook!(body, headersOf({ ...headers, [SHIPLOGIC_SIGNATURE_HEADER]: "sha256=zz" }))).toThrow(CourierWebhookError);
      const otherSecret = createFakeShiplogic({ now }).webhook(booking.trackingReference);
      expect(() => client.verifyWebhook!(otherSecret.body, headersOf(otherSecret.headers))).toThrow(CourierWebhookError);
      const noSecret = createShiplogicClient({ baseUrl: fake.baseUrl, apiKey: fake.apiKey });
      expect(() => noSecret.verifyWebhook!(body, headersOf(headers))).toThrow(CourierWebhookError);
    });
  });

  it("runs in-process through `fetch`, with no socket (the demo's way)", async () => {
    const inProcess = createFakeShiplogic({ now });
    const demo = createShiplogicClient({
      baseUrl: "http://test-courier.invalid/shiplogic",
      apiKey: inProcess.apiKey,
      fetch: (input, init) => inProcess.handler(new Request(input, init)),
      test: true,
    });
    expect(demo.test).toBe(true);
    const rates = await demo.rates(quoteRequest);
    expect(rates.map((r) => r.serviceCode).sort()).toEqual(["ECO", "OVN"]);
    const booking = await demo.book(bookingRequest("ECO"));
    const pdf = await demo.label(booking);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    expect(inProcess.requests.map((r) => r.path)).toEqual(["/v2/rates", "/v2/shipments", "/v2/shipments/label", `/labels/${booking.shipmentId}.pdf`]);
  });
});
