import type { Kysely } from "kysely";

/**
 * One order per checkout click: the checkout form carries a token, stored with the order it placed; a second
 * submission with the same token (double tap, retry, resubmitted page) finds that order instead of placing another,
 * and is sent to the same payment page (checkout_url, the provider's redirect address).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("checkout_token", "text").execute();
  await db.schema.alterTable("orders").addColumn("checkout_url", "text").execute();
  await db.schema.createIndex("orders_user_checkout_token_idx").on("orders").columns(["user_id", "checkout_token"]).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("orders_user_checkout_token_idx").execute();
  await db.schema.alterTable("orders").dropColumn("checkout_url").execute();
  await db.schema.alterTable("orders").dropColumn("checkout_token").execute();
}
