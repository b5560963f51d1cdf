import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, verifyUnsubscribeToken } from "./unsubscribe-token";

const secret = "unit-secret-unit-secret-unit-secret-42";
const now = new Date("2026-11-26T08:00:00Z");
const DAY = 24 * 3600_000;

describe("an unsubscribe link's token", () => {
  it("names its person until it expires, UNSUBSCRIBE_LINK_DAYS after it was made", () => {
    const token = signUnsubscribeToken("user-1", { secret, now });
    expect(verifyUnsubscribeToken(token, { secret, now })).toEqual({ ok: true, claims: { userId: "user-1", expiresAt: now.getTime() / 1000 + UNSUBSCRIBE_LINK_DAYS * 86400 } });
    const lastMoment = new Date(now.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY - 1000);
    expect(verifyUnsubscribeToken(token, { secret, now: lastMoment }).ok).toBe(true);
    expect(verifyUnsubscribeToken(token, { secret, now: new Date(now.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY) })).toEqual({ ok: false, reason: "expired" });
  });

  it("is refused as not ours when altered, cut short, for someone else, or signed with another secret", () => {
    const token = signUnsubscribeToken("user-1", { secret, now });
    const [payload, signature] = token.split(".") as [string, string];
    const other = Buffer.from(JSON.stringify({ u: "user-2", e: now.getTime() / 1000 + 86400 })).toString("base64url");
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    for (const bad of [`${other}.${signature}`, `${payload}.${flipped}`, token.slice(0, -5), payload, `${token}.x`, "", "not-a-token", "x".repeat(500), 42, null]) {
      expect(verifyUnsubscribeToken(bad, { secret, now }), String(bad)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(verifyUnsubscribeToken(signUnsubscribeToken("user-1", { secret: "another-secret-another-secret-000", now }), { secret, now })).toEqual({ ok: false, reason: "invalid" });
  });

  it("a well-signed token with a payload that is not ours is refused too", () => {
    // what a leak of the secret could not make worse, but a bug could: only {u: string, e: integer} is a token
    const sign = (body: unknown) => {
      const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
      return `${payload}.${createHmac("sha256", secret).update(`scentara/unsubscribe/v1\n${payload}`).digest("base64url")}`;
    };
    expect(verifyUnsubscribeToken(sign({ u: "user-1", e: 4_000_000_000 }), { secret, now }).ok).toBe(true);
    for (const body of [{ u: "", e: 4_000_000_000 }, { u: "user-1", e: "4000000000" }, { u: "user-1" }, ["user-1"], { u: "x".repeat(101), e: 4_000_000_000 }]) {
      expect(verifyUnsubscribeToken(sign(body), { secret, now })).toEqual({ ok: false, reason: "invalid" });
    }
  });
});
