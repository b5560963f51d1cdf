import { z } from "zod";
import { REVIEW_COMMENT_MAX } from "./reviews.logic";

export { REVIEW_COMMENT_MAX, REVIEW_MESSAGES, type ReviewFormState } from "./reviews.logic";

/** A review as the form posts it: rating 1–5 (default 5), comment up to 2000 characters. */
const rating = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? 5 : v),
  z.coerce.number({ error: "Rating must be 1 to 5" }).int("Rating must be 1 to 5").min(1, "Rating must be 1 to 5").max(5, "Rating must be 1 to 5"),
);
const comment = z
  .string()
  .optional()
  .transform((v) => (v ?? "").trim())
  .pipe(z.string().max(REVIEW_COMMENT_MAX, `Comment must be at most ${REVIEW_COMMENT_MAX} characters`));

export const reviewInputSchema = z.object({
  productId: z.string().trim().min(1, "Product is required").max(100),
  rating,
  comment,
});

/** The admin's edits (SPEC §2 Reviews: inline edit of rating and comment, delete with confirmation). */
export const REVIEW_ADMIN_MESSAGES = {
  updated: "Review updated",
  deleted: "Review deleted",
  failedUpdate: "Failed to update review",
  failedDelete: "Failed to delete review",
  none: "No reviews found.",
  noMatches: "No reviews match your filters.",
} as const;

const id = z.string().trim().min(1).max(100);
export const reviewAdminIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("update"), id, rating, comment }),
  z.object({ intent: z.literal("delete"), id }),
]);
export type ReviewInput = z.infer<typeof reviewInputSchema>;
