import { existsSync } from "node:fs";
import { fork } from "node:child_process";
import { databaseUrlOf, type Queryable } from "~/db/db.server";
import { summarySelect, toSummary } from "~/modules/catalog/catalog.server";
import { listSizes, type SizeRow } from "~/modules/catalog/sizes.server";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { logger } from "~/utils/logger.server";
import { findScents, similarIds, type FinderAnswers, type FinderResult, type LoveMatch, type ScentIndex, type ScentProfile } from "~/modules/scent/scent.logic";
import { profileFromRow, SCENT_COLUMNS } from "~/modules/scent/scent-profile";
import { buildCatalogueData, type CatalogueData } from "~/modules/scent/scent-catalogue-build.server";
import { serializeFinder } from "~/modules/scent/scent.schema";
import { NOTE_VOCABULARY } from "~/modules/scent/scent.vocabulary";

/**
 * The scent finder's and similar scents' data (issue 22, docs/decisions/035).
 *
 * The matching (scent.logic.ts) ranks the whole catalogue on every request, which SQL could not do within the 5 ms
 * budget at 10 000 products (a scan that reads every profile costs ~20 ms on SQLite). So each process keeps what the
 * ranking reads in memory — a struct of typed arrays (ScentIndex), about 150 bytes a product — built by reading every
 * product (a big catalogue in a child process: buildCatalogue) and dropped whenever the storefront changes (a product
 * saved, an import, stock taken by a paid order: storefrontChanged, which the change feed also raises for changes made
 * by other processes), and after SCENT_CATALOGUE_TTL_MS as a backstop for writes that raise nothing (a seed, a
 * hand-made SQL fix). The cards the answer shows (three at most) are read after ranking by id, in one indexed query,
 * and remembered with the answer: an answer already given for this catalogue (the same product page, the same shared
 * result link) is a lookup.
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
  /** where it was built: in the server's process, or in a process of its own (a big catalogue: buildCatalogue) */
  builtIn: "server" | "child process";
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

async function buildCatalogue(db: Queryable, now: number): Promise<ScentCatalogue> {
  const started = performance.now();
  const url = databaseUrlOf(db);
  const file = url && (await productCount(db)) >= CHILD_FROM_PRODUCTS ? builderFile() : null;
  let data: CatalogueData | undefined;
  if (url && file) {
    try {
      data = await buildInChild(file, url);
    } catch (error) {
      // The shop still answers: the build runs here instead, as it did before there was a child process.
      logger.warn({ err: error }, "scent catalogue: its build process failed; building it in the server's process");
    }
  }
  const builtIn = data ? "child process" : "server";
  data ??= await buildCatalogueData(db);
  logger.debug({ products: data.index.size, ms: Math.round(performance.now() - started), builtIn }, "scent catalogue built");
  return { ...data, memo: new Map(), builtAt: now, builtIn };
}

/**
 * From how many products the catalogue is built in a process of its own. Below, building it here costs the server
 * less (~15 µs a product: 30 ms at 2 000) than a process costs to start and load the database code (~0.2 s).
 */
export const CHILD_FROM_PRODUCTS = 5_000;

async function productCount(db: Queryable): Promise<number> {
  const row = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  return Number(row?.n ?? 0);
}

interface BuilderFile {
  url: URL;
  execArgv: string[];
}

/**
 * The build process's file and how to run it. Built (npm run build), vite.config.ts makes it an entry of its own,
 * build/server/scent-catalogue.process.js, and this module lands in a chunk in build/server/assets/ (or, were it
 * inlined, in build/server/ itself): the file is looked for beside both. From source (npm run dev, Vitest) the
 * TypeScript beside this file runs under tsx, which also resolves the app's "~/" imports.
 */
let builderFound: BuilderFile | null | undefined;
function builderFile(): BuilderFile | null {
  if (builderFound !== undefined) return builderFound;
  if (import.meta.url.endsWith(".ts")) {
    builderFound = { url: new URL("../scent/scent-catalogue.process.ts", import.meta.url), execArgv: ["--import", "tsx"] };
  } else {
    const built = ["../scent-catalogue.process.js", "./scent-catalogue.process.js"].map((p) => new URL(p, import.meta.url)).find((u) => existsSync(u));
    builderFound = built ? { url: built, execArgv: [] } : null;
    if (!built) logger.warn("scent catalogue: build/server/scent-catalogue.process.js is missing (an incomplete build?); the catalogue is built in the server's process");
  }
  return builderFound;
}

/**
 * The catalogue built by a short-lived child process on its own connection to the database at `url`, sent back over
 * IPC (V8's serializer: typed arrays, Maps and all). A process rather than a worker thread: when it exits, everything
 * it used goes back to the operating system. A worker thread's heap pages and malloc arena stayed with the server,
 * ~55 MB resident for good at 100 000 products (issue 20: the server's memory budget is 300 MB).
 */
function buildInChild(file: BuilderFile, url: string): Promise<CatalogueData> {
  return new Promise((resolve, reject) => {
    const child = fork(file.url, [], {
      execArgv: [...file.execArgv, `--max-semi-space-size=${CHILD_YOUNG_MB}`],
      env: { ...process.env, SCENT_CATALOGUE_DATABASE_URL: url },
      serialization: "advanced",
      // its error output goes into the server's own (JSON) log line when it fails, not raw onto the server's stderr
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let data: CatalogueData | undefined;
    let errors = "";
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      errors = (errors + text).slice(-2_000);
    });
    child.once("message", (message) => {
      data = message as CatalogueData;
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (data && code === 0) resolve(data);
      else reject(new Error(`the catalogue's build process stopped (exit code ${code}${signal ? `, ${signal}` : ""}) before it sent the catalogue${errors ? `: ${errors.trim()}` : ""}`));
    });
  });
}

/**
 * The build process's young generation, in MB: the rows it reads die young (they come in pieces), so a small one is
 * collected often and cheaply and the process's peak stays near what the catalogue itself needs.
 */
const CHILD_YOUNG_MB = 8;

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
  /**
   * What the pick's Add to Cart adds: its cheapest visible size, the one its price (and the budget answer) is of
   * (issue 33); null when the product has no visible size.
   */
  size: { id: string; label: string; stock: number | null } | null;
}

/** Each product's cheapest visible size, chosen as the product's summary chooses it (price, then the owner's order). */
async function cheapestSizes(db: Queryable, ids: string[]): Promise<Map<string, FinderPickCard["size"]>> {
  const cheapest = new Map<string, SizeRow>();
  for (const s of await listSizes(db, ids)) {
    const known = cheapest.get(s.productId);
    if (!known || s.priceCents < known.priceCents) cheapest.set(s.productId, s);
  }
  return new Map([...cheapest].map(([id, s]) => [id, { id: s.id, label: s.label, stock: s.stock }]));
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
  const ids = result.picks.map((p) => p.id);
  const [cards, sizes] = await Promise.all([cardsOf(db, ids), cheapestSizes(db, ids)]);
  const page: FinderPage = {
    ...result,
    love: loveShown(result.love),
    picks: cards.map((c) => ({ ...c, reason: why.get(c.id)!.reason, named: why.get(c.id)!.named, size: sizes.get(c.id) ?? null })),
  };
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
