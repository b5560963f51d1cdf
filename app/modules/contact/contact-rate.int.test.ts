import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { CONTACT_RATE_RULE, contactRateLimiter } from "./contact.server";

describe("the contact form's limit per address (in the database: every worker and server counts together)", () => {
  it("allows 8 messages per address per 10 minutes, then again once the window has passed", async () => {
    const t0 = 1_000_000;
    for (let i = 0; i < CONTACT_RATE_RULE.max; i++) expect(await contactRateLimiter.allow("198.51.100.7", getDb(), t0 + i)).toBe(true);
    expect(await contactRateLimiter.allow("198.51.100.7", getDb(), t0 + 100)).toBe(false);
    expect(await contactRateLimiter.allow("198.51.100.8", getDb(), t0 + 100)).toBe(true);
    expect(await contactRateLimiter.allow("198.51.100.7", getDb(), t0 + CONTACT_RATE_RULE.windowMs - 1)).toBe(false);
    expect(await contactRateLimiter.allow("198.51.100.7", getDb(), t0 + CONTACT_RATE_RULE.windowMs)).toBe(true);
  });

  it("counts an IPv6 subscriber by its /64, so rotating addresses inside it doesn't dodge the limit", async () => {
    const t0 = 2_000_000;
    for (let i = 0; i < CONTACT_RATE_RULE.max; i++) expect(await contactRateLimiter.allow(`2001:db8:1:2::${i + 1}`, getDb(), t0)).toBe(true);
    expect(await contactRateLimiter.allow("2001:db8:1:2::ffff", getDb(), t0)).toBe(false);
    expect(await contactRateLimiter.allow("2001:db8:1:3::1", getDb(), t0)).toBe(true);
  });
});
