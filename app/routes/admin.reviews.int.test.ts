import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { getProductReviews } from "~/modules/reviews/reviews.server";
import { REVIEW_ADMIN_MESSAGES } from "~/modules/reviews/reviews.schema";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertProduct, insertReview, insertReviewer } from "../../tests/factories/catalog";
import * as route from "./admin.reviews";

const db = () => getDb();
let cookie = "";

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
});

const post = (form: Record<string, string>) => callAction(route.action, "/admin/reviews", form, { headers: { cookie } });
const load = async (path: string) => dataOf(await callLoader(route.loader, path, { headers: { cookie } }));

describe("admin reviews", () => {
  it("edits a rating and comment in place; the product's average changes", async () => {
    const p = await insertProduct(db(), { name: "Review Target" });
    const a = await insertReview(db(), p.id, { rating: 5, comment: "Superb" });
    await insertReview(db(), p.id, { rating: 3, comment: "Fine" });
    expect((await getProductReviews(db(), p.id)).average).toBe(4);

    const result = await post({ intent: "update", id: a.id, rating: "1", comment: "  Changed my mind  " });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: REVIEW_ADMIN_MESSAGES.updated });
    const after = await getProductReviews(db(), p.id);
    expect(after.average).toBe(2);
    expect(after.reviews.find((r) => r.id === a.id)).toMatchObject({ rating: 1, comment: "Changed my mind" });
  });

  it.each([["0"], ["6"], ["4.5"], ["x"]])("refuses rating %s and changes nothing", async (rating) => {
    const p = await insertProduct(db());
    const r = await insertReview(db(), p.id, { rating: 4 });
    const result = await post({ intent: "update", id: r.id, rating, comment: "x" });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe("Rating must be 1 to 5");
    expect((await db().selectFrom("reviews").select("rating").where("id", "=", r.id).executeTakeFirstOrThrow()).rating).toBe(4);
  });

  it("searches comment, product and author e-mail; filters by rating; deletes with its message", async () => {
    const p = await insertProduct(db(), { name: "Searchable Neroli" });
    const lerato = await insertReviewer(db(), "lerato.m@example.co.za");
    const r = await insertReview(db(), p.id, { user_id: lerato.id, rating: 2, comment: "Faded by noon" });
    expect((await load("/admin/reviews?q=NOON")).list.rows.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expect((await load("/admin/reviews?q=lerato.m")).list.rows.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expect((await load("/admin/reviews?q=searchable%20neroli&rating=2")).list.rows).toHaveLength(1);
    expect((await load("/admin/reviews?q=searchable%20neroli&rating=5")).list.rows).toHaveLength(0);

    expect(await dataOf(await post({ intent: "delete", id: r.id }))).toMatchObject({ ok: true, message: REVIEW_ADMIN_MESSAGES.deleted });
    expect((await load("/admin/reviews?q=noon")).list.rows).toHaveLength(0);
  });
});
