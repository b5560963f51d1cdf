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
 * The notice names back-in-stock requests, the wishlist, gift cards, sample credits, WhatsApp updates, the cart kept in
 * the account and reminders, with the periods the retention job keeps them (docs/decisions/040, addendum). These texts
 * reached shoppers together in one release, so they are one version.
 */
export const PRIVACY_NOTICE_VERSION: LegalVersion = { version: "2026-11-28", label: "28 November 2026" };
