import type { Kysely } from "kysely";

/**
 * Scent profiles (issue 22, docs/decisions/035): each product's fragrance family, its notes pyramid, how strong it is,
 * when and in which seasons it is worn, and who it is made for — as columns on `products`, not a side table, so a
 * product and its profile are one row everywhere (the shop's filters, backups, a later CSV column) and no join is
 * needed on the hot paths.
 *
 * - `scent_family`: one of the fixed families in app/modules/scent/scent.vocabulary.ts ("woody"); null = not profiled.
 * - `scent_top`, `scent_heart`, `scent_base`: the notes as the owner wrote them, joined by ", " ("bergamot, pink pepper").
 *   A note never holds a comma (the form refuses one), so the text splits back exactly; '' = none.
 * - `scent_intensity` light | moderate | strong, `scent_occasion` day | evening | both, `scent_for` women | men | anyone:
 *   null = not said. `scent_seasons`: spring, summer, autumn, winter joined by ", "; '' = not said.
 *
 * Every value is checked by the app (scent.schema.ts) rather than by CHECK constraints: the lists are the decision
 * record's and may grow without a migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").addColumn("scent_family", "text").execute();
  for (const column of ["scent_top", "scent_heart", "scent_base", "scent_seasons"]) {
    await db.schema.alterTable("products").addColumn(column, "text", (c) => c.notNull().defaultTo("")).execute();
  }
  for (const column of ["scent_intensity", "scent_occasion", "scent_for"]) {
    await db.schema.alterTable("products").addColumn(column, "text").execute();
  }
  // The shop's family filter (`?family=woody`) narrows through it.
  await db.schema.createIndex("products_scent_family_idx").on("products").column("scent_family").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("products_scent_family_idx").execute();
  for (const column of ["scent_for", "scent_occasion", "scent_intensity", "scent_seasons", "scent_base", "scent_heart", "scent_top", "scent_family"]) {
    await db.schema.alterTable("products").dropColumn(column).execute();
  }
}
