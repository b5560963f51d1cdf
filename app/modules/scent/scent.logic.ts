/**
 * The scent finder's and "if you love X, try Y"'s matching (issue 22). Pure, browser-safe, no I/O: the server hands it
 * the catalogue's profiles (scent-finder/scent-finder.server.ts keeps them in memory) and gets ids back. The weights and the order of the
 * rules are explained in docs/decisions/035; change them there and here together.
 *
 * The finder ranks in this order, each rule deciding only among the products the previous ones left equal:
 *   1. the budget is a fence, not a weight: only products at or under it, unless none is (then the cheapest three
 *      price points, and it says so);
 *   2. in stock before sold out (never the other way round, whatever the scores);
 *   3. the product inspired by the fragrance the shopper named;
 *   4. a product of a family the shopper chose;
 *   5. the score: who it is for, when it is worn, how strong, a near family, likeness to what they named;
 *   6. cheaper first, then name and id, so equal answers always give the same picks (the page is cached and shared).
 */
import { formatRand } from "~/utils/money";
import {
  areNear,
  AUDIENCES,
  FAMILY_ADJECTIVE,
  FAMILY_TEXT,
  INTENSITIES,
  OCCASIONS,
  SCENT_FAMILIES,
  nearFamilies,
  noteHead,
  noteKey,
  type Audience,
  type Intensity,
  type Occasion,
  type ScentFamily,
  type Season,
} from "./scent.vocabulary";

export interface ScentProfile {
  family: ScentFamily | null;
  top: string[];
  heart: string[];
  base: string[];
  intensity: Intensity | null;
  occasion: Occasion | null;
  seasons: Season[];
  audience: Audience | null;
}

export const EMPTY_PROFILE: Readonly<ScentProfile> = Object.freeze({
  family: null,
  top: [],
  heart: [],
  base: [],
  intensity: null,
  occasion: null,
  seasons: [],
  audience: null,
});

/** A product as the matching takes it in: what the tests build with toCandidate (the server feeds rows straight to a ScentIndexBuilder). */
export interface ScentCandidate {
  id: string;
  name: string;
  priceCents: number;
  inStock: boolean;
  /** trimmed; null = not said */
  house: string | null;
  fragrance: string | null;
  family: ScentFamily | null;
  intensity: Intensity | null;
  occasion: Occasion | null;
  audience: Audience | null;
  /** the notes as written, top, heart and base */
  notes: readonly string[];
}

export function toCandidate(input: {
  id: string;
  name: string;
  priceCents: number;
  stock: number | null;
  house: string | null;
  fragrance: string | null;
  profile: ScentProfile;
}): ScentCandidate {
  return {
    id: input.id,
    name: input.name,
    priceCents: input.priceCents,
    inStock: input.stock === null || input.stock > 0,
    house: input.house?.trim() || null,
    fragrance: input.fragrance?.trim() || null,
    family: input.profile.family,
    intensity: input.profile.intensity,
    occasion: input.profile.occasion,
    audience: input.profile.audience,
    notes: [...input.profile.top, ...input.profile.heart, ...input.profile.base],
  };
}

/**
 * The catalogue as the ranking reads it: a struct of arrays, one slot per product (docs/decisions/035, Speed). At
 * 100 000 products an object per product with its own strings and two small Int32Arrays cost ~110 MB of heap; these
 * arrays cost ~15 MB, and the inner loop reads them faster. What a pick's card shows is not kept: the server fetches
 * the few picks' cards by id after ranking.
 *
 * Small integers stand for everything the loop compares: the family's, audience's, occasion's and intensity's index
 * in their lists (-1 = not said); the house's and the fragrance's index among the catalogue's distinct names as
 * loveText makes them (-1 = none), so "Tom Ford" and "TOM FORD" are one house; the notes' keys and heads as indexes
 * among the catalogue's distinct ones, every product's in one array (product i's from keyStart[i] to keyStart[i + 1]).
 */
