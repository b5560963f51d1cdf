/**
 * The best sellers from the days' top lists (order_day_top_sellers, docs/decisions/034) are the same ten as adding up
 * every product of the range, on SQLite and PostgreSQL: with more products a day than a top list holds, over settled
 * days and the live last days, after a change to an old order; and when the lists cannot settle it (a flat long tail),
 * the answer still comes, from every product.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { insertOrder } from "../../../tests/factories/orders";
import { insertProduct } from "../../../tests/factories/catalog";
import { saDay } from "./reports.logic";
import { TOP_SELLERS_PER_DAY } from "./sales-totals.server";
import { addDays, salesRange } from "./sales.logic";
import { bestSellers, bestSellersFromTopLists, bestSellersOfAll } from "./sales.server";

const db = () => getDb();
const DAY = 86_400_000;
const today = saDay(new Date());
const RANGE = salesRange({ from: addDays(today, -9), to: today }, "day");
const products: { id: string; price_cents: number }[] = [];
const oldOrders: string[] = [];

/** Noon (SA) `daysAgo` days ago. */
const at = (daysAgo: number) => new Date(Date.parse(`${addDays(today, -daysAgo)}T10:00:00.000Z`)).toISOString();

beforeAll(async () => {
  // More products than a day's top list: a few best sellers far ahead, a long tail that sells one bottle now and then.
  for (let i = 0; i < TOP_SELLERS_PER_DAY + 25; i++) products.push(await insertProduct(db(), { name: `Scent ${String(i).padStart(2, "0")}`, price_cents: 10_000 + ((i * 7919) % 30) * 1_000 }));
  for (let daysAgo = 0; daysAgo < 10; daysAgo++) {
    const lines = products.map((p, i) => ({ productId: p.id, name: `Scent ${String(i).padStart(2, "0")}`, unitPriceCents: p.price_cents, quantity: i < 12 ? 30 - i : 1 }));
    const order = await insertOrder(db(), { userId: null, status: "delivered", paymentStatus: "completed", createdAt: at(daysAgo), lines });
    if (daysAgo >= 5) oldOrders.push(order.id);
  }
});

describe("best sellers from the days' top lists", () => {
  it("are the ten of every product, by units and by revenue, read from the lists", async () => {
    const fromLists = await bestSellersFromTopLists(db(), RANGE);
    expect(fromLists).not.toBeNull();
    const all = await bestSellersOfAll(db(), RANGE);
    expect(fromLists).toEqual(all);
    expect(all.byUnits.map((r) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Scent ${String(i).padStart(2, "0")}`));
    expect(all.byUnits[0]!.units).toBe(300);
    expect(await bestSellers(db(), RANGE)).toEqual(all);
  });

  it("follow a change to an old order (the day's list is made again)", async () => {
    // the tail's last product sells 500 bottles on a settled day: from off the list to the top
    const tail = products[products.length - 1]!;
    await db().updateTable("order_lines").set({ quantity: 500, total_price_cents: 500 * tail.price_cents }).where("order_id", "=", oldOrders[0]!).where("product_id", "=", tail.id).execute();
    const best = await bestSellers(db(), RANGE);
    expect(best.byUnits[0]).toMatchObject({ key: tail.id, units: 500 + 9 });
    expect(best).toEqual(await bestSellersOfAll(db(), RANGE));
  });

  it("come from every product when the lists cannot settle the tenth place", async () => {
    // one day where every product sold the same: the tenth's rivals off the list could have sold as much
    const flat = salesRange({ from: addDays(today, -20), to: addDays(today, -20) }, "day");
    await insertOrder(db(), { userId: null, status: "delivered", paymentStatus: "completed", createdAt: at(20), lines: products.map((p, i) => ({ productId: p.id, name: `Scent ${String(i).padStart(2, "0")}`, unitPriceCents: 10_000, quantity: 2 })) });
    expect(await bestSellersFromTopLists(db(), flat)).toBeNull();
    const best = await bestSellers(db(), flat);
    expect(best).toEqual(await bestSellersOfAll(db(), flat));
    expect(best.byUnits).toHaveLength(10);
    expect(best.byUnits.every((r) => r.units === 2)).toBe(true);
  });
});
