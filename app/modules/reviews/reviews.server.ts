/**
 * Writing reviews (SPEC §5, §6): only a signed-in customer who bought the product may write one, and submitting again
 * updates the same review in place (unique product_id + user_id).
 *
 * "Bought" means an order of theirs containing the product (order_lines.product_id) whose payment completed and that
 * was not cancelled afterwards. An unpaid, failed or cancelled order does not count: a careful shop only lets people
 * who actually received the product review it. (Decision recorded here and in the money-path report.)
 */
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { REVIEW_MESSAGES, type ReviewFormState, type ReviewInput } from "./reviews.schema";
import { reviewAuthor, type ReviewSummary } from "./reviews.logic";

export async function hasBoughtProduct(db: Queryable, userId: string, productId: string): Promise<boolean> {
  const row = await db
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .select("o.id")
    .where("l.product_id", "=", productId)
    .where("o.user_id", "=", userId)
    .where("o.payment_status", "=", "completed")
    .where("o.status", "<>", "cancelled")
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export async function getOwnReview(db: Queryable, userId: string, productId: string) {
  return (
    (await db
      .selectFrom("reviews")
      .select(["id", "rating", "comment", "created_at"])
      .where("product_id", "=", productId)
      .where("user_id", "=", userId)
      .executeTakeFirst()) ?? null
  );
}

export async function getReviewFormState(db: Queryable, user: { id: string } | null, productId: string): Promise<ReviewFormState> {
  if (!user) return { signedIn: false, canReview: false, ownReview: null };
  const [canReview, own] = await Promise.all([hasBoughtProduct(db, user.id, productId), getOwnReview(db, user.id, productId)]);
  return { signedIn: true, canReview, ownReview: own ? { rating: own.rating, comment: own.comment } : null };
}

/**
 * Creates the user's review of the product, or updates their existing one in place (one row per buyer and product,
 * enforced by the database's unique constraint, so a double submit cannot create two). Non-buyers get a 403.
 */
export async function saveReview(db: Queryable, user: { id: string }, input: ReviewInput): Promise<{ id: string; updated: boolean }> {
  if (!(await hasBoughtProduct(db, user.id, input.productId))) throw new DomainError(REVIEW_MESSAGES.notBuyer, 403);
  const existing = await getOwnReview(db, user.id, input.productId);
  const id = existing?.id ?? newId();
  await db
    .insertInto("reviews")
    .values({ id, product_id: input.productId, user_id: user.id, rating: input.rating, comment: input.comment, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["product_id", "user_id"]).doUpdateSet((eb) => ({ rating: eb.ref("excluded.rating"), comment: eb.ref("excluded.comment") })))
    .execute();
  // The product page shows reviews, their count and average: shoppers see the new one on their next page.
  storefrontChanged("review saved");
  return { id: existing?.id ?? id, updated: !!existing };
}

/** How many reviews the product page lists (the average and count cover all of them). */
export const REVIEWS_SHOWN = 50;

/** The product's reviews newest first with their authors' e-mail prefixes, the count and the average (1 dp). */
export async function getProductReviews(db: Queryable, productId: string, limit = REVIEWS_SHOWN): Promise<ReviewSummary> {
  const [stats, rows] = await Promise.all([
    db
      .selectFrom("reviews")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("rating").as("total")])
      .where("product_id", "=", productId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("reviews as r")
      .leftJoin("users as u", "u.id", "r.user_id")
      .select(["r.id", "r.rating", "r.comment", "r.created_at", "u.email"])
      .where("r.product_id", "=", productId)
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc")
      .limit(limit)
      .execute(),
  ]);
  const count = Number(stats.n);
  const average = count === 0 ? null : Math.round((Number(stats.total) / count) * 10) / 10;
  return {
    count,
    average,
    reviews: rows.map((r) => ({
      id: r.id,
      rating: Number(r.rating),
      comment: r.comment ?? "",
      createdAt: r.created_at,
      author: reviewAuthor(r.email),
    })),
  };
}
