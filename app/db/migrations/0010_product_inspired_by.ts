import { sql, type Kysely } from "kysely";

/**
 * "Inspired by" (issue 13): the designer fragrance a product is inspired by, as house and fragrance ("Dior",
 * "Sauvage"); both null when it names none. The shop's house filter groups by the lower-cased house, so that is
 * what the index holds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").addColumn("inspired_house", "text").execute();
  await db.schema.alterTable("products").addColumn("inspired_fragrance", "text").execute();
  await db.schema
    .createIndex("products_inspired_house_idx")
    .on("products")
    .expression(sql`lower(inspired_house)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("products_inspired_house_idx").execute();
  await db.schema.alterTable("products").dropColumn("inspired_fragrance").execute();
  await db.schema.alterTable("products").dropColumn("inspired_house").execute();
}
