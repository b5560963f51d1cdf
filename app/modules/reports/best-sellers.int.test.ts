/**
 * The best sellers from the settled days' kept ranking and the live days (sales.server.ts bestSellers,
 * docs/decisions/034) are the same ten as adding up every product of the range, on SQLite and PostgreSQL: with more
 * products than the ranking keeps, over settled days and the live last days; after a change to an old order; when a
 * product off the kept list has a big day today; and when the bound cannot settle the tenth place (a flat long tail),
 * the answer still comes, from every product.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { insertOrder } from "../../../tests/factories/orders";
import { insertProduct } from "../../../tests/factories/catalog";
import { addDays, saDay } from "~/utils/sa-days";
import { salesRange } from "./sales.logic";
import { bestSellers, bestSellersFromRanking, bestSellersOfAll } from "./sales.server";

const db = () => getDb();
const today = saDay(new Date());
const RANGE = salesRange({ from: addDays(today, -9), to: today }, "day");
/** More than the 100 of each figure the ranking keeps. */
const PRODUCTS = 130;
const products: { id: string; name: string; price_cents: number }[] = [];
const oldOrders: string[] = [];

/** Noon (SA) `daysAgo` days ago. */
const at = (daysAgo: number) => new Date(Date.parse(`${addDays(today, -daysAgo)}T10:00:00.000Z`)).toISOString();
const line = (p: (typeof products)[number], quantity: number) => ({ productId: p.id, name: p.name, unitPriceCents: p.price_cents, quantity });

beforeAll(async () => {
  // A dozen best sellers far ahead, a long tail that sells one bottle a day; the tail's first (the cheapest) is last in
  // both rankings, so the kept lists leave it out.
  for (let i = 0; i < PRODUCTS; i++) products.push(await insertProduct(db(), { name: `Scent ${String(i).padStart(3, "0")}`, price_cents: 10_000 + i * 100 }));
  for (let daysAgo = 0; daysAgo < 10; daysAgo++) {
    const order = await insertOrder(db(), { userId: null, status: "delivered", paymentStatus: "completed", createdAt: at(daysAgo), lines: products.map((p, i) => line(p, i < 12 ? 30 - i : 1)) });
    if (daysAgo >= 5) oldOrders.push(order.id);
  }
});

describe("best sellers from the kept ranking", () => {
  it("are the ten of every product, by units and by revenue", async () => {
    const fromRanking = await bestSellersFromRanking(db(), RANGE);
    expect(fromRanking).not.toBeNull();
    const all = await bestSellersOfAll(db(), RANGE);
    expect(fromRanking).toEqual(all);
    expect(all.byUnits.map((r) => r.name)).toEqual(products.slice(0, 10).map((p) => p.name));
    expect(all.byUnits[0]!.units).toBe(300);
    expect(await bestSellers(db(), RANGE)).toEqual(all);
  });

  it("follow a change to an old order (its day is summed again, the ranking read again)", async () => {
    const tail = products[PRODUCTS - 1]!;
    await db().updateTable("order_lines").set({ quantity: 500, total_price_cents: 500 * tail.price_cents }).where("order_id", "=", oldOrders[0]!).where("product_id", "=", tail.id).execute();
    const best = await bestSellers(db(), RANGE);
    expect(best.byUnits[0]).toMatchObject({ key: tail.id, units: 500 + 9 });
    expect(best).toEqual(await bestSellersOfAll(db(), RANGE));
  });

  it("count today's big day of a product the ranking left out", async () => {
    const cheapest = products[12]!;
    await insertOrder(db(), { userId: null, status: "processing", paymentStatus: "completed", createdAt: new Date().toISOString(), lines: [line(cheapest, 400)] });
    const best = await bestSellersFromRanking(db(), RANGE);
    expect(best?.byUnits[1]).toMatchObject({ key: cheapest.id, units: 400 + 10 });
    expect(best).toEqual(await bestSellersOfAll(db(), RANGE));
  });

  it("come from every product when the bound cannot settle the tenth place", async () => {
    // one day on which every product sold the same: the products after the kept hundred could have sold as much
    const flat = salesRange({ from: addDays(today, -20), to: addDays(today, -20) }, "day");
    await insertOrder(db(), { userId: null, status: "delivered", paymentStatus: "completed", createdAt: at(20), lines: products.map((p) => ({ ...line(p, 2), unitPriceCents: 10_000 })) });
    expect(await bestSellersFromRanking(db(), flat)).toBeNull();
    const best = await bestSellers(db(), flat);
    expect(best).toEqual(await bestSellersOfAll(db(), flat));
    expect(best.byUnits).toHaveLength(10);
    expect(best.byUnits.every((r) => r.units === 2)).toBe(true);
  });
});
