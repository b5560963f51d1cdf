import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { cartLinesJsonSchema } from "~/modules/orders/orders.schema";
import { placeOrder, CartChangedError } from "~/modules/flows/order-placed.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { closeUnpaidOrder } from "~/modules/flows/order-closed-unpaid.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { setOrderStatus, setPaymentStatus } from "~/modules/flows/order-changed-by-owner.server";
import { readOrder } from "~/modules/samples/order-view.server";
import { getInvoiceForViewer } from "~/modules/invoices/invoice.server";
import { resetEnvForTests } from "~/utils/env.server";
import { insertProduct } from "../../../tests/factories/catalog";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser, type TestUser } from "../../../tests/factories/users";
import { DISCOVERY_SET_ID, SAMPLE_SIZE_ID, setToken } from "./samples.logic";
import { saveProductSampling, saveSampleSettings, sampleOfferFor } from "./samples.server";
import { customerCredits, SampleCreditTakenError } from "./sample-orders.server";

/**
 * Samples, discovery sets and their credits on the real database (both engines): prices from the settings, the
 * millilitres taken from the bulk on payment, and the credit a paid sample gives back — applied once, also when two
 * placements race, and not after its window. The clock is each call's `now`.
 */
const db = () => getDb();
const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-03-02T08:00:00.000Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY);

const VAT_SHOP = { SHOP_VAT_NUMBER: "4123456789", SHOP_ADDRESS: "Unit 4, The Old Biscuit Mill | 373 Albert Road, Woodstock | Cape Town 7925" };
let buyer: TestUser;
beforeAll(async () => {
  await saveSampleSettings(db(), { enabled: true, priceCents: 3500, setSize: 3, setPriceCents: 9000, creditDays: 60 });
  buyer = await createUser(db());
  Object.assign(process.env, VAT_SHOP);
  resetEnvForTests();
});
afterAll(() => {
  for (const k of Object.keys(VAT_SHOP)) delete process.env[k];
  resetEnvForTests();
});

const sample = (productId: string, quantity = 1) => ({ productId, sizeId: SAMPLE_SIZE_ID, quantity });
const set = (ids: string[], quantity = 1) => ({ productId: DISCOVERY_SET_ID, sizeId: setToken(ids), quantity });

async function pay(orderId: string, now: Date) {
  return db().transaction().execute((trx) => markOrderPaid(trx, orderId, now));
}

async function bulkOf(productId: string) {
  const row = await db().selectFrom("product_samples").select("bulk_ml").where("product_id", "=", productId).executeTakeFirst();
  return row?.bulk_ml ?? null;
}

/** A bought and paid sample of a fresh product: the buyer holds its credit from `paidAt`. */
async function creditedProduct(user: TestUser, paidAt: Date, priceCents = 89900) {
  const p = await insertProduct(db(), { name: `Velvet Rose ${Math.random().toString(36).slice(2, 7)}`, price_cents: priceCents });
  const order = await placeOrder(db(), user, { lines: [sample(p.id)], shippingAddress: TEST_ADDRESS }, paidAt);
  await pay(order.id, paidAt);
  return p;
}

describe("pricing", () => {
  it("prices a sample from the settings, whatever price the browser sends, and names it as a sample", async () => {
    const p = await insertProduct(db(), { name: "Velvet Rose", price_cents: 89900 });
    const posted = cartLinesJsonSchema.parse(JSON.stringify([{ ...sample(p.id, 2), price: 1, unitPriceCents: 1 }]));
    const q = await quoteCart(db(), { lines: posted });
    expect(q.lines).toHaveLength(1);
    expect(q.lines[0]).toMatchObject({ name: "Velvet Rose", sizeLabel: "2 ml sample", unitPriceCents: 3500, lineTotalCents: 7000, sampleKind: "sample" });
    expect(q.totals.subtotalCents).toBe(7000);
  });

  it("a product's own choice overrides the catalogue: turned off, its sample is no longer sold", async () => {
    const p = await insertProduct(db());
    await saveProductSampling(db(), p.id, { offered: false, bulkMl: null });
    expect(await sampleOfferFor(db(), p.id)).toBeNull();
    const q = await quoteCart(db(), { lines: [sample(p.id)] });
    expect(q.lines).toHaveLength(0);
    expect(q.missingProductIds).toEqual([`${p.id}@${SAMPLE_SIZE_ID}`]);
  });

  it("a discovery set is one line at the set's price with its scents named; a set of the wrong size is refused", async () => {
    const ps = await Promise.all(["Amber Noir", "Citrus Bloom", "Oud Royale", "Iris Pale"].map((name) => insertProduct(db(), { name })));
    const q = await quoteCart(db(), { lines: [set(ps.slice(0, 3).map((p) => p.id))] });
    expect(q.lines[0]).toMatchObject({ name: "Discovery set: Amber Noir, Citrus Bloom, Oud Royale", sizeLabel: "3 × 2 ml", unitPriceCents: 9000, sampleKind: "set" });
    // the set's price comes back across its samples, to the cent
    expect(q.lines[0].samplePicks!.map((s) => s.creditCents)).toEqual([3000, 3000, 3000]);
    const wrong = await quoteCart(db(), { lines: [set(ps.map((p) => p.id))] });
    expect(wrong.lines).toHaveLength(0);
    await expect(placeOrder(db(), buyer, { lines: [set(ps.map((p) => p.id))], shippingAddress: TEST_ADDRESS })).rejects.toBeInstanceOf(CartChangedError);
  });
});

