import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { slugify } from "~/utils/slug";
import type { Database } from "~/db/schema";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import { DEMO_INSPIRED_BY, DEMO_PRODUCTS, demoSizes } from "./demo-catalogue";
import { listSizes, refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { DEMO_GIFT_CARD_SETTINGS, ensureDemoCatalogue, resetShop, seedDemo, seedLargeCatalogue } from "./seed.server";
import { loadSampleSettings } from "~/modules/samples/samples.server";
import { configuredHoldPolicy, findExpiredUnpaidOrders } from "~/modules/flows/order-expired.server";
import { loadGiftCardSaleSettings, saveGiftCardSaleSettings } from "~/modules/gift-cards/gift-card-sales.server";

const TABLES = ["categories", "products", "product_sizes", "product_tiers", "users", "reviews", "shipping_zones", "shipping_rules", "shipping_zone_provinces", "coupons", "orders", "order_lines"] as const;

async function counts() {
  const db = getDb();
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table as keyof Database)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

/** Major fragrance houses and famous perfume names: no demo product may be called after one. */
const BRANDS = [
  "Chanel", "Dior", "Gucci", "Tom Ford", "Yves Saint Laurent", "YSL", "Versace", "Armani", "Prada", "Hermes", "Hermès",
  "Lancome", "Lancôme", "Givenchy", "Burberry", "Calvin Klein", "Hugo Boss", "Boss", "Dolce", "Gabbana", "Paco Rabanne",
  "Rabanne", "Jo Malone", "Creed", "Kurkdjian", "Baccarat", "Viktor", "Carolina Herrera", "Herrera", "Gaultier",
  "Valentino", "Marc Jacobs", "Chloe", "Chloé", "Bvlgari", "Bulgari", "Cartier", "Guerlain", "Montblanc", "Azzaro",
  "Lattafa", "Byredo", "Le Labo", "Diptyque", "Kilian", "Mugler", "Narciso", "Issey Miyake", "Davidoff", "Ralph Lauren",
  "Estee Lauder", "Estée Lauder", "Lacoste", "Jimmy Choo", "Montale", "Amouage", "Xerjoff", "Parfums de Marly", "Initio",
  "Nishane", "Tiffany", "Michael Kors", "Kenzo", "Moschino", "Elizabeth Arden", "Afnan", "Armaf", "Maison Margiela",
  "Replica", "Sauvage", "Aventus", "Black Opium", "La Vie Est Belle", "Good Girl", "Acqua di Gio", "Eros", "Libre",
  "Flowerbomb", "Oud Wood", "Light Blue", "Coco", "Mademoiselle", "J'adore", "Jadore", "One Million", "1 Million",
  "Invictus", "Le Male", "Angel", "Alien", "Daisy", "Chance", "Miss Dior", "Santal 33", "Lost Cherry", "Tobacco Vanille",
  "Black Orchid", "Bleu de", "Spicebomb", "Terre d'Hermes", "Fahrenheit", "Allure", "Opium", "Shalimar", "Poison",
  "Boss Bottled", "Wanted", "Phantom", "Y Eau", "Si Passione", "Bloom", "Idole", "Delina", "Layton", "Erba Pura",
];

const productSlug = (p: { name: string }) => slugify(p.name);

function mentionsBrand(name: string): string | undefined {
  const lower = name.toLowerCase();
  return BRANDS.find((b) => new RegExp(`(^|[^a-z])${b.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^a-z]|$)`).test(lower));
}

describe("ensureDemoCatalogue", () => {
  it("does nothing when the shop already has products", async () => {
    const db = getDb();
    await db.insertInto("products").values({ id: "own-1", name: "Our Own Blend", slug: "our-own-blend", price_cents: 25000, images: "[]" }).execute();
    expect(await ensureDemoCatalogue(db, { images: false })).toBeNull();
    const after = await counts();
    expect(after.products).toBe(1);
    expect(after.categories).toBe(0);
    expect(after.coupons).toBe(0);
    await db.deleteFrom("products").where("id", "=", "own-1").execute();
  });

  it("loads the demo catalogue into an empty shop", async () => {
    const summary = await ensureDemoCatalogue(getDb(), { images: false });
    expect(summary?.products).toBe(DEMO_PRODUCTS.length);
    expect((await counts()).products).toBe(DEMO_PRODUCTS.length);
  });
});

describe("seedDemo", () => {
  it("is idempotent: a second run adds nothing and changes nothing", async () => {
    const db = getDb();
    await seedDemo(db, { images: false });
    const before = await counts();
    const snapshot = await db.selectFrom("products").selectAll().orderBy("slug").execute();
    const sizes = await db.selectFrom("product_sizes").selectAll().orderBy("id").execute();
    const summary = await seedDemo(db, { images: false });
    expect(Object.values(summary).every((n) => n === 0)).toBe(true);
    expect(await counts()).toEqual(before);
    expect(await db.selectFrom("products").selectAll().orderBy("slug").execute()).toEqual(snapshot);
    expect(await db.selectFrom("product_sizes").selectAll().orderBy("id").execute()).toEqual(sizes);
  });

  it("has at least 30 products priced R150 to R900 in three categories", async () => {
    const db = getDb();
    const products = await db
      .selectFrom("products")
      .innerJoin("categories", "categories.id", "products.category_id")
      .select(["products.name", "products.slug", "products.price_cents", "products.images", "products.meta_title", "products.meta_desc", "products.description", "products.created_at", "categories.slug as category"])
      .execute();
    expect(products.length).toBeGreaterThanOrEqual(30);
    for (const p of products) {
      expect(p.price_cents, p.name).toBeGreaterThanOrEqual(15000);
      expect(p.price_cents, p.name).toBeLessThanOrEqual(90000);
      expect(Number.isInteger(p.price_cents)).toBe(true);
      expect(p.meta_title).toBe(`${p.name} | Scentara`);
      expect(p.meta_desc!.length).toBeGreaterThan(40);
      expect(p.meta_desc!.length).toBeLessThanOrEqual(160);
      expect(p.description).toMatch(/Top notes: .+\nHeart notes: .+\nBase notes: .+/);
      expect(p.images).toHaveLength(1);
      expect(p.images[0]).toMatch(/^\/media\/products\/[a-z0-9-]+-[0-9a-f]{8}-1200\.webp$/);
    }
    const categories = await db.selectFrom("categories").select(["name", "slug"]).orderBy("slug").execute();
    expect(categories).toEqual([
      { name: "For Her", slug: "for-her" },
      { name: "For Him", slug: "for-him" },
      { name: "Unisex", slug: "unisex" },
    ]);
    for (const slug of ["for-him", "for-her", "unisex"]) {
      expect(products.filter((p) => p.category === slug).length, slug).toBeGreaterThanOrEqual(10);
    }
    // 'Newest first' is meaningful: the dates are spread over months, no two the same.
    const dates = products.map((p) => p.created_at).sort();
    expect(new Set(dates).size).toBe(dates.length);
    expect(Date.parse(dates.at(-1)!) - Date.parse(dates[0]!)).toBeGreaterThan(90 * 86_400_000);
    expect(Date.parse(dates.at(-1)!)).toBeLessThanOrEqual(Date.now());
  });

  it("names no product after a real brand or perfume", async () => {
    const names = (await getDb().selectFrom("products").select("name").execute()).map((p) => p.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => mentionsBrand(n))).toEqual([]);
    expect(mentionsBrand("Sauvage Nights")).toBe("Sauvage");
  });

  it("names, for every demo product, the designer fragrance it is inspired by, apart from its own name", async () => {
    const rows = await getDb().selectFrom("products").select(["name", "inspired_house", "inspired_fragrance"]).where("slug", "in", DEMO_PRODUCTS.map(productSlug)).execute();
    expect(rows).toHaveLength(DEMO_PRODUCTS.length);
    for (const r of rows) {
      expect(r.inspired_house, r.name).toBeTruthy();
      expect(r.inspired_fragrance, r.name).toBeTruthy();
      expect(r.name.toLowerCase(), r.name).not.toContain(r.inspired_fragrance!.toLowerCase());
    }
    const byName = new Map(rows.map((r) => [r.name, `${r.inspired_house} ${r.inspired_fragrance}`]));
    expect(byName.get("Blue Meridian")).toBe("Dior Sauvage");
    expect(rows.filter((r) => r.inspired_house === "Chanel").length).toBeGreaterThanOrEqual(2);
  });

  it("fills the inspired-by of demo products seeded before it existed, and leaves an owner's entry alone", async () => {
    const db = getDb();
    const [first, second] = DEMO_PRODUCTS;
    await db.updateTable("products").set({ inspired_house: null, inspired_fragrance: null }).where("slug", "=", productSlug(first!)).execute();
    await db.updateTable("products").set({ inspired_house: "Owner House", inspired_fragrance: null }).where("slug", "=", productSlug(second!)).execute();
    await seedDemo(db, { images: false });
    const row = (slug: string) => db.selectFrom("products").select(["inspired_house", "inspired_fragrance"]).where("slug", "=", slug).executeTakeFirstOrThrow();
    expect(await row(productSlug(first!))).toEqual({ inspired_house: DEMO_INSPIRED_BY[first!.name]![0], inspired_fragrance: DEMO_INSPIRED_BY[first!.name]![1] });
    expect(await row(productSlug(second!))).toEqual({ inspired_house: "Owner House", inspired_fragrance: null });
  });

  it("gives about a third of the products cheaper bulk tiers (on their 100 ml bottle)", async () => {
    const db = getDb();
    const tiers = await db
      .selectFrom("product_tiers")
      .innerJoin("products", "products.id", "product_tiers.product_id")
      .innerJoin("product_sizes", "product_sizes.id", "product_tiers.size_id")
      .select(["products.slug", "product_sizes.price_cents as base", "min_quantity", "max_quantity", "product_tiers.price_cents"])
      .orderBy("products.slug")
      .orderBy("min_quantity")
      .execute();
    const products = new Set(tiers.map((t) => t.slug));
    expect(products.size).toBeGreaterThanOrEqual(8);
    expect(products.size).toBeLessThanOrEqual(20);
    for (const slug of products) {
      const [small, large] = tiers.filter((t) => t.slug === slug);
      expect(small).toMatchObject({ min_quantity: 3, max_quantity: 5 });
      expect(large).toMatchObject({ min_quantity: 6, max_quantity: null });
      expect(small!.price_cents).toBeLessThan(small!.base);
      expect(large!.price_cents).toBeLessThan(small!.price_cents);
    }
  });

  it("has reviews from demo customers who cannot sign in", async () => {
    const db = getDb();
    const reviews = await db.selectFrom("reviews").innerJoin("users", "users.id", "reviews.user_id").select(["users.email", "rating", "comment"]).execute();
    expect(reviews.length).toBeGreaterThanOrEqual(5);
    const latest = await db.selectFrom("reviews").select((eb) => eb.fn.max("created_at").as("at")).executeTakeFirstOrThrow();
    expect(Date.parse(String(latest.at))).toBeLessThanOrEqual(Date.now());
    for (const r of reviews) {
      expect(r.email).toMatch(/@example\.co\.za$/);
      expect(r.rating).toBeGreaterThanOrEqual(1);
      expect(r.rating).toBeLessThanOrEqual(5);
      expect(r.comment.length).toBeGreaterThan(10);
    }
    expect(await db.selectFrom("accounts").selectAll().execute()).toEqual([]);
    const admins = await db.selectFrom("users").select("email").where("is_admin", "=", true).execute();
    expect(admins).toEqual([]);
  });

  it("has three shipping zones whose rules cover every total without overlap", async () => {
    const db = getDb();
    const zones = await db.selectFrom("shipping_zones").selectAll().orderBy("created_at").execute();
    expect(zones.map((z) => [z.name, z.base_rate_cents])).toEqual([
      ["Gauteng Metro", 6000],
      ["Rest of South Africa", 9500],
      ["Western Cape", 7500],
    ]);
    for (const zone of zones) {
      const rules = await db.selectFrom("shipping_rules").selectAll().where("zone_id", "=", zone.id).orderBy("min_total_cents").execute();
      expect(rules.length).toBeGreaterThanOrEqual(2);
      expect(rules[0]!.min_total_cents).toBe(0);
      for (let i = 1; i < rules.length; i++) expect(rules[i]!.min_total_cents).toBe(rules[i - 1]!.max_total_cents! + 1);
      expect(rules.at(-1)!.max_total_cents).toBeNull();
    }
    const gauteng = await db.selectFrom("shipping_rules").select(["min_total_cents", "max_total_cents", "rate_cents"]).where("zone_id", "=", zones[0]!.id).orderBy("min_total_cents").execute();
    expect(gauteng.slice(0, 2)).toEqual([
      { min_total_cents: 0, max_total_cents: 29999, rate_cents: 6000 },
      { min_total_cents: 30000, max_total_cents: 59899, rate_cents: 4500 },
    ]);
  });

  it("serves every province from exactly one zone: Gauteng from Gauteng Metro, Western Cape from Western Cape, the rest from Rest of South Africa", async () => {
    const db = getDb();
    const rows = await db
      .selectFrom("shipping_zone_provinces as p")
      .innerJoin("shipping_zones as z", "z.id", "p.zone_id")
      .select(["p.province", "z.name"])
      .orderBy("p.province")
      .execute();
    expect(rows.map((r) => r.province).sort()).toEqual([...SA_PROVINCES].sort());
    const zoneOf = Object.fromEntries(rows.map((r) => [r.province, r.name]));
    expect(zoneOf["Gauteng"]).toBe("Gauteng Metro");
    expect(zoneOf["Western Cape"]).toBe("Western Cape");
    for (const p of SA_PROVINCES.filter((p) => p !== "Gauteng" && p !== "Western Cape")) expect(zoneOf[p]).toBe("Rest of South Africa");
  });

  it("has the WELCOME10 and FREESHIP coupons, active for a year", async () => {
    const coupons = await getDb().selectFrom("coupons").selectAll().orderBy("code").execute();
    expect(coupons.map((c) => [c.code, c.discount_type, c.discount_value, c.max_redemptions, c.is_active])).toEqual([
      ["FREESHIP", "free_delivery", 30000, null, true],
      ["WELCOME10", "percentage", 10, null, true],
    ]);
    for (const c of coupons) {
      expect(Date.parse(c.start_date)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(c.end_date) - Date.now()).toBeGreaterThan(360 * 86_400_000);
      expect(c.end_date).toMatch(/T23:59:59\.999Z$/);
    }
  });
});

