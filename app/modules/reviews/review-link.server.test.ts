import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { REVIEW_LINK_DAYS, reviewLinkOutcome, reviewLinkPath, signReviewToken, verifyReviewToken } from "./review-link.server";

const secret = "a-test-secret-that-is-long-enough-0123456789";
const claims = { orderId: "order-1", productId: "product-1", userId: "user-1" };
const sentAt = new Date("2025-06-01T08:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
const later = (days: number) => new Date(sentAt.getTime() + days * DAY);

const token = signReviewToken(claims, { now: sentAt, secret });
const verify = (t: unknown, over: { productId?: string; now?: Date; secret?: string } = {}) =>
  verifyReviewToken(t, { productId: "product-1", now: later(1), secret, ...over });

/** The token's payload, decoded. */
const payloadOf = (t: string) => JSON.parse(Buffer.from(t.split(".")[0]!, "base64url").toString("utf8"));
/** A token with this payload, signed with the given secret exactly as the module signs. */
function forge(payload: unknown, key = secret, purpose = "scentara/review-request/v1") {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${createHmac("sha256", key).update(`${purpose}\n${body}`).digest("base64url")}`;
}

describe("review request link tokens", () => {
  it("verify for the product they were made for, carrying order, product, user and expiry", () => {
    expect(verify(token)).toEqual({ ...claims, expiresAt: Math.floor(sentAt.getTime() / 1000) + REVIEW_LINK_DAYS * 86_400 });
    // URL-safe as they are: nothing to escape in a link
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(reviewLinkPath("velvet-oud", token)).toBe(`/products/velvet-oud?review=${token}#write-review`);
  });

  it("stop working after the link's lifetime", () => {
    expect(verify(token, { now: later(REVIEW_LINK_DAYS - 1) })).not.toBeNull();
    expect(verify(token, { now: later(REVIEW_LINK_DAYS) })).toBeNull();
    expect(verify(token, { now: later(REVIEW_LINK_DAYS + 300) })).toBeNull();
  });

  it("are refused when tampered with: payload, signature, or a re-signed payload under another secret or purpose", () => {
    const [payload, sig] = token.split(".") as [string, string];
    const otherUser = Buffer.from(JSON.stringify({ ...payloadOf(token), u: "user-2" }), "utf8").toString("base64url");
    expect(verify(`${otherUser}.${sig}`)).toBeNull();
    const flipped = sig.slice(0, -2) + (sig.at(-2) === "A" ? "B" : "A") + sig.at(-1);
    expect(verify(`${payload}.${flipped}`)).toBeNull();
    expect(verify(`${payload}.${sig.slice(0, -4)}`)).toBeNull();
    expect(verify(`${payload}.`)).toBeNull();
    expect(verify(payload)).toBeNull();
    expect(verify(`${token}.x`)).toBeNull();
    // a longer expiry, signed by someone without the secret
    expect(verify(forge({ ...payloadOf(token), e: payloadOf(token).e + 365 * 86_400 }, "guessed-secret"))).toBeNull();
    // the same secret used for another purpose (a session, a webhook) does not make a review link
    expect(verify(forge(payloadOf(token), secret, "session"))).toBeNull();
    // the shop's secret changed (rotated): old links stop working, nothing else happens
    expect(verify(token, { secret: `${secret}-rotated` })).toBeNull();
    // and the module's own format, re-signed properly, is accepted (the forger above is faithful)
    expect(verify(forge(payloadOf(token)))).not.toBeNull();
  });

  it("are refused on another product's page", () => {
    expect(verify(token, { productId: "product-2" })).toBeNull();
  });

  it("refuse whatever is not a token, without throwing", () => {
    for (const junk of [undefined, null, 42, "", ".", "..", "x.y", "a".repeat(5000), "%00.%00", forge("just a string"), forge({ o: 1, p: "product-1", u: "user-1", e: 9e9 }), forge({ o: "order-1", p: "product-1", u: "user-1", e: "never" }), forge({ o: "o", p: "product-1", u: "x".repeat(500), e: 9e9 })]) {
      expect(verify(junk)).toBeNull();
    }
  });

  it("tell the product page what to do: sign in, the form for the link's user, the plain page for anyone else", () => {
    const at = { productId: "product-1", now: later(2), secret };
    expect(reviewLinkOutcome(token, { ...at, userId: null })).toEqual({ kind: "sign-in" });
    expect(reviewLinkOutcome(token, { ...at, userId: "user-1" })).toMatchObject({ kind: "ready", claims: { orderId: "order-1", userId: "user-1" } });
    expect(reviewLinkOutcome(token, { ...at, userId: "user-2" })).toEqual({ kind: "other-user" });
    // an invalid link never asks anyone to sign in
    expect(reviewLinkOutcome("forged.link", { ...at, userId: null })).toEqual({ kind: "invalid" });
    expect(reviewLinkOutcome(token, { ...at, now: later(REVIEW_LINK_DAYS + 1), userId: null })).toEqual({ kind: "invalid" });
    expect(reviewLinkOutcome(token, { ...at, productId: "product-2", userId: "user-1" })).toEqual({ kind: "invalid" });
  });
});
