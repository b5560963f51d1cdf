import { Link } from "react-router";
import type { ScentPyramidView } from "~/modules/catalog/scent-pyramid.logic";

/**
 * The product's scent as a pyramid: top, heart and base notes on narrowing-to-widening tiers (the shape perfumers
 * draw), each note a word rather than a tag chip, then the family and how it wears in one line. Notes link to the
 * shop's note filter, the family to the family filter. The words and links come from the loader (scentPyramidView).
 */
export function ScentPyramid({ pyramid: { family, tiers, wear } }: { pyramid: ScentPyramidView }) {
  return (
    <div data-testid="scent-pyramid">
      {family ? (
        <p className="text-sm text-ink-soft">
          <Link to={family.href} className="font-medium text-gold underline decoration-gold-light underline-offset-4 hover:text-ink">
            {family.label}
          </Link>
          <span aria-hidden="true"> · </span>
          {family.everyday}
        </p>
      ) : null}
      {tiers.length ? (
        <ol className="mt-5 space-y-2" aria-label="Notes, from first impression to dry-down">
          {tiers.map((t, i) => (
            <li
              key={t.key}
              // the tiers widen towards the base, as a pyramid; on a phone the narrowest keeps room for its notes
              className={`mx-auto border-y border-gold-light/60 bg-sand/70 px-4 py-3 text-center ${i === 0 ? "w-[82%] sm:w-[64%]" : i === 1 ? "w-[91%] sm:w-[82%]" : "w-full"}`}
            >
              <p className="text-[0.65rem] uppercase tracking-[0.2em] text-gold">
                {t.label} <span className="normal-case tracking-normal text-muted">· {t.when}</span>
              </p>
              <p className="mt-1 font-display text-lg leading-snug text-ink">
                {/* a note never breaks inside ("pink / pepper"); the line breaks between notes, at the spaces left between them */}
                {t.notes.map(({ note, href }, j) => (
                  <span key={note}>
                    {j > 0 ? " " : null}
                    <span className="whitespace-nowrap">
                      {j > 0 ? <span aria-hidden="true" className="pr-1.5 text-gold-light">·</span> : null}
                      <Link to={href} className="hover:text-gold hover:underline hover:decoration-gold-light hover:underline-offset-4">
                        {note}
                      </Link>
                    </span>
                  </span>
                ))}
              </p>
            </li>
          ))}
        </ol>
      ) : null}
      {wear.length ? (
        <p className="mt-4 text-center text-xs uppercase tracking-[0.16em] text-balance text-ink-soft" data-testid="scent-wear">
          {wear.join(" · ")}
        </p>
      ) : null}
    </div>
  );
}

