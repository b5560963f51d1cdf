import type { ReactNode } from "react";

/**
 * A folded part of an admin row (an order's details, its history, an entry's changes): a native <details>, so it
 * opens without JavaScript and stays out of the way until asked. The summary is a gold chevron that turns when open,
 * the label in capitals and a short note of what is inside.
 */
export function Fold({
  label,
  note,
  className = "",
  summaryClassName = "gap-3",
  children,
}: {
  label: string;
  /** what the fold holds, said before it is opened (e.g. "3 fields"); may carry a hidden "of order …" for screen readers */
  note: ReactNode;
  className?: string;
  /** the summary row's spacing and wrapping */
  summaryClassName?: string;
  children: ReactNode;
}) {
  return (
    <details className={`group ${className}`}>
      <summary className={`flex cursor-pointer list-none items-center text-xs text-ink-soft marker:hidden ${summaryClassName}`}>
        <span aria-hidden="true" className="inline-block text-gold transition-transform group-open:rotate-90">
          ›
        </span>
        <span className="font-medium uppercase tracking-[0.14em] text-ink">{label}</span>
        {note}
      </summary>
      {children}
    </details>
  );
}
