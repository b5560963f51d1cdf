import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * A shared link to a size keeps working after the owner renames it (docs/decisions/050 addendum).
 *
 * `product_size_former_codes`: the codes a product's sizes had before their label changed ("50ml" after "50 ml" became
 * "50 ml EDP"), each naming the size it now belongs to; the product page answers such a `?size=` with a redirect to the
 * size's current code. One row per product and code. The size's deletion (or its product's) takes its rows with it.
 *
 * Kept by triggers on product_sizes, so every writer of a label or code (the admin form, the CSV import, the one-size
 * sync, the demo seed, and whatever comes later) keeps them without knowing:
 * - a size's code changes: its old code is kept for it (taken over from another size that had it before), and
 * - a size takes a code (changed or inserted): a former code of that product with that code is dropped, because a
 *   current size's code always wins over a former one.
 * A code starting with "~" is not a code but the admin form's placeholder while it moves labels between sizes in one
 * save (product-sizes-admin.server.ts); real codes are [a-z0-9] only (sizeCode), so it is never kept.
 *
 * On PostgreSQL the update trigger fires only for a changed code (its WHEN runs without calling the function), so the
 * stock an order takes from a size costs nothing more; an insert (an import's new sizes) runs one delete by key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("product_size_former_codes")
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("size_id", "text", (c) => c.notNull().references("product_sizes.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("product_size_former_codes_pk", ["product_id", "code"])
    .execute();
  // the cascade from a deleted size looks its rows up by size
  await db.schema.createIndex("product_size_former_codes_size_idx").on("product_size_former_codes").column("size_id").execute();

  const keep = (o: string) => `insert into product_size_former_codes (product_id, code, size_id)
      select ${o}.product_id, ${o}.code, ${o}.id where ${o}.code not like '~%'
      on conflict (product_id, code) do update set size_id = excluded.size_id`;
  const drop = (n: string) => `delete from product_size_former_codes where product_id = ${n}.product_id and code = ${n}.code`;
  if (postgres) {
    await sql
      .raw(
        `create function product_size_codes_kept() returns trigger language plpgsql as $$
         begin
           if tg_op = 'UPDATE' then
             ${keep("old")};
           end if;
           ${drop("new")};
           return null;
         end $$`,
      )
      .execute(db);
    await sql.raw(`create trigger product_sizes_code_inserted after insert on product_sizes for each row execute function product_size_codes_kept()`).execute(db);
    await sql
      .raw(
        `create trigger product_sizes_code_changed after update of code on product_sizes for each row
         when (old.code is distinct from new.code) execute function product_size_codes_kept()`,
      )
      .execute(db);
  } else {
    await sql.raw(`create trigger product_sizes_code_inserted after insert on product_sizes begin ${drop("new")}; end`).execute(db);
    await sql
      .raw(`create trigger product_sizes_code_changed after update of code on product_sizes when old.code <> new.code begin ${keep("old")}; ${drop("new")}; end`)
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger if exists product_sizes_code_inserted on product_sizes`.execute(db);
    await sql`drop trigger if exists product_sizes_code_changed on product_sizes`.execute(db);
    await sql`drop function if exists product_size_codes_kept()`.execute(db);
  } else {
    await sql`drop trigger if exists product_sizes_code_inserted`.execute(db);
    await sql`drop trigger if exists product_sizes_code_changed`.execute(db);
  }
  await db.schema.dropTable("product_size_former_codes").execute();
}
