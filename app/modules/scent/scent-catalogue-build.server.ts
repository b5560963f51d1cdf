import { sql } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import { toCandidate, ScentIndexBuilder, type ScentIndex } from "./scent.logic";
import { profileFromRow, SCENT_COLUMNS } from "./scent-profile";

/**
 * Reading the catalogue and building what the finder ranks (docs/decisions/035). Its own module, importing only the
 * database and the matching, because it runs in a process of its own (scent-catalogue.process.ts, started by
 * scent-finder/scent-finder.server.ts) as well as in the server's process when that can't read the same database (a transaction, an
 * in-memory SQLite database).
 */
export interface CatalogueData {
  index: ScentIndex;
  /** the notes the catalogue uses, by name */
  notes: string[];
  /** "House Fragrance" and houses, by name */
  loves: string[];
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
 * heap (issue 20: the server's memory; in the build process it would be that process's peak).
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

export async function buildCatalogueData(db: Queryable): Promise<CatalogueData> {
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
  return { index: builder.build(), notes: [...notes.values()].sort(byName), loves: [...loves.values()].sort(byName) };
}
