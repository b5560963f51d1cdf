/**
 * Secondary indexes suspended for a bulk load (the benchmark seed, docs/decisions/043): dropped inside the load's
 * transaction and built again by one sort each before it commits, instead of a random insert per row into each (a
 * trigram GIN index with fastupdate off costs PostgreSQL ~0.35 ms a product; built once, 100 000 products take ~4 s).
 * DDL is transactional on both databases, so a failed load brings the indexes back with its rollback. Until the commit
 * the tables are locked against other writers (PostgreSQL: DROP INDEX takes an ACCESS EXCLUSIVE lock, readers wait
 * too): a seed's way of writing, not a serving shop's.
 */
import { sql } from "kysely";
import { isPostgres, type Trx } from "./db.server";

/** Drops the tables' indexes other than their keys (and what a constraint needs); returns what builds them again. */
export async function suspendSecondaryIndexes(trx: Trx, tables: readonly string[]): Promise<() => Promise<void>> {
  const names = sql.join(tables.map((t) => sql.lit(t)));
  const { rows } = isPostgres(trx)
    ? await sql<{ name: string; definition: string }>`
        select c.relname as name, pg_get_indexdef(x.indexrelid) as definition
        from pg_index x join pg_class c on c.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
        where n.nspname = current_schema() and t.relname in (${names}) and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)
      `.execute(trx)
    : await sql<{ name: string; definition: string }>`
        select name, sql as definition from sqlite_master where type = 'index' and sql is not null and tbl_name in (${names})
      `.execute(trx);
  for (const { name } of rows) await sql`drop index ${sql.id(name)}`.execute(trx);
  return async () => {
    // PostgreSQL sorts each index in memory rather than in temporary files (the default is 64 MB)
    if (isPostgres(trx)) await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
    for (const { definition } of rows) await sql.raw(definition).execute(trx);
  };
}
