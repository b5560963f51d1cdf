/**
 * How long an unpaid order is held before it expires: pure rules (no I/O), used by order-expiry.server.ts.
 *
 * A card payment (simulated, Yoco) happens on the provider's page within minutes, so an order still unpaid an hour
 * later is abandoned: it is closed and its coupon reservation given back (docs/decisions/014). Other ways of paying
 * wait longer: a manual EFT order waits days for the owner to see the money on a bank statement. Each payment
 * provider may therefore have its own hold (`byProvider`, keyed by orders.payment_provider); an order without a
 * provider yet (its checkout was never created) or with a provider that has no hold of its own gets the default.
 */
export interface UnpaidHoldPolicy {
  /** minutes an unpaid order is held when its provider has no hold of its own (UNPAID_ORDER_TTL_MINUTES) */
  defaultMinutes: number;
  /** providers (orders.payment_provider) with their own hold in minutes, e.g. a future `eft: 5 * 24 * 60` */
  byProvider: Readonly<Record<string, number>>;
}

/**
 * Fixed holds that differ from the configured default, by provider. Empty: card and instant-EFT providers finish on
 * their own page within minutes; the manual bank transfer's hold comes from EFT_HOLD_DAYS (configuredHoldPolicy).
 */
export const PROVIDER_HOLD_MINUTES: Readonly<Record<string, number>> = {};

export function holdPolicy(defaultMinutes: number, byProvider: Readonly<Record<string, number>> = PROVIDER_HOLD_MINUTES): UnpaidHoldPolicy {
  for (const [name, minutes] of [["default", defaultMinutes] as const, ...Object.entries(byProvider)]) {
    if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`unpaid order hold for ${name} must be a positive number of minutes`);
  }
  return { defaultMinutes, byProvider };
}

/** The hold of an order paid through this provider (null: no checkout created yet). */
export function holdMinutesFor(policy: UnpaidHoldPolicy, provider: string | null): number {
  return (provider !== null && Object.hasOwn(policy.byProvider, provider) ? policy.byProvider[provider] : undefined) ?? policy.defaultMinutes;
}

/** Orders placed strictly before this instant, and still unpaid, have expired. */
export function expiryCutoff(now: Date, holdMinutes: number): Date {
  return new Date(now.getTime() - holdMinutes * 60_000);
}

/**
 * The cut-offs the expiry query uses: one for every provider with its own hold, and the default for everything
 * else (no provider, or a provider not listed).
 */
export function expiryCutoffs(policy: UnpaidHoldPolicy, now: Date): { defaultBefore: string; byProvider: Array<{ provider: string; before: string }> } {
  return {
    defaultBefore: expiryCutoff(now, policy.defaultMinutes).toISOString(),
    byProvider: Object.entries(policy.byProvider).map(([provider, minutes]) => ({ provider, before: expiryCutoff(now, minutes).toISOString() })),
  };
}

/** Has this unpaid order been held long enough? (The same rule as the query, for one order.) */
export function hasExpired(policy: UnpaidHoldPolicy, order: { createdAt: string; paymentProvider: string | null }, now: Date): boolean {
  return new Date(order.createdAt).getTime() < expiryCutoff(now, holdMinutesFor(policy, order.paymentProvider)).getTime();
}