describe("the demo's sizes (issue 33)", () => {
  const demoProduct = (name: string) => DEMO_PRODUCTS.find((p) => p.name === name)!;
  const idOf = async (name: string) => (await getDb().selectFrom("products").select("id").where("slug", "=", productSlug({ name })).executeTakeFirstOrThrow()).id;
  const sizesOf = async (name: string) => (await listSizes(getDb(), [await idOf(name)], { includeHidden: true })).map((s) => [s.label, s.priceCents, s.sku, s.stock]);
  const expected = (name: string) => demoSizes(demoProduct(name)).map((s) => [s.label, s.priceCents, s.sku, s.stock]);

  it("sells most scents in 100 ml and 50 ml, a few in 30 ml too, each size with its own price, SKU and stock", async () => {
    const db = getDb();
    await seedDemo(db, { images: false });
    const sizes = await listSizes(db, (await db.selectFrom("products").select("id").execute()).map((p) => p.id));
    const counted = new Map<string, number>();
    for (const s of sizes) counted.set(s.productId, (counted.get(s.productId) ?? 0) + 1);
    const perProduct = [...counted.values()];
    expect(perProduct.filter((n) => n >= 2).length).toBeGreaterThan(DEMO_PRODUCTS.length * 0.8);
    expect(perProduct.filter((n) => n === 3).length).toBeGreaterThanOrEqual(3);
    expect(new Set(sizes.map((s) => s.sku)).size).toBe(sizes.length);
    expect(sizes.every((s) => s.stock !== null && s.stock >= 12)).toBe(true);
    expect(await sizesOf("Rose Parlour")).toEqual(expected("Rose Parlour"));
    expect((await sizesOf("Rose Parlour")).map((s) => s[0])).toEqual(["100 ml", "50 ml", "30 ml"]);
    // the 100 ml bottle is the product's first size, with its id, price and bulk tiers as before sizes
    const protea = await idOf("Pink Protea");
    const [bottle] = await listSizes(db, [protea]);
    expect(bottle).toMatchObject({ id: protea, label: "100 ml", priceCents: demoProduct("Pink Protea").priceCents });
    expect((await db.selectFrom("product_tiers").select("size_id").where("product_id", "=", protea).execute()).map((t) => t.size_id)).toEqual([protea, protea]);
    // the product row's summary: from the cheapest size to the dearest, stock of all
    const row = await db.selectFrom("products").select(["price_cents", "max_price_cents", "stock", "size_ml"]).where("id", "=", protea).executeTakeFirstOrThrow();
    const own = demoSizes(demoProduct("Pink Protea"));
    expect(row).toEqual({ price_cents: Math.min(...own.map((s) => s.priceCents)), max_price_cents: own[0]!.priceCents, stock: own.reduce((n, s) => n + s.stock, 0), size_ml: 50 });
  });

  it("gives a demo product seeded before sizes its sizes on the next seed, and leaves one an owner edited alone", async () => {
    const db = getDb();
    await seedDemo(db, { images: false });
    // As the sizes migration left an older demo shop: one size (the product's id), 100 ml, no SKU, stock not counted.
    const asMigrated = async (name: string) => {
      const id = await idOf(name);
      await db.deleteFrom("product_sizes").where("product_id", "=", id).where("id", "<>", id).execute();
      await db.updateTable("product_sizes").set({ sku: null, stock: null }).where("id", "=", id).execute();
      await db.updateTable("products").set({ sku: null }).where("id", "=", id).execute();
      await refreshProductSummaries(db, [id]);
      return id;
    };
    await asMigrated("Karoo Dusk");
    const repriced = await asMigrated("Atlantic Drift");
    await db.updateTable("product_sizes").set({ price_cents: 49900 }).where("id", "=", repriced).execute();
    const counted = await asMigrated("Leather Atlas");
    await db.updateTable("product_sizes").set({ stock: 4 }).where("id", "=", counted).execute();
    await refreshProductSummaries(db, [repriced, counted]);

    const summary = await seedDemo(db, { images: false });
    expect(summary.sizes).toBe(2);
    expect(await sizesOf("Karoo Dusk")).toEqual(expected("Karoo Dusk"));
    // the owner's price: still one size, untouched
    expect(await sizesOf("Atlantic Drift")).toEqual([["100 ml", 49900, null, null]]);
    // the owner's stock count stays; the sizes come
    expect(await sizesOf("Leather Atlas")).toEqual(expected("Leather Atlas").map((s, i) => (i === 0 ? [s[0], s[1], s[2], 4] : s)));
    expect(Object.values(await seedDemo(db, { images: false })).every((n) => n === 0)).toBe(true);
  });
});

