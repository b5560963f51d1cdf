import { z } from "zod";
import { logger } from "~/utils/logger.server";
import {
  PaymentProviderError,
  type CheckoutStatus,
  type CreateCheckoutInput,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
  type RefundInput,
  type RefundResult,
} from "./provider";
import { WebhookVerificationError, verifyWebhookSignature } from "./standard-webhooks.server";
import { CHECKOUT_MESSAGES } from "~/modules/orders/orders.logic";

/**
 * Yoco Checkout API (DESIGN.md "Payments"):
 * - POST {base}/api/checkouts, Authorization: Bearer sk_…, Idempotency-Key, body { amount (cents), currency: "ZAR",
 *   successUrl, cancelUrl, failureUrl, metadata } → { id, redirectUrl };
 * - GET {base}/api/checkouts/{id} → the checkout with its status ('completed' once paid);
 * - webhooks are Standard Webhooks; `payment.succeeded` carries payload.amount, payload.currency and
 *   payload.metadata.checkoutId;
 * - POST {base}/api/checkouts/{id}/refund with an Idempotency-Key, body { amount (cents), metadata } → 202 Accepted
 *   { id, refundId, message, status }: the refund has started; `refund.succeeded` or `refund.failed` webhooks (payload.id
 *   the refund's id, payload.amount, payload.metadata.checkoutId) tell how it ended (developer.yoco.com, "Refund a
 *   payment", "Successful refund", "Failed refund").
 * The base URL is configurable so tests run this adapter against a local fake Yoco.
 */
export interface YocoConfig {
  apiBase: string;
  secretKey: string;
  webhookSecret: string;
  /** ms before a call to Yoco is abandoned */
  timeoutMs?: number;
}

export const INIT_FAILED = CHECKOUT_MESSAGES.initFailed;

const checkoutResponse = z.object({ id: z.string().min(1), redirectUrl: z.url() });
const statusResponse = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.number().int().nullish(),
  currency: z.string().nullish(),
});
const errorResponse = z.object({ displayMessage: z.string().min(1) }).partial();
const refundResponse = z.object({ refundId: z.string().min(1).max(200), status: z.string().optional(), message: z.string().optional() });

const webhookBody = z.object({
  id: z.string().optional(),
  type: z.string().min(1),
  payload: z
    .object({
      id: z.string().max(200).nullish(),
      amount: z.number().int().nullish(),
      currency: z.string().nullish(),
      metadata: z.object({ checkoutId: z.string().nullish() }).loose().nullish(),
    })
    .loose()
    .nullish(),
});

function normaliseType(type: string): PaymentEventType {
  if (type === "payment.succeeded" || type === "payment.failed" || type === "payment.cancelled" || type === "refund.succeeded" || type === "refund.failed") return type;
  return "other";
}

/** Parses a verified webhook body into the shop's event shape (used by every Standard Webhooks provider). */
export function parseStandardPaymentEvent(webhookId: string, rawBody: string): PaymentEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new WebhookVerificationError("malformed_body", "Webhook body is not JSON");
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success) throw new WebhookVerificationError("malformed_body", "Webhook body has an unexpected shape");
  const { type, payload } = parsed.data;
  return {
    id: webhookId,
    type: normaliseType(type),
    providerType: type.slice(0, 100),
    checkoutId: payload?.metadata?.checkoutId ?? null,
    amountCents: payload?.amount ?? null,
    currency: payload?.currency ?? null,
    refundId: type.startsWith("refund.") ? (payload?.id ?? null) : null,
  };
}

export function createYocoProvider(config: YocoConfig): PaymentProvider {
  const base = config.apiBase.replace(/\/+$/, "");
  const timeout = config.timeoutMs ?? 15_000;

  async function call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${config.secretKey}`, Accept: "application/json", ...init.headers },
        signal: AbortSignal.timeout(timeout),
      });
    } catch (error) {
      logger.error({ err: error, path }, "yoco: request failed");
      throw new PaymentProviderError(INIT_FAILED);
    }
  }

  return {
    name: "yoco",

    async createCheckout(input: CreateCheckoutInput) {
      const response = await call("/api/checkouts", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": input.idempotencyKey },
        body: JSON.stringify({
          amount: input.amountCents,
          currency: input.currency,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          failureUrl: input.failureUrl,
          metadata: { orderId: input.orderId },
        }),
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        // Yoco's displayMessage is written for buyers; anything else stays in the log.
        const display = errorResponse.safeParse(body).data?.displayMessage;
        logger.error({ status: response.status, body, orderId: input.orderId }, "yoco: checkout refused");
        throw new PaymentProviderError(display ?? INIT_FAILED, response.status);
      }
      const parsed = checkoutResponse.safeParse(body);
      if (!parsed.success || !/^https?:$/.test(new URL(parsed.data.redirectUrl).protocol)) {
        logger.error({ body, orderId: input.orderId }, "yoco: unexpected checkout response");
        throw new PaymentProviderError(INIT_FAILED);
      }
      return { checkoutId: parsed.data.id, redirectUrl: parsed.data.redirectUrl };
    },

    verifyWebhook(rawBody: string, headers: Headers) {
      const { id } = verifyWebhookSignature(config.webhookSecret, rawBody, headers);
      return parseStandardPaymentEvent(id, rawBody);
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      let response: Response;
      try {
        response = await fetch(`${base}/api/checkouts/${encodeURIComponent(input.checkoutId)}/refund`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${config.secretKey}`,
            Accept: "application/json",
            "Content-Type": "application/json",
            "Idempotency-Key": input.idempotencyKey,
          },
          body: JSON.stringify({ amount: input.amountCents, metadata: input.metadata }),
          signal: AbortSignal.timeout(timeout),
        });
      } catch (error) {
        logger.error({ err: error, checkoutId: input.checkoutId }, "yoco: refund request failed");
        throw new PaymentProviderError("Yoco could not be reached: nothing was refunded. Try again, or pay the customer back by EFT.");
      }
      const body: unknown = await response.json().catch(() => null);
      const parsed = refundResponse.safeParse(body);
      if (!response.ok || !parsed.success) {
        const display = errorResponse.safeParse(body).data?.displayMessage;
        logger.error({ status: response.status, body, checkoutId: input.checkoutId }, "yoco: refund refused");
        throw new PaymentProviderError(`Yoco refused the refund${display ? `: ${display.trim().replace(/\.+$/, "")}` : ""}. Nothing was refunded.`, response.status);
      }
      // 202: started; Yoco's refund.succeeded / refund.failed webhook says how it ended.
      return { refundId: parsed.data.refundId, status: "pending" };
    },

    async fetchCheckoutStatus(checkoutId: string): Promise<CheckoutStatus> {
      const response = await call(`/api/checkouts/${encodeURIComponent(checkoutId)}`, { method: "GET" });
      const body: unknown = await response.json().catch(() => null);
      const parsed = statusResponse.safeParse(body);
      if (!response.ok || !parsed.success || parsed.data.id !== checkoutId) {
        logger.warn({ status: response.status, checkoutId }, "yoco: checkout status unavailable");
        throw new PaymentProviderError("Checkout status unavailable", response.status);
      }
      const { status, amount, currency } = parsed.data;
      return { paid: status === "completed", status, amountCents: amount ?? null, currency: currency ?? null };
    },
  };
}
