import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { REVIEW_COMMENT_MAX, type ReviewFormState } from "~/modules/reviews/reviews.logic";
import { useTransient } from "./ui/use-transient";

interface SaveResult {
  ok: boolean;
  message?: string;
  error?: string;
}

/**
 * The form itself, for a verified buyer (see ReviewForm): its own module so that only the pages that show it download
 * it in the browser.
 */
export function ReviewFormBody({
  productId,
  productSlug,
  ownReview,
  requested,
  star,
}: {
  productId: string;
  productSlug: string;
  ownReview: ReviewFormState["ownReview"];
  /** opened from the customer's review request link: bring the form into view with the rating focused */
  requested: boolean;
  /**
   * the star's drawing (stars.tsx STAR), handed over by ReviewForm: imported here, it would be shared by the page's
   * chunk and this one, and the bundler would cut it into a file of its own, one more request for every product page
   */
  star: string;
}) {
  const fetcher = useFetcher<SaveResult>();
  const ratingGroup = useRef<HTMLFieldSetElement>(null);
  // Without JavaScript the link's #write-review brings the form into view; with it the chosen star takes the focus,
  // so the arrow keys change the rating straight away.
  useEffect(() => {
    if (!requested) return;
    const checked = ratingGroup.current?.querySelector<HTMLInputElement>('input[name="rating"]:checked');
    checked?.closest("form")?.scrollIntoView({ block: "center" });
    checked?.focus({ preventScroll: true });
  }, [requested]);
  const [rating, setRating] = useState(ownReview?.rating ?? 5);
  const [hasReview, setHasReview] = useState(!!ownReview);
  const saving = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok) setHasReview(true);
  }, [result]);
  const savedShown = useTransient(result?.ok ? result : null);

  return (
    <fetcher.Form id="write-review" method="post" action="/api/reviews" className="mt-8 scroll-mt-28 space-y-5 border-t border-line pt-6" aria-labelledby="review-form-heading">
      <h3 id="review-form-heading" className="font-display text-2xl text-ink">
        {hasReview ? "Update your review" : "Write a review"}
      </h3>
      {requested && !hasReview ? <p className="text-sm text-ink-soft">Thank you for your order. Choose a rating, and add a few words if you like.</p> : null}
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="productSlug" value={productSlug} />
      <fieldset ref={ratingGroup}>
        <legend className="text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">Your rating</legend>
        <div className="mt-2 flex gap-1">
          {[1, 2, 3, 4, 5].map((value) => (
            <label key={value} className="cursor-pointer p-0.5">
              <input
                type="radio"
                name="rating"
                value={value}
                checked={rating === value}
                onChange={() => setRating(value)}
                className="peer sr-only"
                aria-label={`${value} ${value === 1 ? "star" : "stars"}`}
              />
              <svg
                viewBox="0 0 24 24"
                aria-hidden="true"
                className={`h-7 w-7 transition-colors peer-focus-visible:outline-2 peer-focus-visible:outline-gold ${value <= rating ? "text-gold" : "text-line hover:text-gold-light"}`}
                fill="currentColor"
              >
                <path d={star} />
              </svg>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="space-y-1.5">
        <label htmlFor="review-comment" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
          Your review
        </label>
        <textarea
          id="review-comment"
          name="comment"
          rows={4}
          maxLength={REVIEW_COMMENT_MAX}
          defaultValue={ownReview?.comment ?? ""}
          placeholder="How does it wear? What does it remind you of?"
          className="block w-full rounded-none border border-line bg-white px-3 py-2.5 text-base text-ink placeholder:text-muted focus:border-gold focus:outline-none"
        />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : hasReview ? "Update your review" : "Submit review"}
        </Button>
        <p role="status" className="text-sm text-success">
          {result?.ok && savedShown ? result.message : ""}
        </p>
      </div>
    </fetcher.Form>
  );
}