describe("seedLargeCatalogue", () => {
  it("adds exactly N products and M orders with consistent totals", async () => {
    const db = getDb();
    const before = await counts();
    const summary = await seedLargeCatalogue(db, { products: 1200, orders: 700, users: 5 });
    const after = await counts();
    expect(after.products - before.products).toBe(1200);
    expect(after.orders - before.orders).toBe(700);
    expect(after.order_lines - before.order_lines).toBe(summary.orderLines);
    expect(after.users - before.users).toBe(5);
    expect(after.categories).toBe(before.categories);

    const slugs = await db.selectFrom("products").select("slug").execute();
    expect(new Set(slugs.map((s) => s.slug)).size).toBe(slugs.length);
    const prices = await db.selectFrom("products").select((eb) => [eb.fn.min("price_cents").as("lo"), eb.fn.max("price_cents").as("hi")]).executeTakeFirstOrThrow();
    expect(Number(prices.lo)).toBeGreaterThanOrEqual(15000);
    expect(Number(prices.hi)).toBeLessThanOrEqual(90000);

    const mismatched = await db
      .selectFrom("orders")
      .innerJoin(
        (eb) => eb.selectFrom("order_lines").select((l) => ["order_id", l.fn.sum<number>("total_price_cents").as("lines")]).groupBy("order_id").as("l"),
        (join) => join.onRef("l.order_id", "=", "orders.id"),
      )
      .select(["orders.id", "subtotal_cents", "l.lines", "total_amount_cents", "shipping_cents", "discount_amount_cents"])
      .execute();
    expect(mismatched).toHaveLength(700);
    for (const o of mismatched) {
      expect(Number(o.lines)).toBe(o.subtotal_cents);
      expect(o.total_amount_cents).toBe(o.subtotal_cents - o.discount_amount_cents + o.shipping_cents);
    }

    // Every paid order has its invoice number (docs/decisions/019), and only paid ones: one gapless run.
    const invoiced = await db.selectFrom("orders").select(["payment_status", "invoice_number"]).execute();
    expect(invoiced.filter((o) => (o.payment_status === "completed") !== (o.invoice_number !== null))).toEqual([]);
    const numbers = invoiced.flatMap((o) => (o.invoice_number === null ? [] : [Number(o.invoice_number)])).sort((x, y) => x - y);
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => numbers[0]! + i));

    // Every generated product has its one size, and every order line names the size it bought (issue 33).
    const sizeless = await db.selectFrom("products").select("id").where((eb) => eb.not(eb.exists(eb.selectFrom("product_sizes").select("id").whereRef("product_sizes.product_id", "=", "products.id")))).execute();
    expect(sizeless).toEqual([]);
    const unsized = await db.selectFrom("order_lines").select("id").where("size_id", "is", null).execute();
    expect(unsized).toEqual([]);

    // A second run adds the same amounts again (fresh slugs), never colliding.
    await seedLargeCatalogue(db, { products: 10, orders: 5, users: 1 });
    const again = await counts();
    expect(again.products - after.products).toBe(10);
    expect(again.orders - after.orders).toBe(5);
  });
});

