import { Link } from "react-router";
import { formatCountUnbroken } from "~/modules/reports/sales.logic";

export interface StatCard {
  label: string;
  value: number | string;
  /** where the card leads (the whole card is the link) */
  to?: string;
  hint?: string;
}

/** A row of figures: as many to a row as fit (two on a phone), each row filled edge to edge. */
export function StatCards({ cards, className = "" }: { cards: StatCard[]; className?: string }) {
  return (
    <ul className={`grid grid-cols-[repeat(auto-fit,minmax(9rem,1fr))] gap-2 ${className}`}>
      {cards.map((card) => {
        const body = (
          <>
            <span className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-muted">{card.label}</span>
            <span className="mt-2 block font-display text-3xl leading-none text-ink tabular-nums">{typeof card.value === "number" ? formatCountUnbroken(card.value) : card.value}</span>
            {card.hint ? <span className="mt-1.5 block text-xs text-muted">{card.hint}</span> : null}
          </>
        );
        return (
          <li key={card.label} className="border border-line bg-white">
            {card.to ? (
              <Link to={card.to} className="block h-full px-4 py-4 transition-colors hover:bg-sand focus-visible:bg-sand">
                {body}
              </Link>
            ) : (
              <div className="px-4 py-4">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
