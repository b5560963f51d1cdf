/**
 * A big scent catalogue built in a child process (scent-finder/scent-finder.server.ts; issue 20: the server's memory and its event loop).
 * The process opens its own connection, so these tests use a database another connection can open: on SQLite a file
 * (the suite's own database is in memory), on PostgreSQL the test's database. What a shopper sees must not depend on
 * where the catalogue was built: the same catalogue, so the same finder answers and similar scents, as the server's
 * own process builds; a transaction's catalogue is built in the transaction (its writes are its own until it
 * commits); and a build process that can't read the database leaves the shop answering from the server's process.
 */
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrlOf, getDb, isPostgres, openDatabase, type DB } from "~/db/db.server";
import { seedDemo, seedLargeCatalogue } from "~/modules/demo/seed.server";
import { copySqliteTemplate, migratedSqliteTemplate } from "../../../tests/setup/sqlite-template";
import { insertProduct } from "../../../tests/factories/catalog";
import { buildCatalogueData } from "~/modules/scent/scent-catalogue-build.server";
import { findScents, NO_ANSWERS, similarIds, type FinderAnswers } from "~/modules/scent/scent.logic";
import { CHILD_FROM_PRODUCTS, forgetScentCatalogue, scentCatalogue } from "./scent-finder.server";

const postgres = isPostgres(getDb());
let db: DB;
let url: string;
let folder: string | undefined;
let closeOwn: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (postgres) {
    db = getDb();
  } else {
    folder = mkdtempSync(join(tmpdir(), "scentara-scent-process-"));
    const handle = openDatabase(join(folder, "shop.db"), 2);
    await copySqliteTemplate(handle.db, await migratedSqliteTemplate());
    db = handle.db;
    closeOwn = () => handle.close();
  }
  url = databaseUrlOf(db)!;
  await seedDemo(db, { images: false });
  forgetScentCatalogue();
}, 60_000);

afterAll(async () => {
  await closeOwn?.();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const ANSWERS: FinderAnswers[] = [
  { ...NO_ANSWERS },
  { audience: "men", occasion: "evening", families: ["woody"], love: "Tom Ford", intensity: "strong", budgetRand: 600 },
  { audience: "women", occasion: "day", families: ["floral", "fruity"], love: "Dior Sauvage", intensity: "light", budgetRand: 400 },
  { ...NO_ANSWERS, love: "Sauvage", budgetRand: 1 },
];

describe(`the scent catalogue built in a child process (${postgres ? "PostgreSQL" : "SQLite"})`, () => {
  it("is not used for a shop of a few hundred products: the server builds that faster than a process starts", async () => {
    expect(url).toBeTruthy();
    forgetScentCatalogue();
    const catalogue = await scentCatalogue(db);
    expect(catalogue.builtIn).toBe("server");
    expect(catalogue.index.size).toBeLessThan(CHILD_FROM_PRODUCTS);
    expect(findScents(catalogue.index, ANSWERS[1]!).picks).toHaveLength(3);
  });

  it("builds a big catalogue, the same as the server's own process builds, so every answer is the same", async () => {
    // more than one read's worth of products (2 000 rows on SQLite, 128 table pages on PostgreSQL), sold-out ones and
    // names shared by several among them, so the pieces must be joined in the table's order as before
    await seedLargeCatalogue(db, { products: CHILD_FROM_PRODUCTS, orders: 0, users: 1 });
    await db.updateTable("products").set({ stock: 0 }).where("name", "like", "%a%").where("price_cents", "<", 40_000).execute();
    forgetScentCatalogue();
    const catalogue = await scentCatalogue(db);
    expect(catalogue.builtIn).toBe("child process");
    const inThread = await buildCatalogueData(db);
    expect(catalogue.index.size).toBeGreaterThan(CHILD_FROM_PRODUCTS);
    // every typed array, id, name, house and note, and the notes and fragrances the suggestions offer
    expect(catalogue.index).toEqual(inThread.index);
    expect(catalogue.notes).toEqual(inThread.notes);
    expect(catalogue.loves).toEqual(inThread.loves);
    for (const answers of ANSWERS) expect(findScents(catalogue.index, answers)).toEqual(findScents(inThread.index, answers));
    for (const i of [0, 1, 1_999, 2_000, catalogue.index.size - 1]) {
      const id = inThread.index.ids[i]!;
      expect(similarIds(catalogue.index, id)).toEqual(similarIds(inThread.index, id));
    }
  }, 120_000);

  it("builds a transaction's catalogue in the transaction, with what it wrote and hasn't committed", async () => {
    forgetScentCatalogue();
    await db.transaction().execute(async (trx) => {
      const product = await insertProduct(trx, { name: "Uncommitted Oud" });
      const catalogue = await scentCatalogue(trx);
      expect(catalogue.builtIn).toBe("server");
      expect(catalogue.index.ids).toContain(product.id);
      await trx.deleteFrom("products").where("id", "=", product.id).execute();
    });
    forgetScentCatalogue();
  });

  it("still answers, from the server's process, when the build process can't read the products", async () => {
    // A build process that can't read what the server reads: on PostgreSQL new connections get a search path without the
    // shop's tables (the server keeps its one open connection, made before); on SQLite the file and its log are moved
    // away, so the build process opens an empty database where they were (the server keeps the files it has open).
    const own = postgres ? openDatabase(url, 2) : null;
    const server = own ? own.db : db;
    await sql`select 1`.execute(server);
    const database = postgres ? (await sql<{ name: string }>`select current_database() as name`.execute(server)).rows[0]!.name : "";
    const file = postgres ? "" : url;
    try {
      if (postgres) await sql.raw(`alter database "${database}" set search_path = nowhere`).execute(server);
      else for (const extra of ["", "-wal", "-shm"]) renameSync(`${file}${extra}`, `${file}${extra}.moved`);
      forgetScentCatalogue();
      const catalogue = await scentCatalogue(server);
      expect(catalogue.builtIn).toBe("server");
      const inThread = await buildCatalogueData(server);
      expect(catalogue.index.size).toBe(inThread.index.size);
      expect(findScents(catalogue.index, ANSWERS[1]!)).toEqual(findScents(inThread.index, ANSWERS[1]!));
    } finally {
      if (postgres) await sql.raw(`alter database "${database}" reset search_path`).execute(server);
      else {
        for (const extra of ["", "-wal", "-shm"]) {
          rmSync(`${file}${extra}`, { force: true });
          renameSync(`${file}${extra}.moved`, `${file}${extra}`);
        }
      }
      await own?.close();
      forgetScentCatalogue();
    }
  }, 60_000);
});