describe("seedLargeCatalogue: a shop anyone could have (issue 39 point 4)", () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const now = new Date();
  const ORDERS = 6000;

  it("shares the orders among a long tail of customers, each order where time has left it, coupons held only by orders not cancelled", { timeout: 60_000 }, async () => {
    const db = getDb();
    await resetShop(db);
    const before = await counts();
    const summary = await seedLargeCatalogue(db, { products: 300, orders: ORDERS, now, holds: { card: 60, eft: 3 * 24 * 60 } });
    const orders = await db
      .selectFrom("orders")
      .select(["id", "user_id", "status", "payment_status", "payment_provider", "payment_method", "created_at", "coupon_code", "shipped_at", "actual_delivery_date"])
      .execute();
    expect(orders).toHaveLength(ORDERS);

    // A long tail: about three customers in ten orders, most of them buying once, a few many times; a few guests.
    const perCustomer = new Map<string, number>();
    for (const o of orders) if (o.user_id) perCustomer.set(o.user_id, (perCustomer.get(o.user_id) ?? 0) + 1);
    expect(summary.users).toBe(perCustomer.size);
    expect((await counts()).users - before.users).toBe(summary.users);
    expect(summary.users).toBeGreaterThan(ORDERS * 0.2);
    expect(summary.users).toBeLessThan(ORDERS * 0.4);
    const counted = [...perCustomer.values()];
    expect(counted.filter((n) => n === 1).length / counted.length).toBeGreaterThan(0.5);
    expect(Math.max(...counted)).toBeGreaterThanOrEqual(30);
    expect(counted.filter((n) => n >= 10).length / counted.length).toBeLessThan(0.1);
    const guests = orders.filter((o) => o.user_id === null).length;
    expect(guests / ORDERS).toBeGreaterThan(0.01);
    expect(guests / ORDERS).toBeLessThan(0.03);

    const age = (o: { created_at: string }) => now.getTime() - Date.parse(o.created_at);
    // No unpaid order older than its hold (an hour by card or instant EFT, three days by bank transfer)…
    const pending = orders.filter((o) => o.status === "pending");
    for (const o of pending) {
      expect(o.payment_status).toBe("pending");
      expect(age(o), `${o.payment_method} order pending`).toBeLessThan(o.payment_provider === "eft" ? 3 * DAY : HOUR);
    }
    expect(pending.some((o) => o.payment_provider === "eft")).toBe(true);
    // …so the expiry job, running now with the shop's holds, finds nothing to close.
    expect(await findExpiredUnpaidOrders(db, configuredHoldPolicy(60, 3), now, 10)).toEqual([]);
    // Processing and shipped only among the recent orders; every order older than a few weeks delivered or cancelled.
    for (const o of orders.filter((o) => o.status === "processing" || o.status === "shipped")) expect(age(o), o.status).toBeLessThan(8 * DAY);
    for (const o of orders.filter((o) => age(o) > 21 * DAY)) expect(["delivered", "cancelled"]).toContain(o.status);
    const byStatus = (s: string) => orders.filter((o) => o.status === s).length;
    expect(byStatus("delivered") / ORDERS).toBeGreaterThan(0.75);
    expect(byStatus("processing") / ORDERS).toBeLessThan(0.01);
    expect(byStatus("cancelled") / ORDERS).toBeGreaterThan(0.05);
    expect(summary.statuses).toEqual(Object.fromEntries(["pending", "processing", "shipped", "delivered", "cancelled"].filter(byStatus).map((s) => [s, byStatus(s)])));
    for (const o of orders) {
      // a cancelled order was never paid: it expired (payment cancelled) or its payment failed
      if (o.status === "cancelled") expect(["cancelled", "failed"]).toContain(o.payment_status);
      else if (o.status !== "pending") expect(o.payment_status).toBe("completed");
      expect(o.shipped_at !== null).toBe(o.status === "shipped" || o.status === "delivered");
      expect(o.actual_delivery_date !== null).toBe(o.status === "delivered");
    }

    // A coupon's redemption is held by each order not cancelled that used it, and counted; a cancelled order gave its back.
    const withCoupon = orders.filter((o) => o.coupon_code?.startsWith("BENCH"));
    expect(withCoupon.length / ORDERS).toBeGreaterThan(0.08);
    const usage = await db.selectFrom("coupon_usage").innerJoin("coupons", "coupons.id", "coupon_usage.coupon_id").select(["coupon_usage.order_id", "coupons.code"]).where("coupons.code", "like", "BENCH%").execute();
    expect(usage.map((u) => u.order_id).sort()).toEqual(withCoupon.filter((o) => o.status !== "cancelled").map((o) => o.id).sort());
    expect(withCoupon.some((o) => o.status === "cancelled")).toBe(true);
    const coupons = await db.selectFrom("coupons").select(["code", "times_redeemed"]).where("code", "like", "BENCH%").execute();
    for (const c of coupons) expect(c.times_redeemed, c.code).toBe(usage.filter((u) => u.code === c.code).length);
    for (const o of withCoupon) expect(usage.find((u) => u.order_id === o.id)?.code ?? o.coupon_code).toBe(o.coupon_code);

    // The review requests of the last month's deliveries went out, so the review-request job finds none overdue.
    const due = await db
      .selectFrom("orders as o")
      .select("o.id")
      .where("o.status", "=", "delivered")
      .where("o.user_id", "is not", null)
      .where("o.actual_delivery_date", "<=", new Date(now.getTime() - 5 * DAY).toISOString())
      .where("o.actual_delivery_date", ">=", new Date(now.getTime() - 35 * DAY).toISOString())
      .where((eb) => eb.not(eb.exists(eb.selectFrom("review_requests as r").select("r.order_id").whereRef("r.order_id", "=", "o.id"))))
      .execute();
    expect(due).toEqual([]);
  });
});

