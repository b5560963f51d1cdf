import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The admin lists at scale (issue 20 point 5). The owner's order search at a million orders finds the customers whose
 * e-mail holds the words first, then their orders tab by tab: a common surname is thousands of customers and tens of thousands of
 * orders. (user_id, status, created_at, id) counts one customer's orders of a tab, and lists them newest first, from
 * the index alone (orders_user_created_idx had to read each order's row for its status: 500 ms for a surname).
 *
 * On PostgreSQL a trigram index on lower(email) answers `lower(email) like '%part%'` (the search's form) without
 * reading the 100 000 users (and one on products' lower(name), the admin's product search), as products_search_trgm_idx does for the shop search (0018: same fallback when pg_trgm
 * can't be had — the search works, unindexed). SQLite reads every e-mail, from an index of (email, id): half the
 * time of reading the users' rows.
 *
 * The users page counts its admins (the is_admin flag, or an address in ADMIN_EMAILS) from two small indexes instead
 * of reading every user (40–100 ms at 100 000 users).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_user_status_created_idx").on("orders").columns(["user_id", "status", "created_at", "id"]).execute();
  // The users page's figures: admins are the flagged users plus the ADMIN_EMAILS addresses, each found by its index.
  await db.schema.createIndex("users_is_admin_idx").on("users").column("is_admin").execute();
  await db.schema.createIndex("users_email_lower_idx").on("users").expression(sql`lower(email)`).execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    // SQLite has no trigram index: it reads every e-mail, from this index (id beside each) rather than the table.
    await db.schema.createIndex("users_email_id_idx").on("users").columns(["email", "id"]).execute();
    return;
  }
  await sql`
    do $$
    begin
      create extension if not exists pg_trgm;
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists users_email_trgm_idx on users using gin ((lower(email)) gin_trgm_ops);
        -- the admin's product search (lower(name) like '%word%'): 0018's index is on the storefront's joined texts
        create index if not exists products_name_trgm_idx on products using gin ((lower(name)) gin_trgm_ops);
        analyze users;
        analyze products;
      end if;
    exception when others then
      raise notice 'the e-mail search index was not made (%): order search by e-mail stays unindexed', sqlerrm;
    end $$
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists users_email_trgm_idx`.execute(db);
    await sql`drop index if exists products_name_trgm_idx`.execute(db);
  }
  else await db.schema.dropIndex("users_email_id_idx").execute();
  await db.schema.dropIndex("users_email_lower_idx").execute();
  await db.schema.dropIndex("users_is_admin_idx").execute();
  await db.schema.dropIndex("orders_user_status_created_idx").execute();
}
