import type { Queryable } from "~/db/db.server";
import { listNewestProducts } from "~/modules/catalog/catalog.server";
import type { ProductSummary } from "~/modules/catalog/catalog.types";

/** Home shows the 12 newest products (SPEC §2, §9). */
export const HOME_PRODUCT_COUNT = 12;

export interface HomeData {
  products: ProductSummary[];
}

/** What the home page (and the 404 page, which shows the home page) needs from the database. */
export async function loadHome(db: Queryable): Promise<HomeData> {
  return { products: await listNewestProducts(db, HOME_PRODUCT_COUNT) };
}
