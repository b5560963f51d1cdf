/**
 * 2 ml samples, discovery sets and the credit a sample gives back (issue 33 point 2, docs/decisions/054): the pure
 * rules, browser-safe. A sample travels through the cart as an ordinary cart line with a reserved size token, so the
 * browser's cart, the quote URL and the checkout post carry it without knowing what it is; the server recognises the
 * token and prices it from the settings (never from the browser).
 *   a sample:         {id: <product id>, size: "sample-2ml"}
 *   a discovery set:  {id: "discovery-set", size: "set:<product id>.<product id>…"} (the scents in the shopper's order)
 */

/** Millilitres in one sample: decanted from the product's bulk. */
export const SAMPLE_ML = 2;
export const SAMPLE_SIZE_ID = "sample-2ml";
export const SAMPLE_LABEL = `${SAMPLE_ML} ml sample`;
export const DISCOVERY_SET_ID = "discovery-set";
const SET_PREFIX = "set:";
/** Bounds the owner may choose for the set's size (the token must fit the cart line's size field). */
export const SET_SIZE_MIN = 2;
export const SET_SIZE_MAX = 10;
/** Roughly what a vial in its sleeve weighs packed: what a parcel counts for each sample. */
export const SAMPLE_WEIGHT_GRAMS = 10;

/**
 * What one unit of a sample line weighs packed: its vials (a sample one, a set one per scent); null for a bottle line
 * (its size's weight or the default). The one rule for the checkout's courier quote (a cart line: sampleVialsOf) and
 * the parcel booked for an order (its order_line_samples), so both weigh a sample the same way.
 */
export function sampleLineWeightGrams(kind: string | null | undefined, vials: number): number | null {
  if (kind !== "sample" && kind !== "set") return null;
  return SAMPLE_WEIGHT_GRAMS * Math.max(1, vials);
}

/** A cart line's kind and vials (a set: the scents its token names). */
export function sampleVialsOf(line: { productId: string; sizeId?: string | null }): { kind: "sample" | "set" | null; vials: number } {
  const kind = sampleKindOf(line);
  return { kind, vials: kind === "set" ? (parseSetToken(line.productId, line.sizeId)?.length ?? 0) : 1 };
}

export interface SampleSettings {
  /** samples offered across the catalogue (a product may override it either way) */
  enabled: boolean;
  priceCents: number;
  /** how many samples a discovery set holds */
  setSize: number;
  setPriceCents: number;
  /** days a sample's credit can be used on a full bottle of its scent */
  creditDays: number;
}

/** Off until the owner turns samples on: the spec's behaviour stays the default. */
export const DEFAULT_SAMPLE_SETTINGS: SampleSettings = { enabled: false, priceCents: 3500, setSize: 5, setPriceCents: 15000, creditDays: 60 };

/** The product page's sample offer: the price, how many are left (null: not tracked), the credit's window. */
export interface SampleOffer {
  priceCents: number;
  left: number | null;
  creditDays: number;
}

/** A scent the discovery set page offers. */
export interface SampleableProduct {
  id: string;
  slug: string;
  name: string;
  image: string | null;
  family: string | null;
  inspired: string | null;
  /** samples its bulk still holds; null = not tracked */
  left: number | null;
}

/** Is a product sampled: its own choice (true/false) when it has one, else the catalogue's. */
export function isSampleOffered(settings: Pick<SampleSettings, "enabled">, override: boolean | null | undefined): boolean {
  return override ?? settings.enabled;
}

/** Samples a product's bulk still holds: null = not tracked (always available). */
export function samplesLeft(bulkMl: number | null | undefined): number | null {
  return bulkMl === null || bulkMl === undefined ? null : Math.floor(Math.max(0, bulkMl) / SAMPLE_ML);
}

export function isSampleToken(sizeId: string | null | undefined): boolean {
  return sizeId === SAMPLE_SIZE_ID;
}

export function setToken(productIds: readonly string[]): string {
  return SET_PREFIX + productIds.join(".");
}

