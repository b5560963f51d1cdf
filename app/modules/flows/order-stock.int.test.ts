import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { createCheckoutForOrder } from "~/modules/flows/checkout.server";
import { newId } from "~/utils/ids";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertOrder, TEST_ADDRESS } from "../../../tests/factories/orders";
import { insertAwaitingOrder, postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { createUser } from "../../../tests/factories/users";
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { setOrderStatus, setPaymentStatus } from "~/modules/flows/order-changed-by-owner.server";
import { placeOrder, StockShortError } from "~/modules/flows/order-placed.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";

/** Stock (docs/decisions/020): checked at the cart and at checkout, taken when the payment is confirmed, given back on cancel. */
const db = () => getDb();

async function stockOf(productId: string) {
  const row = await db().selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow();
  return row.stock === null ? null : Number(row.stock);
}

async function linesOf(orderId: string) {
  return db().selectFrom("order_lines").select(["product_id", "quantity", "stock_taken", "stock_short"]).where("order_id", "=", orderId).orderBy("position").execute();
}

async function buyers(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({ id: newId(), email: `stock-${i}-${newId().slice(0, 6)}@example.test` }));
  await db().insertInto("users").values(rows.map((b) => ({ id: b.id, email: b.email, is_admin: false, email_verified: false, email_notifications: true, email_marketing: false }))).execute();
  return rows;
}

describe("the cart quote and checkout", () => {
  it("flags a line above stock with the product's name and how many are left; an untracked product never", async () => {
    const few = await insertProduct(db(), { name: "Rose Parlour Test", stock: 2 });
    const out = await insertProduct(db(), { name: "Gone Vetiver", stock: 0 });
    const free = await insertProduct(db(), { stock: null });
    const q = await quoteCart(db(), {
      lines: [
        { productId: few.id, quantity: 3 },
        { productId: out.id, quantity: 1 },
        { productId: free.id, quantity: 100 },
      ],
    });
    const byId = new Map(q.lines.map((l) => [l.productId, l]));
    expect(byId.get(few.id)).toMatchObject({ stockLeft: 2, stockProblem: "Only 2 of Rose Parlour Test are left: please lower the quantity to 2 to check out." });
    expect(byId.get(out.id)).toMatchObject({ stockLeft: 0, stockProblem: "Gone Vetiver is out of stock: please remove it from your cart to check out." });
    expect(byId.get(free.id)).toMatchObject({ stockLeft: null, stockProblem: null });
    const atStock = await quoteCart(db(), { lines: [{ productId: few.id, quantity: 2 }] });
    expect(atStock.lines[0]).toMatchObject({ stockLeft: 2, stockProblem: null });
  });

  it("checkout refuses a line above stock, names the product and stores nothing", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { name: "Last Two Oud", stock: 2 });
    const before = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const attempt = placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 3 }], shippingAddress: TEST_ADDRESS });
    await expect(attempt).rejects.toBeInstanceOf(StockShortError);
    await expect(placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 3 }], shippingAddress: TEST_ADDRESS })).rejects.toThrow(
      "Only 2 of Last Two Oud are left: please lower the quantity to 2 to check out.",
    );
    const after = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // placing takes nothing: stock is taken when the payment is confirmed
    const placed = await placeOrder(db(), user, { lines: [{ productId: p.id, quantity: 2 }], shippingAddress: TEST_ADDRESS });
    expect(await stockOf(p.id)).toBe(2);
    expect((await linesOf(placed.id))[0]).toMatchObject({ stock_taken: 0, stock_short: 0 });
  });
});

