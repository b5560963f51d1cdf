import { Suspense, useEffect } from "react";
import { Link, useFetcher } from "react-router";
import type { ReviewFormState } from "~/modules/reviews/reviews.logic";
import { STAR } from "./stars";
import { lazyComponent } from "./ui/lazy-component";

// Only verified buyers see the form: the server renders it in the page (whole, without JavaScript), the browser
// downloads its code when it is there to hydrate or show (see lazyComponent).
const ReviewFormBody = import.meta.env.SSR
  ? (await import("./review-form-body")).ReviewFormBody
  : lazyComponent(() => import("./review-form-body").then((m) => m.ReviewFormBody));

/**
 * Write or update your review (verified buyers only; the server checks again). Stars are a radio group 1–5
 * (default 5); submitting again updates the same review. `state` comes from the product loader; without it the form
 * asks /api/reviews itself.
 */
export function ReviewForm({
  productId,
  productSlug,
  signInHref,
  state,
}: {
  productId: string;
  productSlug: string;
  /** the sign-in page, coming back to this product (loginPath, made by the loader: the browser needs none of its checks) */
  signInHref: string;
  state?: ReviewFormState | null;
}) {
  const stateFetcher = useFetcher<ReviewFormState>();
  useEffect(() => {
    if (!state && stateFetcher.state === "idle" && !stateFetcher.data) stateFetcher.load(`/api/reviews?productId=${encodeURIComponent(productId)}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, productId]);
  const current = state ?? stateFetcher.data ?? null;
  if (!current) {
    // A page shared by every signed-in shopper has no form of its own: the script asks for it (above). Without
    // JavaScript, a link opens this page with the shopper's own form rendered by the server.
    return (
      <noscript>
        <p className="mt-8 border-t border-line pt-6 text-sm text-ink-soft">
          Bought this fragrance?{" "}
          <a href={`/products/${productSlug}?write-review#write-review`} className="text-ink underline underline-offset-4 hover:text-gold">
            Write a review
          </a>
        </p>
      </noscript>
    );
  }

  if (!current.signedIn) {
    return (
      <p className="mt-8 border-t border-line pt-6 text-sm text-ink-soft">
        Bought this fragrance?{" "}
        <Link to={signInHref} className="text-ink underline underline-offset-4 hover:text-gold">
          Sign in
        </Link>{" "}
        to share your review.
      </p>
    );
  }
  if (!current.canReview) {
    return <p className="mt-8 border-t border-line pt-6 text-sm text-muted">Reviews are written by customers who have bought this fragrance.</p>;
  }
  return (
    <Suspense fallback={null}>
      <ReviewFormBody productId={productId} productSlug={productSlug} ownReview={current.ownReview} requested={current.requested === true} star={STAR} />
    </Suspense>
  );
}
