/**
 * A product's scent profile between its database columns (migration 0023) and the app, and the admin form's fields.
 * Browser-safe. Reading is forgiving (a value outside the lists, e.g. written by hand in the database, reads as "not
 * said"); writing goes through parseProfileFields, which refuses with the owner's own words.
 */
import type { ScentProfile } from "./scent.logic";
import {
  isAudience,
  isFamily,
  isIntensity,
  isNoteTag,
  isOccasion,
  isSeason,
  joinNotes,
  NOTE_MAX_LENGTH,
  NOTES_PER_TIER,
  SEASONS,
  splitNotes,
  type Season,
} from "./scent.vocabulary";

export interface ScentColumns {
  scent_family: string | null;
  scent_top: string;
  scent_heart: string;
  scent_base: string;
  scent_intensity: string | null;
  scent_occasion: string | null;
  scent_seasons: string;
  scent_for: string | null;
}

export const SCENT_COLUMNS = ["scent_family", "scent_top", "scent_heart", "scent_base", "scent_intensity", "scent_occasion", "scent_seasons", "scent_for"] as const;

export function profileFromRow(row: ScentColumns): ScentProfile {
  return {
    family: isFamily(row.scent_family) ? row.scent_family : null,
    top: splitNotes(row.scent_top),
    heart: splitNotes(row.scent_heart),
    base: splitNotes(row.scent_base),
    intensity: isIntensity(row.scent_intensity) ? row.scent_intensity : null,
    occasion: isOccasion(row.scent_occasion) ? row.scent_occasion : null,
    seasons: SEASONS.filter((s) => splitNotes(row.scent_seasons).includes(s)),
    audience: isAudience(row.scent_for) ? row.scent_for : null,
  };
}

export function profileToColumns(p: ScentProfile): ScentColumns {
  return {
    scent_family: p.family,
    scent_top: joinNotes(p.top),
    scent_heart: joinNotes(p.heart),
    scent_base: joinNotes(p.base),
    scent_intensity: p.intensity,
    scent_occasion: p.occasion,
    scent_seasons: SEASONS.filter((s) => p.seasons.includes(s)).join(", "),
    scent_for: p.audience,
  };
}

/** Whether anything of the profile is said (the product page shows the pyramid only then). */
export function hasProfile(p: ScentProfile): boolean {
  return Boolean(p.family || p.top.length || p.heart.length || p.base.length || p.intensity || p.occasion || p.seasons.length || p.audience);
}

// ---------------------------------------------------------------------------------------------------------------
// The admin form

/** The form's field names (one text box per tier of notes, comma-separated; selects; season checkboxes). */
export const PROFILE_FIELDS = {
  family: "scentFamily",
  top: "scentTop",
  heart: "scentHeart",
  base: "scentBase",
  intensity: "scentIntensity",
  occasion: "scentOccasion",
  seasons: "scentSeasons",
  audience: "scentFor",
} as const;

export type ProfileFieldErrors = Partial<Record<keyof typeof PROFILE_FIELDS, string>>;

const TIER_LABEL = { top: "Top notes", heart: "Heart notes", base: "Base notes" } as const;

/** One tier's notes from a comma-separated box: trimmed, inner spaces collapsed, duplicates (any case) dropped. */
export function parseNotesField(raw: string, tier: keyof typeof TIER_LABEL): { notes: string[]; error?: string } {
  const seen = new Set<string>();
  const notes: string[] = [];
  for (const part of raw.split(",")) {
    const note = part.replace(/\s+/g, " ").trim();
    if (!note) continue;
    if (!isNoteTag(note))
      return { notes: [], error: `${TIER_LABEL[tier]}: “${Array.from(note).slice(0, 40).join("")}” isn't a note (letters, at most ${NOTE_MAX_LENGTH} characters; separate notes with commas)` };
    if (seen.has(note.toLowerCase())) continue;
    seen.add(note.toLowerCase());
    notes.push(note);
  }
  if (notes.length > NOTES_PER_TIER) return { notes: [], error: `${TIER_LABEL[tier]}: at most ${NOTES_PER_TIER} notes` };
  return { notes };
}

/**
 * The profile from the form's fields. Every field may stay empty (a product without a profile is still sold); a value
 * outside the lists (a tampered form) is an error, never silently dropped.
 */
export function parseProfileFields(get: (name: string) => string, getAll: (name: string) => string[]): { profile: ScentProfile; errors: ProfileFieldErrors } {
  const errors: ProfileFieldErrors = {};
  const choice = <T>(key: keyof typeof PROFILE_FIELDS, is: (v: unknown) => v is T, message: string): T | null => {
    const value = get(PROFILE_FIELDS[key]).trim();
    if (value === "") return null;
    if (is(value)) return value;
    errors[key] = message;
    return null;
  };
  const family = choice("family", isFamily, "Choose a family from the list");
  const intensity = choice("intensity", isIntensity, "Choose light, moderate or strong");
  const occasion = choice("occasion", isOccasion, "Choose day, evening or both");
  const audience = choice("audience", isAudience, "Choose women, men or anyone");
  const tiers = (["top", "heart", "base"] as const).map((tier) => {
    const { notes, error } = parseNotesField(get(PROFILE_FIELDS[tier]), tier);
    if (error) errors[tier] = error;
    return notes;
  });
  const seasons: Season[] = [];
  for (const value of getAll(PROFILE_FIELDS.seasons)) {
    if (isSeason(value)) {
      if (!seasons.includes(value)) seasons.push(value);
    } else errors.seasons = "Choose seasons from the list";
  }
  return {
    profile: { family, top: tiers[0]!, heart: tiers[1]!, base: tiers[2]!, intensity, occasion, seasons: SEASONS.filter((s) => seasons.includes(s)), audience },
    errors,
  };
}
