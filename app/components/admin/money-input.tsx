import { controlClass } from "~/components/ui/field";

/**
 * A rand amount as the admin forms take it: an "R" before the box (as the product form's price), text typed as the
 * owner writes it ("85", "85.00", "R 1 299,50"); the server's schema turns it into cents and says what is wrong.
 * Not type="number": that drops what it can't read (the server would hear "empty" instead of the owner's typo).
 */
export function MoneyInput({
  allowNegative = false,
  className = "",
  ...props
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "inputMode"> & {
  /** a margin may take money off: "-20". Phones' decimal keypads have no minus key (iOS), so such a field gets the full keyboard. */
  allowNegative?: boolean;
}) {
  return (
    <div className={`flex min-w-0 ${className}`}>
      <span aria-hidden="true" className="flex items-center border border-r-0 border-line bg-sand px-3 text-ink-soft">
        R
      </span>
      <input {...props} type="text" inputMode={allowNegative ? "text" : "decimal"} autoComplete="off" className={`${controlClass} min-w-0 tabular-nums`} />
    </div>
  );
}
