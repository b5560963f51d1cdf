/**
 * The words of a scent profile (issue 22, docs/decisions/035). Browser-safe, no I/O: the admin form, the finder, the
 * shop's filters, the product page and the matching all read the same lists, so a family or a note means one thing
 * everywhere.
 */

/** The fragrance families, in the order the finder and the filters list them. Fixed: the decision record settles it. */
export const SCENT_FAMILIES = ["fresh", "aquatic", "floral", "fruity", "gourmand", "amber", "woody", "aromatic", "chypre", "leather"] as const;
export type ScentFamily = (typeof SCENT_FAMILIES)[number];

export interface FamilyText {
  /** the name on a filter or a pyramid ("Woody") */
  label: string;
  /** what it smells like in everyday words, for someone who has never read a perfume review */
  everyday: string;
}

export const FAMILY_TEXT: Readonly<Record<ScentFamily, FamilyText>> = {
  fresh: { label: "Fresh & citrus", everyday: "lemon, bergamot, green leaves, clean cotton" },
  aquatic: { label: "Aquatic", everyday: "sea air, salt on skin, a cool breeze" },
  floral: { label: "Floral", everyday: "rose, jasmine, a bunch of fresh flowers" },
  fruity: { label: "Fruity", everyday: "pear, berries, cherry: juicy and bright" },
  gourmand: { label: "Sweet & gourmand", everyday: "vanilla, caramel, tonka: almost edible" },
  amber: { label: "Amber & spice", everyday: "warm amber, cinnamon, incense, glowing resins" },
  woody: { label: "Woody", everyday: "cedar, sandalwood, vetiver, a forest walk" },
  aromatic: { label: "Aromatic fougère", everyday: "lavender, herbs, the classic barbershop clean" },
  chypre: { label: "Chypre", everyday: "mossy and elegant: citrus over oakmoss and patchouli" },
  leather: { label: "Leather & smoke", everyday: "suede, tobacco, a smoky fireside" },
};

/**
 * How a finder's reason line says a family ("woody and warm like the Tom Ford you named"). Apart from FAMILY_TEXT so
 * that the browser, which never writes reasons, doesn't download them.
 */
export const FAMILY_ADJECTIVE: Readonly<Record<ScentFamily, string>> = {
  fresh: "fresh and zesty",
  aquatic: "cool and breezy",
  floral: "floral and romantic",
  fruity: "juicy and bright",
  gourmand: "sweet and cosy",
  amber: "warm and spicy",
  woody: "woody and warm",
  aromatic: "clean and herbal",
  chypre: "mossy and elegant",
  leather: "smoky and leathery",
};

/**
 * Families that are near one another (a shopper who likes one often likes these): the finder falls back on them when
 * the chosen family has nothing to offer, and they count a little in the matching. Symmetric by construction below.
 */
const NEAR: ReadonlyArray<readonly [ScentFamily, ScentFamily]> = [
  ["fresh", "aquatic"],
  ["fresh", "aromatic"],
  ["aquatic", "aromatic"],
  ["floral", "fruity"],
  ["floral", "chypre"],
  ["fruity", "gourmand"],
  ["gourmand", "amber"],
  ["amber", "woody"],
  ["amber", "leather"],
  ["woody", "leather"],
  ["woody", "aromatic"],
  ["woody", "chypre"],
];

// Made on first use (the matching, on the server), so that a browser page importing the vocabulary builds nothing.
let nearMap: Map<ScentFamily, readonly ScentFamily[]> | undefined;
let nearSets: Map<ScentFamily, ReadonlySet<ScentFamily>> | undefined;

/** The families near one (made once: the matching asks for every product it ranks). */
export function nearFamilies(family: ScentFamily): readonly ScentFamily[] {
  nearMap ??= new Map(SCENT_FAMILIES.map((f) => [f, NEAR.flatMap(([a, b]) => (a === f ? [b] : b === f ? [a] : []))]));
  return nearMap.get(family) ?? [];
}

export function areNear(a: ScentFamily, b: ScentFamily): boolean {
  nearSets ??= new Map(SCENT_FAMILIES.map((f) => [f, new Set(nearFamilies(f))]));
  return nearSets.get(a)?.has(b) ?? false;
}

export const INTENSITIES = ["light", "moderate", "strong"] as const;
export type Intensity = (typeof INTENSITIES)[number];
export const INTENSITY_TEXT: Readonly<Record<Intensity, { label: string; everyday: string }>> = {
  light: { label: "Light", everyday: "Stays close to you: for the office and hot days" },
  moderate: { label: "Moderate", everyday: "Noticed when someone leans in" },
  strong: { label: "Strong", everyday: "Fills the room and lasts all night" },
};

export const OCCASIONS = ["day", "evening", "both"] as const;
export type Occasion = (typeof OCCASIONS)[number];
export const OCCASION_TEXT: Readonly<Record<Occasion, { label: string; everyday: string }>> = {
  day: { label: "Day", everyday: "Work, errands, weekends in the sun" },
  evening: { label: "Evening", everyday: "Dinners, dates, going out" },
  both: { label: "Day and evening", everyday: "One bottle for everything" },
};

export const SEASONS = ["spring", "summer", "autumn", "winter"] as const;
export type Season = (typeof SEASONS)[number];

export const AUDIENCES = ["women", "men", "anyone"] as const;
export type Audience = (typeof AUDIENCES)[number];
export const AUDIENCE_TEXT: Readonly<Record<Audience, string>> = { women: "Women", men: "Men", anyone: "Anyone" };

