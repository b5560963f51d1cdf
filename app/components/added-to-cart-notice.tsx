import type { ReactNode } from "react";
import { Link } from "react-router";

/**
 * "Added … to your cart. View cart": the one notice every add-to-cart control shows (a bottle, a sample, a discovery
 * set, a gift card). The live region is always rendered, so a screen reader hears each new notice; `addedKey` changes
 * with each addition (a count), so the same words added twice are announced twice.
 */
export function AddedToCartNotice({
  addedKey,
  children,
  className = "",
  testId,
}: {
  /** falsy while nothing was added; a new value for each addition */
  addedKey: number | string | null | undefined | false;
  /** what was added, e.g. "Your gift card is in your cart." */
  children: ReactNode;
  /** the live region's spacing */
  className?: string;
  testId?: string;
}) {
  return (
    <div role="status" aria-live="polite" className={`text-sm ${className}`}>
      {addedKey ? (
        <p key={addedKey} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-success" data-testid={testId}>
          <span>{children}</span>
          <Link to="/cart" className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            View cart
          </Link>
        </p>
      ) : null}
    </div>
  );
}
