import { z } from "zod";
import { REVIEW_COMMENT_MAX } from "./reviews.logic";

export { REVIEW_COMMENT_MAX, REVIEW_MESSAGES, type ReviewFormState } from "./reviews.logic";

/** A review as the form posts it: rating 1–5 (default 5), comment up to 2000 characters. */
export const reviewInputSchema = z.object({
  productId: z.string().trim().min(1, "Product is required").max(100),
  rating: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? 5 : v),
    z.coerce.number().int("Rating must be 1 to 5").min(1, "Rating must be 1 to 5").max(5, "Rating must be 1 to 5"),
  ),
  comment: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .pipe(z.string().max(REVIEW_COMMENT_MAX, `Comment must be at most ${REVIEW_COMMENT_MAX} characters`)),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
