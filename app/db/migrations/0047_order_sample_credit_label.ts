import { sql, type Kysely } from "kysely";

/**
 * `orders.sample_credit_label`: the words of an order's "Sample credit (Velvet Rose)" row, kept on the order when the
 * credits it names are deleted with the shopper's account (POPIA s24; docs/decisions/040 and 054). The bill reads the
 * credits themselves while they exist; without this, a kept tax invoice's row would lose the scent's name after a
 * deletion (its amount and VAT never changed). Null while the credits are there to name it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("sample_credit_label", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column sample_credit_label`.execute(db);
}