/** Notes are short tags: letters (any language), spaces, hyphens, apostrophes, &, parentheses; never a comma (the separator). */
export const NOTE_MAX_LENGTH = 40;
/** At most this many notes on a tier of the pyramid. */
export const NOTES_PER_TIER = 8;
const NOTE_PATTERN = /^[\p{L}\p{M}0-9][\p{L}\p{M}0-9 '’&().-]*$/u;

export function isNoteTag(value: string): boolean {
  return value.length > 0 && value.length <= NOTE_MAX_LENGTH && NOTE_PATTERN.test(value);
}

/**
 * The shared vocabulary the admin form suggests as the owner types (a <datalist>), alongside the notes the catalogue
 * already uses. Not a closed list: a new note is allowed, but suggesting the usual spelling keeps "bergamot" from
 * becoming three different tags.
 */
export const NOTE_VOCABULARY: readonly string[] = [
  "aldehydes", "amber", "ambergris accord", "ambrette", "ambroxan", "apple", "bamboo", "basil", "benzoin", "bergamot",
  "birch tar", "black pepper", "blackcurrant", "cacao", "camellia", "caramel", "cardamom", "cashmeran", "cedar",
  "cherry", "cinnamon", "clary sage", "clove", "coconut", "coffee", "cypress", "elemi", "fig", "fir balsam",
  "frankincense", "freesia", "gardenia", "geranium", "ginger", "grapefruit", "green notes", "guaiac wood", "heliotrope",
  "honey", "incense", "iris", "jasmine", "juniper berry", "labdanum", "lavender", "leather", "lemon", "lily of the valley",
  "lime", "lychee", "magnolia", "mandarin", "marine notes", "mint", "moss", "musk", "myrrh", "neroli", "nutmeg",
  "oakmoss", "orange blossom", "orris", "oud", "patchouli", "peach", "pear", "peony", "pineapple", "pink pepper",
  "plum", "praline", "raspberry", "rooibos", "rose", "rosemary", "saffron", "sage", "sandalwood", "sea salt",
  "smoke", "suede", "tea", "tobacco", "tonka bean", "tuberose", "vanilla", "vetiver", "violet", "white musk",
  "ylang-ylang", "yuzu",
];

// ---------------------------------------------------------------------------------------------------------------
// Comparing notes

/** A few spellings that mean the same material, so "ambrox" shares a note with "ambroxan". */
const NOTE_ALIASES: Readonly<Record<string, string>> = {
  ambrox: "ambroxan",
  cedarwood: "cedar",
  orris: "iris",
  "orris butter": "iris",
  olibanum: "frankincense",
  agarwood: "oud",
  "oud wood": "oud",
  woods: "wood",
  notes: "",
};

/** Words that describe how a material is used rather than what it is ("lavender absolute" is lavender). */
const NOTE_QUALIFIERS = /\s+(?:absolute|accord|notes?|oil|extract|essence)$/;

/**
 * The key two notes are compared by: lower-case, accents and parentheses dropped, qualifiers and aliases resolved
 * ("Calabrian bergamot" stays itself; "lavender absolute" → "lavender"; "agarwood (oud)" → "agarwood" → "oud").
 */
const keyMemo = new Map<string, string>();

export function noteKey(note: string): string {
  const known = keyMemo.get(note);
  if (known !== undefined) return known;
  // a catalogue repeats the same few hundred notes: remember them (bounded, in case of a flood of odd ones)
  if (keyMemo.size > 20_000) keyMemo.clear();
  const key = makeNoteKey(note);
  keyMemo.set(note, key);
  return key;
}

function makeNoteKey(note: string): string {
  let key = note
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/[’']/g, "")
    .replace(/[^a-z0-9&-]+/g, " ")
    .trim();
  key = key.replace(NOTE_QUALIFIERS, "").trim();
  return NOTE_ALIASES[key] ?? key;
}

/**
 * The material a note names, its last word after the key ("Turkish rose" → "rose", "pink pepper" → "pepper"):
 * two notes with the same head are related but not the same, and count half in the matching.
 */
export function noteHead(key: string): string {
  const words = key.split(" ");
  const head = words[words.length - 1] ?? key;
  return NOTE_ALIASES[head] ?? head;
}

/**
 * Whether a note in a product carries the note a shopper filters by: the same key, or a kind of it ("rose" finds
 * "Turkish rose" and "black rose", never "rosemary" or "rose geranium"). The SQL filter applies the same rule.
 */
export function noteCarries(note: string, wanted: string): boolean {
  const key = noteKey(note);
  const want = noteKey(wanted);
  return want !== "" && (key === want || key.endsWith(` ${want}`));
}

/** Splits the stored ", "-joined notes back into tags. */
export function splitNotes(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
}

export function joinNotes(notes: readonly string[]): string {
  return notes.join(", ");
}

export function isFamily(value: unknown): value is ScentFamily {
  return typeof value === "string" && (SCENT_FAMILIES as readonly string[]).includes(value);
}
export function isIntensity(value: unknown): value is Intensity {
  return typeof value === "string" && (INTENSITIES as readonly string[]).includes(value);
}
export function isOccasion(value: unknown): value is Occasion {
  return typeof value === "string" && (OCCASIONS as readonly string[]).includes(value);
}
export function isAudience(value: unknown): value is Audience {
  return typeof value === "string" && (AUDIENCES as readonly string[]).includes(value);
}
export function isSeason(value: unknown): value is Season {
  return typeof value === "string" && (SEASONS as readonly string[]).includes(value);
}
