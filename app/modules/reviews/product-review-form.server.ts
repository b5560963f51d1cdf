import type { PageAudience } from "~/context";
import type { Queryable } from "~/db/db.server";
import { loginPath } from "~/modules/accounts/redirect";
import { getSessionUser } from "~/modules/accounts/session.server";
import { logger } from "~/utils/logger.server";
import { reviewLinkOutcome } from "./review-link.server";
import { getReviewFormState } from "./reviews.server";

/**
 * The product page's review form (app/routes/product.tsx): may the signed-in user write (bought it, paid) and their
 * own review. A page shared by all customers or admins (server/page-cache.ts, `audience` set) can't know: null, and
 * the form asks /api/reviews itself. `signIn`: a valid review link opened signed out — sign in, then back to it.
 */
export async function productReviewForm(
  db: Queryable,
  request: Request,
  { audience, product, search }: { audience: PageAudience | undefined; product: { id: string; slug: string }; search: URLSearchParams },
) {
  const user = audience ? null : await getSessionUser(request);
  // A review request e-mail's link (?review=<signed token>). The page cache never shares such a request, so it is
  // rendered here with the session; a shared render (audience set) ignores the token.
  const reviewToken = audience ? null : search.get("review");
  // `?write-review`: the shopper's own review form rendered here (a shared page has none; without JavaScript the
  // page links here instead of loading it). Personal, like the review link, so never shared.
  const personal = reviewToken !== null || (!audience && search.has("write-review"));
  const reviewLink = reviewToken === null ? null : reviewLinkOutcome(reviewToken, { productId: product.id, userId: user?.id ?? null });
  // not signed in: sign in, then back to this very link (only for a valid link: a forged one is just the product page)
  if (reviewLink?.kind === "sign-in") return { signIn: loginPath(`/products/${product.slug}?review=${encodeURIComponent(reviewToken!)}#write-review`), personal, reviewForm: null };
  const formState =
    audience === "customer" || audience === "admin"
      ? null
      : await getReviewFormState(db, user, product.id).catch((error: unknown) => {
          logger.error({ err: error, productId: product.id }, "product: loading the review form state failed");
          return null;
        });
  // the link's own customer: the form opens ready to rate; anyone else (another account) sees the plain page
  const reviewForm = formState && reviewLink?.kind === "ready" ? { ...formState, requested: true } : formState;
  return { signIn: null, personal, reviewForm };
}
