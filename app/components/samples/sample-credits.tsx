import { Link } from "react-router";
import { formatRand } from "~/utils/money";

export interface CreditRow {
  id: string;
  name: string;
  slug: string | null;
  amount: string;
  until: string;
  state: "open" | "held" | "used" | "expired";
}

const STATE_TEXT: Record<CreditRow["state"], string> = {
  open: "Comes off your next bottle",
  held: "On an order awaiting payment",
  used: "Used",
  expired: "Expired",
};

/** The profile's "Your sample credits" (docs/decisions/054): each sample's price, on a full bottle of its scent. */
export function SampleCredits({ credits, totalOpenCents }: { credits: CreditRow[]; totalOpenCents: number }) {
  if (credits.length === 0) return null;
  return (
    <section aria-labelledby="credits-heading" className="mt-12" data-testid="sample-credits">
      <h2 id="credits-heading" className="text-2xl text-ink">
        Your sample credits
      </h2>
      <p className="mt-1 text-sm text-ink-soft">
        {totalOpenCents > 0 ? `${formatRand(totalOpenCents)} to use. ` : ""}Each comes off a full bottle of its scent at checkout, on its own.
      </p>
      <ul className="mt-5 divide-y divide-line border-y border-line">
        {credits.map((c) => (
          <li key={c.id} className={`flex items-baseline justify-between gap-4 py-3 ${c.state === "open" || c.state === "held" ? "" : "opacity-60"}`}>
            <div className="min-w-0">
              <p className="font-display text-lg text-ink">{c.slug && c.state === "open" ? <Link to={`/products/${c.slug}`} className="hover:text-gold">{c.name}</Link> : c.name}</p>
              <p className="text-xs text-ink-soft">
                {STATE_TEXT[c.state]}
                {c.state === "open" || c.state === "held" ? ` · until ${c.until}` : ""}
              </p>
            </div>
            <p className="shrink-0 text-sm font-medium tabular-nums text-ink">{c.amount}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