describe("resetShop", () => {
  it("empties the shop tables and the seed then brings the demo back", async () => {
    const db = getDb();
    await db.insertInto("users").values({ id: "admin-1", email: "owner@scentara.test", is_admin: true }).execute();
    await resetShop(db);
    const empty = await counts();
    for (const table of TABLES.filter((t) => t !== "users")) expect(empty[table], table).toBe(0);
    expect((await db.selectFrom("users").select("email").execute()).map((u) => u.email)).toEqual(["owner@scentara.test"]);
    await seedDemo(db, { images: false });
    expect((await counts()).products).toBe(DEMO_PRODUCTS.length);
  });
});

describe("the demo's samples and gift cards", () => {
  it("turns samples and gift card sales on, but never over a setting the owner saved", async () => {
    const db = getDb();
    await db.deleteFrom("settings").where("key", "in", ["samples", "gift_card_sales"]).execute();
    // the owner chose gift cards off before the seed ran
    await saveGiftCardSaleSettings(db, { ...DEMO_GIFT_CARD_SETTINGS, enabled: false });
    const summary = await seedDemo(db, { images: false });
    expect(summary.settings).toBe(1);
    expect(await loadSampleSettings(db)).toEqual({ enabled: true, priceCents: 3500, setSize: 5, setPriceCents: 15000, creditDays: 60 });
    expect((await loadGiftCardSaleSettings(db)).enabled).toBe(false);
    await db.deleteFrom("settings").where("key", "=", "gift_card_sales").execute();
    await seedDemo(db, { images: false });
    expect(await loadGiftCardSaleSettings(db)).toEqual({ enabled: true, amountsCents: [25000, 50000, 100000], minCents: 10000, maxCents: 500000 });
  });
});
