import { Link } from "react-router";
import { PLACEHOLDER_IMAGE, sizedImage } from "~/modules/media/images";
import type { CartQuoteLine } from "~/modules/orders/cart-quote";
import { CART_QUANTITY_CHOICES } from "~/modules/orders/orders.logic";
import { formatRand } from "~/utils/money";
import { PriceWithWas } from "./price";

/** Quantity choices 1–6 (SPEC §5); a larger quantity chosen on the product page stays as an extra option. */
export function quantityChoices(current: number): number[] {
  const choices: number[] = [...CART_QUANTITY_CHOICES];
  if (!choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b);
}

/**
 * One cart line: image, name, the unit price the server quoted for this quantity (bulk tier shown against the base
 * price), a quantity select and Remove. Before the quote arrives it shows the stored (display-only) price, dimmed.
 */
export function CartLineItem({
  line,
  pending,
  onQuantity,
  onRemove,
}: {
  line: CartQuoteLine;
  pending: boolean;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
}) {
  // the line's key, not its product: two gift cards (or two sizes) are two lines of one "product"
  const selectId = `qty-${line.key.replace(/[^A-Za-z0-9_-]/g, "")}`;
  const href = line.slug ? `/products/${line.slug}${line.sizeLabel && line.sizeCode ? `?size=${line.sizeCode}` : ""}` : undefined;
  return (
    <li className="grid grid-cols-[5.5rem_1fr] gap-4 border-b border-line py-6 first:pt-0 sm:grid-cols-[7rem_1fr_auto] sm:gap-6">
      <div className="aspect-[4/5] w-full overflow-hidden bg-sand">
        {line.isGiftCard ? (
          // a gift card has no photograph: a small card in the page's gift card colours
          <div aria-hidden="true" className="flex h-full w-full items-center justify-center bg-sand p-2">
            <div className="flex aspect-[1.586] w-full flex-col justify-between rounded-md bg-ink p-1.5 text-ivory ring-1 ring-gold/60 ring-inset">
              <span className="text-[0.4rem] uppercase tracking-[0.2em] text-gold">Gift card</span>
              <span className="font-display text-sm leading-none tabular-nums">{line.sizeLabel.replace(/\.00$/, "")}</span>
            </div>
          </div>
        ) : (
        <img
          src={line.image ? sizedImage(line.image, 400) : PLACEHOLDER_IMAGE}
          alt=""
          width={112}
          height={140}
          loading="lazy"
          decoding="async"
          className="h-full w-full object-cover"
        />
        )}
      </div>
      <div className="min-w-0">
        <h2 className="font-display text-xl leading-snug text-ink sm:text-2xl">
          {href ? (
            <Link to={href} className="transition-colors hover:text-gold">
              {line.name}
            </Link>
          ) : (
            line.name
          )}
        </h2>
        {line.sizeLabel ? (
          <p className="mt-0.5 text-xs uppercase tracking-[0.14em] text-muted" data-testid="line-size">
            {line.sizeLabel}
          </p>
        ) : null}
        <p className={`mt-1 text-sm ${pending ? "text-muted" : "text-ink-soft"}`} data-testid="unit-price">
          {line.tierApplied ? (
            <>
              <span className="mr-2 text-muted line-through" aria-label={`was ${formatRand(line.basePriceCents)}`}>
                {formatRand(line.basePriceCents)}
              </span>
              <span className="font-medium text-ink">{formatRand(line.unitPriceCents)}</span> each
              <span className="ml-2 inline-block border border-gold/40 bg-sand px-1.5 py-0.5 align-middle text-[0.65rem] uppercase tracking-[0.14em] text-gold">
                Bulk price
              </span>
            </>
          ) : (
            <>
              <PriceWithWas priceCents={line.unitPriceCents} wasPriceCents={line.wasPriceCents} className="font-medium text-ink" wasClassName="mr-1" /> each
            </>
          )}
        </p>
        {line.stockProblem ? <p className="mt-1 text-sm font-medium text-danger">{line.stockProblem}</p> : null}
        {line.nextTier ? (
          <p className="mt-1 text-xs text-muted">
            Buy {line.nextTier.minQuantity} or more for {formatRand(line.nextTier.priceCents)} each
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-3">
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-xs uppercase tracking-[0.14em] text-ink-soft">
              Qty
            </label>
            <select
              id={selectId}
              aria-label={`Quantity for ${line.name}`}
              value={line.quantity}
              onChange={(e) => onQuantity(Number(e.currentTarget.value))}
              className="h-10 rounded-none border border-line bg-white pr-8 pl-3 text-base text-ink focus:border-gold focus:outline-none"
            >
              {quantityChoices(line.quantity).map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Remove ${line.name}`}
            className="text-xs uppercase tracking-[0.14em] text-muted underline decoration-line underline-offset-4 transition-colors hover:text-danger hover:decoration-danger"
          >
            Remove
          </button>
        </div>
        <p className="mt-3 text-base font-medium text-ink sm:hidden">{formatRand(line.lineTotalCents)}</p>
      </div>
      <p className={`hidden text-right text-lg font-medium sm:block ${pending ? "text-muted" : "text-ink"}`} data-testid="line-total">
        {formatRand(line.lineTotalCents)}
      </p>
    </li>
  );
}
