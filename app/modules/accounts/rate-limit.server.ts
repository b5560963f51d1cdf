import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";

/**
 * Fixed-window attempt counters in the rate_limits table, so a limit holds across processes and restarts.
 * One atomic upsert per attempt: the row's `last_request` holds the start of its current window (epoch ms).
 */
export interface RateRule {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

/**
 * Sign-in counts failed attempts (a success gives its attempt back); registration and reset count every request.
 * Sign-in is throttled the way rate-limiter-flexible's login-protection pattern does it (docs/decisions/005):
 * per address, and per address + account, so guessing from one address can't lock the owner out from another;
 * plus a high per-account ceiling that slows guessing spread over many addresses.
 */
export const RATE_RULES = {
  signInIp: { max: 30, windowMs: 15 * MINUTE },
  signInIpEmail: { max: 8, windowMs: 15 * MINUTE },
  signInEmail: { max: 100, windowMs: 60 * MINUTE },
  registerIp: { max: 100, windowMs: 60 * MINUTE }, // generous: South African mobile networks put many users behind one address (CGNAT)
  registerEmail: { max: 5, windowMs: 60 * MINUTE },
  resetIp: { max: 10, windowMs: 60 * MINUTE },
  resetEmail: { max: 3, windowMs: 60 * MINUTE },
  passwordChangeUser: { max: 8, windowMs: 15 * MINUTE },
} satisfies Record<string, RateRule>;

export interface RateResult {
  allowed: boolean;
  retryAfterMs: number;
}

export async function consume(db: Queryable, key: string, rule: RateRule, now = Date.now()): Promise<RateResult> {
  const windowStartBefore = now - rule.windowMs;
  const row = await db
    .insertInto("rate_limits")
    .values({ id: newId(), key, count: 1, last_request: now })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when rate_limits.last_request <= ${windowStartBefore} then 1 else rate_limits.count + 1 end`,
        last_request: sql<number>`case when rate_limits.last_request <= ${windowStartBefore} then ${now} else rate_limits.last_request end`,
      }),
    )
    .returning(["count", "last_request"])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  const windowStart = Number(row.last_request);
  return { allowed: count <= rule.max, retryAfterMs: Math.max(0, windowStart + rule.windowMs - now) };
}

/** Gives one attempt back (a successful sign-in should not count against the user). */
export async function refund(db: Queryable, key: string) {
  await db.updateTable("rate_limits").set({ count: sql<number>`count - 1` }).where("key", "=", key).where("count", ">", 0).execute();
}

export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `Too many attempts, try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

/**
 * Counts one attempt on every key (per IP and per e-mail); refused with 429 and the wait when any is over its limit.
 * Every key is counted even when an earlier one refuses, so a flood can't slip past the e-mail counter.
 */
export async function limitAttempts(db: Queryable, attempts: Array<{ key: string; rule: RateRule }>, now = Date.now()) {
  let worst: RateResult | undefined;
  for (const { key, rule } of attempts) {
    const result = await consume(db, key, rule, now);
    if (!result.allowed && (!worst || result.retryAfterMs > worst.retryAfterMs)) worst = result;
  }
  if (worst) throw new DomainError(tooManyAttemptsMessage(worst.retryAfterMs), 429);
}

export const rateKey = {
  signInIp: (ip: string) => `signin:ip:${ip}`,
  signInIpEmail: (ip: string, email: string) => `signin:ip-email:${ip}:${email}`,
  signInEmail: (email: string) => `signin:email:${email}`,
  registerIp: (ip: string) => `register:ip:${ip}`,
  registerEmail: (email: string) => `register:email:${email}`,
  resetIp: (ip: string) => `reset:ip:${ip}`,
  resetEmail: (email: string) => `reset:email:${email}`,
  passwordChangeUser: (userId: string) => `password-change:user:${userId}`,
};
