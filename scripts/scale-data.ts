/**
 * The shop at scale (issue 20 point 5, issue 39 points 4 and 5): a database with 100 000 products and 1 000 000
 * orders, made once and kept, for `npm run bench -- --scale`.
 *
 *   npx tsx scripts/scale-data.ts sqlite            # /tmp/scentara-scale/shop-<version>.db
 *   npx tsx scripts/scale-data.ts postgres [URL]    # database scentara_scale_<version> beside URL's (default: SCALE_PG_URL)
 *
 * It is exactly what `npm run seed -- --products 100000 --orders 1000000 --no-images` makes (the demo shop, then
 * seedLargeCatalogue: a long tail of ~290 000 customers over two years, each order where time has left it, the day
 * sums summed), so the bench measures the shop an owner would get from the seed, with its jobs running.
 *
 * A finished database is marked (SQLite: a file beside it; PostgreSQL: a comment on the database), so a second run
 * reuses it; bump SCALE_DATA_VERSION when the seed changes. Migrations newer than the data are applied on reuse.
 * SCALE_SQLITE_PATH / SCALE_PG_DATABASE name a shop already seeded that way (marked on first use) instead.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { seedDemo, seedLargeCatalogue, type LargeSeedSummary } from "~/modules/demo/seed.server";

export const SCALE_DATA_VERSION = "v3";
export const SCALE_DIR = "/tmp/scentara-scale";
export const DEFAULT_SCALE_PG_URL = process.env.SCALE_PG_URL ?? "postgres://postgres@127.0.0.1:54341/postgres";

export interface ScaleSize {
  products: number;
  orders: number;
}
export const SCALE_SIZE: ScaleSize = { products: 100_000, orders: 1_000_000 };

export type ScaleSummary = LargeSeedSummary & { seconds: number };

/** `npm run seed -- --products N --orders M --no-images` on the database at `url` (migrated first). */
async function seed(url: string, size: ScaleSize, log: (line: string) => void): Promise<ScaleSummary> {
  const handle = openDatabase(url, 2);
  try {
    const started = Date.now();
    await migrateToLatest(handle.db);
    await seedDemo(handle.db, { images: false });
    const made = await seedLargeCatalogue(handle.db, size);
    const seconds = (Date.now() - started) / 1000;
    log(`  seeded in ${seconds.toFixed(0)} s: ${made.products} products, ${made.orders} orders for ${made.users} customers`);
    if (made.statuses) log(`  orders by status: ${Object.entries(made.statuses).map(([s, n]) => `${s} ${n}`).join(", ")}`);
    if (made.phasesMs) log(`  steps: ${Object.entries(made.phasesMs).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(", ")}`);
    return { ...made, seconds };
  } finally {
    await handle.close();
  }
}

/** Brings a kept database to the latest migrations (a migration added after the data was made). */
async function migrateKept(url: string) {
  const handle = openDatabase(url, 2);
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

export function scaleSqlitePath(version = SCALE_DATA_VERSION) {
  return process.env.SCALE_SQLITE_PATH ?? `${SCALE_DIR}/shop-${version}.db`;
}

/** The SQLite scale database: reused when a finished one is there, else seeded (a few minutes). */
export async function ensureScaleSqlite(log: (line: string) => void = console.log, size = SCALE_SIZE): Promise<{ url: string; made: ScaleSummary | null; madeAt: string }> {
  const path = scaleSqlitePath();
  const marker = `${path}.done`;
  if (process.env.SCALE_SQLITE_PATH && existsSync(path) && !existsSync(marker)) writeFileSync(marker, `${new Date().toISOString()} (seeded before)\n`);
  if (existsSync(marker) && existsSync(path)) {
    await migrateKept(path);
    return { url: path, made: null, madeAt: readFileSync(marker, "utf8").trim() };
  }
  mkdirSync(SCALE_DIR, { recursive: true });
  for (const f of [path, `${path}-wal`, `${path}-shm`, marker]) rmSync(f, { force: true });
  log(`Scale data: seeding ${path}`);
  const made = await seed(path, size, log);
  const madeAt = new Date().toISOString();
  writeFileSync(marker, `${madeAt}\n`);
  return { url: path, made, madeAt };
}

/** The PostgreSQL scale database beside `baseUrl`'s (scentara_scale_<version>): reused when finished, else seeded. */
export async function ensureScalePostgres(baseUrl = DEFAULT_SCALE_PG_URL, log: (line: string) => void = console.log, size = SCALE_SIZE): Promise<{ url: string; made: ScaleSummary | null; madeAt: string }> {
  const name = process.env.SCALE_PG_DATABASE ?? `scentara_scale_${SCALE_DATA_VERSION}`;
  const target = new URL(baseUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const found = await admin.query<{ note: string | null }>("select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1", [name]);
    let note = found.rows[0]?.note ?? "";
    if (process.env.SCALE_PG_DATABASE && found.rows.length > 0 && !note) {
      note = `scentara scale data complete ${new Date().toISOString()} (seeded before)`;
      await admin.query(`comment on database ${name} is '${note}'`);
    }
    if (note.startsWith("scentara scale data complete ")) {
      await migrateKept(url);
      return { url, made: null, madeAt: note.slice("scentara scale data complete ".length) };
    }
    log(`Scale data: seeding PostgreSQL database ${name}`);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const made = await seed(url, size, log);
  const madeAt = new Date().toISOString();
  const done = new pg.Client({ connectionString: baseUrl });
  await done.connect();
  await done.query(`comment on database ${name} is 'scentara scale data complete ${madeAt}'`);
  await done.end();
  return { url, made, madeAt };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [kind = "sqlite", url] = process.argv.slice(2);
  const started = Date.now();
  const result = kind === "postgres" ? await ensureScalePostgres(url) : await ensureScaleSqlite();
  console.log(`${result.url}: ${result.made ? `made in ${((Date.now() - started) / 1000).toFixed(0)} s` : `reused (made ${result.madeAt})`}`);
}