export interface ScentIndex {
  readonly size: number;
  readonly ids: readonly string[];
  readonly priceCents: Float64Array;
  readonly inStock: Uint8Array;
  readonly family: Int8Array;
  readonly audience: Int8Array;
  readonly occasion: Int8Array;
  readonly intensity: Int8Array;
  readonly house: Int32Array;
  readonly fragrance: Int32Array;
  /** the house and fragrance as the product writes them (an index into `inspirations`; -1 = neither), for its reason line */
  readonly inspiration: Int32Array;
  readonly inspirations: ReadonlyArray<{ house: string | null; fragrance: string | null }>;
  /** the last tiebreak: the product's place among all by lower-cased name, then id (one sort when built, no names kept for it) */
  readonly order: Int32Array;
  readonly keyStart: Int32Array;
  readonly keys: Int32Array;
  readonly headStart: Int32Array;
  readonly heads: Int32Array;
  readonly keyCount: number;
  readonly headCount: number;
  /** the distinct houses by loveText, in the order first met, with the first product's way of writing it */
  readonly houses: ReadonlyArray<{ text: string; name: string }>;
  readonly houseByText: ReadonlyMap<string, number>;
  /** the distinct fragrances by loveText, in the order first met, as the first product writes it and its house */
  readonly fragrances: ReadonlyArray<{ text: string; fragrance: string; house: string | null }>;
  /** every name in one string (product i's from nameStart[i] to nameStart[i + 1]): one note names a product */
  readonly nameText: string;
  readonly nameStart: Int32Array;
}

export function nameOf(index: ScentIndex, i: number): string {
  return index.nameText.slice(index.nameStart[i]!, index.nameStart[i + 1]!);
}

type NumberArray = Int8Array | Uint8Array | Int32Array | Float64Array;

/**
 * A column of numbers the builder appends to, kept in a typed array that doubles when full: 1–8 bytes an entry instead
 * of a JS array's 8, and the arrays it outgrows are buffers freed with their small wrappers, not large objects left in
 * the old generation until a full collection (at 100 000 products ~30 MB of them: issue 20, the build's memory).
 */
class Column<A extends NumberArray> {
  length = 0;
  array: A;
  constructor(private readonly make: (size: number) => A) {
    this.array = make(1024);
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = this.make(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }
  /** Whether `value` is among the entries from `from` on. */
  hasFrom(from: number, value: number): boolean {
    for (let i = from; i < this.length; i++) if (this.array[i] === value) return true;
    return false;
  }
  /** The entries, in an array of their own exactly as long. */
  done(): A {
    return this.array.slice(0, this.length) as A;
  }
}

const int8 = () => new Column((n) => new Int8Array(n));
const int32 = () => new Column((n) => new Int32Array(n));

/** Builds a ScentIndex one product at a time, in the catalogue's order (the order decides ties among first-met names). */
export class ScentIndexBuilder {
  private ids: string[] = [];
  private names: string[] = [];
  private prices = new Column((n) => new Float64Array(n));
  private stock = new Column((n) => new Uint8Array(n));
  private family = int8();
  private audience = int8();
  private occasion = int8();
  private intensity = int8();
  private house = int32();
  private fragrance = int32();
  private inspiration = int32();
  // product i's notes are keys[keyStart[i]] up to keys[keyStart[i + 1]] (heads likewise): the starts begin with a 0
  private keys = int32();
  private keyStart = int32();
  private heads = int32();
  private headStart = int32();
  private keyIds = new Map<string, number>();
  private headIds = new Map<string, number>();
  private houses: Array<{ text: string; name: string }> = [];
  private houseByText = new Map<string, number>();
  private fragrances: Array<{ text: string; fragrance: string; house: string | null }> = [];
  private fragranceByText = new Map<string, number>();
  private inspirations: Array<{ house: string | null; fragrance: string | null }> = [];
  private inspirationIds = new Map<string, number>();

  constructor() {
    this.keyStart.push(0);
    this.headStart.push(0);
  }

