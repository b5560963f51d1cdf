/** Counts as the shop writes them: thousands grouped by a space, as the money formatter does. Pure and browser-safe. */
/** A count with thousands grouped by a space, as the money formatter does: 12 345. */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** The same held together by no-break spaces, for a figure on a page (a card, a tab, a table cell): 12 345. */
export function formatCountUnbroken(n: number): string {
  return formatCount(n).replace(/ /g, "\u00a0");
}
