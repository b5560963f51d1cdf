/**
 * A local fake of the Yoco Checkout API for tests (node:http on a random loopback port), following the documented
 * contract the real adapter is written against (DESIGN.md "Payments"):
 * - POST /api/checkouts with `Authorization: Bearer <secret key>` and `Idempotency-Key`; body { amount (cents),
 *   currency "ZAR", successUrl, cancelUrl, failureUrl, metadata } → { id, redirectUrl, status, amount, currency, … };
 *   the same Idempotency-Key answers with the same checkout;
 * - GET /api/checkouts/:id → the checkout and its status ('created', then 'completed' once paid);
 * - webhooks as Standard Webhooks, signed with the webhook secret: payment.succeeded with payload.amount,
 *   payload.currency and payload.metadata.checkoutId;
 * - POST /api/checkouts/:id/refund with an optional Idempotency-Key, body { amount? (cents; the whole remaining
 *   balance without it), metadata } → 202 { id, refundId, message, status: "successful" } for a completed checkout
 *   with that much left to refund; the same Idempotency-Key answers with the same refund; then `refundWebhook()` is
 *   the refund.succeeded / refund.failed event Yoco sends (payload.id the refund's id, payload.amount, payload.metadata
 *   .checkoutId), as developer.yoco.com documents them ("Refund a payment", "Successful refund", "Failed refund").
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { webhookHeaders } from "~/modules/payments/standard-webhooks.server";

export interface FakeCheckout {
  id: string;
  status: "created" | "completed";
  amount: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  failureUrl: string;
  metadata: Record<string, unknown>;
  idempotencyKey: string;
}

export interface FakeRefund {
  id: string;
  checkoutId: string;
  amount: number;
  idempotencyKey: string | undefined;
  metadata: Record<string, unknown>;
}

export interface FakeYoco {
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** Every request the fake received, in order. */
  requests: { method: string; path: string; authorization: string | undefined; idempotencyKey: string | undefined; body: unknown }[];
  checkouts: Map<string, FakeCheckout>;
  refunds: Map<string, FakeRefund>;
  /** Make the next refund call answer with this status and body. */
  failNextRefund(status: number, body: unknown): void;
  /** The signed refund.succeeded (or refund.failed) event Yoco sends once a refund has ended. */
  refundWebhook(refundId: string, options?: { type?: "refund.succeeded" | "refund.failed"; amount?: number; eventId?: string }): { eventId: string; body: string; headers: Record<string, string> };
  /** Make the next create-checkout call answer with this status and body. */
  failNextCreate(status: number, body: unknown): void;
  /** Mark a checkout paid (as the card payment on Yoco's page would). */
  complete(checkoutId: string): void;
  /** The signed webhook Yoco would send for an event on a checkout (overrides change what the payload claims). */
  webhook(
    checkoutId: string,
    options?: { type?: string; amount?: number; currency?: string; eventId?: string; now?: Date; secret?: string },
  ): { eventId: string; body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeYoco(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeYoco> {
  const secretKey = options.secretKey ?? `sk_test_${randomUUID().replaceAll("-", "")}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${Buffer.from(randomUUID()).toString("base64")}`;
  const checkouts = new Map<string, FakeCheckout>();
  const refunds = new Map<string, FakeRefund>();
  let nextRefundFailure: { status: number; body: unknown } | undefined;
  const byKey = new Map<string, string>();
  const requests: FakeYoco["requests"] = [];
  let nextFailure: { status: number; body: unknown } | undefined;
  let baseUrl = "";

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? "/", baseUrl);
    const authorization = req.headers.authorization;
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    requests.push({ method: req.method ?? "", path: url.pathname, authorization, idempotencyKey, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };

    if (authorization !== `Bearer ${secretKey}`) return send(401, { errorCode: "unauthorized", errorMessage: "Invalid secret key" });

    if (req.method === "POST" && url.pathname === "/api/checkouts") {
      if (nextFailure) {
        const failure = nextFailure;
        nextFailure = undefined;
        return send(failure.status, failure.body);
      }
      if (!idempotencyKey) return send(400, { errorCode: "missing_idempotency_key", errorMessage: "Idempotency-Key is required" });
      const existing = byKey.get(idempotencyKey);
      if (existing) return send(200, present(checkouts.get(existing)!));
      const b = body as Partial<FakeCheckout> | null;
      if (!b || !Number.isInteger(b.amount) || (b.amount as number) < 200 || b.currency !== "ZAR" || !b.successUrl || !b.cancelUrl) {
        return send(400, { errorCode: "invalid_request", errorMessage: "Invalid checkout request", displayMessage: "The payment request was invalid." });
      }
      const checkout: FakeCheckout = {
        id: `ch_${randomUUID().replaceAll("-", "").slice(0, 20)}`,
        status: "created",
        amount: b.amount as number,
        currency: b.currency,
        successUrl: b.successUrl,
        cancelUrl: b.cancelUrl,
        failureUrl: b.failureUrl ?? b.cancelUrl,
        metadata: (b.metadata as Record<string, unknown>) ?? {},
        idempotencyKey,
      };
      checkouts.set(checkout.id, checkout);
      byKey.set(idempotencyKey, checkout.id);
      return send(200, present(checkout));
    }

    const refundMatch = /^\/api\/checkouts\/([^/]+)\/refund$/.exec(url.pathname);
    if (req.method === "POST" && refundMatch) {
      if (nextRefundFailure) {
        const failure = nextRefundFailure;
        nextRefundFailure = undefined;
        return send(failure.status, failure.body);
      }
      const checkout = checkouts.get(decodeURIComponent(refundMatch[1]!));
      if (!checkout) return send(404, { errorCode: "not_found", errorMessage: "Checkout not found" });
      if (checkout.status !== "completed") return send(400, { errorCode: "checkout_not_completed", errorMessage: "Only a completed checkout can be refunded", displayMessage: "This payment can't be refunded." });
      const earlier = [...refunds.values()].find((r) => r.idempotencyKey !== undefined && r.idempotencyKey === idempotencyKey);
      if (earlier) return send(202, { id: checkout.id, refundId: earlier.id, message: "Your refund has been processed", status: "successful" });
      const b = (body ?? {}) as { amount?: unknown; metadata?: Record<string, unknown> };
      const refunded = [...refunds.values()].filter((r) => r.checkoutId === checkout.id).reduce((sum, r) => sum + r.amount, 0);
      const left = checkout.amount - refunded;
      const amount = b.amount === undefined ? left : b.amount;
      if (!Number.isInteger(amount) || (amount as number) <= 0 || (amount as number) > left) {
        return send(400, { errorCode: "invalid_amount", errorMessage: "Refund amount exceeds the refundable balance", displayMessage: "The refund amount is more than can be refunded." });
      }
      const refund: FakeRefund = { id: `rfd_${randomUUID().replaceAll("-", "").slice(0, 24)}`, checkoutId: checkout.id, amount: amount as number, idempotencyKey, metadata: b.metadata ?? {} };
      refunds.set(refund.id, refund);
      return send(202, { id: checkout.id, refundId: refund.id, message: "Your refund has been processed", status: "successful" });
    }

    const match = /^\/api\/checkouts\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && match) {
      const checkout = checkouts.get(decodeURIComponent(match[1]));
      if (!checkout) return send(404, { errorCode: "not_found", errorMessage: "Checkout not found" });
      return send(200, present(checkout));
    }
    return send(404, { errorCode: "not_found", errorMessage: "Not found" });
  });

  function present(c: FakeCheckout) {
    return {
      id: c.id,
      redirectUrl: `${baseUrl}/checkout/${c.id}`,
      status: c.status,
      amount: c.amount,
      currency: c.currency,
      paymentId: c.status === "completed" ? `p_${c.id}` : null,
      successUrl: c.successUrl,
      cancelUrl: c.cancelUrl,
      failureUrl: c.failureUrl,
      metadata: c.metadata,
      processingMode: "test",
    };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    secretKey,
    webhookSecret,
    requests,
    checkouts,
    refunds,
    failNextRefund(status, body) {
      nextRefundFailure = { status, body };
    },
    refundWebhook(refundId, o = {}) {
      const refund = refunds.get(refundId);
      const type = o.type ?? "refund.succeeded";
      const eventId = o.eventId ?? `evt_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
      const body = JSON.stringify({
        id: eventId,
        type,
        createdDate: new Date().toISOString(),
        payload: {
          id: refundId,
          type: "refund",
          createdDate: new Date().toISOString(),
          amount: o.amount ?? refund?.amount ?? 0,
          currency: "ZAR",
          paymentId: `p_${refund?.checkoutId ?? "unknown"}`,
          status: type === "refund.succeeded" ? "succeeded" : "failed",
          mode: "test",
          metadata: { checkoutId: refund?.checkoutId ?? null },
        },
      });
      return { eventId, body, headers: { "content-type": "application/json", ...webhookHeaders(webhookSecret, eventId, body) } };
    },
    failNextCreate(status, body) {
      nextFailure = { status, body };
    },
    complete(checkoutId) {
      const c = checkouts.get(checkoutId);
      if (!c) throw new Error(`no checkout ${checkoutId}`);
      c.status = "completed";
    },
    webhook(checkoutId, o = {}) {
      const c = checkouts.get(checkoutId);
      const eventId = o.eventId ?? `evt_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
      const body = JSON.stringify({
        createdDate: new Date().toISOString(),
        id: eventId,
        type: o.type ?? "payment.succeeded",
        payload: {
          id: `p_${checkoutId}`,
          type: "payment",
          status: (o.type ?? "payment.succeeded") === "payment.succeeded" ? "succeeded" : "failed",
          amount: o.amount ?? c?.amount ?? 0,
          currency: o.currency ?? c?.currency ?? "ZAR",
          mode: "test",
          metadata: { checkoutId, ...(c?.metadata ?? {}) },
        },
      });
      return { eventId, body, headers: { "content-type": "application/json", ...webhookHeaders(o.secret ?? webhookSecret, eventId, body, o.now) } };
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
