import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Whether a review request became a review, kept on the request (issue 20 point 5: the dashboard's conversion at
 * scale). The dashboard counted it by joining every review to its customer's requests and the requests' order lines:
 * 45 000 reviews and 130 000 requests took 0.4–0.9 s on every dashboard view. Now `review_requests.reviewed` is 1 when
 * its customer has a review, written after the request was sent, of a product of that order (the same definition),
 * and triggers keep it so: when a review is written, changed or removed (an admin's delete, an erased account's
 * reviews), that customer's requests are decided again; a new request is decided when it is made. The dashboard counts
 * the flags by an index. Order lines of a delivered order do not change, so they fire nothing.
 */
const DECIDE = `exists (
  select 1 from reviews r join order_lines l on l.order_id = review_requests.order_id and l.product_id = r.product_id
  where r.user_id = review_requests.user_id and r.created_at > review_requests.sent_at
)`;

export async function up(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable("review_requests").addColumn("reviewed", "integer", (c) => c.notNull().defaultTo(0)).execute();
  // a customer's reviews, newest last: what deciding their requests reads
  await db.schema.createIndex("reviews_user_created_idx").on("reviews").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("review_requests_reviewed_idx").on("review_requests").column("reviewed").execute();
  const decided = `case when ${DECIDE} then 1 else 0 end`;
  await sql.raw(`update review_requests set reviewed = ${decided}`).execute(db);
  if (postgres) {
    await sql
      .raw(
        `create function review_requests_decide() returns trigger language plpgsql as $$
         begin
           if tg_table_name = 'review_requests' then
             update review_requests set reviewed = ${decided} where order_id = new.order_id;
           else
             update review_requests set reviewed = ${decided}
               where user_id in (select (case when tg_op = 'INSERT' then null else old.user_id end) union select (case when tg_op = 'DELETE' then null else new.user_id end));
           end if;
           return null;
         end $$`,
      )
      .execute(db);
    await sql`create trigger reviews_decide_requests after insert or delete or update of user_id, product_id, created_at on reviews for each row execute function review_requests_decide()`.execute(db);
    await sql`create trigger review_requests_decide after insert on review_requests for each row execute function review_requests_decide()`.execute(db);
  } else {
    const decide = (where: string) => `update review_requests set reviewed = ${decided} where ${where};`;
    await sql.raw(`create trigger reviews_decide_insert after insert on reviews begin ${decide("user_id = new.user_id")} end`).execute(db);
    await sql.raw(`create trigger reviews_decide_delete after delete on reviews begin ${decide("user_id = old.user_id")} end`).execute(db);
    await sql.raw(`create trigger reviews_decide_update after update of user_id, product_id, created_at on reviews begin ${decide("user_id in (old.user_id, new.user_id)")} end`).execute(db);
    await sql.raw(`create trigger review_requests_decide_insert after insert on review_requests begin ${decide("order_id = new.order_id")} end`).execute(db);
  }
}

export async function down(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger if exists reviews_decide_requests on reviews`.execute(db);
    await sql`drop trigger if exists review_requests_decide on review_requests`.execute(db);
    await sql`drop function if exists review_requests_decide()`.execute(db);
  } else {
    for (const name of ["reviews_decide_insert", "reviews_decide_delete", "reviews_decide_update", "review_requests_decide_insert"]) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await db.schema.dropIndex("review_requests_reviewed_idx").ifExists().execute();
  await db.schema.dropIndex("reviews_user_created_idx").ifExists().execute();
  await db.schema.alterTable("review_requests").dropColumn("reviewed").execute();
}
