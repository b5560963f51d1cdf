/**
 * The scent finder's and "if you love X, try Y"'s matching (issue 22). Pure, browser-safe, no I/O: the server hands it
 * the catalogue's profiles (scent.server.ts keeps them in memory) and gets ids back. The weights and the order of the
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

/** A product as the matching sees it: its profile, price, stock and inspiration, with its notes' keys worked out once. */
export interface ScentCandidate {
  id: string;
  name: string;
  /** the name lower-cased, the last tiebreak before the id */
  sortName: string;
  priceCents: number;
  inStock: boolean;
  house: string | null;
  fragrance: string | null;
  family: ScentFamily | null;
  intensity: Intensity | null;
  occasion: Occasion | null;
  audience: Audience | null;
  /** distinct note keys (noteKey) and the heads of those keys (noteHead) */
  noteKeys: string[];
  noteHeads: string[];
  /** house and fragrance as loveText makes them ('' = none), worked out once: matching a typed name reads every product */
  houseText: string;
  fragranceText: string;
  /**
   * The same facts as small integers, for the ranking's inner loop (10 000 products in a few milliseconds): the
   * family's, audience's, occasion's and intensity's index in their lists (-1 = not said), the house's and the notes'
   * ids from the interner below.
   */
  codes: { family: number; audience: number; occasion: number; intensity: number; house: number; fragrance: number; keys: Int32Array; heads: Int32Array };
}

/**
 * Interned note keys and houses → small integer ids, shared by every catalogue this process builds (a shop has a
 * few hundred distinct notes). Bounded: past the limit it starts again, and candidates made before keep ids that may
 * then be reused — harmless for a catalogue built afterwards (all its candidates share one interner generation).
 */
const interned = new Map<string, number>();
function intern(value: string): number {
  let id = interned.get(value);
  if (id === undefined) {
    if (interned.size >= 1_000_000) interned.clear();
    id = interned.size + 1;
    interned.set(value, id);
  }
  return id;
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
  const keys = [...new Set([...input.profile.top, ...input.profile.heart, ...input.profile.base].map(noteKey).filter(Boolean))];
  return {
    id: input.id,
    name: input.name,
    sortName: input.name.toLowerCase(),
    priceCents: input.priceCents,
    inStock: input.stock === null || input.stock > 0,
    house: input.house?.trim() || null,
    fragrance: input.fragrance?.trim() || null,
    family: input.profile.family,
    intensity: input.profile.intensity,
    occasion: input.profile.occasion,
    audience: input.profile.audience,
    noteKeys: keys,
    noteHeads: [...new Set(keys.map(noteHead))],
    houseText: loveText(input.house ?? ""),
    fragranceText: loveText(input.fragrance ?? ""),
    codes: {
      family: input.profile.family ? SCENT_FAMILIES.indexOf(input.profile.family) : -1,
      audience: input.profile.audience ? AUDIENCES.indexOf(input.profile.audience) : -1,
      occasion: input.profile.occasion ? OCCASIONS.indexOf(input.profile.occasion) : -1,
      intensity: input.profile.intensity ? INTENSITIES.indexOf(input.profile.intensity) : -1,
      house: input.house?.trim() ? intern(`house:${loveText(input.house)}`) : 0,
      fragrance: input.fragrance?.trim() ? intern(`fragrance:${loveText(input.fragrance)}`) : 0,
      keys: Int32Array.from(keys, (k) => intern(k)),
      heads: Int32Array.from(new Set(keys.map(noteHead)), (h) => intern(h)),
    },
  };
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
  source: ScentCandidate;
  familyPoints: Float64Array;
  keyMarks: Uint8Array;
  headMarks: Uint8Array;
}

function likenessOf(source: ScentCandidate): Likeness {
  const familyPoints = new Float64Array(SCENT_FAMILIES.length + 1);
  if (source.family) {
    SCENT_FAMILIES.forEach((f, i) => {
      familyPoints[i + 1] = f === source.family ? LIKENESS.sameFamily : areNear(source.family!, f) ? LIKENESS.nearFamily : 0;
    });
  }
  const size = interned.size + 2;
  const keyMarks = new Uint8Array(size);
  const headMarks = new Uint8Array(size);
  for (const id of source.codes.keys) keyMarks[id] = 1;
  for (const id of source.codes.heads) headMarks[id] = 1;
  return { source, familyPoints, keyMarks, headMarks };
}

