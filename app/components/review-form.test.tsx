import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ReviewFormState } from "~/modules/reviews/reviews.logic";
import { ReviewForm } from "./review-form";

/** The review form as the server draws it (what a shopper without JavaScript gets). */
function render(state: ReviewFormState) {
  const Stub = createRoutesStub([{ path: "/products/:slug", Component: () => <ReviewForm productId="p1" productSlug="velvet-oud" signInHref="/auth/login?redirect=%2Fproducts%2Fvelvet-oud" state={state} /> }]);
  return renderToString(<Stub initialEntries={["/products/velvet-oud"]} />);
}

describe("the review form opened from a review request link", () => {
  it("is the #write-review target, with a rating already chosen and a word of thanks", () => {
    const html = render({ signedIn: true, canReview: true, ownReview: null, requested: true });
    expect(html).toContain('id="write-review"');
    expect(html).toMatch(/<input[^>]*value="5"[^>]*checked=""|<input[^>]*checked=""[^>]*value="5"/);
    expect(html).toContain("Thank you for your order. Choose a rating");
  });

  it("is the ordinary form otherwise, and says nothing of a request once the customer has reviewed", () => {
    expect(render({ signedIn: true, canReview: true, ownReview: null })).not.toContain("Thank you for your order");
    const own = render({ signedIn: true, canReview: true, ownReview: { rating: 3, comment: "Soft." }, requested: true });
    expect(own).toContain("Update your review");
    expect(own).not.toContain("Thank you for your order");
  });
});