/** The scents a set line names, or null when the line is not a set (ids are uuids: they hold no '.'). */
export function parseSetToken(productId: string, sizeId: string | null | undefined): string[] | null {
  if (productId !== DISCOVERY_SET_ID || !sizeId?.startsWith(SET_PREFIX)) return null;
  return sizeId.slice(SET_PREFIX.length).split(".").filter(Boolean);
}

/** What kind of cart line this is. */
export function sampleKindOf(line: { productId: string; sizeId?: string | null }): "sample" | "set" | null {
  if (isSampleToken(line.sizeId)) return "sample";
  if (line.productId === DISCOVERY_SET_ID) return "set";
  return null;
}

export function setLabel(setSize: number): string {
  return `${setSize} × ${SAMPLE_ML} ml`;
}

export function setName(names: readonly string[]): string {
  return `Discovery set: ${names.join(", ")}`;
}

/**
 * What each sample in a set gives back: the set's price shared out over its samples, the odd cents to the first ones,
 * so the credits of a set add up to exactly what it cost ("the set's price comes back").
 */
export function setCredits(setPriceCents: number, count: number): number[] {
  if (count <= 0) return [];
  const each = Math.floor(setPriceCents / count);
  const odd = setPriceCents - each * count;
  return Array.from({ length: count }, (_, i) => each + (i < odd ? 1 : 0));
}

/** The picks a discovery set page may hold: distinct, known, at most the set's size (the rest is named as ignored). */
export function cleanPicks(wanted: readonly string[], known: ReadonlySet<string>, setSize: number): { picks: string[]; ignored: string[] } {
  const picks: string[] = [];
  const ignored: string[] = [];
  for (const w of wanted) {
    if (!known.has(w)) ignored.push(w);
    else if (!picks.includes(w) && picks.length < setSize) picks.push(w);
  }
  return { picks, ignored };
}

export function discoverySetHref(slugs: readonly string[]): string {
  const params = new URLSearchParams();
  for (const s of slugs) params.append("pick", s);
  const q = params.toString();
  return q ? `/discovery-set?${q}` : "/discovery-set";
}

/** A credit the checkout applies: which one, on which product, for how much. */
export interface AppliedSampleCredit {
  id: string;
  productId: string;
  name: string;
  amountCents: number;
}

export interface OpenCredit {
  id: string;
  productId: string;
  name: string;
  amountCents: number;
  expiresAt: string;
}

/**
 * The credits a cart uses: on each full bottle line, one credit per bottle (the soonest to expire first), never more
 * than the line costs; and in all never more than `capCents` (what is left to pay for the items after the coupon).
 */
export function chooseCredits(
  credits: readonly OpenCredit[],
  bottleLines: ReadonlyArray<{ productId: string; quantity: number; lineTotalCents: number }>,
  capCents: number,
): AppliedSampleCredit[] {
  const chosen: AppliedSampleCredit[] = [];
  let room = Math.max(0, capCents);
  const byExpiry = [...credits].sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.id.localeCompare(b.id));
  for (const line of bottleLines) {
    let lineRoom = line.lineTotalCents;
    const mine = byExpiry.filter((c) => c.productId === line.productId && !chosen.some((x) => x.id === c.id)).slice(0, line.quantity);
    for (const c of mine) {
      const amount = Math.min(c.amountCents, lineRoom, room);
      if (amount <= 0) break;
      chosen.push({ id: c.id, productId: c.productId, name: c.name, amountCents: amount });
      lineRoom -= amount;
      room -= amount;
    }
  }
  return chosen;
}

export function creditExpiry(grantedAt: Date, creditDays: number): Date {
  return new Date(grantedAt.getTime() + creditDays * 24 * 60 * 60 * 1000);
}

/** "Velvet Rose (2 ml sample)" is lineName's; a credit's row on a bill: */
export function creditLabel(names: readonly string[]): string {
  return names.length ? `Sample credit (${[...new Set(names)].join(", ")})` : "Sample credit";
}
