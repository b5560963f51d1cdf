import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { insertProduct, insertTier, updateProduct } from "../../tests/factories/catalog";
import { insertCoupon } from "../../tests/factories/orders";
import { loader } from "./cart";

const db = () => getDb();
const quotePath = (lines: unknown, coupon?: string) => `/cart?${new URLSearchParams({ quote: JSON.stringify(lines), ...(coupon ? { coupon } : {}) })}`;

describe("/cart quote (loader)", () => {
  it("no quote asked: nothing computed", async () => {
    expect(await dataOf(await callLoader(loader, "/cart"))).toEqual({ quote: null });
  });

  it("quotes tier prices, coupon, shipping, VAT and the free-delivery hint from the database", async () => {
    const p = await insertProduct(db(), { name: "Neroli Bloom", price_cents: 25000 });
    await insertTier(db(), p.id, { min_quantity: 2, max_quantity: null, price_cents: 22000 });
    await insertCoupon(db(), { code: "TENOFF", discount_type: "percentage", discount_value: 10 });
    const { quote } = await dataOf(await callLoader(loader, quotePath([{ productId: p.id, quantity: 2, price: 1 }], "tenoff")));
    expect(quote).toMatchObject({
      subtotalCents: 44000,
      discountCents: 4400,
      shippingCents: 7000,
      totalCents: 46600,
      vatIncludedCents: 6078,
      freeDeliveryRemainingCents: 20300,
      freeThresholdCents: 59900,
      coupon: { code: "TENOFF", discountType: "percentage", discountAmount: 4400 },
      couponError: null,
    });
    expect(quote.lines[0]).toMatchObject({ name: "Neroli Bloom", quantity: 2, unitPriceCents: 22000, lineTotalCents: 44000, tierApplied: true });
    expect(quote.coupon).not.toHaveProperty("id");
  });

  it("reports a coupon that does not apply and products that are gone", async () => {
    const p = await insertProduct(db(), { price_cents: 10000 });
    const { quote } = await dataOf(await callLoader(loader, quotePath([{ productId: p.id, quantity: 1 }, { productId: "gone", quantity: 1 }], "NOSUCH")));
    expect(quote).toMatchObject({ couponError: "Invalid coupon code", coupon: null, discountCents: 0, missingProductIds: ["gone"] });
  });

  it("quotes a product's was price only while it is above the price (issue 32); the total is the price", async () => {
    const sale = await insertProduct(db(), { name: "On Sale", price_cents: 89_900 });
    const stale = await insertProduct(db(), { name: "Was Lower", price_cents: 50_000 });
    await updateProduct(db(), sale.id, { was_price_cents: 129_900 });
    await updateProduct(db(), stale.id, { was_price_cents: 40_000 });
    const { quote } = await dataOf(await callLoader(loader, quotePath([{ productId: sale.id, quantity: 1 }, { productId: stale.id, quantity: 1 }])));
    expect(quote.lines.map((l: { name: string; wasPriceCents: number | null; unitPriceCents: number }) => [l.name, l.wasPriceCents, l.unitPriceCents])).toEqual([
      ["On Sale", 129_900, 89_900],
      ["Was Lower", null, 50_000],
    ]);
    expect(quote.subtotalCents).toBe(139_900);
  });

  it("refuses malformed quotes and quantities outside 1–100", async () => {
    expect(statusOf(await callLoader(loader, "/cart?quote=nope"))).toBe(400);
    expect(statusOf(await callLoader(loader, quotePath([{ productId: "x", quantity: 0 }])))).toBe(400);
    expect(statusOf(await callLoader(loader, quotePath([{ productId: "x", quantity: 101 }])))).toBe(400);
  });
});
