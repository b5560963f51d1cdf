/**
 * The two signed links in the shop's e-mails share one signer (utils/signed-token.server.ts): each works only as
 * itself, and the links in e-mails sent before they shared it still open.
 */
import { describe, expect, it } from "vitest";
import { signReviewToken, verifyReviewToken } from "~/modules/reviews/review-link.server";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token";

const secret = "old-links-secret";
const now = new Date("2026-11-28T10:00:00Z");

describe("the unsubscribe link and the review link", () => {
  it("a review link never unsubscribes anyone, and an unsubscribe link never opens a review form", () => {
    const review = signReviewToken({ orderId: "order-1", productId: "product-1", userId: "user-1" }, { now, secret });
    const unsubscribe = signUnsubscribeToken("user-1", { now, secret });
    expect(verifyUnsubscribeToken(review, { secret, now })).toEqual({ ok: false, reason: "invalid" });
    expect(verifyReviewToken(unsubscribe, { productId: "product-1", secret, now })).toBeNull();
    // each is still itself
    expect(verifyUnsubscribeToken(unsubscribe, { secret, now })).toMatchObject({ ok: true, claims: { userId: "user-1" } });
    expect(verifyReviewToken(review, { productId: "product-1", secret, now })).toMatchObject({ orderId: "order-1", userId: "user-1" });
  });

  it("links signed on 1 November 2026, before the shared signer, still work", () => {
    // made by the former review-link.server.ts and unsubscribe-token.ts with this secret
    const oldReview = "eyJvIjoib3JkZXItMSIsInAiOiJwcm9kdWN0LTEiLCJ1IjoidXNlci0xIiwiZSI6MTc5ODY3NTIwMH0.fh45xZTVLJOWIwn57jzKFXSUp0TpduAooqKPOcktC1A";
    const oldUnsubscribe = "eyJ1IjoidXNlci0xIiwiZSI6MTgwMTI2NzIwMH0.Ns3SrcE7LOjydn-Q-PpKy31XOgPMIiUCWAWaa-Pe1nM";
    expect(verifyReviewToken(oldReview, { productId: "product-1", secret, now })).toEqual({ orderId: "order-1", productId: "product-1", userId: "user-1", expiresAt: 1798675200 });
    expect(verifyUnsubscribeToken(oldUnsubscribe, { secret, now })).toEqual({ ok: true, claims: { userId: "user-1", expiresAt: 1801267200 } });
    // and the same claims sign to the same text: the format did not move
    expect(signUnsubscribeToken("user-1", { now: new Date("2026-11-01T00:00:00Z"), secret })).toBe(oldUnsubscribe);
    expect(signReviewToken({ orderId: "order-1", productId: "product-1", userId: "user-1" }, { now: new Date("2026-11-01T00:00:00Z"), secret })).toBe(oldReview);
  });
});
