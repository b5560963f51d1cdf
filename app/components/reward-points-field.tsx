import { useState } from "react";
import { controlClass } from "~/components/ui/field";
import { formatRand } from "~/utils/money";

/**
 * Reward points at checkout (docs/decisions/062): a member chooses how many to spend, at most what the server's quote
 * allows (`most`: their points, the goods left after the other discounts). The choice goes back into the quote, which
 * prices it; one hidden field posts it, and the server checks and takes the points inside the order's transaction.
 */
export function RewardPointsField({
  points,
  chosen,
  onChoose,
  error,
}: {
  points: { available: number; most: number; used: number; cents: number; refusal: string | null };
  chosen: number;
  onChoose: (points: number) => void;
  error?: string;
}) {
  const [typed, setTyped] = useState(chosen ? String(chosen) : "");
  const count = (n: number) => n.toLocaleString("en-ZA");
  const apply = () => {
    const n = Number(typed.trim() || "0");
    onChoose(Number.isSafeInteger(n) && n > 0 ? n : 0);
  };
  const message = error ?? points.refusal;
  return (
    <section aria-labelledby="reward-points-heading" className="mt-6 border-t border-line pt-5" data-testid="reward-points-field">
      <h3 id="reward-points-heading" className="text-xs font-medium uppercase tracking-[0.18em] text-ink">
        Reward points
      </h3>
      <p className="mt-2 text-sm text-ink-soft">
        You have <span className="tabular-nums text-ink">{count(points.available)}</span> {points.available === 1 ? "point" : "points"}.
        {points.used > 0 ? (
          <>
            {" "}
            Using <span className="tabular-nums text-ink">{count(points.used)}</span> (−{formatRand(points.cents)}).
          </>
        ) : points.most > 0 ? (
          <> This order can use up to {count(points.most)}.</>
        ) : null}
      </p>
      {points.most > 0 || points.used > 0 ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <label htmlFor="reward-points" className="sr-only">
            Points to spend
          </label>
          <input
            id="reward-points"
            type="number"
            inputMode="numeric"
            min={0}
            max={points.most}
            step={1}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter applies the points; it must not submit the checkout
              if (e.key === "Enter") {
                e.preventDefault();
                apply();
              }
            }}
            placeholder="0"
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? "reward-points-error" : undefined}
            className={`${controlClass} min-w-0 flex-1 basis-24 tabular-nums`}
          />
          <button type="button" onClick={apply} className="min-h-11 border border-ink px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-ivory">
            Use
          </button>
          {points.most > 0 && points.used !== points.most ? (
            <button
              type="button"
              onClick={() => {
                setTyped(String(points.most));
                onChoose(points.most);
              }}
              className="min-h-11 text-xs text-ink underline decoration-gold underline-offset-4 hover:text-gold"
            >
              Use {count(points.most)}
            </button>
          ) : null}
          {chosen > 0 ? (
            <button
              type="button"
              onClick={() => {
                setTyped("");
                onChoose(0);
              }}
              className="min-h-11 text-xs text-ink underline decoration-gold underline-offset-4 hover:text-gold"
            >
              Remove
            </button>
          ) : null}
        </div>
      ) : null}
      {message ? (
        <p id="reward-points-error" role="alert" className="mt-2 text-sm text-danger">
          {message}
        </p>
      ) : null}
    </section>
  );
}
