import { sql, type Kysely } from "kysely";

/**
 * Stock (issue 13, docs/decisions/020): a product may count its bottles. products.stock null = not tracked (every
 * product before this migration); a number is how many can still be sold, never below 0 (the CHECK backs the
 * conditional UPDATE that takes stock). An order line remembers what its payment took from stock (stock_taken, given
 * back when the paid order is cancelled) and what it could not take because the product had run out by the time the
 * money arrived (stock_short: the owner's flag).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("products")
    .addColumn("stock", "integer", (c) => c.check(sql`stock is null or stock >= 0`))
    .execute();
  await db.schema
    .alterTable("order_lines")
    .addColumn("stock_taken", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock_taken >= 0`))
    .execute();
  await db.schema
    .alterTable("order_lines")
    .addColumn("stock_short", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock_short >= 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("order_lines").dropColumn("stock_short").execute();
  await db.schema.alterTable("order_lines").dropColumn("stock_taken").execute();
  await db.schema.alterTable("products").dropColumn("stock").execute();
}
