import { isIPv4, isIPv6 } from "node:net";
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
 * Sign-in counts failed attempts (a success gives its attempts back); registration and reset count every request.
 * Sign-in is throttled the way rate-limiter-flexible's login-protection pattern does it (docs/decisions/005):
 * per address + account ("consecutive fails by username and IP") and per address ("slow brute force by IP"), so
 * guessing from one address can't lock the owner out from another; plus a high per-account ceiling that slows
 * guessing spread over many addresses, fed only by attempts their own address was allowed to make.
 */
export const RATE_RULES = {
  signInIp: { max: 30, windowMs: 15 * MINUTE }, // generous: South African mobile networks put many users behind one address (CGNAT)
  signInIpEmail: { max: 8, windowMs: 15 * MINUTE },
  signInEmail: { max: 100, windowMs: 60 * MINUTE },
  registerIp: { max: 100, windowMs: 60 * MINUTE },
  registerEmail: { max: 5, windowMs: 60 * MINUTE },
  resetIp: { max: 10, windowMs: 60 * MINUTE },
  resetEmail: { max: 3, windowMs: 60 * MINUTE },
  passwordChangeUser: { max: 8, windowMs: 15 * MINUTE },
  // a sign-in's second step (authenticator or backup code) and the password asked again (step-up): like sign-in
  secondFactorIp: { max: 30, windowMs: 15 * MINUTE },
  secondFactorUser: { max: 8, windowMs: 15 * MINUTE },
  confirmUser: { max: 8, windowMs: 15 * MINUTE },
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
 * Counts one attempt on every key; refused with 429 and the wait when any is over its limit. Every key is counted
 * even when an earlier one refuses, so a flood can't slip past a later counter.
 */
export async function limitAttempts(db: Queryable, attempts: Array<{ key: string; rule: RateRule }>, now = Date.now()) {
  let worst: RateResult | undefined;
  for (const { key, rule } of attempts) {
    const result = await consume(db, key, rule, now);
    if (!result.allowed && (!worst || result.retryAfterMs > worst.retryAfterMs)) worst = result;
  }
  if (worst) throw new DomainError(tooManyAttemptsMessage(worst.retryAfterMs), 429);
}

/**
 * Sign-in throttling: the address and address + account are counted first; only an attempt they allow is counted
 * against the account's ceiling, so one throttled address hammering on can't lock the owner out everywhere.
 * Counting before the password is checked reserves the attempt atomically (a burst of parallel guesses can't all
 * slip in before the first failure is recorded). Returns the keys to give back when the password is right.
 */
export async function limitSignIn(db: Queryable, ip: string, email: string, now = Date.now()): Promise<string[]> {
  const byAddress = [
    { key: rateKey.signInIp(ip), rule: RATE_RULES.signInIp },
    { key: rateKey.signInIpEmail(ip, email), rule: RATE_RULES.signInIpEmail },
  ];
  await limitAttempts(db, byAddress, now);
  const account = { key: rateKey.signInEmail(email), rule: RATE_RULES.signInEmail };
  try {
    await limitAttempts(db, [account], now);
  } catch (error) {
    // No password was checked, so the address hasn't failed: the owner's own counters stay as they were.
    for (const { key } of byAddress) await refund(db, key);
    throw error;
  }
  return [...byAddress.map((a) => a.key), account.key];
}

/**
 * The part of a client address that names one subscriber: an IPv4 address as is (also when IPv4-mapped), an IPv6
 * address by its /64 (one home or phone gets a whole /64, so counting single IPv6 addresses would limit nothing).
 */
export function addressKey(ip: string): string {
  let address = ip.trim().toLowerCase();
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part
      ? part.split(":").flatMap((g) => {
          if (!isIPv4(g)) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const [head, tail] = address.split("::");
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

export const rateKey = {
  signInIp: (ip: string) => `signin:ip:${addressKey(ip)}`,
  signInIpEmail: (ip: string, email: string) => `signin:ip-email:${addressKey(ip)}:${email}`,
  signInEmail: (email: string) => `signin:email:${email}`,
  registerIp: (ip: string) => `register:ip:${addressKey(ip)}`,
  registerEmail: (email: string) => `register:email:${email}`,
  resetIp: (ip: string) => `reset:ip:${addressKey(ip)}`,
  resetEmail: (email: string) => `reset:email:${email}`,
  passwordChangeUser: (userId: string) => `password-change:user:${userId}`,
  secondFactorIp: (ip: string) => `second-factor:ip:${addressKey(ip)}`,
  secondFactorUser: (userId: string) => `second-factor:user:${userId}`,
  confirmUser: (userId: string) => `confirm:user:${userId}`,
};
