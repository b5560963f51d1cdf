/**
 * "Inspired by" (issue 13): the designer fragrance a product is inspired by, worded with care. Our fragrances are
 * original blends; naming the designer scent tells a shopper what it smells like, and must never read as if the
 * product were that perfume or the shop were connected to its house. Pure and browser-safe.
 */

export interface InspiredBy {
  house: string | null;
  fragrance: string | null;
}

export const INSPIRED_HOUSE_MAX = 60;
export const INSPIRED_FRAGRANCE_MAX = 80;

/**
 * 'Dior Sauvage', 'Dior' or 'Sauvage'; a fragrance that already names its house stands alone ('Bleu de Chanel',
 * not 'Chanel Bleu de Chanel'). null when the product names nothing.
 */
export function inspiredName(i: InspiredBy): string | null {
  const house = i.house?.trim() ?? "";
  const fragrance = i.fragrance?.trim() ?? "";
  if (house && fragrance && fragrance.toLowerCase().includes(house.toLowerCase())) return fragrance;
  const parts = [house, fragrance].filter(Boolean);
  return parts.length ? parts.join(" ") : null;
}

/** The card's short line: 'Inspired by Dior Sauvage'. */
export function inspiredByShort(i: InspiredBy): string | null {
  const name = inspiredName(i);
  return name ? `Inspired by ${name}` : null;
}

/** The product page's line, said once: 'Inspired by Dior Sauvage — our own blend, not affiliated with Dior'. */
export function inspiredByLong(i: InspiredBy): string | null {
  const short = inspiredByShort(i);
  if (!short) return null;
  const owner = i.house?.trim() || "the trademark owner";
  return `${short} — our own blend, not affiliated with ${owner}`;
}

/** The shop's house filter in the URL: trimmed, inner spaces collapsed, at most 60 characters; '' = all houses. */
export function normalizeHouse(raw: string | null | undefined): string {
  if (!raw) return "";
  const clean = raw.replace(/[\u0000-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim();
  return clean.length <= INSPIRED_HOUSE_MAX ? clean : "";
}
