import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { TIER_MESSAGES } from "~/modules/pricing/tiers-admin.schema";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertProduct } from "../../tests/factories/catalog";
import { newId } from "~/utils/ids";
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import * as route from "./admin.pricing";

const db = () => getDb();
let cookie = "";

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
});

const post = (form: Record<string, string>) => callAction(route.action, "/admin/pricing", form, { headers: { cookie } });
const tiersOf = (productId: string) => db().selectFrom("product_tiers").selectAll().where("product_id", "=", productId).orderBy("min_quantity").execute();

describe("admin pricing tiers", () => {
  it("adds tiers that the cart uses at once; an overlapping range is refused with a message naming the tier", async () => {
    const p = await insertProduct(db(), { name: "Tiered Amber", price_cents: 50000 });
    expect(await dataOf(await post({ intent: "add", productId: p.id, minQuantity: "2", maxQuantity: "5", price: "450.00" }))).toMatchObject({ ok: true, message: TIER_MESSAGES.added });
    expect(await dataOf(await post({ intent: "add", productId: p.id, minQuantity: "6", maxQuantity: "", price: "400" }))).toMatchObject({ ok: true });

    const overlap = await post({ intent: "add", productId: p.id, minQuantity: "4", maxQuantity: "8", price: "420" });
    expect(statusOf(overlap)).toBe(409);
    expect((await dataOf(overlap)).error).toBe(TIER_MESSAGES.overlap("2–5"));
    expect(await tiersOf(p.id)).toHaveLength(2);

    const quote = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 3 }] });
    expect(quote.lines[0]).toMatchObject({ unitPriceCents: 45000, lineTotalCents: 135000 });
    const page = await dataOf(await callLoader(route.loader, `/admin/pricing?q=${encodeURIComponent("tiered amber")}`, { headers: { cookie } }));
    expect(page.list.rows[0].sizes[0].tiers.map((t: { range: string; price: string }) => `${t.range} ${t.price}`)).toEqual(["2–5 R450.00", "6+ R400.00"]);
  });

  it.each([
    [{ minQuantity: "0", maxQuantity: "", price: "1" }, TIER_MESSAGES.minQuantity],
    [{ minQuantity: "", maxQuantity: "", price: "1" }, TIER_MESSAGES.minQuantity],
    [{ minQuantity: "1.5", maxQuantity: "", price: "1" }, TIER_MESSAGES.minQuantity],
    [{ minQuantity: "5", maxQuantity: "2", price: "1" }, TIER_MESSAGES.maxQuantity],
    [{ minQuantity: "2", maxQuantity: "", price: "-1" }, TIER_MESSAGES.price],
    [{ minQuantity: "2", maxQuantity: "", price: "" }, TIER_MESSAGES.price],
  ])("refuses %j with %j and stores nothing", async (fields, message) => {
    const p = await insertProduct(db());
    const result = await post({ intent: "add", productId: p.id, ...fields });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(message);
    expect(await tiersOf(p.id)).toHaveLength(0);
  });

  it("deletes a tier; the product then shows 'No pricing tiers defined'", async () => {
    const p = await insertProduct(db(), { name: "Zzz Single Tier" });
    await post({ intent: "add", productId: p.id, minQuantity: "3", maxQuantity: "", price: "1" });
    const [tier] = await tiersOf(p.id);
    expect(await dataOf(await post({ intent: "delete", id: tier!.id }))).toMatchObject({ ok: true, message: TIER_MESSAGES.deleted });
    expect(await tiersOf(p.id)).toHaveLength(0);
  });

  it("prices each size with its own tiers: the page lists them per size, a range overlaps only within its size", async () => {
    const p = await insertProduct(db(), { name: "Tiered Sizes", price_cents: 45000, size_ml: 50 });
    const hundred = newId();
    await db().insertInto("product_sizes").values({ id: hundred, product_id: p.id, label: "100 ml", code: "100ml", size_ml: 100, price_cents: 72000, position: 1, hidden: 0, created_at: new Date().toISOString() }).execute();
    await refreshProductSummaries(db(), [p.id]);

    expect(await dataOf(await post({ intent: "add", productId: p.id, sizeId: p.id, minQuantity: "2", maxQuantity: "5", price: "420" }))).toMatchObject({ ok: true });
    // the same range on the other size is its own
    expect(await dataOf(await post({ intent: "add", productId: p.id, sizeId: hundred, minQuantity: "2", maxQuantity: "5", price: "680" }))).toMatchObject({ ok: true });
    const overlap = await post({ intent: "add", productId: p.id, sizeId: hundred, minQuantity: "5", maxQuantity: "", price: "650" });
    expect(statusOf(overlap)).toBe(409);
    expect((await dataOf(overlap)).error).toBe(TIER_MESSAGES.overlap("2–5", "100 ml"));
    // a size of another product is not this product's
    const other = await insertProduct(db());
    expect(statusOf(await post({ intent: "add", productId: p.id, sizeId: other.id, minQuantity: "9", maxQuantity: "", price: "1" }))).toBe(404);

    const quote = await quoteCart(db(), { lines: [{ productId: p.id, sizeId: hundred, quantity: 2 }, { productId: p.id, sizeId: p.id, quantity: 3 }] });
    expect(quote.lines.map((l) => [l.sizeLabel, l.unitPriceCents])).toEqual([
      ["100 ml", 68000],
      ["50 ml", 42000],
    ]);
    const page = await dataOf(await callLoader(route.loader, `/admin/pricing?q=${encodeURIComponent("tiered sizes")}`, { headers: { cookie } }));
    expect(page.list.rows[0].sizes.map((s: { label: string; tiers: Array<{ range: string; price: string }> }) => [s.label, s.tiers.map((t) => `${t.range} ${t.price}`)])).toEqual([
      ["50 ml", ["2–5 R420.00"]],
      ["100 ml", ["2–5 R680.00"]],
    ]);
  });
});