describe("taking stock when the payment is confirmed", () => {
  it("50 buyers for 10 bottles, paid at once: exactly 10 take stock, stock ends at 0, the other 40 are paid and flagged short", async () => {
    const product = await insertProduct(db(), { name: "Ten Bottles", price_cents: 40000, stock: 10 });
    const people = await buyers(50);
    const input = { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS };
    // Everyone checks out while 10 are left (placing takes nothing) ...
    const orders = await Promise.all(
      people.map(async (buyer) => {
        const order = await placeOrder(db(), buyer, input);
        const { checkoutId } = await createCheckoutForOrder(db(), order, { email: buyer.email, name: TEST_ADDRESS.name, telephone: TEST_ADDRESS.telephone });
        return { order, checkoutId };
      }),
    );
    const changes: string[] = [];
    const stop = onStorefrontChange((reason) => changes.push(reason));
    // ... and all 50 payments are confirmed at the same time.
    const outcomes = await Promise.all(
      orders.map(async ({ order, checkoutId }) => (await (await postWebhook("simulated", simulatedWebhook(checkoutId, order.totalAmountCents))).json()).outcome as string),
    );
    stop();

    expect(outcomes.every((o) => o === "paid")).toBe(true);
    expect(await stockOf(product.id)).toBe(0);
    const lines = await db().selectFrom("order_lines").select(["stock_taken", "stock_short"]).where("product_id", "=", product.id).execute();
    expect(lines).toHaveLength(50);
    expect(lines.filter((l) => Number(l.stock_taken) === 1)).toHaveLength(10);
    expect(lines.filter((l) => Number(l.stock_short) === 1)).toHaveLength(40);
    expect(lines.every((l) => Number(l.stock_taken) + Number(l.stock_short) === 1)).toBe(true);
    // the money is taken: every order is paid; the owner sees the 40 flagged
    const paid = await db().selectFrom("orders").select(["status", "payment_status"]).where("id", "in", orders.map((o) => o.order.id)).execute();
    expect(paid.every((o) => o.status === "processing" && o.payment_status === "completed")).toBe(true);
    // visitors hear of each change of stock (10), not of payments that took none
    expect(changes.filter((c) => c.startsWith("stock:"))).toHaveLength(10);
  });

  it("sizes count their own stock: 30 buyers of two sizes paid at once take exactly each size's bottles, and the product's total follows", async () => {
    const product = await insertProduct(db(), { name: "Two Sizes", price_cents: 40000, size_ml: 50, stock: 4 });
    // a second size, 100 ml with 6 bottles (the first is the product's own, 50 ml with 4)
    const big = newId();
    await db().insertInto("product_sizes").values({ id: big, product_id: product.id, label: "100 ml", code: "100ml", size_ml: 100, price_cents: 65000, stock: 6, position: 1 }).execute();
    await refreshProductSummaries(db(), [product.id]);
    expect(await stockOf(product.id)).toBe(10);
    const people = await buyers(30);
    const orders = await Promise.all(
      people.map(async (buyer, i) => {
        const line = i % 2 === 0 ? { productId: product.id, quantity: 1 } : { productId: product.id, sizeId: big, quantity: 1 };
        const order = await placeOrder(db(), buyer, { lines: [line], shippingAddress: TEST_ADDRESS });
        const { checkoutId } = await createCheckoutForOrder(db(), order, { email: buyer.email, name: TEST_ADDRESS.name, telephone: TEST_ADDRESS.telephone });
        return { order, checkoutId };
      }),
    );
    // the lines name their sizes, at each size's price
    const placed = await db().selectFrom("order_lines").select(["size_id", "size_label", "unit_price_cents"]).where("product_id", "=", product.id).execute();
    expect(new Set(placed.map((l) => `${l.size_id === big ? "big" : "small"} ${l.size_label} ${l.unit_price_cents}`))).toEqual(new Set(["small 50 ml 40000", "big 100 ml 65000"]));
    await Promise.all(orders.map(async ({ order, checkoutId }) => postWebhook("simulated", simulatedWebhook(checkoutId, order.totalAmountCents))));

    const sizes = await db().selectFrom("product_sizes").select(["id", "stock"]).where("product_id", "=", product.id).execute();
    expect(sizes.map((s) => Number(s.stock))).toEqual([0, 0]);
    const taken = await db().selectFrom("order_lines").select(["size_id", "stock_taken", "stock_short"]).where("product_id", "=", product.id).execute();
    const tookOf = (sizeId: string) => taken.filter((l) => l.size_id === sizeId).reduce((n, l) => n + Number(l.stock_taken), 0);
    expect([tookOf(product.id), tookOf(big)]).toEqual([4, 6]);
    expect(taken.filter((l) => Number(l.stock_short) === 1)).toHaveLength(20);
    // the product's summary is the sizes' total, after every commit
    expect(await stockOf(product.id)).toBe(0);

    // cancelling one paid 100 ml order puts its bottle back on that size, and the product's total says 1
    const tookBig = await db().selectFrom("order_lines").select("order_id").where("size_id", "=", big).where("stock_taken", "=", 1).executeTakeFirstOrThrow();
    await setOrderStatus(db(), tookBig.order_id, "cancelled");
    expect(Number((await db().selectFrom("product_sizes").select("stock").where("id", "=", big).executeTakeFirstOrThrow()).stock)).toBe(1);
    expect(await stockOf(product.id)).toBe(1);
  });

  it("an untracked product takes nothing and is never short", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { stock: null });
    const order = await insertAwaitingOrder(db(), { userId: user.id, lines: [{ productId: p.id, quantity: 5 }] });
    const response = await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
    expect((await response.json()).outcome).toBe("paid");
    expect(await stockOf(p.id)).toBeNull();
    expect((await linesOf(order.id))[0]).toMatchObject({ stock_taken: 0, stock_short: 0 });
  });
});

