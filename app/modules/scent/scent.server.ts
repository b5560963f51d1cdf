import { sql } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import { summarySelect, toSummary } from "~/modules/catalog/catalog.server";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { findScents, similarIds, toCandidate, ScentIndexBuilder, type FinderAnswers, type FinderResult, type LoveMatch, type ScentIndex, type ScentProfile } from "./scent.logic";
import { profileFromRow, SCENT_COLUMNS } from "./scent-profile";
import { serializeFinder } from "./scent.schema";
import { NOTE_VOCABULARY } from "./scent.vocabulary";

/**
 * The scent finder's and similar scents' data (issue 22, docs/decisions/035).
 *
 * The matching (scent.logic.ts) ranks the whole catalogue on every request, which SQL could not do within the 5 ms
 * budget at 10 000 products (a scan that reads every profile costs ~20 ms on SQLite). So each process keeps what the
 * ranking reads in memory — a struct of typed arrays (ScentIndex), about 150 bytes a product — built by one query and
 * dropped whenever the storefront changes (a product saved, an import, stock taken by a paid order: storefrontChanged,
 * which the change feed also raises for changes made by other processes), and after SCENT_CATALOGUE_TTL_MS as a
 * backstop for writes that raise nothing (a seed, a hand-made SQL fix). The cards the answer shows (three at most) are
 * read after ranking by id, in one indexed query, and remembered with the answer: an answer already given for this
 * catalogue (the same product page, the same shared result link) is a lookup.
 */
export const SCENT_CATALOGUE_TTL_MS = 60_000;

export interface ScentCatalogue {
  /** what the ranking reads, one slot per product (ids, prices, stock, profile codes, note ids) */
  index: ScentIndex;
  /** the notes the catalogue uses, for the admin form's suggestions and the shop's note filter */
  notes: string[];
  /** "House Fragrance" and houses, for the finder's fragrance box suggestions */
  loves: string[];
  /**
   * Answers already worked out for this catalogue, with their few cards (finder: by the answers' URL; similar: by
   * product id). The same product page or shared result link asked again costs a lookup. Bounded (at most MEMO_MAX
   * answers of at most a few cards each, ~1 KB a card); emptied with the catalogue.
   */
  memo: Map<string, unknown>;
  builtAt: number;
}

const MEMO_MAX = 2_000;

