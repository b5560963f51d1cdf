import { shopHref } from "./shop-filters.logic";
import { hasProfile } from "~/modules/scent/scent-profile";
import type { ScentProfile } from "~/modules/scent/scent.logic";
import { AUDIENCE_TEXT, FAMILY_TEXT, INTENSITY_TEXT } from "~/modules/scent/scent.vocabulary";

/**
 * A product's scent pyramid as the page shows it: the words and the shop links, made by the product loader, so the
 * browser gets the one family's text instead of the whole vocabulary and the shop's filter code (the product page's
 * JavaScript budget, DESIGN.md).
 */
export interface ScentPyramidView {
  /** the family's name, in everyday words, and its shop filter */
  family: { label: string; everyday: string; href: string } | null;
  /** top, heart and base, each only with notes; every note links to the shop's note filter */
  tiers: Array<{ key: "top" | "heart" | "base"; label: string; when: string; notes: Array<{ note: string; href: string }> }>;
  /** how it wears, in one line: intensity, occasion, seasons, audience */
  wear: string[];
}

const TIERS = [
  { key: "top", label: "Top", when: "the first minutes" },
  { key: "heart", label: "Heart", when: "the first hours" },
  { key: "base", label: "Base", when: "what lingers" },
] as const;

/** The pyramid of a profile, or null when the profile says nothing (the page then shows the description's notes). */
export function scentPyramidView(profile: ScentProfile): ScentPyramidView | null {
  if (!hasProfile(profile)) return null;
  const season = profile.seasons.length === 4 ? "all year" : profile.seasons.join(", ");
  const wear = [
    profile.intensity ? INTENSITY_TEXT[profile.intensity].label.toLowerCase() : null,
    profile.occasion ? (profile.occasion === "both" ? "day and evening" : profile.occasion === "day" ? "daytime" : "evenings") : null,
    season || null,
    profile.audience ? (profile.audience === "anyone" ? "for anyone" : `for ${AUDIENCE_TEXT[profile.audience].toLowerCase()}`) : null,
  ].filter((w): w is string => Boolean(w));
  return {
    family: profile.family ? { label: FAMILY_TEXT[profile.family].label, everyday: FAMILY_TEXT[profile.family].everyday, href: shopHref({ family: profile.family }) } : null,
    tiers: TIERS.filter((t) => profile[t.key].length > 0).map((t) => ({ ...t, notes: profile[t.key].map((note) => ({ note, href: shopHref({ note }) })) })),
    wear,
  };
}