describe("stock in millilitres", () => {
  it("payment takes 2 ml per sample from the product's bulk; cancelling the paid order gives them back", async () => {
    const [a, b, c] = await Promise.all([insertProduct(db()), insertProduct(db()), insertProduct(db())]);
    await saveProductSampling(db(), a.id, { offered: null, bulkMl: 20 });
    await saveProductSampling(db(), b.id, { offered: null, bulkMl: 3 });
    const order = await placeOrder(db(), buyer, { lines: [sample(a.id, 2), set([a.id, b.id, c.id])], shippingAddress: TEST_ADDRESS }, T0);
    // nothing is decanted before the money arrives
    expect(await bulkOf(a.id)).toBe(20);
    const paid = await pay(order.id, T0);
    expect(paid!.stock.changed).toBe(true);
    expect(await bulkOf(a.id)).toBe(14);
    expect(await bulkOf(b.id)).toBe(1);
    expect(await bulkOf(c.id)).toBeNull();
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await bulkOf(a.id)).toBe(20);
    expect(await bulkOf(b.id)).toBe(3);
  });

  it("a sample asks for no more than the bulk holds: with 3 ml left, two samples are refused", async () => {
    const p = await insertProduct(db(), { name: "Last Drops" });
    await saveProductSampling(db(), p.id, { offered: true, bulkMl: 3 });
    const q = await quoteCart(db(), { lines: [sample(p.id, 2)] });
    expect(q.lines[0].stockLeft).toBe(1);
    expect(q.lines[0].stockProblem).toMatch(/Last Drops/);
  });

  it("the order line reads as a sample everywhere: its name, no size, its kind", async () => {
    const p = await insertProduct(db(), { name: "Velvet Rose" });
    const order = await placeOrder(db(), buyer, { lines: [sample(p.id)], shippingAddress: TEST_ADDRESS });
    const read = await readOrder(db(), order.id);
    expect(read!.lines[0]).toMatchObject({ name: "Velvet Rose (2 ml sample)", productId: p.id, sizeId: null, unitPriceCents: 3500 });
    const line = await db().selectFrom("order_lines").select(["sample_kind", "size_id"]).where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(line).toEqual({ sample_kind: "sample", size_id: null });
  });
});