function remember<T>(catalogue: ScentCatalogue, key: string, value: T): T {
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

/** How many products (SQLite) or table pages (PostgreSQL, ~10–25 products each) one read of the build takes. */
const BUILD_ROWS = 2_000;
const BUILD_BLOCKS = 128;

type CatalogueRow = Awaited<ReturnType<ReturnType<typeof catalogueRows>["execute"]>>[number];
function catalogueRows(db: Queryable) {
  // Only what the ranking reads.
  return db.selectFrom("products as p").select(["p.id", "p.name", "p.price_cents", "p.stock", "p.inspired_house", "p.inspired_fragrance", ...SCENT_COLUMNS.map((c) => `p.${c}` as const)]);
}

/**
 * Every product in the table's own order (which product of a fragrance stands for it, and whose spelling of a name is
 * shown, follow it, as they always did), read in pieces: reading 100 000 rows at once left ~180 MB of garbage in the
 * server's old generation, which no collection took back while the shop was idle (issue 20: the server's memory).
 * SQLite: by rowid, the order of its table scan (an update keeps a row's rowid). PostgreSQL: by ranges of table pages,
 * the order of its table scan, all in one repeatable-read snapshot so a row updated meanwhile (a new version, perhaps
 * on another page) is read once.
 */
async function eachCatalogueRow(db: Queryable, visit: (row: CatalogueRow) => void): Promise<void> {
  if (!isPostgres(db)) {
    for (let after = 0; ; ) {
      const rows = await catalogueRows(db).select(sql<number>`p.rowid`.as("rowid")).where(sql`p.rowid`, ">", after).orderBy(sql`p.rowid`).limit(BUILD_ROWS).execute();
      for (const r of rows) visit(r);
      if (rows.length < BUILD_ROWS) return;
      after = Number(rows[rows.length - 1]!.rowid);
    }
  }
  const read = async (trx: Queryable) => {
    const { rows } = await sql<{ blocks: number }>`select pg_relation_size('products') / current_setting('block_size')::int as blocks`.execute(trx);
    const blocks = Number(rows[0]?.blocks ?? 0);
    for (let from = 0; from < blocks; from += BUILD_BLOCKS) {
      const page = await catalogueRows(trx)
        .where(sql`p.ctid`, ">=", sql`${`(${from},0)`}::tid`)
        .where(sql`p.ctid`, "<", sql`${`(${from + BUILD_BLOCKS},0)`}::tid`)
        .execute();
      for (const r of page) visit(r);
    }
  };
  if (db.isTransaction) await read(db);
  else await db.transaction().setIsolationLevel("repeatable read").execute(read);
}

async function buildCatalogue(db: Queryable, now: number): Promise<ScentCatalogue> {
  const notes = new Map<string, string>();
  const loves = new Map<string, string>();
  const builder = new ScentIndexBuilder();
  await eachCatalogueRow(db, (r) => {
    const profile = profileFromRow(r);
    for (const n of [...profile.top, ...profile.heart, ...profile.base]) {
      const key = n.toLowerCase();
      if (!notes.has(key)) notes.set(key, n);
    }
    const house = r.inspired_house?.trim();
    const fragrance = r.inspired_fragrance?.trim();
    if (house) loves.set(house.toLowerCase(), house);
    if (fragrance) loves.set(`${house ?? ""} ${fragrance}`.trim().toLowerCase(), `${house ?? ""} ${fragrance}`.trim());
    const stock = r.stock === null || r.stock === undefined ? null : Number(r.stock);
    builder.add(toCandidate({ id: r.id, name: r.name, priceCents: Number(r.price_cents), stock, house: r.inspired_house ?? null, fragrance: r.inspired_fragrance ?? null, profile }));
  });
  const byName = (a: string, b: string) => a.localeCompare(b, "en");
  return { index: builder.build(), notes: [...notes.values()].sort(byName), loves: [...loves.values()].sort(byName), memo: new Map(), builtAt: now };
}

/** The cards of these products, in this order, in one query; a product gone meanwhile is left out. */
async function cardsOf(db: Queryable, ids: string[]): Promise<ProductSummary[]> {
  if (ids.length === 0) return [];
  const rows = await summarySelect(db).where("p.id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, toSummary(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface FinderPickCard extends ProductSummary {
  reason: string;
  named: boolean;
}

/** What the fragrance box was understood as, without the named products' ids (thousands for a house in a big shop). */
export type LoveShown = { kind: "none" } | { kind: "fragrance"; house: string | null; fragrance: string } | { kind: "house"; house: string } | { kind: "unknown"; text: string };

export interface FinderPage extends Omit<FinderResult, "picks" | "love"> {
  picks: FinderPickCard[];
  love: LoveShown;
}

function loveShown(love: LoveMatch): LoveShown {
  if (love.kind === "fragrance") return { kind: "fragrance", house: love.house, fragrance: love.fragrance };
  if (love.kind === "house") return { kind: "house", house: love.house };
  return love;
}

export async function runFinder(db: Queryable, answers: FinderAnswers): Promise<FinderPage> {
  const catalogue = await scentCatalogue(db);
  const key = `finder:${serializeFinder(answers).toString()}`;
  const known = catalogue.memo.get(key) as FinderPage | undefined;
  if (known) return known;
  const result = findScents(catalogue.index, answers);
  const why = new Map(result.picks.map((p) => [p.id, p]));
  const cards = await cardsOf(db, result.picks.map((p) => p.id));
  const page: FinderPage = { ...result, love: loveShown(result.love), picks: cards.map((c) => ({ ...c, reason: why.get(c.id)!.reason, named: why.get(c.id)!.named })) };
  return remember(catalogue, key, page);
}

/** "If you love X, try Y": three products most like this one, in stock first. */
export async function similarScents(db: Queryable, productId: string, count = 3): Promise<ProductSummary[]> {
  const catalogue = await scentCatalogue(db);
  const key = `similar:${count}:${productId}`;
  const known = catalogue.memo.get(key) as ProductSummary[] | undefined;
  if (known) return known;
  return remember(catalogue, key, await cardsOf(db, similarIds(catalogue.index, productId, count)));
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
