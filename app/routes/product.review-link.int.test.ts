import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { safeRedirect } from "~/modules/accounts/redirect";
import { signReviewToken } from "~/modules/reviews/review-link.server";
import { insertProduct } from "../../tests/factories/catalog";
import { insertOrder } from "../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { headers, loader } from "./product";

/**
 * Following a review request link (`/products/<slug>?review=<token>`, issue 19): a visitor signs in and comes back to
 * the same link; the link's customer gets the form ready to rate; anyone else gets the plain product page.
 */
const slug = "review-link-oud";
let productId = "";
let otherProductId = "";
let token = "";
let buyerCookie = "";
let otherCookie = "";

beforeAll(async () => {
  const db = getDb();
  productId = (await insertProduct(db, { name: "Review Link Oud", slug })).id;
  otherProductId = (await insertProduct(db, { name: "Another Scent", slug: "another-scent" })).id;
  const buyer = await createUser(db);
  const other = await createUser(db);
  const order = await insertOrder(db, { userId: buyer.id, lines: [{ productId }], status: "delivered", paymentStatus: "completed" });
  // the other customer bought it too: they may review it, but this link is not theirs
  await insertOrder(db, { userId: other.id, lines: [{ productId }], status: "delivered", paymentStatus: "completed" });
  token = signReviewToken({ orderId: order.id, productId, userId: buyer.id });
  buyerCookie = await sessionCookieFor(db, buyer.id);
  otherCookie = await sessionCookieFor(db, other.id);
});

const open = (query: string, options: Parameters<typeof callLoader>[2] = {}) => callLoader(loader, `/products/${slug}${query}`, { params: { slug }, ...options });
const cacheControlOf = (result: unknown) => new Headers((result as { init?: { headers?: HeadersInit } }).init?.headers).get("cache-control");

describe("a review request link on the product page", () => {
  it("sends a visitor to sign in, with the same link (and its #write-review) as where to come back", async () => {
    const result = await open(`?review=${token}`);
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    const back = `/products/${slug}?review=${token}#write-review`;
    expect(location).toBe(`/auth/login?redirect=${encodeURIComponent(back)}`);
    // the login page follows it back unchanged
    expect(safeRedirect(new URL(location, "http://localhost").searchParams.get("redirect"))).toBe(back);
  });

  it("opens the review form ready to rate for the link's customer, on a page no shared cache may keep", async () => {
    const result = await open(`?review=${token}`, { headers: { cookie: buyerCookie } });
    expect(statusOf(result)).toBe(200);
    const page = await dataOf(result);
    expect(page.product.id).toBe(productId);
    expect(page.reviewForm).toEqual({ signedIn: true, canReview: true, ownReview: null, requested: true });
    expect(cacheControlOf(result)).toBe("private, no-store");
    expect(headers({ loaderHeaders: new Headers({ "Cache-Control": "private, no-store" }) } as never)).toEqual({ "Cache-Control": "private, no-store" });
  });

  it("shows another signed-in customer the plain product page (their own form state, not an error)", async () => {
    const result = await open(`?review=${token}`, { headers: { cookie: otherCookie } });
    expect(statusOf(result)).toBe(200);
    expect((await dataOf(result)).reviewForm).toEqual({ signedIn: true, canReview: true, ownReview: null });
  });

  it("treats a forged, expired or other product's link as no link: the plain page, no sign-in detour", async () => {
    const expired = signReviewToken({ orderId: "o", productId, userId: "u" }, { now: new Date(Date.now() - 61 * 24 * 60 * 60 * 1000) });
    const forOther = signReviewToken({ orderId: "o", productId: otherProductId, userId: "u" });
    for (const bad of ["forged.token", expired, forOther, "", "x".repeat(5000)]) {
      const visitor = await open(`?review=${encodeURIComponent(bad)}`);
      expect(statusOf(visitor)).toBe(200);
      expect((await dataOf(visitor)).reviewForm).toEqual({ signedIn: false, canReview: false, ownReview: null });
    }
    const wrong = await open(`?review=${forOther}`, { headers: { cookie: buyerCookie } });
    expect((await dataOf(wrong)).reviewForm).toEqual({ signedIn: true, canReview: true, ownReview: null });
  });

  it("is ignored by a render shared by a whole audience (which never reads the session)", async () => {
    for (const audience of ["visitor", "customer"] as const) {
      const result = await open(`?review=${token}`, { audience, headers: { cookie: buyerCookie } });
      expect(statusOf(result)).toBe(200);
      expect((await dataOf(result)).reviewForm?.requested).toBeUndefined();
    }
  });

  it("leaves the plain product page as it was: no Cache-Control of its own", async () => {
    const result = await open("");
    expect(cacheControlOf(result)).toBeNull();
    expect(headers({ loaderHeaders: new Headers() } as never)).toEqual({});
  });
});
