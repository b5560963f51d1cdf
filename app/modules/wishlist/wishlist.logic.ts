/**
 * The wishlist (issue 34 point 4, docs/decisions/057): what the browser and the server agree on. Browser-safe.
 * A visitor's list is product ids in localStorage (key `wishlist`); a signed-in shopper's is on the server.
 */

/** localStorage key of a visitor's list. */
export const WISHLIST_KEY = "wishlist";

/** More than anyone saves; a bound on what a merge or a stored list may carry. */
export const WISHLIST_MAX_ITEMS = 200;

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** A list as stored or posted (JSON array of ids, or ids joined by commas): the valid ids, once each, in order. */
export function parseWishlistIds(raw: unknown): string[] {
  let values: unknown = raw;
  if (typeof raw === "string") {
    const text = raw.trim();
    if (text.startsWith("[")) {
      try {
        values = JSON.parse(text);
      } catch {
        return [];
      }
    } else values = text ? text.split(",") : [];
  }
  if (!Array.isArray(values)) return [];
  const seen = new Set<string>();
  for (const v of values) {
    if (typeof v === "string" && ID.test(v)) seen.add(v);
    if (seen.size >= WISHLIST_MAX_ITEMS) break;
  }
  return [...seen];
}

/** Both lists, every item kept once: the first list's order, then what only the second has. */
export function mergeWishlistIds(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/**
 * The separate opt-in for wishlist e-mails (POPIA s69(1)(a): direct marketing by e-mail needs consent; docs/decisions/
 * 057). The box is never ticked in advance; the consent row records this text. Change it only with its version.
 */
export const WISHLIST_ALERTS_CONSENT = {
  version: "2026-11-28",
  label: "E-mail me about my wishlist",
  description: "When a scent on my wishlist drops in price or comes back in stock. Turn it off here or with the link in every one of these e-mails.",
} as const;

export function wishlistAlertsWording(granted: boolean): string {
  return granted
    ? `${WISHLIST_ALERTS_CONSENT.label}. ${WISHLIST_ALERTS_CONSENT.description}`
    : "Wishlist e-mails turned off: no more e-mails about price drops or restocks of my wishlist.";
}

export const WISHLIST_MESSAGES = {
  shareInvalid: "This wishlist link is not valid: it may have been cut short or changed.",
  shareExpired: "This wishlist link has expired. Ask for a new one.",
  alertsOn: "Done: we'll e-mail you when a scent on your wishlist drops in price or comes back in stock.",
  alertsOff: "Wishlist e-mails are off.",
  added: "Saved to your wishlist.",
  removed: "Removed from your wishlist.",
} as const;
