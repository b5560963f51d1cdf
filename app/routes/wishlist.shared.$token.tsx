/**
 * /wishlist/shared/:token — a wishlist shown read-only to whoever has its link (docs/decisions/057): the products
 * only, nothing about their owner, no buttons that change it. A link that isn't one the shop signed (a changed
 * character) shows nothing but a message.
 */
import { data } from "react-router";
import type { Route } from "./+types/wishlist.shared.$token";
import { ProductGrid } from "~/components/product-card";
import { ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { sharedWishlist } from "~/modules/wishlist/wishlist.server";

export function meta() {
  return [{ title: "A Wishlist | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ params }: Route.LoaderArgs) {
  const shared = await sharedWishlist(getDb(), params.token);
  return shared.ok ? { products: shared.products, message: null } : data({ products: [], message: shared.message }, { status: 404 });
}

export default function SharedWishlist({ loaderData }: Route.ComponentProps) {
  const { products, message } = loaderData;
  return (
    <main className="container-page pt-24 pb-24 sm:pt-32">
      <p className="eyebrow">Shared with you</p>
      <h1 className="mt-3 text-4xl sm:text-5xl">A Wishlist</h1>
      <div className="mt-8">
        {message ? (
          <Notice tone="error">{message}</Notice>
        ) : products.length === 0 ? (
          <p className="text-ink-soft">This wishlist is empty for now.</p>
        ) : (
          <ProductGrid products={products} eagerCount={2} headingLevel={2} />
        )}
      </div>
      <div className="mt-12">
        <ButtonLink to="/shop" variant="secondary">
          Explore the Collection
        </ButtonLink>
      </div>
    </main>
  );
}
