import { sql } from "kysely";
import { noteKey } from "./scent.vocabulary";

/**
 * "Carries the note" in SQL for the shop's note filter (issue 22), the same rule as noteCarries: the product has a note
 * equal to the wanted one, or ending in it after a space ("rose" finds "Turkish rose", not "rosemary"). The three tiers
 * are joined into ", top, heart, base," lower-cased, and the wanted note is looked for between a separator (", " or a
 * space) and a comma. The wanted note is reduced to letters, digits, spaces, '&' and '-' first, so it carries no LIKE
 * wildcard. The same SQL on both databases (|| and lower() are portable). Its own file, without the catalogue's
 * imports, because catalog.server.ts uses it and scent-finder/scent-finder.server.ts uses catalog.server.ts.
 */
export function carriesNote(note: string) {
  const want = noteKey(note).replace(/[^a-z0-9 &-]/g, "");
  const joined = sql`lower(', ' || p.scent_top || ', ' || p.scent_heart || ', ' || p.scent_base || ',')`;
  // Every note in the joined text has a space before it and a comma after, so ' rose,' finds "rose" and "Turkish
  // rose" alike; the usual qualifiers follow ("lavender absolute" is lavender, as noteKey says). Aliases (orris for
  // iris) are the matching's only, not the filter's.
  const patterns = ["", ...NOTE_QUALIFIER_WORDS.map((q) => ` ${q}`)].map((q) => sql`${joined} like ${`% ${want}${q},%`}`);
  return sql<boolean>`(${sql.join(patterns, sql` or `)})`;
}

/** The qualifiers the filter looks past (a subset of noteKey's: the ones the catalogue uses). */
const NOTE_QUALIFIER_WORDS = ["absolute", "accord", "notes"] as const;
