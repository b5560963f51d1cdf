/**
 * The write mark the hostile-input fuzz and the authorization matrix trust to say "nothing changed" (tests/setup/
 * write-mark.ts): if it stood still through a write, they would compare stale copies and miss a change. On both
 * databases: every kind of write moves both the joint mark and the table's own, a change of definition moves them,
 * and reading leaves them alone.
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";
import { installWriteMark, writeMark, writeMarks } from "../setup/write-mark";
import { insertCategory } from "../factories/catalog";

describe("write mark", () => {
  beforeAll(async () => {
    await sql`create table mark_probe (id integer primary key, note text)`.execute(getDb());
    await installWriteMark(getDb(), ["categories", "mark_probe"]);
  });

  /** Runs `write` and answers whether the joint mark and the table's own moved. */
  async function moved(table: string, write: () => Promise<unknown>) {
    const db = getDb();
    const [joint, own] = [await writeMark(db), (await writeMarks(db)).get(table)];
    await write();
    return { joint: (await writeMark(db)) !== joint, own: (await writeMarks(db)).get(table) !== own };
  }

  it("moves with every insert, update and delete, and with a truncate or a change of definition", async () => {
    const db = getDb();
    const both = { joint: true, own: true };
    expect(await moved("mark_probe", () => sql`insert into mark_probe values (1, 'a')`.execute(db))).toEqual(both);
    expect(await moved("mark_probe", () => sql`update mark_probe set note = 'b'`.execute(db))).toEqual(both);
    expect(await moved("mark_probe", () => sql`delete from mark_probe`.execute(db))).toEqual(both);
    expect(await moved("categories", () => insertCategory(db))).toEqual(both);
    expect((await moved("mark_probe", () => sql`alter table mark_probe add column extra text`.execute(db))).joint).toBe(true);
    if (isPostgres(db)) {
      expect(await moved("mark_probe", () => sql`truncate mark_probe`.execute(db))).toEqual(both);
    }
  });

  it("stands still while the tables are only read", async () => {
    const db = getDb();
    const still = { joint: false, own: false };
    expect(await moved("mark_probe", () => sql`select * from mark_probe`.execute(db))).toEqual(still);
    expect(await moved("categories", () => db.selectFrom("categories").selectAll().execute())).toEqual(still);
  });
});
