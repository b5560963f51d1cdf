import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct } from "../../tests/factories/catalog";
import { insertOrder } from "../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { action, loader } from "./api.reviews";

const db = () => getDb();

async function reviewsOf(productId: string) {
  return db().selectFrom("reviews").selectAll().where("product_id", "=", productId).execute();
}

async function actor() {
  const user = await createUser(db());
  return { user, cookie: await sessionCookieFor(db(), user.id) };
}

describe("/api/reviews", () => {
  it("a buyer (paid order containing the product) writes a review, and writing again updates it in place", async () => {
    const { user, cookie } = await actor();
    const p = await insertProduct(db(), { slug: "amber-reverie" });
    await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id }], status: "processing", paymentStatus: "completed" });

    const state = await dataOf(await callLoader(loader, `/api/reviews?productId=${p.id}`, { headers: { cookie } }));
    expect(state).toEqual({ signedIn: true, canReview: true, ownReview: null });

    const first = await callAction(action, "/api/reviews", { productId: p.id, productSlug: "amber-reverie", comment: "  Warm and long-lasting. " }, { headers: { cookie } });
    expect(statusOf(first)).toBe(200);
    expect(await dataOf(first)).toMatchObject({ ok: true, updated: false });
    let rows = await reviewsOf(p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: user.id, rating: 5, comment: "Warm and long-lasting." });
    const id = rows[0].id;

    const second = await callAction(action, "/api/reviews", { productId: p.id, rating: "3", comment: "Fades by noon." }, { headers: { cookie } });
    expect(await dataOf(second)).toMatchObject({ ok: true, updated: true });
    rows = await reviewsOf(p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, rating: 3, comment: "Fades by noon." });

    const after = await dataOf(await callLoader(loader, `/api/reviews?productId=${p.id}`, { headers: { cookie } }));
    expect(after.ownReview).toEqual({ rating: 3, comment: "Fades by noon." });
  });

  it.each([
    ["no order at all", null],
    ["an unpaid order", { status: "pending", paymentStatus: "pending" }],
    ["a failed payment", { status: "cancelled", paymentStatus: "failed" }],
    ["a paid order that was cancelled", { status: "cancelled", paymentStatus: "completed" }],
  ] as const)("a customer with %s gets 403 and nothing changes", async (_n, order) => {
    const { user, cookie } = await actor();
    const p = await insertProduct(db());
    if (order) await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id }], ...order });
    const result = await callAction(action, "/api/reviews", { productId: p.id, rating: "1", comment: "Never bought it" }, { headers: { cookie } });
    expect(statusOf(result)).toBe(403);
    expect(await dataOf(result)).toMatchObject({ ok: false, error: "Only customers who have bought this product can review it" });
    expect(await reviewsOf(p.id)).toHaveLength(0);
  });

  it("someone else's paid order does not count", async () => {
    const buyer = await actor();
    const other = await actor();
    const p = await insertProduct(db());
    await insertOrder(db(), { userId: buyer.user.id, lines: [{ productId: p.id }], status: "delivered", paymentStatus: "completed" });
    const result = await callAction(action, "/api/reviews", { productId: p.id, rating: "2" }, { headers: { cookie: other.cookie } });
    expect(statusOf(result)).toBe(403);
    expect(await reviewsOf(p.id)).toHaveLength(0);
  });

  it("a visitor is sent to login (back to the product) and nothing is stored", async () => {
    const p = await insertProduct(db(), { slug: "velvet-iris" });
    const result = await callAction(action, "/api/reviews", { productId: p.id, productSlug: "velvet-iris", rating: "5" });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fproducts%2Fvelvet-iris");
    expect(await reviewsOf(p.id)).toHaveLength(0);
    expect(await dataOf(await callLoader(loader, `/api/reviews?productId=${p.id}`))).toEqual({ signedIn: false, canReview: false, ownReview: null });
  });

  it("validates rating 1–5 and comment ≤ 2000 characters, changing nothing", async () => {
    const { user, cookie } = await actor();
    const p = await insertProduct(db());
    await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id }], status: "processing", paymentStatus: "completed" });
    const bads: Record<string, string>[] = [{ rating: "0" }, { rating: "6" }, { rating: "4.5" }, { rating: "five" }, { comment: "x".repeat(2001) }];
    for (const bad of bads) {
      const result = await callAction(action, "/api/reviews", { productId: p.id, ...bad }, { headers: { cookie } });
      expect(statusOf(result)).toBe(400);
    }
    expect(await reviewsOf(p.id)).toHaveLength(0);
  });

  it("refuses a cross-site post", async () => {
    const { user, cookie } = await actor();
    const p = await insertProduct(db());
    await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id }], status: "processing", paymentStatus: "completed" });
    const result = await callAction(action, "/api/reviews", { productId: p.id }, { headers: { cookie, origin: "https://evil.example" } });
    expect(statusOf(result)).toBe(403);
    expect(await reviewsOf(p.id)).toHaveLength(0);
  });
});
