import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { insertProduct, insertReview, insertReviewer } from "../../../tests/factories/catalog";
import { reviewAuthor } from "./reviews.logic";
import { getProductReviews } from "./reviews.server";

describe("reading a product's reviews", () => {
  it("reviewAuthor is the part before @, or Anonymous", () => {
    expect(reviewAuthor("lerato@example.com")).toBe("lerato");
    expect(reviewAuthor("@example.com")).toBe("Anonymous");
    expect(reviewAuthor(null)).toBe("Anonymous");
    expect(reviewAuthor("")).toBe("Anonymous");
  });

  it("a product id with no reviews gives an empty summary", async () => {
    expect(await getProductReviews(getDb(), "nope")).toEqual({ count: 0, average: null, reviews: [] });
  });

  it("counts and averages every review (1 dp) and lists the newest first, up to the limit", async () => {
    const db = getDb();
    const product = await insertProduct(db);
    for (const [i, rating] of [5, 4, 4].entries()) {
      const reviewer = await insertReviewer(db, `buyer${i}@example.co.za`);
      await insertReview(db, product.id, { user_id: reviewer.id, rating, created_at: `2026-01-0${i + 1}T10:00:00.000Z` });
    }
    const summary = await getProductReviews(db, product.id, 2);
    expect(summary.count).toBe(3);
    expect(summary.average).toBe(4.3);
    expect(summary.reviews.map((r) => r.author)).toEqual(["buyer2", "buyer1"]);
  });
});
