import type { ReviewSummary } from "~/modules/reviews/reviews.logic";
import { formatDateZA, isoDateZA } from "~/modules/catalog/product.logic";
import type { ReviewFormState } from "~/modules/reviews/reviews.logic";
import { ReviewForm } from "./review-form";
import { Stars } from "./stars";

/**
 * Customer reviews: the average (1 decimal) with stars and the count, then each review (author's e-mail prefix or
 * 'Anonymous', en-ZA date, rating, comment). The loader has read them (a failure is `null`, shown as a note): in the
 * HTML itself, so they show without JavaScript (docs/decisions/036).
 */
export function ProductReviews(props: {
  reviews: ReviewSummary | null;
  productId: string;
  productSlug: string;
  /** the sign-in page, back to this product (from the loader) */
  signInHref: string;
  /** the signed-in user's review permission and own review (from the product loader); absent: the form asks itself */
  reviewForm?: ReviewFormState | null;
}) {
  const { reviews } = props;
  return (
    <section aria-labelledby="reviews-heading" className="border-t border-line pt-14">
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] lg:gap-16">
        <div>
          <p className="eyebrow">Reviews</p>
          <h2 id="reviews-heading" className="mt-3 text-4xl">
            Customer Reviews
          </h2>
          <ReviewsSummary data={reviews} />

          {/* Review form slot (money path): verified buyers write or update their review here. */}
          <ReviewForm productId={props.productId} productSlug={props.productSlug} signInHref={props.signInHref} state={props.reviewForm} />
        </div>

        <ReviewList data={reviews} />
      </div>
    </section>
  );
}

function ReviewsSummary({ data }: { data: ReviewSummary | null }) {
  if (!data) return <p className="mt-6 text-sm text-ink-soft">Reviews could not be loaded just now.</p>;
  if (data.count === 0 || data.average === null) {
    return <p className="mt-6 text-ink-soft">No reviews yet. Customers who buy this fragrance can share their impressions here.</p>;
  }
  return (
    <div className="mt-6 flex items-center gap-5">
      <p className="font-display text-6xl leading-none text-ink lining-nums tabular-nums">{data.average.toFixed(1)}</p>
      <div className="space-y-1.5">
        <Stars rating={data.average} size="lg" />
        <p className="text-sm text-ink-soft">
          Based on {data.count} {data.count === 1 ? "review" : "reviews"}
        </p>
      </div>
    </div>
  );
}

function ReviewList({ data }: { data: ReviewSummary | null }) {
  if (!data || data.reviews.length === 0) return <div className="hidden lg:block" />;
  return (
    <ol className="divide-y divide-line self-start border-y border-line" aria-label="Reviews, newest first">
      {data.reviews.map((review) => (
        <li key={review.id} className="py-7">
          <article>
            <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
              <Stars rating={review.rating} size="sm" />
              <time dateTime={isoDateZA(review.createdAt)} className="text-xs uppercase tracking-[0.14em] text-muted">
                {formatDateZA(review.createdAt)}
              </time>
            </div>
            {review.comment ? <p className="mt-3 leading-relaxed text-ink">{review.comment}</p> : null}
            <p className="mt-3 text-xs font-medium uppercase tracking-[0.16em] text-ink-soft">{review.author}</p>
          </article>
        </li>
      ))}
    </ol>
  );
}
