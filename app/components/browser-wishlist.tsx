import { useEffect, useState } from "react";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { useWishlist } from "~/modules/wishlist/wishlist.browser";
import { ProductCard } from "./product-card";
import { ButtonLink } from "./ui/button";

/**
 * A visitor's wishlist on /wishlist (docs/decisions/057): the ids kept in this browser, shown as cards once
 * /api/wishlist?ids=… has answered with the products as they are now (prices, stock). Without JavaScript the page
 * says why it can't show them.
 */
export function BrowserWishlist() {
  const { ids, ready, toggle } = useWishlist(false);
  const [products, setProducts] = useState<ProductSummary[] | null>(null);
  const key = ids.join(",");
  useEffect(() => {
    if (!ready) return;
    if (!key) {
      setProducts([]);
      return;
    }
    let live = true;
    fetch(`/api/wishlist?ids=${encodeURIComponent(key)}`, { headers: { Accept: "application/json" } })
      .then((r) => r.json() as Promise<{ products: ProductSummary[] }>)
      .then((body) => live && setProducts(body.products))
      .catch(() => live && setProducts([]));
    return () => {
      live = false;
    };
  }, [key, ready]);

  if (products === null) {
    return (
      <p className="text-ink-soft" data-testid="wishlist-loading">
        <span className="js-only">Loading your wishlist…</span>
        <span className="no-js-only">Your wishlist is kept in this browser and needs JavaScript to show. Sign in to keep it in your account instead.</span>
      </p>
    );
  }
  const shown = products.filter((p) => ids.includes(p.id));
  if (shown.length === 0) return <EmptyWishlist />;
  return <WishlistGrid products={shown} remove={(p) => <RemoveButton name={p.name} onClick={() => void toggle(p.id)} />} />;
}

export function EmptyWishlist() {
  return (
    <div className="border border-line bg-sand/40 p-6 text-center sm:p-10" data-testid="wishlist-empty">
      <p className="font-display text-2xl text-ink">Nothing saved yet</p>
      <p className="mt-2 text-sm text-ink-soft">Tap the heart on any fragrance to keep it here.</p>
      <ButtonLink to="/shop" className="mt-6">
        Explore the Collection
      </ButtonLink>
    </div>
  );
}

/** The cards, each with its remove button under it. */
export function WishlistGrid({ products, remove }: { products: ProductSummary[]; remove: (p: ProductSummary) => React.ReactNode }) {
  return (
    <ul role="list" className="grid grid-cols-2 gap-x-4 gap-y-10 sm:grid-cols-3 sm:gap-x-6 lg:grid-cols-4 lg:gap-x-8" data-testid="wishlist-items">
      {products.map((p, i) => (
        <li key={p.id} className="flex flex-col">
          <ProductCard product={p} eager={i < 4} headingLevel={2} />
          <div className="mt-1 flex justify-center">{remove(p)}</div>
        </li>
      ))}
    </ul>
  );
}

export function RemoveButton({ name, onClick, type = "button" }: { name: string; onClick?: () => void; type?: "button" | "submit" }) {
  return (
    <button type={type} onClick={onClick} aria-label={`Remove ${name}`} className="min-h-10 px-3 text-xs font-medium uppercase tracking-[0.14em] text-ink-soft underline decoration-line underline-offset-4 hover:text-danger">
      Remove
    </button>
  );
}
