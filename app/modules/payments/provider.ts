/**
 * The payment provider interface (browser-safe types only; adapters live in *.server.ts).
 * A provider creates a hosted checkout for an order and turns its signed webhooks into normalised events.
 * Payment state changes only on a verified event (or a server-side status call), never on a return URL.
 */
export type ProviderName = "simulated" | "yoco";
export const PROVIDER_NAMES: readonly ProviderName[] = ["simulated", "yoco"];

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
  customer: CheckoutCustomer;
  /** Stable per order, so a retried request never creates a second checkout. */
  idempotencyKey: string;
}

export interface CheckoutSession {
  checkoutId: string;
  redirectUrl: string;
}

export type PaymentEventType = "payment.succeeded" | "payment.failed" | "payment.cancelled" | "other";

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
  createCheckout(input: CreateCheckoutInput): Promise<CheckoutSession>;
  /** Verifies signature and timestamp of the raw body and returns the event; throws WebhookVerificationError. */
  verifyWebhook(rawBody: string, headers: Headers): PaymentEvent;
  /** Asks the provider, server to server, whether a checkout was paid (optional). */
  fetchCheckoutStatus?(checkoutId: string): Promise<CheckoutStatus>;
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
