import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";

/** What every connection the shop opens is set to (db.server.ts, sqlite-driver.server.ts), whichever database it is. */
describe("the shop's database connections", () => {
  it("PostgreSQL: no query compiled just in time, on every connection of the pool; SQLite: foreign keys enforced, waits for a writer", async () => {
    const db = getDb();
    if (isPostgres(db)) {
      // A misestimated short statement (a catalogue import's size sync) spent 149 of its 171 ms in JIT compilation.
      // Several at once, so the pool opens more than one connection.
      const answers = await Promise.all(Array.from({ length: 4 }, () => db.transaction().execute(async (trx) => (await sql<{ jit: string }>`show jit`.execute(trx)).rows[0]!.jit)));
      expect(answers).toEqual(["off", "off", "off", "off"]);
    } else {
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]!.foreign_keys).toBe(1);
      expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)).rows[0]!.timeout).toBe(5000);
    }
  });
});
