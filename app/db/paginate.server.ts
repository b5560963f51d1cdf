import type { SelectQueryBuilder } from "kysely";

/** One page of a list, and what the page links need to know. */
export interface Page<Row> {
  rows: Row[];
  /** how many rows match the filters, over all pages */
  matching: number;
  /** 1-based; a page past the end is answered with the last page */
  page: number;
  pageCount: number;
  pageSize: number;
}

/**
 * Runs a filtered, ordered select as one page: a count of the same query (without its order and columns) and the
 * page's rows. Both use the query's indexes, so an admin list over 100 000 rows costs two indexed queries.
 */
export async function paginate<DB, TB extends keyof DB, Row, CDB, CTB extends keyof CDB>(
  query: SelectQueryBuilder<DB, TB, Row>,
  options: {
    page: number;
    pageSize: number;
    /**
     * The rows counted instead of `query`'s (the same filters without what does not change the count, e.g. a join
     * to one row for a column shown): SQLite then counts a search from an index rather than the whole table.
     */
    counting?: SelectQueryBuilder<CDB, CTB, unknown>;
  },
): Promise<Page<Row>> {
  const pageSize = Math.max(1, Math.floor(options.pageSize));
  const counted = await ((options.counting ?? query) as SelectQueryBuilder<DB, TB, unknown>)
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  const matching = Number((counted as { n?: number } | undefined)?.n ?? 0);
  const pageCount = Math.max(1, Math.ceil(matching / pageSize));
  const page = Math.min(Math.max(1, Math.floor(options.page) || 1), pageCount);
  const rows = matching === 0 ? [] : await query.limit(pageSize).offset((page - 1) * pageSize).execute();
  return { rows, matching, page, pageCount, pageSize };
}

/**
 * One page of an ordered select whose number of rows is already known (counted elsewhere, or kept): as paginate,
 * without counting. A bounded count (a broad search's "1 000+") also ends the list there: the pages hold the first
 * `matching` rows of the order.
 */
export async function pageOfCounted<Row>(query: { limit(n: number): { offset(n: number): { execute(): Promise<Row[]> } } }, options: { matching: number; page: number; pageSize: number }): Promise<Page<Row>> {
  const { matching, pageSize } = options;
  const pageCount = Math.max(1, Math.ceil(matching / pageSize));
  const page = Math.min(Math.max(1, Math.floor(options.page) || 1), pageCount);
  const offset = (page - 1) * pageSize;
  const rows = matching === 0 ? [] : await query.limit(Math.min(pageSize, matching - offset)).offset(offset).execute();
  return { rows, matching, page, pageCount, pageSize };
}
