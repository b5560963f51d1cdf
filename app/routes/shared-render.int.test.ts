/**
 * The loaders of storefront pages rendered once for a whole audience (server/page-cache.ts, decision 023): they decide
 * by the audience the server gives them, never by a session, so nothing personal reaches a copy others are served.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct } from "../../tests/factories/catalog";
import { insertOrder } from "../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { loader as rootLoader } from "../root";
import { loader as productLoader } from "./product";
import { loader as meLoader } from "./api.me";

let buyerCookie = "";
let buyerEmail = "";
const slug = "shared-render-oud";

beforeAll(async () => {
  const db = getDb();
  const product = await insertProduct(db, { name: "Shared Render Oud", slug });
  const buyer = await createUser(db);
  buyerEmail = buyer.email;
  buyerCookie = await sessionCookieFor(db, buyer.id);
  // a paid order of this product: the buyer may review it
  await insertOrder(db, { userId: buyer.id, lines: [{ productId: product.id }], status: "processing", paymentStatus: "completed" });
});

describe("root loader", () => {
  it("gives the role only — never an e-mail — for a request of its own", async () => {
    const data = await dataOf<{ user: unknown }>(await callLoader(rootLoader, "/", { headers: { cookie: buyerCookie } }));
    expect(data.user).toEqual({ isAdmin: false });
    expect(JSON.stringify(data)).not.toContain(buyerEmail);
  });

  it.each([
    ["visitor", null],
    ["customer", { isAdmin: false }],
    ["admin", { isAdmin: true }],
  ] as const)("for the %s audience: the audience's header, whatever cookie came along", async (audience, user) => {
    const data = await dataOf<{ user: unknown }>(await callLoader(rootLoader, "/", { audience, headers: { cookie: buyerCookie } }));
    expect(data.user).toEqual(user);
  });
});

describe("product loader", () => {
  it("for the buyer's own request: the review form state says they may review", async () => {
    const data = await dataOf<{ reviewForm: unknown }>(await callLoader(productLoader, `/products/${slug}`, { params: { slug }, headers: { cookie: buyerCookie } }));
    expect(data.reviewForm).toEqual({ signedIn: true, canReview: true, ownReview: null });
  });

  it("for a shared customers' or admins' copy: no review state (the form asks /api/reviews)", async () => {
    for (const audience of ["customer", "admin"] as const) {
      const data = await dataOf<{ reviewForm: unknown }>(await callLoader(productLoader, `/products/${slug}`, { params: { slug }, audience, headers: { cookie: buyerCookie } }));
      expect(data.reviewForm).toBeNull();
    }
  });

  it("for the visitors' copy: signed out, even when a cookie came along", async () => {
    const data = await dataOf<{ reviewForm: unknown }>(await callLoader(productLoader, `/products/${slug}`, { params: { slug }, audience: "visitor", headers: { cookie: buyerCookie } }));
    expect(data.reviewForm).toEqual({ signedIn: false, canReview: false, ownReview: null });
  });
});

describe("/api/me", () => {
  it("answers the signed-in user's own e-mail, privately; a visitor gets 401", async () => {
    const mine = await callLoader(meLoader, "/api/me", { headers: { cookie: buyerCookie } });
    expect(await dataOf(mine)).toEqual({ email: buyerEmail });
    expect(statusOf(mine)).toBe(200);
    const visitor = await callLoader(meLoader, "/api/me");
    expect(statusOf(visitor)).toBe(401);
    expect(await dataOf(visitor)).toEqual({ email: null });
  });
});
