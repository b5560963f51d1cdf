import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, openDatabase, type DatabaseHandle, type DB } from "~/db/db.server";
import { migrateTo, migrateToLatest } from "~/db/migrate.server";
import { seedDemo, seedLargeCatalogue } from "~/modules/demo/seed.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { listOrderLines } from "~/modules/orders/order-read.server";
import { createThrowawayDatabase } from "../../../tests/setup/pg-database";

/**
 * Migration 0034 on a copy of the demo shop with its orders (issue 33: "nothing is lost"): the demo shop is seeded at
 * the latest schema, its catalogue and orders are copied into a database at 0033 (the columns that existed then),
 * and that database is migrated on. Every product must come out with one size holding its price, was price, SKU,
 * stock, weight and millilitres; every tier and order line must name that size; a cart saved in a browser before
 * (product ids only) must still quote; and the orders must read as before.
 */
const BEFORE = "0033_was_price_and_missing_images";
const COPIED = ["categories", "users", "shipping_zones", "products", "product_tiers", "orders", "order_lines"] as const;

let old: DatabaseHandle;
let drop: (() => Promise<void>) | undefined;
const before = new Map<string, Record<string, unknown>[]>();

async function columnsOf(db: Kysely<any>, table: string): Promise<string[]> {
  if (isPostgres(db as DB)) {
    const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_name = ${table} and table_schema = current_schema()`.execute(db);
    return rows.map((r) => r.column_name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return rows.map((r) => r.name);
}

beforeAll(async () => {
  const source = getDb();
  await seedDemo(source, { images: false });
  // the demo shop's orders: generated customers buying its products
  await seedLargeCatalogue(source, { products: 0, orders: 60, users: 5, now: new Date("2026-11-01T10:00:00.000Z") });
  if (process.env.TEST_DB === "postgres") {
    const made = await createThrowawayDatabase(process.env.TEST_PG_URL!, "m0034");
    old = openDatabase(made.url, 2);
    drop = made.drop;
  } else {
    old = openDatabase(":memory:");
  }
  await migrateTo(old.db, BEFORE);
  const target = old.db as unknown as Kysely<any>;
  for (const table of COPIED) {
    const wanted = await columnsOf(target, table);
    const rows = (await (source as unknown as Kysely<any>).selectFrom(table).select(wanted).execute()) as Record<string, unknown>[];
    // the migration's own rows (a default zone) are replaced by the shop's
    await target.deleteFrom(table).execute();
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v])));
      if (part.length) await target.insertInto(table).values(part).execute();
    }
    before.set(table, rows);
  }
  await migrateToLatest(old.db);
}, 120_000);

afterAll(async () => {
  await old?.close();
  await drop?.();
});

describe("migration 0034: every product becomes a product with one size", () => {
  it("copies a shop with orders: the demo catalogue and its orders are all there", () => {
    expect(before.get("products")!.length).toBeGreaterThan(10);
    expect(before.get("orders")!.length).toBeGreaterThan(10);
    expect(before.get("order_lines")!.length).toBeGreaterThan(10);
  });

  it("gives each product one size with its price, was price, SKU, stock, weight and millilitres, its id the product's", async () => {
    const sizes = await old.db.selectFrom("product_sizes").selectAll().execute();
    const products = before.get("products")!;
    expect(sizes).toHaveLength(products.length);
    const byProduct = new Map(sizes.map((s) => [s.product_id, s]));
    for (const p of products) {
      const s = byProduct.get(p.id as string)!;
      const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      expect({ id: s.id, price: n(s.price_cents), was: n(s.was_price_cents), sku: s.sku, stock: n(s.stock), weight: n(s.weight_grams), ml: n(s.size_ml), hidden: Number(s.hidden) }, String(p.name)).toEqual({
        id: p.id,
        price: n(p.price_cents),
        was: n(p.was_price_cents),
        sku: p.sku ?? null,
        stock: n(p.stock),
        weight: n(p.weight_grams),
        ml: n(p.size_ml),
        hidden: 0,
      });
      expect(s.label).toBe(p.size_ml === null ? "" : `${Number(p.size_ml)} ml`);
      expect(s.code).toBe(p.size_ml === null ? "standard" : `${Number(p.size_ml)}ml`);
    }
    const maxPrices = await old.db.selectFrom("products").select(["id", "price_cents", "max_price_cents"]).execute();
    for (const p of maxPrices) expect(Number(p.max_price_cents)).toBe(Number(p.price_cents));
  });

  it("moves every tier to its product's size and every order line to the size it bought, with the size's label", async () => {
    const tiers = await old.db.selectFrom("product_tiers").select(["id", "product_id", "size_id"]).execute();
    expect(tiers.length).toBe(before.get("product_tiers")!.length);
    for (const t of tiers) expect(t.size_id).toBe(t.product_id);
    const lines = await old.db.selectFrom("order_lines").innerJoin("products", "products.id", "order_lines.product_id").select(["order_lines.product_id", "order_lines.size_id", "order_lines.size_label", "products.size_ml"]).execute();
    expect(lines.length).toBe(before.get("order_lines")!.filter((l) => l.product_id !== null).length);
    for (const l of lines) {
      expect(l.size_id).toBe(l.product_id);
      expect(l.size_label).toBe(l.size_ml === null ? null : `${Number(l.size_ml)} ml`);
    }
  });

  it("keeps orders readable as they were (names, quantities, prices) and a browser's saved cart still quotes", async () => {
    const lines = before.get("order_lines")!;
    const orderId = lines[0]!.order_id as string;
    const read = await listOrderLines(old.db, orderId);
    const was = lines.filter((l) => l.order_id === orderId).sort((a, b) => Number(a.position) - Number(b.position));
    expect(read.map((l) => [l.quantity, l.unitPriceCents, l.totalPriceCents].map(Number))).toEqual(was.map((l) => [l.quantity, l.unit_price_cents, l.total_price_cents].map(Number)));
    for (const [i, l] of read.entries()) expect(l.name.startsWith(String(was[i]!.name))).toBe(true);

    // A cart saved before sizes names products only: each line gets the product's one size at its price.
    const products = before.get("products")!.slice(0, 3);
    const quote = await quoteCart(old.db, { lines: products.map((p) => ({ productId: p.id as string, quantity: 1 })) });
    expect(quote.missingProductIds).toEqual([]);
    expect(quote.lines.map((l) => [l.productId, l.sizeId, l.unitPriceCents])).toEqual(products.map((p) => [p.id, p.id, Number(p.price_cents)]));
  });
});