export function likeness(l: Likeness, other: ScentCandidate): number {
  const s = l.source.codes;
  const o = other.codes;
  let score = l.familyPoints[o.family + 1]!;
  let shared = 0;
  let heads = 0;
  for (let i = 0; i < o.keys.length; i++) shared += l.keyMarks[o.keys[i]!] ?? 0;
  for (let i = 0; i < o.heads.length; i++) heads += l.headMarks[o.heads[i]!] ?? 0;
  score += Math.min(shared, LIKENESS.maxSharedNotes) * LIKENESS.sharedNote + Math.max(0, heads - shared) * LIKENESS.sharedHead;
  if (s.house !== 0 && s.house === o.house) score += LIKENESS.sameHouse;
  if (s.audience >= 0 && s.audience === o.audience) score += LIKENESS.sameAudience;
  if (s.intensity >= 0 && s.intensity === o.intensity) score += LIKENESS.sameIntensity;
  return score;
}

/**
 * "If you love X, try Y": the `count` products most like `source`, in stock first, then by likeness, then cheaper,
 * then by name and id. One pass over the catalogue keeping the best few (no sort of 10 000 rows).
 */
export function similarTo(catalogue: readonly ScentCandidate[], sourceId: string, count = 3): ScentCandidate[] {
  const source = catalogue.find((c) => c.id === sourceId);
  if (!source) return [];
  const like = likenessOf(source);
  const best = new TopK<ScentCandidate>(count);
  for (const c of catalogue) {
    if (c === source) continue;
    best.offer(c, c.inStock ? 0 : 1, rankValue(likeness(like, c), c.priceCents), c.sortName, c.id);
  }
  return best.items();
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
export function matchLove(catalogue: readonly ScentCandidate[], love: string): LoveMatch {
  const text = loveText(love);
  if (!text) return { kind: "none" };
  // the catalogue's distinct names (a few hundred), not its 10 000 products, are searched in the text
  const names = distinctNames(catalogue);
  let best: { fragrance: string; house: string | null; length: number } | null = null;
  let house: { name: string; length: number } | null = null;
  for (const [f, found] of names.fragrances) {
    if (f.length - 2 >= 3 && (!best || f.length > best.length) && text.includes(f)) best = { ...found, length: f.length };
  }
  for (const [h, name] of names.houses) {
    if (h.length - 2 >= 3 && (!house || h.length > house.length) && text.includes(h)) house = { name, length: h.length };
  }
  if (best) {
    // the same fragrance name under another house ("For Her") is another fragrance: when the text names a house, it must agree
    const fragranceId = intern(`fragrance:${loveText(best.fragrance)}`);
    const houseId = house ? intern(`house:${loveText(house.name)}`) : -1;
    const ids: string[] = [];
    for (const c of catalogue) if (c.codes.fragrance === fragranceId && (houseId === -1 || c.codes.house === houseId)) ids.push(c.id);
    if (ids.length > 0) return { kind: "fragrance", house: house?.name ?? best.house, fragrance: best.fragrance, ids };
  }
  if (house) {
    const houseId = intern(`house:${loveText(house.name)}`);
    const ids: string[] = [];
    for (const c of catalogue) if (c.codes.house === houseId) ids.push(c.id);
    return { kind: "house", house: house.name, ids };
  }
  return { kind: "unknown", text: love.trim() };
}

/** The catalogue's distinct fragrance and house names by their loveText, worked out once per catalogue array. */
const namesOf = new WeakMap<readonly ScentCandidate[], { fragrances: Map<string, { fragrance: string; house: string | null }>; houses: Map<string, string> }>();
function distinctNames(catalogue: readonly ScentCandidate[]) {
  let names = namesOf.get(catalogue);
  if (!names) {
    names = { fragrances: new Map(), houses: new Map() };
    for (const c of catalogue) {
      if (c.fragrance && !names.fragrances.has(c.fragranceText)) names.fragrances.set(c.fragranceText, { fragrance: c.fragrance, house: c.house });
      if (c.house && !names.houses.has(c.houseText)) names.houses.set(c.houseText, c.house);
    }
    namesOf.set(catalogue, names);
  }
  return names;
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
export function findScents(catalogue: readonly ScentCandidate[], answers: FinderAnswers, count = FINDER_PICKS): FinderResult {
  const notes: string[] = [];
  const budgetCents = answers.budgetRand === null ? null : answers.budgetRand * 100;

  // 1. the budget
  let pool: readonly ScentCandidate[] = catalogue;
  let budgetWidened = false;
  if (budgetCents !== null) {
    const within = catalogue.filter((c) => c.priceCents <= budgetCents);
    if (within.length > 0) pool = within;
    else if (catalogue.length > 0) {
      // Nothing fits: the cheapest price points holding `count` products, and say how far we went.
      const cap = kthSmallestPrice(catalogue, Math.min(count, catalogue.length));
      pool = catalogue.filter((c) => c.priceCents <= cap);
      budgetWidened = true;
      notes.push(`Nothing in the shop is ${formatRand(budgetCents)} or less, so we looked up to ${formatRand(cap)}: our most affordable scents.`);
    }
  }

  // what they named
  const love = matchLove(catalogue, answers.love);
  const named = new Set(love.kind === "fragrance" ? love.ids : []);
  // the loop below asks the Set only for products of the named fragrance's name (an integer compare first: asking a
  // Set of string ids for each of 10 000 products costs a millisecond)
  const namedFragrance = love.kind === "fragrance" ? intern(`fragrance:${loveText(love.fragrance)}`) : -1;
  const namedHouse = love.kind === "house" ? intern(`house:${loveText(love.house)}`) : -1;
  // the fragrance they named stands for its profile: picks are scored on likeness to it
  const reference = love.kind === "fragrance" ? catalogue.find((c) => c.id === love.ids[0]) ?? null : null;
  const like = reference ? likenessOf(reference) : null;

  const chosen = new Set(answers.families);
  const near = new Set(answers.families.flatMap(nearFamilies).filter((f) => !chosen.has(f)));
  // every answer as a table of points by the candidate's code, so the loop below is lookups and additions
  const audienceT = table(AUDIENCES, (has) => audienceScore(answers.audience, has));
  const occasionT = table(OCCASIONS, (has) => occasionScore(answers.occasion, has));
  const intensityT = table(INTENSITIES, (has) => intensityScore(answers.intensity, has));
  const familyT = table(SCENT_FAMILIES, (has) => (has !== null && near.has(has) ? FINDER_WEIGHTS.nearFamily : 0));
  const inFamilyT = table(SCENT_FAMILIES, (has) => (has !== null && chosen.has(has) ? 1 : 0));

  const best = new TopK<ScentCandidate>(count);
  let familyInPool = false;
  let familyInStock = false;
  for (const c of pool) {
    const code = c.codes;
    const inFamily = inFamilyT[code.family + 1] === 1;
    if (inFamily) {
      familyInPool = true;
      if (c.inStock) familyInStock = true;
    }
    const isNamed = code.fragrance === namedFragrance && named.has(c.id);
    const tier = (c.inStock ? 0 : 4) + (isNamed ? 0 : 2) + (inFamily ? 0 : 1);
    // a product whose tier can't make the three needs no score (the likeness is the costly part)
    if (tier > best.worstTier()) continue;
    let score = audienceT[code.audience + 1]! + occasionT[code.occasion + 1]! + intensityT[code.intensity + 1]! + familyT[code.family + 1]!;
    if (like && c !== reference) score += likeness(like, c) * FINDER_WEIGHTS.likenessShare;
    if (code.house === namedHouse) score += FINDER_WEIGHTS.namedHouse;
    best.offer(c, tier, rankValue(score, c.priceCents), c.sortName, c.id);
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
    const own = catalogue.filter((c) => named.has(c.id));
    const shown = own.some((c) => picked.some((p) => p.id === c.id));
    if (!shown && own.length > 0) {
      const first = own[0]!;
      const why = budgetCents !== null && !budgetWidened && first.priceCents > budgetCents ? `costs ${formatRand(first.priceCents)}, over your budget` : !first.inStock ? "is sold out right now" : "didn't make the three";
      notes.push(`Our scent inspired by ${love.fragrance}, ${first.name}, ${why}; these are the closest to it.`);
    }
  }
  if (love.kind === "house" && picked.length > 0 && !picked.some((c) => c.houseText === loveText(love.house))) {
    const within = budgetCents !== null && !budgetWidened ? ` at ${formatRand(budgetCents)} or less` : "";
    notes.push(
      love.ids.length === 0
        ? `We have no scents inspired by ${love.house} yet, so your picks follow your other answers.`
        : `None of our ${love.house}-inspired scents${within} fits your other answers as well as these.`,
    );
  }
  if (picked.length < count) {
    if (catalogue.length < count) notes.push(`The shop has ${catalogue.length === 0 ? "no scents" : catalogue.length === 1 ? "only one scent" : `only ${catalogue.length} scents`} so far.`);
    else if (budgetCents !== null && !budgetWidened)
      notes.push(
        `Only ${picked.length === 1 ? "one of our scents is" : `${picked.length} of our scents are`} ${formatRand(budgetCents)} or less; a higher budget shows more.`,
      );
  }

  return {
    picks: picked.map((c) => ({ id: c.id, named: named.has(c.id), reason: reasonFor(c, answers, love, reference) })),
    notes,
    love,
    budgetCents,
    budgetWidened,
  };
}

/** The k-th smallest price (1-based) in one pass, keeping the k smallest seen: no sort of the whole catalogue. */
function kthSmallestPrice(catalogue: readonly ScentCandidate[], k: number): number {
  const smallest: number[] = [];
  for (const c of catalogue) {
    if (smallest.length === k && c.priceCents >= smallest[k - 1]!) continue;
    let at = smallest.length;
    while (at > 0 && smallest[at - 1]! > c.priceCents) at--;
    smallest.splice(at, 0, c.priceCents);
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

/** One line on why: what it is like (and like what they named), how strong and when, and its price. */
export function reasonFor(c: ScentCandidate, answers: FinderAnswers, love: LoveMatch, reference: ScentCandidate | null): string {
  const parts: string[] = [];
  const adjective = c.family ? FAMILY_TEXT[c.family].adjective : null;
  if (love.kind === "fragrance" && love.ids.includes(c.id)) parts.push(`inspired by ${love.fragrance}, the one you named`);
  else if (love.kind === "house" && c.houseText === loveText(love.house)) parts.push(`${adjective ?? "a signature"} like the ${love.house} you named`);
  else if (reference && adjective && reference.family === c.family) parts.push(`${adjective} like the ${reference.fragrance ?? reference.name} you love`);
  else if (adjective && c.family && answers.families.includes(c.family)) parts.push(`${adjective}, just as you like it`);
  else if (adjective && c.family && answers.families.length > 0) {
    const close = answers.families.find((f) => nearFamilies(f).includes(c.family!));
    parts.push(close ? `${adjective}, close to the ${FAMILY_TEXT[close].label.toLowerCase()} you like` : adjective);
  } else if (adjective) parts.push(adjective);

  const wear = wearPhrase(c.intensity, c.occasion);
  if (wear) parts.push(wear);
  parts.push(c.inStock ? formatRand(c.priceCents) : `${formatRand(c.priceCents)}, sold out for now`);
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
 * that doesn't make the cut.
 */
export class TopK<T> {
  private entries: Array<{ item: T; tier: number; value: number; name: string; id: string }> = [];
  /** `name` is compared as given: pass it lower-cased (ScentCandidate.sortName) so ties cost no allocation. */
  constructor(private readonly k: number) {}

  offer(item: T, tier: number, value: number, name: string, id: string): void {
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

function compare(a: { tier: number; value: number; name: string; id: string }, b: { tier: number; value: number; name: string; id: string }): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.value !== b.value) return a.value - b.value;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
