/**
 * /api/reviews — the review-writing endpoint of the product page.
 *   GET  ?productId=…  → the visitor's ReviewFormState (signed in? may review? own review)
 *   POST productId, rating (1–5, default 5), comment (≤ 2000) → creates or updates the user's review.
 * Only signed-in buyers may write (checked here, whatever the page showed); a visitor is sent to login.
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import { getDb } from "~/db/db.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { loginPath } from "~/modules/accounts/redirect";
import { reviewInputSchema, REVIEW_MESSAGES } from "~/modules/reviews/reviews.schema";
import { getReviewFormState, saveReview } from "~/modules/reviews/reviews.server";
import { DomainError, fieldErrorsOf, formError } from "~/utils/errors";
import { isSlug } from "~/utils/slug";
import { logger } from "~/utils/logger.server";
import type { Route } from "./+types/api.reviews";
import { readFields, readQuery } from "~/utils/request.server";

export async function loader({ request }: Route.LoaderArgs) {
  const productId = z.string().min(1).max(100).safeParse(readQuery(request).get("productId"));
  if (!productId.success) return data({ signedIn: false, canReview: false, ownReview: null }, { status: 400 });
  const user = await getSessionUser(request);
  return data(await getReviewFormState(getDb(), user, productId.data), { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readFields(request);
  const slug = typeof form.productSlug === "string" && isSlug(form.productSlug) ? form.productSlug : null;
  const back = slug ? `/products/${slug}` : "/shop";
  // A plain (no-JavaScript) form post navigates: answer it with a page, not JSON.
  const navigating = request.headers.get("sec-fetch-mode") === "navigate";
  const user = await getSessionUser(request);
  if (!user) throw redirect(loginPath(back));
  const parsed = reviewInputSchema.safeParse(form);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error.issues);
    return formError(Object.values(fieldErrors)[0] ?? "Please check your review", 400, fieldErrors);
  }
  try {
    const saved = await saveReview(getDb(), user, parsed.data);
    if (navigating) throw redirect(`${back}#reviews-heading`);
    return { ok: true as const, updated: saved.updated, message: saved.updated ? REVIEW_MESSAGES.updated : REVIEW_MESSAGES.saved };
  } catch (error) {
    if (error instanceof DomainError) {
      logger.warn({ userId: user.id, productId: parsed.data.productId, status: error.status }, "review refused");
      return formError(error.message, error.status);
    }
    throw error;
  }
}