  add(c: ScentCandidate): void {
    this.ids.push(c.id);
    this.names.push(c.name);
    this.prices.push(c.priceCents);
    this.stock.push(c.inStock ? 1 : 0);
    const house = c.house?.trim() || null;
    const fragrance = c.fragrance?.trim() || null;
    let houseId = -1;
    if (house) {
      const text = loveText(house);
      houseId = this.houseByText.get(text) ?? -1;
      if (houseId === -1) {
        houseId = this.houses.length;
        this.houses.push({ text, name: house });
        this.houseByText.set(text, houseId);
      }
    }
    let fragranceId = -1;
    if (fragrance) {
      const text = loveText(fragrance);
      fragranceId = this.fragranceByText.get(text) ?? -1;
      if (fragranceId === -1) {
        fragranceId = this.fragrances.length;
        this.fragrances.push({ text, fragrance, house });
        this.fragranceByText.set(text, fragranceId);
      }
    }
    let inspiration = -1;
    if (house || fragrance) {
      const key = `${house ?? ""}\u0000${fragrance ?? ""}`;
      inspiration = this.inspirationIds.get(key) ?? -1;
      if (inspiration === -1) {
        inspiration = this.inspirations.length;
        this.inspirations.push({ house, fragrance });
        this.inspirationIds.set(key, inspiration);
      }
    }
    this.family.push(c.family ? SCENT_FAMILIES.indexOf(c.family) : -1);
    this.audience.push(c.audience ? AUDIENCES.indexOf(c.audience) : -1);
    this.occasion.push(c.occasion ? OCCASIONS.indexOf(c.occasion) : -1);
    this.intensity.push(c.intensity ? INTENSITIES.indexOf(c.intensity) : -1);
    this.house.push(houseId);
    this.fragrance.push(fragranceId);
    this.inspiration.push(inspiration);
    // distinct note keys, then the distinct heads of those keys, each as the catalogue's own small ids
    const keyFrom = this.keys.length;
    const headFrom = this.heads.length;
    for (const note of c.notes) {
      const key = noteKey(note);
      if (!key) continue;
      const keyId = intern(this.keyIds, key);
      if (!this.keys.hasFrom(keyFrom, keyId)) {
        this.keys.push(keyId);
        const headId = intern(this.headIds, noteHead(key));
        if (!this.heads.hasFrom(headFrom, headId)) this.heads.push(headId);
      }
    }
    this.keyStart.push(this.keys.length);
    this.headStart.push(this.heads.length);
  }

  build(): ScentIndex {
    const size = this.ids.length;
    // the tiebreak's order: lower-cased name (compared as strings compare), then id
    const lower = this.names.map((n) => n.toLowerCase());
    const ids = this.ids;
    const byName = Array.from({ length: size }, (_, i) => i).sort((a, b) => {
      const x = lower[a]!;
      const y = lower[b]!;
      if (x !== y) return x < y ? -1 : 1;
      return ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0;
    });
    const order = new Int32Array(size);
    byName.forEach((product, place) => (order[product] = place));
    const nameStart = new Int32Array(size + 1);
    for (let i = 0; i < size; i++) nameStart[i + 1] = nameStart[i]! + this.names[i]!.length;
    return {
      size,
      ids,
      priceCents: this.prices.done(),
      inStock: this.stock.done(),
      family: this.family.done(),
      audience: this.audience.done(),
      occasion: this.occasion.done(),
      intensity: this.intensity.done(),
      house: this.house.done(),
      fragrance: this.fragrance.done(),
      inspiration: this.inspiration.done(),
      inspirations: this.inspirations,
      order,
      keyStart: this.keyStart.done(),
      keys: this.keys.done(),
      headStart: this.headStart.done(),
      heads: this.heads.done(),
      keyCount: this.keyIds.size,
      headCount: this.headIds.size,
      houses: this.houses,
      houseByText: this.houseByText,
      fragrances: this.fragrances,
      nameText: this.names.join(""),
      nameStart,
    };
  }
}

function intern(ids: Map<string, number>, value: string): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = ids.size;
    ids.set(value, id);
  }
  return id;
}

/** The index of a list of candidates (the tests' way in), built once per array. */
const indexes = new WeakMap<readonly ScentCandidate[], ScentIndex>();
export function scentIndex(candidates: readonly ScentCandidate[]): ScentIndex {
  let index = indexes.get(candidates);
  if (!index) {
    const builder = new ScentIndexBuilder();
    for (const c of candidates) builder.add(c);
    index = builder.build();
    indexes.set(candidates, index);
  }
  return index;
}

function asIndex(catalogue: ScentIndex | readonly ScentCandidate[]): ScentIndex {
  return Array.isArray(catalogue) ? scentIndex(catalogue as readonly ScentCandidate[]) : (catalogue as ScentIndex);
}

// ---------------------------------------------------------------------------------------------------------------
// Likeness between two products (similar scents, and "like the one you named")

/** Points of likeness. Family first (it is what a nose notices), then shared notes, then the house (decision 035). */
export const LIKENESS = {
  sameFamily: 30,
  nearFamily: 8,
  /** per note both carry (same key), at most `maxSharedNotes` counted */
  sharedNote: 5,
  /** per material both carry in different forms ("Turkish rose" and "black rose") */
  sharedHead: 2,
  maxSharedNotes: 5,
  sameHouse: 10,
  sameAudience: 4,
  sameIntensity: 2,
} as const;

/**
 * What likeness to one source needs, made once per ranking: a table of family points by family index, and the
 * source's note and head ids as a bitmap (a Uint8Array indexed by id) for constant-time "do both carry it".
 */
interface Likeness {
  source: number;
  familyPoints: Float64Array;
  keyMarks: Uint8Array;
  headMarks: Uint8Array;
}

