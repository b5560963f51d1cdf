import { sql, type Kysely } from "kysely";

/**
 * How the shopper chose to pay: card (the card provider), instant_eft (Ozow) or eft (a bank transfer the owner
 * confirms). Orders from before the choice existed were card payments.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("payment_method", "text", (c) => c.notNull().defaultTo("card").check(sql`payment_method in ('card', 'instant_eft', 'eft')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("payment_method").execute();
}
