/**
 * Money is integer cents everywhere. This is the one formatter: 'R' + rand with 2 decimals, thousands grouped with
 * a space (R1 299.00). Not Intl: its en-ZA output differs between Node and browser versions, and a hydration
 * mismatch on a price is the last thing a shop needs.
 */
export type Cents = number;

export function assertCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new TypeError(`Money must be whole cents, got ${value}`);
  return value;
}

export function formatRand(cents: Cents): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const rands = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  const rest = (abs % 100).toString().padStart(2, "0");
  return `${negative ? "-" : ""}R${rands}.${rest}`;
}

/** R50, R12.50, R1 000: formatRand without the cents when there are none, for amounts written in words and labels. */
export function formatWholeRand(cents: Cents): string {
  return formatRand(cents).replace(/\.00$/, "");
}

/** The amount without the R, as the spec's messages use it ('You saved R{amount}'): 2 decimals, no grouping. */
export function formatAmount(cents: Cents): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  return `${negative ? "-" : ""}${Math.floor(abs / 100)}.${(abs % 100).toString().padStart(2, "0")}`;
}

/** For machine-readable prices (JSON-LD, Open Graph): '349.99'. */
export const toDecimalString = formatAmount;

/**
 * Parses what a person types for a rand amount ('349.99', 'R 1 299', '1299,5') into cents.
 * Returns null for anything that is not a non-negative amount with at most 2 decimals.
 */
export function parseRandToCents(input: string | number): Cents | null {
  const text = String(input).trim().replace(/^R\s*/i, "").replace(/[\s\u00a0]/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ""] = text.split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Integer cents → rand as a decimal number, as the couriers' APIs take amounts (123456 → 1234.56: exact for whole cents). */
export function centsToRand(cents: Cents): number {
  return Math.round(cents) / 100;
}

/** A rand amount as a decimal number (a courier's 118.45) → integer cents; rounding absorbs float noise (89.95 * 100 = 8995.000000000001). */
export function randToCents(rand: number): Cents {
  return Math.round(rand * 100);
}

/** Rounds a fractional cent amount half away from zero: percentages of a total. */
export function roundCents(value: number): Cents {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** percent (whole number 0–100) of an amount in cents, rounded to the cent. */
export function percentOf(cents: Cents, percent: number): Cents {
  return roundCents((cents * percent) / 100);
}

/** VAT included in a VAT-inclusive price (15% in South Africa): price * 15 / 115. */
export function vatIncluded(cents: Cents, ratePercent = 15): Cents {
  return roundCents((cents * ratePercent) / (100 + ratePercent));
}
