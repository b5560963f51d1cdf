import { Link } from "react-router";
import { shopHref } from "~/modules/catalog/shop-filters.logic";
import type { ScentProfile } from "~/modules/scent/scent.logic";
import { AUDIENCE_TEXT, FAMILY_TEXT, INTENSITY_TEXT } from "~/modules/scent/scent.vocabulary";

const TIERS = [
  { key: "top", label: "Top", when: "the first minutes" },
  { key: "heart", label: "Heart", when: "the first hours" },
  { key: "base", label: "Base", when: "what lingers" },
] as const;

/**
 * The product's scent as a pyramid: top, heart and base notes on narrowing-to-widening tiers (the shape perfumers
 * draw), each note a word rather than a tag chip, then the family and how it wears in one line. Notes link to the
 * shop's note filter, the family to the family filter.
 */
export function ScentPyramid({ profile }: { profile: ScentProfile }) {
  const tiers = TIERS.filter((t) => profile[t.key].length > 0);
  const season = profile.seasons.length === 4 ? "all year" : profile.seasons.join(", ");
  const wear = [
    profile.intensity ? INTENSITY_TEXT[profile.intensity].label.toLowerCase() : null,
    profile.occasion ? (profile.occasion === "both" ? "day and evening" : profile.occasion === "day" ? "daytime" : "evenings") : null,
    season || null,
    profile.audience ? (profile.audience === "anyone" ? "for anyone" : `for ${AUDIENCE_TEXT[profile.audience].toLowerCase()}`) : null,
  ].filter(Boolean);
  return (
    <div data-testid="scent-pyramid">
      {profile.family ? (
        <p className="text-sm text-ink-soft">
          <Link to={shopHref({ family: profile.family })} className="font-medium text-gold underline decoration-gold-light underline-offset-4 hover:text-ink">
            {FAMILY_TEXT[profile.family].label}
          </Link>
          <span aria-hidden="true"> · </span>
          {FAMILY_TEXT[profile.family].everyday}
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
                {profile[t.key].map((note, j) => (
                  <span key={note}>
                    {j > 0 ? " " : null}
                    <span className="whitespace-nowrap">
                      {j > 0 ? <span aria-hidden="true" className="pr-1.5 text-gold-light">·</span> : null}
                      <Link to={shopHref({ note })} className="hover:text-gold hover:underline hover:decoration-gold-light hover:underline-offset-4">
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