function likenessOf(index: ScentIndex, source: number): Likeness {
  const familyPoints = new Float64Array(SCENT_FAMILIES.length + 1);
  const family = index.family[source]!;
  if (family >= 0) {
    const own = SCENT_FAMILIES[family]!;
    SCENT_FAMILIES.forEach((f, i) => {
      familyPoints[i + 1] = f === own ? LIKENESS.sameFamily : areNear(own, f) ? LIKENESS.nearFamily : 0;
    });
  }
  const keyMarks = new Uint8Array(index.keyCount);
  const headMarks = new Uint8Array(index.headCount);
  for (let k = index.keyStart[source]!; k < index.keyStart[source + 1]!; k++) keyMarks[index.keys[k]!] = 1;
  for (let k = index.headStart[source]!; k < index.headStart[source + 1]!; k++) headMarks[index.heads[k]!] = 1;
  return { source, familyPoints, keyMarks, headMarks };
}

/** The likeness of product `other` to the source, on the LIKENESS scale. */
export function likeness(l: Likeness, index: ScentIndex, other: number): number {
  const s = l.source;
  let score = l.familyPoints[index.family[other]! + 1]!;
  let shared = 0;
  let heads = 0;
  const keys = index.keys;
  const headIds = index.heads;
  for (let k = index.keyStart[other]!, end = index.keyStart[other + 1]!; k < end; k++) shared += l.keyMarks[keys[k]!]!;
  for (let k = index.headStart[other]!, end = index.headStart[other + 1]!; k < end; k++) heads += l.headMarks[headIds[k]!]!;
  score += Math.min(shared, LIKENESS.maxSharedNotes) * LIKENESS.sharedNote + Math.max(0, heads - shared) * LIKENESS.sharedHead;
  const house = index.house[s]!;
  if (house !== -1 && house === index.house[other]) score += LIKENESS.sameHouse;
  const audience = index.audience[s]!;
  if (audience >= 0 && audience === index.audience[other]) score += LIKENESS.sameAudience;
  const intensity = index.intensity[s]!;
  if (intensity >= 0 && intensity === index.intensity[other]) score += LIKENESS.sameIntensity;
  return score;
}

/**
 * "If you love X, try Y": the places of the `count` products most like `sourceId`, in stock first, then by likeness,
 * then cheaper, then by name and id. One pass over the catalogue keeping the best few (no sort of 10 000 rows).
 */
function similarPlaces(index: ScentIndex, sourceId: string, count: number): number[] {
  const source = index.ids.indexOf(sourceId);
  if (source === -1) return [];
  const like = likenessOf(index, source);
  const best = new TopK<number>(count);
  for (let i = 0; i < index.size; i++) {
    if (i === source) continue;
    best.offer(i, index.inStock[i] ? 0 : 1, rankValue(likeness(like, index, i), index.priceCents[i]!), index.order[i]!, 0);
  }
  return best.items();
}

/** The ids of the `count` products most like `sourceId` (what the server shows). */
export function similarIds(index: ScentIndex, sourceId: string, count = 3): string[] {
  return similarPlaces(index, sourceId, count).map((i) => index.ids[i]!);
}

/** The same over a list of candidates, answering the candidates themselves. */
export function similarTo(catalogue: readonly ScentCandidate[], sourceId: string, count = 3): ScentCandidate[] {
  return similarPlaces(scentIndex(catalogue), sourceId, count).map((i) => catalogue[i]!);
}

// ---------------------------------------------------------------------------------------------------------------
// The finder

export interface FinderAnswers {
  audience: Audience | null;
  occasion: Occasion | null;
  families: ScentFamily[];
  /** a designer or fragrance the shopper loves, as typed (already cut to a sane length by the URL schema) */
  love: string;
  intensity: Intensity | null;
  /** whole rand, inclusive; null = any */
  budgetRand: number | null;
}

export const NO_ANSWERS: Readonly<FinderAnswers> = Object.freeze({ audience: null, occasion: null, families: [], love: "", intensity: null, budgetRand: null });

/** Points of the finder's score (rule 5 above): each answer is worth about the same; a near family a little more. */
export const FINDER_WEIGHTS = {
  /** made for who they asked for; 'anyone' scents suit everyone nearly as well; the other side gets nothing */
  audienceExact: 20,
  audienceAnyone: 14,
  audienceUnknown: 8,
  occasionExact: 10,
  /** a day-and-evening scent for someone who asked for day (or evening) */
  occasionBoth: 7,
  occasionUnknown: 4,
  intensityExact: 10,
  intensityNext: 4,
  intensityUnknown: 3,
  /** a family next to one they chose (woody for someone who chose amber) */
  nearFamily: 12,
  /** likeness to the fragrance they named counts at this fraction (it is on the LIKENESS scale, up to ~70) */
  likenessShare: 0.5,
  /** a product of the designer house they named, when they named a house and no fragrance */
  namedHouse: 25,
} as const;

