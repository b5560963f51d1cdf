import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { PRODUCT_MESSAGES } from "~/modules/catalog/product-admin.text";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertCategory, insertManyProducts, insertProduct, insertReview, insertTier } from "../../tests/factories/catalog";
import { insertOrder } from "../../tests/factories/orders";
import * as route from "./admin.products";

const db = () => getDb();
let cookie = "";
let adminId = "";

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  adminId = admin.id;
  cookie = await sessionCookieFor(db(), admin.id);
});

const load = async (path: string) => dataOf(await callLoader(route.loader, path, { headers: { cookie } }));

describe("admin products list", () => {
  it("searches by name, filters by category (or none), newest first, 25 a page, with counts", async () => {
    const her = await insertCategory(db(), { name: "For Her List" });
    await insertProduct(db(), { name: "Velvet Rose", category_id: her.id });
    await insertProduct(db(), { name: "Rose Noir" });
    await insertManyProducts(db(), 30, (i) => ({ name: `Bulk Scent ${i}` }));

    const all = await load("/admin/products");
    expect(all.list.total).toBeGreaterThanOrEqual(32);
    expect(all.list.rows).toHaveLength(25);
    expect(all.list.rows[0].name).toBe("Bulk Scent 29");

    const roses = await load("/admin/products?q=ROSE");
    expect(roses.list.rows.map((p: { name: string }) => p.name)).toEqual(["Rose Noir", "Velvet Rose"]);
    expect(roses.list.matching).toBe(2);
    expect(roses.list.rows[0]).toMatchObject({ categoryName: null, price: expect.stringMatching(/^R\d/) });

    const inHer = await load(`/admin/products?category=${her.id}`);
    expect(inHer.list.rows.map((p: { name: string }) => p.name)).toEqual(["Velvet Rose"]);
    const none = await load("/admin/products?q=rose&category=none");
    expect(none.list.rows.map((p: { name: string }) => p.name)).toEqual(["Rose Noir"]);

    const last = await load("/admin/products?page=999");
    expect(last.list.page).toBe(last.list.pageCount);
  });

  it("deletes a product with its tiers and reviews; orders keep their lines; the storefront hears of it", async () => {
    const heard: string[] = [];
    const stop = onStorefrontChange((r) => heard.push(r));
    const product = await insertProduct(db(), { name: "Doomed Oud" });
    await insertTier(db(), product.id, { min_quantity: 2, max_quantity: null, price_cents: 100 });
    await insertReview(db(), product.id);
    const order = await insertOrder(db(), { userId: adminId, lines: [{ productId: product.id, name: "Doomed Oud", quantity: 1 }] });

    const result = await callAction(route.action, "/admin/products", { intent: "delete", id: product.id }, { headers: { cookie } });
    stop();
    expect(await dataOf(result)).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.deleted });
    expect(heard).toHaveLength(1);
    expect(await db().selectFrom("products").select("id").where("id", "=", product.id).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom("product_tiers").select("id").where("product_id", "=", product.id).execute()).toEqual([]);
    const lines = await db().selectFrom("order_lines").select(["name", "product_id"]).where("order_id", "=", order.id).execute();
    expect(lines).toEqual([{ name: "Doomed Oud", product_id: null }]);
  });

  it("a product that is already gone: 404, nothing changes", async () => {
    const result = await callAction(route.action, "/admin/products", { intent: "delete", id: "gone" }, { headers: { cookie } });
    expect(statusOf(result)).toBe(404);
  });

  it("answers a page of 10 000 products, searched and filtered, in under 200 ms", async () => {
    await insertManyProducts(db(), 10_000, (i) => ({ name: `Catalogue Scent ${i}` }));
    // One timing is at the mercy of whatever else the machine does (a full run shares two cores with a browser); the
    // median of five, after a first call that warms the statement cache, is the page's own speed.
    for (const path of ["/admin/products", "/admin/products?q=scent%2099", "/admin/products?page=200", "/admin/products?category=none&q=9"]) {
      await load(path);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await load(path);
        times.push(performance.now() - started);
      }
      const ms = times.sort((a, b) => a - b)[2];
      console.log(`${process.env.TEST_DB} ${path}: median ${ms.toFixed(1)} ms`);
      expect(ms).toBeLessThan(200);
    }
  });
});