describe("the sample's credit", () => {
  it("is granted when the payment is confirmed, not when the order is placed", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db());
    const order = await placeOrder(db(), user, { lines: [sample(p.id, 2)], shippingAddress: TEST_ADDRESS }, T0);
    expect(await customerCredits(db(), user.id, T0)).toEqual([]);
    await pay(order.id, T0);
    await pay(order.id, T0); // a replayed confirmation grants nothing more
    const credits = await customerCredits(db(), user.id, T0);
    expect(credits.map((c) => [c.amountCents, c.state, c.expiresAt])).toEqual([
      [3500, "open", at(60).toISOString()],
      [3500, "open", at(60).toISOString()],
    ]);
  });

  it("comes off a full bottle of that scent at checkout, once; shown on the order and the tax invoice as a discount", async () => {
    const user = await createUser(db());
    const p = await creditedProduct(user, T0);
    const other = await insertProduct(db(), { price_cents: 50000 });
    // not on another scent
    expect((await quoteCart(db(), { lines: [{ productId: other.id, quantity: 1 }], userId: user.id }, at(1))).totals.sampleCreditCents).toBe(0);
    // not for a visitor
    expect((await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }] }, at(1))).totals.sampleCreditCents).toBe(0);
    const q = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: user.id }, at(1));
    expect(q.totals).toMatchObject({ subtotalCents: 89900, sampleCreditCents: 3500, discountCents: 3500, totalCents: 86400 });

    const order = await placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    expect(order.totalAmountCents).toBe(86400);
    // held by the first order: a second order does not get it
    const second = await placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    expect(second.totalAmountCents).toBe(89900);
    await pay(order.id, at(2));
    expect((await customerCredits(db(), user.id, at(2))).map((c) => c.state)).toEqual(["used"]);

    const read = await readOrder(db(), order.id);
    expect(read).toMatchObject({ sampleCreditCents: 3500, sampleCreditLabel: `Sample credit (${p.name})`, discountCents: 3500 });
    const invoice = await getInvoiceForViewer(db(), order.id, { id: user.id, isAdmin: false });
    if (invoice.state !== "found") throw new Error(invoice.state);
    expect(invoice.invoice.title).toBe("Tax Invoice");
    expect(invoice.invoice.totals).toContainEqual({ label: `Sample credit (${p.name})`, amount: "-R35.00" });
    expect(invoice.invoice.totals.some((t) => t.label.startsWith("Discount"))).toBe(false);
    expect(invoice.invoice.amounts.totalCents).toBe(86400);
  });

  it("comes back when the order holding it ends unpaid", async () => {
    const user = await createUser(db());
    const p = await creditedProduct(user, T0);
    const order = await placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    expect(order.discountCents).toBe(3500);
    expect((await customerCredits(db(), user.id, at(1)))[0].state).toBe("held");
    await closeUnpaidOrder(db(), order.id, "expired", { now: at(1) });
    expect((await customerCredits(db(), user.id, at(1)))[0].state).toBe("open");
    expect((await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: user.id }, at(1))).totals.sampleCreditCents).toBe(3500);
  });

  it("an order that expired unpaid and whose money came after all (the owner sets it paid) takes its credit again; used meanwhile, the order stays cancelled", async () => {
    const user = await createUser(db());
    const p = await creditedProduct(user, T0);
    const late = await placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    expect(late.discountCents).toBe(3500);
    await closeUnpaidOrder(db(), late.id, "expired", { now: at(2) });
    expect((await customerCredits(db(), user.id, at(2)))[0].state).toBe("open");
    // the bank transfer arrives on day 4: the order is paid with its discount, and the credit is its again, used
    await setPaymentStatus(db(), late.id, "completed", at(4));
    expect((await readOrder(db(), late.id))).toMatchObject({ status: "processing", paymentStatus: "completed", sampleCreditCents: 3500, sampleCreditLabel: `Sample credit (${p.name})` });
    expect((await customerCredits(db(), user.id, at(4)))[0].state).toBe("used");
    expect((await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: user.id }, at(4))).totals.sampleCreditCents).toBe(0);

    // the same with the credit used by another order in between: the late payment can't take it, the order stays cancelled
    const other = await createUser(db());
    const q = await creditedProduct(other, T0);
    const expired = await placeOrder(db(), other, { lines: [{ productId: q.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    await closeUnpaidOrder(db(), expired.id, "expired", { now: at(2) });
    const again = await placeOrder(db(), other, { lines: [{ productId: q.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(3));
    expect(again.discountCents).toBe(3500);
    await expect(setPaymentStatus(db(), expired.id, "completed", at(4))).rejects.toThrow(/used by another order since, so the order stays cancelled/);
    expect((await readOrder(db(), expired.id))?.status).toBe("cancelled");
  });

  it("expires after its 60 days", async () => {
    const user = await createUser(db());
    const p = await creditedProduct(user, T0);
    const line = [{ productId: p.id, quantity: 1 }];
    expect((await quoteCart(db(), { lines: line, userId: user.id }, new Date(at(60).getTime() - 1))).totals.sampleCreditCents).toBe(3500);
    expect((await quoteCart(db(), { lines: line, userId: user.id }, at(60))).totals.sampleCreditCents).toBe(0);
    const late = await placeOrder(db(), user, { lines: line, shippingAddress: TEST_ADDRESS }, at(61));
    expect(late.totalAmountCents).toBe(89900);
    expect((await customerCredits(db(), user.id, at(61)))[0].state).toBe("expired");
  });

  it("two placements at once (two tabs) use it once", async () => {
    const user = await createUser(db());
    const p = await creditedProduct(user, T0);
    const input = { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS };
    const results = await Promise.allSettled([placeOrder(db(), user, input, at(1)), placeOrder(db(), user, input, at(1))]);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(SampleCreditTakenError);
    const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(placed.length).toBeGreaterThanOrEqual(1);
    expect(placed.filter((o) => o.discountCents === 3500)).toHaveLength(1);
    const held = await db().selectFrom("sample_credits").select("reserved_order_id").where("user_id", "=", user.id).execute();
    expect(held).toHaveLength(1);
    expect(placed.find((o) => o.discountCents === 3500)!.id).toBe(held[0].reserved_order_id);
  });

  it("a set's samples give back the set's price, on each scent's bottle", async () => {
    const user = await createUser(db());
    const ps = await Promise.all([insertProduct(db()), insertProduct(db()), insertProduct(db())]);
    const order = await placeOrder(db(), user, { lines: [set(ps.map((p) => p.id))], shippingAddress: TEST_ADDRESS }, T0);
    await pay(order.id, T0);
    const credits = await customerCredits(db(), user.id, T0);
    expect(credits.reduce((s, c) => s + c.amountCents, 0)).toBe(9000);
    expect(new Set(credits.map((c) => c.productId))).toEqual(new Set(ps.map((p) => p.id)));
  });
});

describe("a paid order the owner cancels, and reopens (docs/decisions/054 addendum)", () => {
  const credits = async (user: TestUser, now: Date) => (await customerCredits(db(), user.id, now)).map((c) => `${c.name}: ${c.state}`).sort();

  it("gives back the credit it used and takes back the one it granted; reopening takes and restores them again", async () => {
    const user = await createUser(db());
    const rose = await creditedProduct(user, T0);
    const oud = await insertProduct(db(), { name: `Oud Noir ${Math.random().toString(36).slice(2, 7)}`, price_cents: 61000 });
    // a bottle of Rose (its credit used) and a sample of Oud (a credit granted)
    const order = await placeOrder(db(), user, { lines: [{ productId: rose.id, quantity: 1 }, sample(oud.id)], shippingAddress: TEST_ADDRESS }, at(1));
    expect(order.discountCents).toBe(3500);
    await pay(order.id, at(1));
    expect(await credits(user, at(1))).toEqual([`${oud.name}: open`, `${rose.name}: used`].sort());

    await setOrderStatus(db(), order.id, "cancelled", at(2));
    expect(await credits(user, at(2))).toEqual([`${rose.name}: open`]);
    expect((await quoteCart(db(), { lines: [{ productId: rose.id, quantity: 1 }], userId: user.id }, at(2))).totals.sampleCreditCents).toBe(3500);
    expect((await quoteCart(db(), { lines: [{ productId: oud.id, quantity: 1 }], userId: user.id }, at(2))).totals.sampleCreditCents).toBe(0);
    // the cancelled order's bill still names the credit it had
    expect((await readOrder(db(), order.id))?.sampleCreditLabel).toBe(`Sample credit (${rose.name})`);

    await setOrderStatus(db(), order.id, "processing", at(3));
    expect(await credits(user, at(3))).toEqual([`${oud.name}: open`, `${rose.name}: used`].sort());
    expect((await quoteCart(db(), { lines: [{ productId: rose.id, quantity: 1 }], userId: user.id }, at(3))).totals.sampleCreditCents).toBe(0);
  });

  it("a granted credit already used elsewhere stays; an expired used one is not given back; a given-back one used since keeps the order cancelled", async () => {
    const user = await createUser(db());
    const oud = await insertProduct(db(), { name: `Oud Noir ${Math.random().toString(36).slice(2, 7)}`, price_cents: 61000 });
    const sampler = await placeOrder(db(), user, { lines: [sample(oud.id)], shippingAddress: TEST_ADDRESS }, at(1));
    await pay(sampler.id, at(1));
    const bottle = await placeOrder(db(), user, { lines: [{ productId: oud.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    expect(bottle.discountCents).toBe(3500);
    await pay(bottle.id, at(1));
    // the sample's order cancelled: its credit was used on the bottle already, so it stays used (and is logged)
    await setOrderStatus(db(), sampler.id, "cancelled", at(2));
    expect(await credits(user, at(2))).toEqual([`${oud.name}: used`]);

    // the bottle's order cancelled after the credit expired: not given back
    await setOrderStatus(db(), bottle.id, "cancelled", at(70));
    expect(await credits(user, at(70))).toEqual([`${oud.name}: used`]);

    // a used credit given back, then used by another order: reopening the first is refused, it stays cancelled
    const rose = await creditedProduct(user, T0);
    const first = await placeOrder(db(), user, { lines: [{ productId: rose.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(1));
    await pay(first.id, at(1));
    await setOrderStatus(db(), first.id, "cancelled", at(2));
    const second = await placeOrder(db(), user, { lines: [{ productId: rose.id, quantity: 1 }], shippingAddress: TEST_ADDRESS }, at(3));
    expect(second.discountCents).toBe(3500);
    await pay(second.id, at(3));
    await expect(setOrderStatus(db(), first.id, "processing", at(4))).rejects.toThrow(/used by another order since, so the order stays cancelled/);
    expect((await readOrder(db(), first.id))?.status).toBe("cancelled");
  });
});
