/**
 * Back-in-stock alerts (issue 34 point 3, docs/decisions/057): what the shopper is shown and how long anything is
 * kept. Browser-safe: the notify-me form renders these texts and the consent log records the same ones.
 */
import { lineName } from "~/modules/catalog/sizes.logic";

/** A request is kept at most this long (POPIA s14: no longer than its purpose needs), then deleted unsent. */
export const STOCK_ALERT_KEEP_MONTHS = 6;

/** A visitor's confirmation link works this long; an unconfirmed request is deleted when it expires. */
export const STOCK_ALERT_CONFIRM_DAYS = 7;

/** The form's promise, shown beside its button: what the shop will do with the address (POPIA s18). */
export const STOCK_ALERT_PROMISE = `One e-mail when it is back, then we delete your address (also after ${STOCK_ALERT_KEEP_MONTHS} months if it doesn't come back).`;

/**
 * The notify-me consent as the form shows it (label, then the promise): what a stock_alert consent row records
 * (POPIA s11(1)(a)). Change the wording only together with its version.
 */
export const STOCK_ALERT_CONSENT = {
  version: "2026-11-28",
  wording: (what: string) => `Notify me when ${what} is back in stock. ${STOCK_ALERT_PROMISE}`,
} as const;

export const STOCK_ALERT_MESSAGES = {
  waiting: (what: string) => `We'll e-mail you once when ${what} is back.`,
  confirmSent: (email: string) =>
    `Almost done: we've sent a link to ${email}. Open it within ${STOCK_ALERT_CONFIRM_DAYS} days to confirm, and we'll e-mail you once when it is back.`,
  inStock: (what: string) => `${what} is in stock: add it to your cart.`,
  unknown: "This fragrance is no longer in the shop.",
  confirmed: (what: string) => `Confirmed: we'll e-mail you once when ${what} is back in stock, then delete your address.`,
  alreadyConfirmed: (what: string) => `Already confirmed: we'll e-mail you once when ${what} is back in stock.`,
  invalid: "This confirmation link is not valid: it may have been cut short or changed. Nothing was changed. Ask again on the fragrance's page.",
  expired: `This confirmation link has expired (links work for ${STOCK_ALERT_CONFIRM_DAYS} days) and the request was deleted. Ask again on the fragrance's page.`,
  gone: "There is nothing waiting under this link any more: the e-mail went out, or the request was deleted.",
} as const;

/** "Velvet Rose" or "Velvet Rose (50 ml)": what the shopper waits for. */
export function waitedFor(productName: string, sizeLabel: string | null | undefined): string {
  return lineName(productName, sizeLabel);
}
