import { sql, type RawBuilder } from "kysely";
import { isPostgres, type Queryable } from "./db.server";

/**
 * A long read (an export of every product, order or consent) a batch at a time, in the order of a unique key, each
 * batch starting strictly after the last row of the one before (keyset pagination): no batch costs more than the one
 * before however far into the table it is, and no connection or transaction is held between batches, so the shop keeps
 * serving while a large file downloads. `read(after, limit)` returns the next at most `limit` rows in key order after
 * `after` (null: from the start); `keyOf` is the key of a batch's last row. Stopping early (a download abandoned)
 * reads nothing more.
 */
export async function* keysetBatches<Row, Key>(
  read: (after: Key | null, limit: number) => Promise<Row[]>,
  keyOf: (last: Row) => Key,
  batchSize: number,
): AsyncGenerator<Row[]> {
  let after: Key | null = null;
  for (;;) {
    const rows = await read(after, batchSize);
    if (rows.length === 0) return;
    yield rows;
    // a short batch was the last: no query to learn that the next is empty
    if (rows.length < batchSize) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/**
 * A timestamp column as a key's text at the database's own precision: PostgreSQL's timestamptz is read back as
 * milliseconds, and a row stored with finer precision would then sort after its own key and be read again.
 */
export function timeKey(db: Queryable, column: string): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`${sql.ref(column)}::text` : sql<string>`${sql.ref(column)}`;
}

/** A key's text from timeKey, to compare with its column again. */
export function timeKeyValue(db: Queryable, at: string): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`cast(${at} as timestamptz)` : sql<string>`${at}`;
}
