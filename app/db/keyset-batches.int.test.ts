/**
 * The keyset batch reader of the three exports (products, orders, consents), on this database: every row once, in key
 * order, in batches of the size asked, rows sharing a timestamp (stored finer than JavaScript reads it, on PostgreSQL)
 * split across batches included; and an abandoned read asks nothing more.
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres } from "./db.server";
import { keysetBatches, timeKey, timeKeyValue } from "./keyset-batches.server";

const db = () => getDb();

beforeAll(async () => {
  const at = isPostgres(db()) ? sql`timestamptz` : sql`text`;
  await sql`create table keyset_probe (id text primary key, at ${at} not null)`.execute(db());
  // seven rows, five of them at one instant given to the microsecond; the ids out of insertion order
  const same = isPostgres(db()) ? "2026-11-28 08:00:00.123456+00" : "2026-11-28T08:00:00.123Z";
  const rows = [
    ["e", same], ["b", same], ["a", "2026-11-28T07:59:59.000Z"], ["d", same], ["c", same], ["g", "2026-11-28T08:00:01.000Z"], ["f", same],
  ];
  for (const [id, time] of rows) await sql`insert into keyset_probe (id, at) values (${id}, ${isPostgres(db()) ? sql`cast(${time} as timestamptz)` : time})`.execute(db());
});

type Probe = { id: string; key: string };

function probeBatches(batchSize: number, reads: Array<{ after: string | null }> = []) {
  const read = async (after: { at: string; id: string } | null, limit: number) => {
    reads.push({ after: after?.id ?? null });
    const where = after ? sql`where (at, id) > (${timeKeyValue(db(), after.at)}, ${after.id})` : sql``;
    const { rows } = await sql<Probe>`select id, ${timeKey(db(), "at")} as key from keyset_probe ${where} order by at, id limit ${limit}`.execute(db());
    return rows;
  };
  return keysetBatches(read, (last: Probe) => ({ at: last.key, id: last.id }), batchSize);
}

describe(`keyset batches (${isPostgres(getDb()) ? "PostgreSQL" : "SQLite"})`, () => {
  it("reads every row once, in (time, id) order, a batch of the size asked at a time", async () => {
    const batches: string[][] = [];
    for await (const batch of probeBatches(3)) batches.push(batch.map((r) => r.id));
    expect(batches).toEqual([["a", "b", "c"], ["d", "e", "f"], ["g"]]);
  });

  it("stops after a short batch without asking again, and an exact fit asks once more to find the end", async () => {
    const short: Array<{ after: string | null }> = [];
    for await (const _ of probeBatches(4, short));
    expect(short).toEqual([{ after: null }, { after: "d" }]);
    const exact: Array<{ after: string | null }> = [];
    for await (const _ of probeBatches(7, exact));
    expect(exact).toEqual([{ after: null }, { after: "g" }]);
  });

  it("a read abandoned after its first batch asks for nothing more", async () => {
    const reads: Array<{ after: string | null }> = [];
    for await (const batch of probeBatches(2, reads)) {
      expect(batch.map((r) => r.id)).toEqual(["a", "b"]);
      break;
    }
    expect(reads).toEqual([{ after: null }]);
  });
});
