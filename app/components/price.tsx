import { shownWasPrice } from "~/modules/catalog/was-price.logic";
import { formatRand } from "~/utils/money";

/**
 * A price, with the price before a sale struck through in front of it when there is one higher (issue 32): a <del> a
 * screen reader announces as "Was R1 299,00, now R899,00" (the struck line alone says nothing to it).
 */
export function PriceWithWas({
  priceCents,
  wasPriceCents,
  className = "",
  wasClassName = "",
}: {
  priceCents: number;
  wasPriceCents: number | null | undefined;
  className?: string;
  wasClassName?: string;
}) {
  const was = shownWasPrice(priceCents, wasPriceCents);
  if (was === null) return <span className={className}>{formatRand(priceCents)}</span>;
  return (
    <>
      <del className={`text-muted decoration-1 ${wasClassName}`} data-testid="was-price">
        <span className="sr-only">Was </span>
        {formatRand(was)}
      </del>{" "}
      <span className={className}>
        <span className="sr-only">now </span>
        {formatRand(priceCents)}
      </span>
    </>
  );
}
