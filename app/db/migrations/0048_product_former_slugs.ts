import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * A link to a product keeps working after the owner changes its slug (the admin form's "Slug", or a CSV import): the
 * same idea as migration 0045 for a size's code, one level up (docs/decisions/050 addendum).
 *
 * `product_former_slugs`: the slugs products had before ("velvet-rose" after it became "velvet-rose-edp"), each naming
 * the product it now leads to; /products/{former slug} answers with a redirect to the product's current address. A slug
 * is one row (a slug leads to one product); the product's deletion takes its rows with it.
 *
 * Kept by triggers on products, so every writer of a slug keeps them without knowing:
 * - a product's slug changes: its old slug is kept for it (taken over from another product that had it before), and
 * - a product takes a slug (changed or inserted): a former slug with that name is dropped, because a current product's
 *   slug always wins over a former one (the shop's own check keeps current slugs unique).
 * On PostgreSQL the update trigger fires only for a changed slug (its WHEN runs without calling the function), so the
 * summary and stock updates products get all day cost nothing more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("product_former_slugs")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .execute();
  // the cascade from a deleted product looks its rows up by product
  await db.schema.createIndex("product_former_slugs_product_idx").on("product_former_slugs").column("product_id").execute();

  const keep = (o: string) => `insert into product_former_slugs (slug, product_id) select ${o}.slug, ${o}.id
      where true on conflict (slug) do update set product_id = excluded.product_id`;
  const drop = (n: string) => `delete from product_former_slugs where slug = ${n}.slug`;
  if (postgres) {
    await sql
      .raw(
        `create function product_slugs_kept() returns trigger language plpgsql as $$
         begin
           if tg_op = 'UPDATE' then
             ${keep("old")};
           end if;
           ${drop("new")};
           return null;
         end $$`,
      )
      .execute(db);
    await sql.raw(`create trigger products_slug_inserted after insert on products for each row execute function product_slugs_kept()`).execute(db);
    await sql
      .raw(
        `create trigger products_slug_changed after update of slug on products for each row
         when (old.slug is distinct from new.slug) execute function product_slugs_kept()`,
      )
      .execute(db);
  } else {
    await sql.raw(`create trigger products_slug_inserted after insert on products begin ${drop("new")}; end`).execute(db);
    await sql.raw(`create trigger products_slug_changed after update of slug on products when old.slug <> new.slug begin ${keep("old")}; ${drop("new")}; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger if exists products_slug_inserted on products`.execute(db);
    await sql`drop trigger if exists products_slug_changed on products`.execute(db);
    await sql`drop function if exists product_slugs_kept()`.execute(db);
  } else {
    await sql`drop trigger if exists products_slug_inserted`.execute(db);
    await sql`drop trigger if exists products_slug_changed`.execute(db);
  }
  await db.schema.dropTable("product_former_slugs").execute();
}