describe("the owner's changes", () => {
  it("payment completed (an EFT) takes stock; cancelling the paid order gives it back; reopening takes it again", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { stock: 5 });
    const order = await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id, quantity: 3 }] });

    expect(await setPaymentStatus(db(), order.id, "completed")).toEqual({ short: [] });
    expect(await stockOf(p.id)).toBe(2);
    expect((await linesOf(order.id))[0]).toMatchObject({ stock_taken: 3, stock_short: 0 });

    await setOrderStatus(db(), order.id, "shipped");
    expect(await stockOf(p.id)).toBe(2);

    await setOrderStatus(db(), order.id, "cancelled");
    expect(await stockOf(p.id)).toBe(5);
    expect((await linesOf(order.id))[0]).toMatchObject({ stock_taken: 0, stock_short: 0 });
    // cancelling again gives nothing back twice
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await stockOf(p.id)).toBe(5);

    await setOrderStatus(db(), order.id, "processing");
    expect(await stockOf(p.id)).toBe(2);
  });

  it("an unpaid order cancelled gives nothing back (it took nothing)", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { stock: 4 });
    const order = await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id, quantity: 2 }] });
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await stockOf(p.id)).toBe(4);
  });

  it("a paid order that found its product out of stock is flagged, tells the owner, and its cancel gives back only what it took", async () => {
    const user = await createUser(db());
    const a = await insertProduct(db(), { name: "Plenty", stock: 10 });
    const b = await insertProduct(db(), { name: "Sold Out Musk", stock: 1 });
    const order = await insertOrder(db(), { userId: user.id, lines: [{ productId: a.id, quantity: 2 }, { productId: b.id, name: "Sold Out Musk", quantity: 2 }] });
    const result = await setPaymentStatus(db(), order.id, "completed");
    expect(result.short).toEqual([{ productId: b.id, name: "Sold Out Musk", quantity: 2 }]);
    expect(await stockOf(a.id)).toBe(8);
    expect(await stockOf(b.id)).toBe(1);
    const { listAdminOrders } = await import("~/modules/orders/order-admin.server");
    const listed = await listAdminOrders(db(), { status: "processing", q: "", page: 1 });
    const shown = listed.rows.find((o) => o.id === order.id)!;
    expect(shown.lines.map((l) => l.stockShort)).toEqual([0, 2]);

    await setOrderStatus(db(), order.id, "cancelled");
    expect(await stockOf(a.id)).toBe(10);
    expect(await stockOf(b.id)).toBe(1);
    expect((await linesOf(order.id)).map((l) => [l.stock_taken, l.stock_short])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("a paid order whose payment the owner takes back gives its stock back", async () => {
    const user = await createUser(db());
    const p = await insertProduct(db(), { stock: 3 });
    const order = await insertOrder(db(), { userId: user.id, lines: [{ productId: p.id, quantity: 1 }] });
    await setPaymentStatus(db(), order.id, "completed");
    expect(await stockOf(p.id)).toBe(2);
    await setPaymentStatus(db(), order.id, "failed");
    expect(await stockOf(p.id)).toBe(3);
  });
});
