import { CartRestoreNotice } from "~/components/cart-restore";
import { ButtonLink } from "~/components/ui/button";

/** The cart page's heading and its empty state (app/routes/cart.tsx). */

export function CartHeading({ count }: { count?: number }) {
  return (
    <header>
      <p className="eyebrow">Your selection</p>
      <h1 className="mt-2 font-display text-4xl text-ink sm:text-5xl">Shopping Cart</h1>
      {count ? (
        <p className="mt-2 text-sm text-muted">
          {count} {count === 1 ? "item" : "items"}
        </p>
      ) : null}
      <CartRestoreNotice />
    </header>
  );
}

export function EmptyCart() {
  return (
    <section className="mx-auto mt-12 max-w-lg border border-line bg-white/60 px-6 py-14 text-center sm:px-12">
      <p className="eyebrow">Nothing here yet</p>
      <h2 className="mt-3 font-display text-3xl text-ink">Your cart is empty</h2>
      <p className="mt-3 text-sm leading-relaxed text-ink-soft">Discover our designer-inspired fragrances and find a scent that feels like yours.</p>
      <ButtonLink to="/shop" className="mt-8" size="lg">
        Explore the collection
      </ButtonLink>
    </section>
  );
}
