/**
 * The one HTTP of the three courier clients: what each kind of answer means for the owner, whichever the service.
 * A service here is a web-standard handler behind the client's `fetch` (as the demo runs its test couriers).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CourierError } from "./courier";
import { courierHttp } from "./courier-http.server";

function service(answer: () => Response | Promise<Response>, timeoutMs = 1_000) {
  return courierHttp({
    service: "Parcels Inc",
    log: "parcels",
    settingsHint: "check the Parcels key in settings",
    timeoutMs,
    fetch: async () => answer(),
    said: (body) => (body as { message?: string } | undefined)?.message ?? null,
  });
}

async function failureOf(work: Promise<unknown>): Promise<CourierError> {
  const error = await work.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(CourierError);
  return error as CourierError;
}

describe("a courier's HTTP answers, as the shop reads them", () => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("reads each failing status the same way for every service", async () => {
    const cases: Array<[number, CourierError["reason"], RegExp]> = [
      [401, "misconfigured", /^Parcels Inc refused the shop's credentials \(the quote\): check the Parcels key in settings\.$/],
      [403, "misconfigured", /check the Parcels key in settings/],
      [429, "unavailable", /busy/],
      [422, "refused", /^Parcels Inc refused the quote: no such locker$/],
      [503, "unavailable", /had a problem with the quote \(HTTP 503\)/],
    ];
    for (const [status, reason, message] of cases) {
      const http = service(() => json(status, { message: "no such locker" }));
      const error = await failureOf(http.exchange("http://parcels.invalid/rates", {}, "the quote").then((a) => http.json(a, "the quote", z.object({}))));
      expect({ status: error.status, reason: error.reason }).toEqual({ status, reason });
      expect(error.message).toMatch(message);
    }
  });

  it("a 2xx of the wrong shape, not JSON, or a waybill that is no PDF: the service is unavailable", async () => {
    const shape = z.object({ rate: z.number() });
    const http = service(() => json(200, { rate: "lots" }));
    expect((await failureOf(http.exchange("http://p.invalid", {}, "the quote").then((a) => http.json(a, "the quote", shape)))).reason).toBe("unavailable");
    const html = service(() => new Response("<html>down</html>", { status: 200 }));
    expect((await failureOf(html.exchange("http://p.invalid", {}, "the quote").then((a) => html.json(a, "the quote", shape)))).message).toMatch(/could not read/);
    const notPdf = service(() => new Response("hello", { status: 200 }));
    expect((await failureOf(notPdf.exchange("http://p.invalid", {}, "the waybill").then((a) => notPdf.pdf(a, "the waybill")))).message).toMatch(/not a PDF/);
    const pdf = service(() => new Response("%PDF-1.4 …", { status: 200 }));
    expect(new TextDecoder().decode(pdf.pdf(await pdf.exchange("http://p.invalid", {}, "the waybill"), "the waybill").subarray(0, 5))).toBe("%PDF-");
  });

  it("a service that never answers is unavailable at the deadline, though its fetch ignores the signal; the caller's own abort passes through", async () => {
    const never = () => new Promise<Response>(() => {});
    const slow = service(never, 30);
    const error = await failureOf(slow.exchange("http://p.invalid", {}, "the quote"));
    expect(error).toMatchObject({ reason: "unavailable", message: expect.stringMatching(/did not answer within 0\.03 s \(the quote\)/) });

    const caller = new AbortController();
    const waiting = service(never, 10_000).exchange("http://p.invalid", {}, "the quote", caller.signal);
    caller.abort(new Error("the shopper left"));
    await expect(waiting).rejects.toThrow("the shopper left");
  });
});