/** What the fragrance box was understood as. */
export type LoveMatch =
  | { kind: "none" }
  | { kind: "fragrance"; house: string | null; fragrance: string; ids: string[] }
  | { kind: "house"; house: string; ids: string[] }
  | { kind: "unknown"; text: string };

/** Lower-case words only, accents and punctuation dropped, padded with spaces so `includes(' x ')` is a word match. */
const loveMemo = new Map<string, string>();

export function loveText(value: string): string {
  const known = loveMemo.get(value);
  if (known !== undefined) return known;
  if (loveMemo.size > 20_000) loveMemo.clear(); // bounded: typed text passes through here too
  const made = makeLoveText(value);
  loveMemo.set(value, made);
  return made;
}

function makeLoveText(value: string): string {
  const words = value
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[’']/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  return words ? ` ${words} ` : "";
}

/**
 * Which fragrance (or else which house) the text names. The longest fragrance name found wins ("Oud Wood" over
 * "Wood"), so "Tom Ford Oud Wood" is Oud Wood; a house alone ("tom ford") is the house. Names shorter than 3
 * letters are never matched on their own (they would be found inside every sentence).
 */
export function matchLove(catalogue: ScentIndex | readonly ScentCandidate[], love: string): LoveMatch {
  return matchLoveIn(asIndex(catalogue), love).match;
}

/** The match, and the places of the products it names (in the catalogue's order). */
function matchLoveIn(index: ScentIndex, love: string): { match: LoveMatch; members: number[] } {
  const text = loveText(love);
  if (!text) return { match: { kind: "none" }, members: [] };
  // the catalogue's distinct names (a few hundred), not its 10 000 products, are searched in the text
  let best: { fragrance: string; house: string | null; length: number; id: number } | null = null;
  let house: { name: string; length: number; id: number } | null = null;
  index.fragrances.forEach((f, id) => {
    if (f.text.length - 2 >= 3 && (!best || f.text.length > best.length) && text.includes(f.text)) best = { fragrance: f.fragrance, house: f.house, length: f.text.length, id };
  });
  index.houses.forEach((h, id) => {
    if (h.text.length - 2 >= 3 && (!house || h.text.length > house.length) && text.includes(h.text)) house = { name: h.name, length: h.text.length, id };
  });
  const found = best as { fragrance: string; house: string | null; length: number; id: number } | null;
  const named = house as { name: string; length: number; id: number } | null;
  if (found) {
    // the same fragrance name under another house ("For Her") is another fragrance: when the text names a house, it must agree
    const members: number[] = [];
    for (let i = 0; i < index.size; i++) if (index.fragrance[i] === found.id && (!named || index.house[i] === named.id)) members.push(i);
    if (members.length > 0)
      return { match: { kind: "fragrance", house: named?.name ?? found.house, fragrance: found.fragrance, ids: members.map((i) => index.ids[i]!) }, members };
  }
  if (named) {
    const members: number[] = [];
    for (let i = 0; i < index.size; i++) if (index.house[i] === named.id) members.push(i);
    return { match: { kind: "house", house: named.name, ids: members.map((i) => index.ids[i]!) }, members };
  }
  return { match: { kind: "unknown", text: love.trim() }, members: [] };
}

/** The house's loveText of product i ('' = none). */
function houseTextOf(index: ScentIndex, i: number): string {
  const house = index.house[i]!;
  return house === -1 ? "" : index.houses[house]!.text;
}

export interface FinderPick {
  id: string;
  /** one line on why, e.g. "Woody and warm like the Tom Ford you named, strong enough for evenings, R349.00" */
  reason: string;
  /** the product inspired by the fragrance they named */
  named: boolean;
}

export interface FinderResult {
  picks: FinderPick[];
  /** honest notes on what was widened or could not be met, in plain words, in the order they apply */
  notes: string[];
  love: LoveMatch;
  /** the budget in cents that was applied (null = none), and whether it had to be widened because nothing fitted */
  budgetCents: number | null;
  budgetWidened: boolean;
}

export const FINDER_PICKS = 3;

/** Points by a candidate's code (index + 1; 0 = not said) for one answer, made once per ranking. */
function table<T extends string>(values: readonly T[], score: (has: T | null) => number): Float64Array {
  const t = new Float64Array(values.length + 1);
  t[0] = score(null);
  values.forEach((v, i) => (t[i + 1] = score(v)));
  return t;
}

function audienceScore(wanted: Audience | null, has: Audience | null): number {
  if (!wanted) return 0;
  if (!has) return FINDER_WEIGHTS.audienceUnknown;
  if (wanted === has) return FINDER_WEIGHTS.audienceExact;
  if (wanted === "anyone" || has === "anyone") return FINDER_WEIGHTS.audienceAnyone;
  return 0;
}

function occasionScore(wanted: Occasion | null, has: Occasion | null): number {
  if (!wanted) return 0;
  if (!has) return FINDER_WEIGHTS.occasionUnknown;
  if (wanted === has) return FINDER_WEIGHTS.occasionExact;
  if (wanted === "both" || has === "both") return FINDER_WEIGHTS.occasionBoth;
  return 0;
}

const INTENSITY_STEP: Readonly<Record<Intensity, number>> = { light: 0, moderate: 1, strong: 2 };

function intensityScore(wanted: Intensity | null, has: Intensity | null): number {
  if (!wanted) return 0;
  if (!has) return FINDER_WEIGHTS.intensityUnknown;
  const gap = Math.abs(INTENSITY_STEP[wanted] - INTENSITY_STEP[has]);
  return gap === 0 ? FINDER_WEIGHTS.intensityExact : gap === 1 ? FINDER_WEIGHTS.intensityNext : 0;
}

function listWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function familyWords(families: readonly ScentFamily[]): string {
  return listWords(families.map((f) => FAMILY_TEXT[f].label.toLowerCase()));
}

/**
 * The finder's three picks for the answers (rules 1–6 at the top). Fewer than three only when fewer products fit the
 * budget (or the shop holds fewer), and then a note says so; nothing is ever padded with a product over the budget
 * while one under it exists.
 */
export function findScents(catalogue: ScentIndex | readonly ScentCandidate[], answers: FinderAnswers, count = FINDER_PICKS): FinderResult {
  const index = asIndex(catalogue);
  const size = index.size;
  const prices = index.priceCents;
  const notes: string[] = [];
  const budgetCents = answers.budgetRand === null ? null : answers.budgetRand * 100;

  // 1. the budget: the products in the running are those at or under `cap`
  let cap = Infinity;
  let budgetWidened = false;
  if (budgetCents !== null) {
    let within = false;
    for (let i = 0; i < size && !within; i++) within = prices[i]! <= budgetCents;
    if (within) cap = budgetCents;
    else if (size > 0) {
      // Nothing fits: the cheapest price points holding `count` products, and say how far we went.
      cap = kthSmallestPrice(prices, Math.min(count, size));
      budgetWidened = true;
      notes.push(`Nothing in the shop is ${formatRand(budgetCents)} or less, so we looked up to ${formatRand(cap)}: our most affordable scents.`);
    }
  }

  // what they named
  const { match: love, members } = matchLoveIn(index, answers.love);
  const named = new Set(love.kind === "fragrance" ? members : []);
  // the loop below asks the Set only for products of the named fragrance (an integer compare first)
  const namedFragrance = love.kind === "fragrance" ? index.fragrance[members[0]!]! : -2;
  const namedHouse = love.kind === "house" ? (index.houseByText.get(loveText(love.house)) ?? -2) : -2;
  // the fragrance they named stands for its profile: picks are scored on likeness to it
  const reference = love.kind === "fragrance" ? members[0]! : -1;
  const like = reference >= 0 ? likenessOf(index, reference) : null;

  const chosen = new Set(answers.families);
  const near = new Set(answers.families.flatMap(nearFamilies).filter((f) => !chosen.has(f)));
  // every answer as a table of points by the product's code, so the loop below is lookups and additions
  const audienceT = table(AUDIENCES, (has) => audienceScore(answers.audience, has));
  const occasionT = table(OCCASIONS, (has) => occasionScore(answers.occasion, has));
  const intensityT = table(INTENSITIES, (has) => intensityScore(answers.intensity, has));
  const familyT = table(SCENT_FAMILIES, (has) => (has !== null && near.has(has) ? FINDER_WEIGHTS.nearFamily : 0));
  const inFamilyT = table(SCENT_FAMILIES, (has) => (has !== null && chosen.has(has) ? 1 : 0));

  const { family, audience, occasion, intensity, house, fragrance, inStock, order } = index;
  const best = new TopK<number>(count);
  let familyInPool = false;
  let familyInStock = false;
  for (let i = 0; i < size; i++) {
    if (prices[i]! > cap) continue;
    const code = family[i]! + 1;
    const inFamily = inFamilyT[code] === 1;
    if (inFamily) {
      familyInPool = true;
      if (inStock[i]) familyInStock = true;
    }
    const isNamed = fragrance[i] === namedFragrance && named.has(i);
    const tier = (inStock[i] ? 0 : 4) + (isNamed ? 0 : 2) + (inFamily ? 0 : 1);
    // a product whose tier can't make the three needs no score (the likeness is the costly part)
    if (tier > best.worstTier()) continue;
    let score = audienceT[audience[i]! + 1]! + occasionT[occasion[i]! + 1]! + intensityT[intensity[i]! + 1]! + familyT[code]!;
    if (like && i !== reference) score += likeness(like, index, i) * FINDER_WEIGHTS.likenessShare;
    if (house[i] === namedHouse) score += FINDER_WEIGHTS.namedHouse;
    best.offer(i, tier, rankValue(score, prices[i]!), order[i]!, 0);
  }
  const picked = best.items();

  // honest notes, in the order a shopper reads the answers
  if (answers.families.length > 0 && !familyInPool) {
    const within = budgetCents !== null && !budgetWidened ? ` at ${formatRand(budgetCents)} or less` : "";
    const nearList = [...near];
    notes.push(
      `We have no ${familyWords(answers.families)} scents${within} right now, so these are the nearest` +
        (nearList.length ? ` kinds: ${familyWords(nearList)}.` : "."),
    );
  }
  if (answers.families.length > 0 && familyInPool && !familyInStock) {
    const within = budgetCents !== null && !budgetWidened ? ` at ${formatRand(budgetCents)} or less` : "";
    notes.push(`Our ${familyWords(answers.families)} scents${within} are sold out right now, so the nearest in stock come first.`);
  }
  if (love.kind === "unknown") notes.push(`We don't know “${shorten(love.text, 60)}” yet, so your picks follow your other answers.`);
  if (love.kind === "fragrance") {
    const shown = members.some((i) => picked.includes(i));
    if (!shown && members.length > 0) {
      const first = members[0]!;
      const why =
        budgetCents !== null && !budgetWidened && prices[first]! > budgetCents ? `costs ${formatRand(prices[first]!)}, over your budget` : !inStock[first] ? "is sold out right now" : "didn't make the three";
      notes.push(`Our scent inspired by ${love.fragrance}, ${nameOf(index, first)}, ${why}; these are the closest to it.`);
    }
  }
  if (love.kind === "house" && picked.length > 0 && !picked.some((i) => houseTextOf(index, i) === loveText(love.house))) {
    const within = budgetCents !== null && !budgetWidened ? ` at ${formatRand(budgetCents)} or less` : "";
    notes.push(
      love.ids.length === 0
        ? `We have no scents inspired by ${love.house} yet, so your picks follow your other answers.`
        : `None of our ${love.house}-inspired scents${within} fits your other answers as well as these.`,
    );
  }
  if (picked.length < count) {
    if (size < count) notes.push(`The shop has ${size === 0 ? "no scents" : size === 1 ? "only one scent" : `only ${size} scents`} so far.`);
    else if (budgetCents !== null && !budgetWidened)
      notes.push(
        `Only ${picked.length === 1 ? "one of our scents is" : `${picked.length} of our scents are`} ${formatRand(budgetCents)} or less; a higher budget shows more.`,
      );
  }

  return {
    picks: picked.map((i) => ({ id: index.ids[i]!, named: named.has(i), reason: reasonFor(index, i, answers, love, named, reference) })),
    notes,
    love,
    budgetCents,
    budgetWidened,
  };
}

/** The k-th smallest price (1-based) in one pass, keeping the k smallest seen: no sort of the whole catalogue. */
function kthSmallestPrice(prices: Float64Array, k: number): number {
  const smallest: number[] = [];
  for (let i = 0; i < prices.length; i++) {
    const price = prices[i]!;
    if (smallest.length === k && price >= smallest[k - 1]!) continue;
    let at = smallest.length;
    while (at > 0 && smallest[at - 1]! > price) at--;
    smallest.splice(at, 0, price);
    if (smallest.length > k) smallest.pop();
  }
  return smallest[k - 1]!;
}

function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One line on why product i was picked: what it is like (and like what they named), how strong and when, and its
 * price. `named` holds the places of the named fragrance's own products, `reference` the one standing for it (-1 = none).
 */
function reasonFor(index: ScentIndex, i: number, answers: FinderAnswers, love: LoveMatch, named: ReadonlySet<number>, reference: number): string {
  const parts: string[] = [];
  const family = index.family[i]! >= 0 ? SCENT_FAMILIES[index.family[i]!]! : null;
  const adjective = family ? FAMILY_ADJECTIVE[family] : null;
  if (love.kind === "fragrance" && named.has(i)) parts.push(`inspired by ${love.fragrance}, the one you named`);
  else if (love.kind === "house" && houseTextOf(index, i) === loveText(love.house)) parts.push(`${adjective ?? "a signature"} like the ${love.house} you named`);
  else if (reference >= 0 && adjective && index.family[reference] === index.family[i])
    parts.push(`${adjective} like the ${index.inspirations[index.inspiration[reference]!]?.fragrance ?? nameOf(index, reference)} you love`);
  else if (adjective && family && answers.families.includes(family)) parts.push(`${adjective}, just as you like it`);
  else if (adjective && family && answers.families.length > 0) {
    const close = answers.families.find((f) => nearFamilies(f).includes(family));
    parts.push(close ? `${adjective}, close to the ${FAMILY_TEXT[close].label.toLowerCase()} you like` : adjective);
  } else if (adjective) parts.push(adjective);

  const wear = wearPhrase(index.intensity[i]! >= 0 ? INTENSITIES[index.intensity[i]!]! : null, index.occasion[i]! >= 0 ? OCCASIONS[index.occasion[i]!]! : null);
  if (wear) parts.push(wear);
  const price = index.priceCents[i]!;
  parts.push(index.inStock[i] ? formatRand(price) : `${formatRand(price)}, sold out for now`);
  return capitalise(parts.join(", "));
}

function wearPhrase(intensity: Intensity | null, occasion: Occasion | null): string | null {
  if (intensity === "strong" && occasion === "evening") return "strong enough for evenings";
  if (intensity === "light" && occasion === "day") return "light enough for every day";
  const when = occasion === "day" ? "for daytime" : occasion === "evening" ? "for evenings" : occasion === "both" ? "from day into evening" : null;
  if (intensity && when) return `${intensity}, ${when}`;
  return when ?? intensity;
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Higher score first, then cheaper, as one number for TopK: the score in hundredths (scores are multiples of 0.5 and
 * stay under 1 000) above the price in cents (under 10^9, R10 million), so the product stays a safe integer.
 */
function rankValue(score: number, priceCents: number): number {
  return (100_000 - Math.round(score * 100)) * 1e9 + Math.min(Math.max(0, priceCents), 1e9 - 1);
}

/**
 * The best `k` of a stream by (tier, value) ascending, then name and id: a small sorted array, so ranking 10 000
 * products costs one pass and a comparison or two each instead of a sort, and nothing is allocated for a product
 * that doesn't make the cut. The catalogue passes its name order (ScentIndex.order) as the name, so ties compare
 * integers.
 */
export class TopK<T> {
  private entries: Array<{ item: T; tier: number; value: number; name: string | number; id: string | number }> = [];
  constructor(private readonly k: number) {}

  offer(item: T, tier: number, value: number, name: string | number, id: string | number): void {
    if (this.k <= 0) return;
    const list = this.entries;
    if (list.length === this.k) {
      const worst = list[list.length - 1]!;
      if (tier > worst.tier || (tier === worst.tier && value > worst.value)) return;
    }
    const entry = { item, tier, value, name, id };
    if (list.length === this.k && compare(entry, list[list.length - 1]!) >= 0) return;
    let at = list.length;
    while (at > 0 && compare(entry, list[at - 1]!) < 0) at--;
    list.splice(at, 0, entry);
    if (list.length > this.k) list.pop();
  }

  items(): T[] {
    return this.entries.map((e) => e.item);
  }

  /** The tier a newcomer must not exceed to have a chance: the worst kept one's once full, else any. */
  worstTier(): number {
    return this.entries.length < this.k ? Infinity : this.entries[this.entries.length - 1]!.tier;
  }
}

type Ranked = { tier: number; value: number; name: string | number; id: string | number };
function compare(a: Ranked, b: Ranked): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.value !== b.value) return a.value - b.value;
  // both strings or both numbers: `<` orders either
  if (a.name !== b.name) return (a.name as string) < (b.name as string) ? -1 : 1;
  return (a.id as string) < (b.id as string) ? -1 : (a.id as string) > (b.id as string) ? 1 : 0;
}
