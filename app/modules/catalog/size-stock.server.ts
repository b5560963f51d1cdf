/**
 * A size's stock, changed only here (docs/decisions/020, 049): catalog owns product_sizes, and the areas that sell or
 * take back bottles (orders, returns) change its stock through these two functions, in their own transaction. Each is
 * one conditional UPDATE, so concurrent payments never take a size below 0. The caller refreshes the products'
 * summaries (refreshProductSummaries) once it has changed all its sizes.
 */
import type { Trx } from "~/db/db.server";

/**
 * Takes `quantity` bottles from a size: "taken"; "untracked" when the size doesn't count its stock (or is gone):
 * nothing to take; "short" when it has fewer left than that (nothing taken).
 */
export async function takeFromSize(trx: Trx, sizeId: string, quantity: number): Promise<"taken" | "untracked" | "short"> {
  const taken = await trx
    .updateTable("product_sizes")
    .set((eb) => ({ stock: eb("stock", "-", quantity) }))
    .where("id", "=", sizeId)
    .where("stock", "is not", null)
    .where("stock", ">=", quantity)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return "taken";
  // Not taken: either the size isn't counted (nothing to do) or it has run out.
  const size = await trx.selectFrom("product_sizes").select("stock").where("id", "=", sizeId).executeTakeFirst();
  return !size || size.stock === null ? "untracked" : "short";
}

/** Puts bottles back on a size's shelf when the size counts its stock; false when it doesn't (or is gone). */
export async function giveBackToSize(trx: Trx, sizeId: string, quantity: number): Promise<boolean> {
  const back = await trx
    .updateTable("product_sizes")
    .set((eb) => ({ stock: eb("stock", "+", quantity) }))
    .where("id", "=", sizeId)
    .where("stock", "is not", null)
    .executeTakeFirst();
  return Number(back.numUpdatedRows) === 1;
}
