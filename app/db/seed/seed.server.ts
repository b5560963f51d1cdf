import type { DB } from "../db.server";

/** Loads the demo catalogue when the shop has no products yet (first start). */
export async function ensureDemoCatalogue(db: DB) {
  const row = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  if (Number(row.n) > 0) return;
}
