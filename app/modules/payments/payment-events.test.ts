import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "~/utils/env.server";
import { contentSecurityPolicy } from "../../../server/security-headers";
import { paymentFormActionOrigins } from "./form-action.server";
import { buildSimulatedWebhook, createSimulatedProvider, simulatedCheckoutPath } from "./simulated.server";
import { WebhookVerificationError, generateWebhookSecret, webhookHeaders } from "./standard-webhooks.server";
import { parseStandardPaymentEvent } from "./yoco.server";

function reason(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return "accepted";
}

describe("parseStandardPaymentEvent (Yoco's event shape)", () => {
  const body = (type: string, payload: unknown) => JSON.stringify({ id: "evt_body", type, payload });

  it("reads payment.succeeded: amount, currency and metadata.checkoutId; the id is the verified webhook-id", () => {
    const event = parseStandardPaymentEvent("msg_1", body("payment.succeeded", { amount: 41999, currency: "ZAR", metadata: { checkoutId: "ch_1", orderId: "o1" } }));
    expect(event).toEqual({ id: "msg_1", type: "payment.succeeded", providerType: "payment.succeeded", checkoutId: "ch_1", amountCents: 41999, currency: "ZAR", refundId: null });
  });

  it("reads a refund's outcome: its refund id (payload.id), amount and checkout (docs/decisions/041)", () => {
    const event = parseStandardPaymentEvent("msg_2", body("refund.succeeded", { id: "rfd_1", type: "refund", amount: 900, currency: "ZAR", metadata: { checkoutId: "ch_1" } }));
    expect(event).toEqual({ id: "msg_2", type: "refund.succeeded", providerType: "refund.succeeded", checkoutId: "ch_1", amountCents: 900, currency: "ZAR", refundId: "rfd_1" });
    // a payment's own id is never taken for a refund's
    expect(parseStandardPaymentEvent("m", body("payment.succeeded", { id: "p_1", amount: 900 })).refundId).toBeNull();
  });

  it.each([
    ["payment.failed", "payment.failed"],
    ["payment.cancelled", "payment.cancelled"],
    ["refund.succeeded", "refund.succeeded"],
    ["refund.failed", "refund.failed"],
    ["refund.created", "other"],
    ["payment.succeeded.v2", "other"],
  ])("maps %s to %s", (type, expected) => {
    expect(parseStandardPaymentEvent("m", body(type, {})).type).toBe(expected);
  });

  it("an event without payload or metadata has no checkout, amount or currency", () => {
    expect(parseStandardPaymentEvent("m", JSON.stringify({ type: "payment.succeeded" }))).toMatchObject({ checkoutId: null, amountCents: null, currency: null });
  });

  it.each([
    ["not JSON", "{oops"],
    ["no type", JSON.stringify({ payload: {} })],
    ["a fractional amount", body("payment.succeeded", { amount: 12.5 })],
    ["an amount as text", body("payment.succeeded", { amount: "41999" })],
    ["an array", "[]"],
  ])("refuses %s as malformed (400)", (_name, raw) => {
    expect(reason(() => parseStandardPaymentEvent("m", raw))).toBe("malformed_body");
  });
});

describe("the simulated provider", () => {
  it("creates a sim_ checkout served by the shop itself", async () => {
    const provider = createSimulatedProvider(() => generateWebhookSecret());
    const session = await provider.createCheckout({} as never);
    expect(session.checkoutId).toMatch(/^sim_[0-9a-f-]{36}$/);
    expect(session.redirectUrl).toBe(`/pay/simulated/${session.checkoutId}`);
    expect(simulatedCheckoutPath("sim_a b")).toBe("/pay/simulated/sim_a%20b");
  });

  it("verifies its own signed events and refuses another secret's", () => {
    const secret = generateWebhookSecret();
    const provider = createSimulatedProvider(() => secret);
    const webhook = buildSimulatedWebhook({ checkoutId: "sim_1", amountCents: 5000 }, secret);
    expect(provider.verifyWebhook(webhook.body, new Headers(webhook.headers))).toMatchObject({
      id: webhook.eventId,
      type: "payment.succeeded",
      checkoutId: "sim_1",
      amountCents: 5000,
      currency: "ZAR",
    });
    const other = buildSimulatedWebhook({ checkoutId: "sim_1", amountCents: 5000 }, generateWebhookSecret());
    expect(reason(() => provider.verifyWebhook(other.body, new Headers(other.headers)))).toBe("bad_signature");
    expect(reason(() => provider.verifyWebhook("{}", new Headers(webhookHeaders(secret, "m", "{}"))))).toBe("malformed_body");
  });
});

describe("form-action CSP for provider redirects", () => {
  afterEach(() => {
    for (const key of ["PAYMENT_PROVIDER", "YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET", "YOCO_API_BASE"]) delete process.env[key];
    resetEnvForTests();
  });

  it("simulated: only the shop itself", () => {
    resetEnvForTests();
    expect(paymentFormActionOrigins()).toEqual([]);
    expect(contentSecurityPolicy("n", { https: false, formActionOrigins: paymentFormActionOrigins() })).toContain("form-action 'self';");
  });

  it("yoco: the checkout pages on *.yoco.com and the configured API origin may receive the checkout's redirect", () => {
    Object.assign(process.env, { PAYMENT_PROVIDER: "yoco", YOCO_SECRET_KEY: "sk_test", YOCO_WEBHOOK_SECRET: "whsec_dGVzdA==", YOCO_API_BASE: "https://sandbox.example.com/base" });
    resetEnvForTests();
    expect(paymentFormActionOrigins()).toEqual(["https://*.yoco.com", "https://sandbox.example.com"]);
    expect(contentSecurityPolicy("n", { https: true, formActionOrigins: paymentFormActionOrigins() })).toContain(
      "form-action 'self' https://*.yoco.com https://sandbox.example.com;",
    );
  });
});
