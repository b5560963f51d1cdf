/**
 * A person's wishlist for "Download my data" and "Delete my account" (POPIA s23, s24; docs/decisions/040 and 057):
 * the fragrances saved to the account, the price and stock last told, and whether wishlist e-mails are on. The list
 * in a browser is not the shop's to read.
 */
import type { Queryable } from "~/db/db.server";

export interface PersonWishlist {
  items: Array<{ product: string; addedAt: string; lastToldPriceCents: number; lastToldInStock: boolean }>;
  /** wishlist e-mails (marketing, opt-in): since when, or null when off */
  alertsOnSince: string | null;
}

export async function wishlistOfPerson(db: Queryable, userId: string): Promise<PersonWishlist> {
  const [items, alerts] = await Promise.all([
    db
      .selectFrom("wishlist_items as w")
      .innerJoin("products as p", "p.id", "w.product_id")
      .select(["p.name", "w.created_at", "w.alert_price_cents", "w.alert_in_stock"])
      .where("w.user_id", "=", userId)
      .orderBy("w.created_at", "desc")
      .orderBy("p.name")
      .execute(),
    db.selectFrom("wishlist_alerts").select("opted_in_at").where("user_id", "=", userId).executeTakeFirst(),
  ]);
  return {
    items: items.map((i) => ({ product: i.name, addedAt: i.created_at, lastToldPriceCents: Number(i.alert_price_cents), lastToldInStock: Number(i.alert_in_stock) === 1 })),
    alertsOnSince: alerts?.opted_in_at ?? null,
  };
}

/** The account is being deleted (in the caller's transaction): its list and its opt-in go. Answers the items deleted. */
export async function deleteWishlistOfPerson(trx: Queryable, userId: string): Promise<number> {
  const items = await trx.deleteFrom("wishlist_items").where("user_id", "=", userId).executeTakeFirstOrThrow();
  await trx.deleteFrom("wishlist_alerts").where("user_id", "=", userId).execute();
  return Number(items.numDeletedRows);
}
