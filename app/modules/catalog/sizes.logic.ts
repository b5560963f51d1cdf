/**
 * Sizes as the shop names and chooses them (issue 33, docs/decisions/049). Pure and browser-safe: the product page,
 * the cart, the admin form, CSV import and every order surface word a size here.
 */

/**
 * The most a parcel may weigh: lockers' largest box and the shop's couriers take up to 25 kg per parcel. A bottle or its
 * packaging can never weigh more (it could never ship); the couriers read it from here.
 */
export const MAX_PARCEL_WEIGHT_KG = 25;

/** A size as the storefront shows it (the product page's choice, the cart line). */
export interface SizeOption {
  id: string;
  /** what `?size=` carries: "50ml" */
  code: string;
  /** "50 ml"; '' for a product's only size of unstated size */
  label: string;
  sizeMl: number | null;
  priceCents: number;
  /** the price before a sale when higher than the price (shownWasPrice); null = none */
  wasPriceCents: number | null;
  /** bottles left; null = not tracked */
  stock: number | null;
}

/** The label a size of this many millilitres gets when the owner gives none: "50 ml". */
export function labelForMl(ml: number | null | undefined): string {
  return ml === null || ml === undefined ? "" : `${ml} ml`;
}

/**
 * The URL code of a size label: lower case letters and digits only ("50 ml" → "50ml", "Travel spray" → "travelspray"),
 * so `?size=` needs no escaping; a size with no label is "standard".
 */
export function sizeCode(label: string): string {
  const code = label
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 40);
  return code || "standard";
}

/** Reads millilitres from a size's label as owners and WooCommerce write it: "50ml", "50 ml", "50 ML", "1.7 oz" (→ 50). */
export function mlFromLabel(label: string): number | null {
  const ml = /^\s*(\d{1,4}(?:[.,]\d+)?)\s*(ml|mℓ|millilitres?|milliliters?)\s*$/i.exec(label);
  if (ml) return Math.round(Number(ml[1]!.replace(",", ".")));
  const oz = /^\s*(\d{1,3}(?:[.,]\d+)?)\s*(fl\.?\s*)?oz\s*$/i.exec(label);
  if (oz) return Math.round(Number(oz[1]!.replace(",", ".")) * 29.5735);
  return null;
}

/** The size `?size=` names by its current code ("50ml", however typed: "50 ML"), or null. */
export function namedSize<T extends { code: string }>(sizes: readonly T[], code: string | null | undefined): T | null {
  if (!code) return null;
  const wanted = sizeCode(code);
  return sizes.find((s) => s.code === wanted) ?? null;
}

/** The size `?size=` names among those offered, else the first offered (sizes come in the owner's order). */
export function chooseSize<T extends { code: string }>(sizes: readonly T[], code: string | null | undefined): T | null {
  return namedSize(sizes, code) ?? sizes[0] ?? null;
}

/** The same page's path and query with `?size=` set to this code, the other parameters kept in their order. */
export function pathWithSize(url: string, code: string): string {
  const { pathname, searchParams } = new URL(url);
  searchParams.set("size", code);
  return `${pathname}?${searchParams}`;
}

/** A line's name on a cart, order, invoice, parcel or export: "Velvet Rose (50 ml)", or the bare name with no label. */
export function lineName(name: string, sizeLabel: string | null | undefined): string {
  return sizeLabel ? `${name} (${sizeLabel})` : name;
}

/** Does a card say "from R…"? When the visible sizes' prices differ. */
export function pricedFrom(priceCents: number, maxPriceCents: number | null | undefined): boolean {
  return maxPriceCents !== null && maxPriceCents !== undefined && maxPriceCents > priceCents;
}
