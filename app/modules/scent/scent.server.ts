import type { Queryable } from "~/db/db.server";
import { summarySelect, toSummary } from "~/modules/catalog/catalog.server";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { findScents, similarTo, toCandidate, type FinderAnswers, type FinderResult, type ScentCandidate, type ScentProfile } from "./scent.logic";
import { profileFromRow, SCENT_COLUMNS } from "./scent-profile";
import { serializeFinder } from "./scent.schema";
import { NOTE_VOCABULARY } from "./scent.vocabulary";

/**
 * The scent finder's and similar scents' data (issue 22, docs/decisions/035).
 *
 * The matching (scent.logic.ts) ranks the whole catalogue on every request, which SQL could not do within the 5 ms
 * budget at 10 000 products (a scan that reads every profile costs ~20 ms on SQLite). So each process keeps the
 * catalogue's profiles in memory — about 1 KB a product — built by one query and dropped whenever the storefront
 * changes (a product saved, an import, stock taken by a paid order: storefrontChanged, which the change feed also
 * raises for changes made by other processes), and after SCENT_CATALOGUE_TTL_MS as a backstop for writes that raise
 * nothing (a seed, a hand-made SQL fix). The cards the picks show are kept with it, so a request costs the ranking
 * alone (about 1–4 ms at 10 000 products, measured in scent-scale.int.test.ts), and an answer already given for this
 * catalogue (the same product page, the same shared result link) a lookup.
 */
export const SCENT_CATALOGUE_TTL_MS = 60_000;

export interface ScentCatalogue {
  candidates: ScentCandidate[];
  /** every product's card (what a pick or a similar scent shows), so an answer needs no query at all */
  cards: Map<string, ProductSummary>;
  /** the notes the catalogue uses, for the admin form's suggestions and the shop's note filter */
  notes: string[];
  /** "House Fragrance" and houses, for the finder's fragrance box suggestions */
  loves: string[];
  /**
   * Answers already worked out for this catalogue (finder: by the answers' URL; similar: by product id). The same
   * product page or shared result link asked again costs a lookup. Bounded; emptied with the catalogue.
   */
  memo: Map<string, unknown>;
  builtAt: number;
}

const MEMO_MAX = 5_000;

function remember<T>(catalogue: ScentCatalogue, key: string, make: () => T): T {
  if (catalogue.memo.has(key)) return catalogue.memo.get(key) as T;
  const value = make();
  if (catalogue.memo.size >= MEMO_MAX) catalogue.memo.clear();
  catalogue.memo.set(key, value);
  return value;
}

const cache = new WeakMap<object, { at: number; generation: number; catalogue: Promise<ScentCatalogue> }>();
let generation = 0;
onStorefrontChange(() => {
  generation++;
});

/** Forget the cached catalogue (tests that write products without raising a storefront change). */
export function forgetScentCatalogue(): void {
  generation++;
}

export async function scentCatalogue(db: Queryable, now = Date.now()): Promise<ScentCatalogue> {
  const hit = cache.get(db);
  if (hit && hit.generation === generation && now - hit.at < SCENT_CATALOGUE_TTL_MS) return hit.catalogue;
  const catalogue = buildCatalogue(db, now);
  const entry = { at: now, generation, catalogue };
  cache.set(db, entry);
  // a failed build is not kept: the next request tries again
  catalogue.catch(() => {
    if (cache.get(db) === entry) cache.delete(db);
  });
  return catalogue;
}

async function buildCatalogue(db: Queryable, now: number): Promise<ScentCatalogue> {
  const rows = await summarySelect(db).select(SCENT_COLUMNS.map((c) => `p.${c}` as const)).execute();
  const notes = new Map<string, string>();
  const loves = new Map<string, string>();
  const cards = new Map<string, ProductSummary>();
  const candidates = rows.map((r) => {
    const profile = profileFromRow(r);
    for (const n of [...profile.top, ...profile.heart, ...profile.base]) {
      const key = n.toLowerCase();
      if (!notes.has(key)) notes.set(key, n);
    }
    const house = r.inspired_house?.trim();
    const fragrance = r.inspired_fragrance?.trim();
    if (house) loves.set(house.toLowerCase(), house);
    if (fragrance) loves.set(`${house ?? ""} ${fragrance}`.trim().toLowerCase(), `${house ?? ""} ${fragrance}`.trim());
    const card = toSummary(r);
    cards.set(card.id, card);
    return toCandidate({ id: card.id, name: card.name, priceCents: card.priceCents, stock: card.stock, house: card.inspiredHouse, fragrance: card.inspiredFragrance, profile });
  });
  const byName = (a: string, b: string) => a.localeCompare(b, "en");
  return { candidates, cards, notes: [...notes.values()].sort(byName), loves: [...loves.values()].sort(byName), memo: new Map(), builtAt: now };
}

function cardsOf(catalogue: ScentCatalogue, ids: string[]): ProductSummary[] {
  return ids.flatMap((id) => catalogue.cards.get(id) ?? []);
}

export interface FinderPickCard extends ProductSummary {
  reason: string;
  named: boolean;
}

export interface FinderPage extends Omit<FinderResult, "picks"> {
  picks: FinderPickCard[];
}

export async function runFinder(db: Queryable, answers: FinderAnswers): Promise<FinderPage> {
  const catalogue = await scentCatalogue(db);
  const result = remember(catalogue, `finder:${serializeFinder(answers).toString()}`, () => findScents(catalogue.candidates, answers));
  const why = new Map(result.picks.map((p) => [p.id, p]));
  const cards = cardsOf(catalogue, result.picks.map((p) => p.id));
  return { ...result, picks: cards.map((c) => ({ ...c, reason: why.get(c.id)!.reason, named: why.get(c.id)!.named })) };
}

/** "If you love X, try Y": three products most like this one, in stock first. */
export async function similarScents(db: Queryable, productId: string, count = 3): Promise<ProductSummary[]> {
  const catalogue = await scentCatalogue(db);
  const ids = remember(catalogue, `similar:${count}:${productId}`, () => similarTo(catalogue.candidates, productId, count).map((c) => c.id));
  return cardsOf(catalogue, ids);
}

/** The finder's fragrance box suggestions: the houses and fragrances our products are inspired by (at most `max`). */
export async function loveSuggestions(db: Queryable, max = 300): Promise<string[]> {
  return (await scentCatalogue(db)).loves.slice(0, max);
}

/** The admin form's note suggestions: the shared vocabulary and the notes the catalogue already uses. */
export async function noteSuggestions(db: Queryable, max = 600): Promise<string[]> {
  const { notes } = await scentCatalogue(db);
  const seen = new Set(notes.map((n) => n.toLowerCase()));
  return [...notes, ...NOTE_VOCABULARY.filter((n) => !seen.has(n))].sort((a, b) => a.localeCompare(b, "en")).slice(0, max);
}

/** One product's profile (the product page's pyramid). */
export async function getScentProfile(db: Queryable, productId: string): Promise<ScentProfile | null> {
  const row = await db.selectFrom("products").select(SCENT_COLUMNS).where("id", "=", productId).executeTakeFirst();
  return row ? profileFromRow(row) : null;
}
