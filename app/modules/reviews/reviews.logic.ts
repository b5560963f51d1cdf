/** Review constants and types the browser needs (no zod here: the product page must stay light). */
export const REVIEW_COMMENT_MAX = 2000;

/** What the product page's review form needs to know about the visitor (browser-safe). */
export interface ReviewFormState {
  signedIn: boolean;
  /** a buyer: has a paid order containing the product */
  canReview: boolean;
  ownReview: { rating: number; comment: string } | null;
  /** opened from the customer's own review request link (e-mail): the form comes into view with the rating focused */
  requested?: boolean;
}

export const REVIEW_MESSAGES = {
  notBuyer: "Only customers who have bought this product can review it",
  saved: "Thank you — your review has been saved.",
  updated: "Thank you — your review has been updated.",
} as const;

export interface ReviewView {
  id: string;
  rating: number;
  comment: string;
  createdAt: string;
  /** the part of the author's e-mail before '@', or 'Anonymous' */
  author: string;
}

export interface ReviewSummary {
  reviews: ReviewView[];
  count: number;
  /** mean rating rounded to 1 decimal; null when there are no reviews */
  average: number | null;
}

/** The part of an e-mail before '@', or 'Anonymous' when there is none. */
export function reviewAuthor(email: string | null | undefined): string {
  const prefix = (email ?? "").split("@")[0]?.trim();
  return prefix ? prefix : "Anonymous";
}
