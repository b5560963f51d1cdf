/**
 * The payment provider interface (browser-safe types only; adapters live in *.server.ts).
 * A provider creates a hosted checkout for an order and turns its signed webhooks into normalised events.
 * Payment state changes only on a verified event (or a server-side status call), never on a return URL.
 */
export type ProviderName = "simulated" | "yoco" | "payfast" | "ozow";
export const PROVIDER_NAMES: readonly ProviderName[] = ["simulated", "yoco", "payfast", "ozow"];

/**
 * How the shopper pays (orders.payment_method): `card` through the card provider (PAYMENT_PROVIDER), `instant_eft`
 * through Ozow, `eft` a bank transfer the owner confirms by hand (no provider: orders.payment_provider 'eft').
 */
export type PaymentMethod = "card" | "instant_eft" | "eft";
export const PAYMENT_METHODS: readonly PaymentMethod[] = ["card", "instant_eft", "eft"];

export interface CheckoutCustomer {
  email: string;
  name: string;
  telephone: string;
}

export interface CreateCheckoutInput {
  orderId: string;
  amountCents: number;
  currency: "ZAR";
  successUrl: string;
  cancelUrl: string;
  failureUrl: string;
  /** Where the provider posts its server-to-server notification (ITN, notify URL, webhook). */
  notifyUrl: string;
  /** What the shopper sees on the provider's page and statement: 'Scentara order 3f2a9c1e'. */
  description: string;
  customer: CheckoutCustomer;
  /** Stable per order, so a retried request never creates a second checkout. */
  idempotencyKey: string;
}

/** A form the shopper's browser posts to the provider (PayFast, Ozow): its address and its fields, in order. */
export interface CheckoutForm {
  action: string;
  fields: Array<[name: string, value: string]>;
}

export interface CheckoutSession {
  checkoutId: string;
  redirectUrl: string;
}

export type PaymentEventType = "payment.succeeded" | "payment.failed" | "payment.cancelled" | "refund.succeeded" | "refund.failed" | "other";

/** A verified provider event, normalised. */
export interface PaymentEvent {
  /** The provider's event id (webhook-id): unique per provider, the key of idempotency. */
  id: string;
  type: PaymentEventType;
  /** The provider's own type string, for the log and the payment_events row. */
  providerType: string;
  checkoutId: string | null;
  amountCents: number | null;
  currency: string | null;
  /** refund events: the provider's refund id (Yoco's rfd_…), the key a return's refund is found by */
  refundId?: string | null;
}

export interface CheckoutStatus {
  /** true only when the provider says the checkout was paid. */
  paid: boolean;
  status: string;
  amountCents: number | null;
  currency: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /**
   * Starts a payment for a stored order. Redirect providers (Yoco, simulated) create it at the provider; form-post
   * providers (PayFast, Ozow) answer { checkoutId: the order id, redirectUrl: the shop's /pay/form/<orderId> }, a
   * page that posts `checkoutForm` to the provider.
   */
  createCheckout(input: CreateCheckoutInput): Promise<CheckoutSession>;
  /** Form-post providers: the signed form for this order (the same input gives the same form). */
  checkoutForm?(input: CreateCheckoutInput): CheckoutForm;
  /**
   * Verifies a notification (signature, and for PayFast / Ozow the provider's own server-side confirmation) and
   * returns the event; throws WebhookVerificationError when it can't be trusted.
   */
  verifyWebhook(rawBody: string, headers: Headers): PaymentEvent | Promise<PaymentEvent>;
  /** Asks the provider, server to server, whether a checkout was paid (optional). */
  fetchCheckoutStatus?(checkoutId: string): Promise<CheckoutStatus>;
  /**
   * Pays (part of) a completed payment back to the shopper (docs/decisions/041), where the provider's API allows it.
   * Throws PaymentProviderError, with a message for the owner, when the provider refuses; nothing is then recorded.
   */
  refund?(input: RefundInput): Promise<RefundResult>;
}

export interface RefundInput {
  /** the order's checkout at the provider (orders.payment_id) */
  checkoutId: string;
  /** the provider's own id of the payment where its refund API asks for it (PayFast's pf_payment_id) */
  providerPaymentId: string | null;
  amountCents: number;
  currency: "ZAR";
  /** why, as the provider records it ("Return of order 3f2a9c1e") */
  reason: string;
  /** stable per return: a retried refund is the same refund at the provider, never a second one */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface RefundResult {
  /** the provider's refund id, when it gives one */
  refundId: string | null;
  /** succeeded: the provider is paying it; pending: accepted, its outcome arrives later as a refund event */
  status: "succeeded" | "pending";
}

/** What a provider's API refused or failed with; its message may be shown to the buyer. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

/** The shop's own page that posts a form-post provider's checkout form (their createCheckout's redirectUrl). */
export function checkoutFormPath(orderId: string): string {
  return `/pay/form/${encodeURIComponent(orderId)}`;
}
