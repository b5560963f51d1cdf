import { createHmac } from "node:crypto";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import type { PaymentEventType, PaymentProvider } from "./provider";
import { verifyWebhookSignature, webhookHeaders } from "./standard-webhooks.server";
import { parseStandardPaymentEvent } from "./yoco.server";

/**
 * The built-in test provider (the default). Its "checkout" is a page served by the shop itself
 * (/pay/simulated/<checkoutId>, clearly marked as a test) whose Pay button sends a Standard Webhooks–signed
 * payment.succeeded event through the same verification path as a real provider. Nothing is charged.
 */
/**
 * The signing secret: SIMULATED_WEBHOOK_SECRET; else one derived from the session secret (AUTH_SECRET or the local
 * one kept beside the database), so it is stable across restarts and processes.
 */
export function simulatedWebhookSecret(): string {
  const config = env();
  if (config.SIMULATED_WEBHOOK_SECRET) {
    const s = config.SIMULATED_WEBHOOK_SECRET;
    return s.startsWith("whsec_") ? s : `whsec_${Buffer.from(s, "utf8").toString("base64")}`;
  }
  return `whsec_${createHmac("sha256", authSecret()).update("scentara:simulated-payment-webhooks").digest("base64")}`;
}

export function simulatedCheckoutPath(checkoutId: string) {
  return `/pay/simulated/${encodeURIComponent(checkoutId)}`;
}

export function createSimulatedProvider(secret: () => string = simulatedWebhookSecret): PaymentProvider {
  return {
    name: "simulated",
    async createCheckout() {
      const checkoutId = `sim_${newId()}`;
      return { checkoutId, redirectUrl: simulatedCheckoutPath(checkoutId) };
    },
    verifyWebhook(rawBody, headers) {
      const { id } = verifyWebhookSignature(secret(), rawBody, headers);
      return parseStandardPaymentEvent(id, rawBody);
    },
    // Test payments took no money, so their refund pays none back: it is recorded at once, like the payment was.
    async refund() {
      return { refundId: `rfd_sim_${newId()}`, status: "succeeded" as const };
    },
  };
}

/** A signed webhook as a provider would send it, in Yoco's event shape. */
export function buildSimulatedWebhook(
  input: { checkoutId: string; amountCents: number; currency?: string; type?: Exclude<PaymentEventType, "other"> },
  secret: string = simulatedWebhookSecret(),
  now: Date = new Date(),
) {
  const eventId = `evt_sim_${newId()}`;
  const body = JSON.stringify({
    id: eventId,
    type: input.type ?? "payment.succeeded",
    createdDate: now.toISOString(),
    payload: {
      id: `p_sim_${newId()}`,
      type: "payment",
      status: input.type === "payment.failed" ? "failed" : "succeeded",
      amount: input.amountCents,
      currency: input.currency ?? "ZAR",
      mode: "test",
      metadata: { checkoutId: input.checkoutId },
    },
  });
  return { eventId, body, headers: webhookHeaders(secret, eventId, body, now) };
}
