/**
 * The versions of the shop's own legal texts: the terms (/terms) and the privacy notice (/privacy). A version is the
 * date the text took effect (ISO), so a consent row (app/modules/consent, docs/decisions/039) can say which text a
 * person accepted or was shown. Change the version, and its label, whenever the text itself changes; the pages show
 * the label as their effective date. Browser-safe.
 */
export interface LegalVersion {
  /** ISO date the text took effect: what the consent log records */
  version: string;
  /** the same date as the page says it: "15 May 2025" */
  label: string;
}

export const TERMS_VERSION: LegalVersion = { version: "2025-05-15", label: "15 May 2025" };

/**
 * The notice now names gift cards, sample credits, WhatsApp updates, the cart kept in the account and reminders, with
 * the periods the retention job keeps them (docs/decisions/040, addendum; before: back-in-stock requests and the
 * wishlist, 28 November 2026, itself the same day's text: the next day so that the two texts have their own versions).
 */
export const PRIVACY_NOTICE_VERSION: LegalVersion = { version: "2026-11-29", label: "29 November 2026" };
