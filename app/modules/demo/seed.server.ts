import { createHash, randomUUID } from "node:crypto";
import { refreshProductSummaries, syncSingleSize } from "~/modules/catalog/sizes.server";
import { fillProductColumnsWhereEmpty, insertCategoriesBulk, insertProductsBulk, insertSizesBulk, updateProductColumns, updateSizeColumns } from "~/modules/catalog/catalog-bulk.server";
import { insertTiersBulk } from "~/modules/pricing/tiers-bulk.server";
import { CompiledQuery, PostgresAdapter, sql, SqliteAdapter, type Insertable } from "kysely";
import { isPostgres, type DB, type Queryable } from "~/db/db.server";
import { suspendSecondaryIndexes } from "~/db/suspended-indexes.server";
import type { Database, OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";
import { demoImageUrl, renderDemoImage } from "./demo-images.server";
import { logger } from "~/utils/logger.server";
import { slugify } from "~/utils/slug";
import { numberUninvoicedPaidOrders } from "~/modules/invoices/invoice-number.server";
import { startBulkOrderLoad, sumOrderDaysAfterLoad } from "~/modules/order-days/bulk-order-load.server";
import { profileToColumns } from "~/modules/scent/scent-profile";
import { hasSampleSettings, saveSampleSettings } from "~/modules/samples/samples.server";
import { hasGiftCardSaleSettings, saveGiftCardSaleSettings } from "~/modules/gift-cards/gift-card-sales.server";
import {
  DEMO_CATEGORIES,
  DEMO_COUPONS,
  DEMO_CUSTOMERS,
  DEMO_PRODUCTS,
  DEMO_REVIEWS,
  DEMO_SHIPPING_ZONES,
  DEMO_INSPIRED_BY,
  demoDescription,
  demoInspiredBy,
  demoMetaDescription,
  demoScentProfile,
  demoSizes,
  demoTiers,
  DEMO_BOTTLE_ML,
  type DemoProduct,
} from "./demo-catalogue";

const DAY = 86_400_000;
const SHOP = "Scentara";

/** A stable UUID-shaped id for a demo row, so seeding twice writes the same ids. */
export function demoId(kind: string, key: string): string {
  const h = createHash("sha256").update(`scentara-demo:${kind}:${key}`).digest("hex");
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A moment `days` before now at a given hour of that day (UTC), never in the future. */
function daysAgo(days: number, now: number, hour = 9): string {
  const d = new Date(now - days * DAY);
  d.setUTCHours(hour, (days * 7) % 60, 0, 0);
  return new Date(Math.min(d.getTime(), now - (days + 1) * 60_000)).toISOString();
}

export interface SeedOptions {
  /** Render the product images to disk (default true). Without it the stored URLs are the same, files are not made. */
  images?: boolean;
  /** The clock, for tests. */
  now?: Date;
}

export interface SeedSummary {
  categories: number;
  products: number;
  /** sizes added beside a demo product's 100 ml bottle */
  sizes: number;
  tiers: number;
  users: number;
  reviews: number;
  zones: number;
  rules: number;
  coupons: number;
  /** shop settings the demo turned on (samples, gift card sales) because the owner had never saved them */
  settings: number;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}

function productSlug(p: DemoProduct) {
  return slugify(p.name);
}

/** Inserts the demo categories that are missing and returns every demo category's id by slug. */
async function ensureCategories(db: Queryable, now: number): Promise<{ ids: Map<string, string>; created: number }> {
  const slugs = DEMO_CATEGORIES.map((c) => c.slug);
  const existing = await db.selectFrom("categories").select(["id", "slug"]).where("slug", "in", slugs).execute();
  const have = new Set(existing.map((c) => c.slug));
  const missing = DEMO_CATEGORIES.filter((c) => !have.has(c.slug));
  if (missing.length > 0) {
    await insertCategoriesBulk(
      db,
      missing.map((c) => ({ id: demoId("category", c.slug), name: c.name, slug: c.slug, created_at: daysAgo(200, now) })),
      { skipExistingSlugs: true },
    );
  }
  const rows = await db.selectFrom("categories").select(["id", "slug"]).where("slug", "in", slugs).execute();
  return { ids: new Map(rows.map((r) => [r.slug, r.id])), created: missing.length };
}

/**
 * The demo's other sizes (issue 33, docs/decisions/051) beside each product's 100 ml bottle, for demo products that
 * still have exactly their one size as the seed (or the sizes migration) made it — its id the product's, 100 ml, the
 * demo's price — so a shop seeded before sizes gets them on its next seed and an owner's edits are never undone. That
 * bottle also gets the demo's SKU and stock where it has none. Returns how many sizes were added.
 */
async function addDemoSizes(trx: Queryable, productId: ReadonlyMap<string, string>): Promise<number> {
  const ids = [...productId.values()];
  if (ids.length === 0) return 0;
  const sizes = await trx.selectFrom("product_sizes").select(["id", "product_id", "size_ml", "price_cents", "sku", "stock"]).where("product_id", "in", ids).execute();
  const byProduct = new Map<string, typeof sizes>();
  for (const s of sizes) byProduct.set(s.product_id, [...(byProduct.get(s.product_id) ?? []), s]);
  const rows: Insertable<Database["product_sizes"]>[] = [];
  const changed: string[] = [];
  for (const p of DEMO_PRODUCTS) {
    const id = productId.get(productSlug(p));
    const own = id ? byProduct.get(id) : undefined;
    const [bottle, ...others] = demoSizes(p);
    const only = own?.length === 1 ? own[0]! : undefined;
    if (!id || !only || others.length === 0 || only.id !== id || Number(only.size_ml) !== bottle!.ml || Number(only.price_cents) !== bottle!.priceCents) continue;
    await updateSizeColumns(trx, id, { sku: only.sku ?? bottle!.sku, stock: only.stock ?? bottle!.stock });
    await updateProductColumns(trx, id, { sku: only.sku ?? bottle!.sku });
    others.forEach((size, i) =>
      rows.push({
        id: demoId("size", `${productSlug(p)}:${size.ml}`),
        product_id: id,
        label: size.label,
        code: `${size.ml}ml`,
        size_ml: size.ml,
        price_cents: size.priceCents,
        sku: size.sku,
        stock: size.stock,
        position: i + 1,
        hidden: 0,
        created_at: new Date().toISOString(),
      }),
    );
    changed.push(id);
  }
  await insertSizesBulk(trx, rows, { skipExistingIds: true });
  await refreshProductSummaries(trx, changed);
  return rows.length;
}

/**
 * Loads the demo shop: categories, products (with their images), bulk tiers, demo customers and their reviews,
 * shipping zones with rules, and coupons. Idempotent: every row is keyed by its natural key (slug, e-mail, code,
 * zone name) and written only when missing, so running it again changes nothing.
 */
export async function seedDemo(db: DB, options: SeedOptions = {}): Promise<SeedSummary> {
  const now = (options.now ?? new Date()).getTime();
  const renderImages = options.images ?? true;

  const imageUrls = renderImages
    ? await mapLimit(DEMO_PRODUCTS, 2, (p) => renderDemoImage(productSlug(p), p.name, p.look))
    : DEMO_PRODUCTS.map((p) => demoImageUrl(productSlug(p), p.name, p.look));

  return db.transaction().execute(async (trx) => {
    const summary: SeedSummary = { categories: 0, products: 0, sizes: 0, tiers: 0, users: 0, reviews: 0, zones: 0, rules: 0, coupons: 0, settings: 0 };
    const categories = await ensureCategories(trx, now);
    summary.categories = categories.created;

    // Products
    const slugs = DEMO_PRODUCTS.map(productSlug);
    const existingProducts = await trx.selectFrom("products").select("slug").where("slug", "in", slugs).execute();
    const haveSlug = new Set(existingProducts.map((p) => p.slug));
    const newProducts = DEMO_PRODUCTS.map((p, i) => ({ p, i })).filter(({ p }) => !haveSlug.has(productSlug(p)));
    if (newProducts.length > 0) {
      await insertProductsBulk(
        trx,
        newProducts.map(({ p, i }) => ({
          id: demoId("product", productSlug(p)),
          name: p.name,
          slug: productSlug(p),
          description: demoDescription(p),
          price_cents: p.priceCents,
          images: JSON.stringify([imageUrls[i]]),
          category_id: categories.ids.get(p.category) ?? null,
          meta_title: `${p.name} | ${SHOP}`,
          meta_desc: demoMetaDescription(p),
          ...demoInspiredBy(p),
          ...profileToColumns(demoScentProfile(p)),
          // its first size, the 100 ml bottle (the others are added below)
          size_ml: DEMO_BOTTLE_ML,
          stock: demoSizes(p)[0]!.stock,
          sku: demoSizes(p)[0]!.sku,
          created_at: daysAgo(p.daysAgo, now, 8 + (i % 10)),
        })),
        { skipExistingSlugs: true },
      );
      summary.products = newProducts.length;
    }
    const productRows = await trx.selectFrom("products").select(["id", "slug"]).where("slug", "in", slugs).execute();
    const productId = new Map(productRows.map((r) => [r.slug, r.id]));

    // Inspired-by, only for demo products that name none (a shop seeded before it existed gets it; an owner's entry stays).
    for (const p of DEMO_PRODUCTS) {
      const inspired = demoInspiredBy(p);
      if (!inspired.inspired_house || !haveSlug.has(productSlug(p))) continue;
      await fillProductColumnsWhereEmpty(trx, [productSlug(p)], inspired, ["inspired_house", "inspired_fragrance"]);
    }

    // The scent profile (issue 22), for demo products seeded before it existed: only where no family is set, so an
    // owner's profile stays.
    const unprofiled = await trx.selectFrom("products").select("slug").where("slug", "in", slugs).where("scent_family", "is", null).execute();
    const needsProfile = new Set(unprofiled.map((r) => r.slug));
    for (const p of DEMO_PRODUCTS) {
      if (!haveSlug.has(productSlug(p)) || !needsProfile.has(productSlug(p))) continue;
      await fillProductColumnsWhereEmpty(trx, [productSlug(p)], profileToColumns(demoScentProfile(p)), ["scent_family"]);
    }

    // The bottle size, for demo products seeded before it existed (an owner's entry stays).
    await fillProductColumnsWhereEmpty(trx, slugs, { size_ml: DEMO_BOTTLE_ML }, ["size_ml"]);

    // Bulk tiers, only for demo products that have none (an admin's changes are left alone).
    const tiered = DEMO_PRODUCTS.filter((p) => p.tiers && productId.has(productSlug(p)));
    if (tiered.length > 0) {
      const ids = tiered.map((p) => productId.get(productSlug(p))!);
      const withTiers = await trx.selectFrom("product_tiers").select("product_id").distinct().where("product_id", "in", ids).execute();
      const skip = new Set(withTiers.map((t) => t.product_id));
      const rows = tiered
        .filter((p) => !skip.has(productId.get(productSlug(p))!))
        .flatMap((p) =>
          demoTiers(p.priceCents).map((t) => ({
            id: demoId("tier", `${productSlug(p)}:${t.minQuantity}`),
            product_id: productId.get(productSlug(p))!,
            min_quantity: t.minQuantity,
            max_quantity: t.maxQuantity,
            price_cents: t.priceCents,
          })),
        );
      if (rows.length > 0) {
        await insertTiersBulk(trx, rows, { skipExistingIds: true });
        summary.tiers = rows.length;
      }
    }

    // Each product's columns are its one size's (docs/decisions/049); tiers written above price that size.
    await syncSingleSize(trx, [...productId.values()]);
    summary.sizes = await addDemoSizes(trx, productId);
    summary.settings = await turnOnDemoSettings(trx, now);

    // Demo customers: user rows only (no account, no password: they cannot sign in).
    const emails = DEMO_CUSTOMERS.map((c) => c.email);
    const existingUsers = await trx.selectFrom("users").select("email").where("email", "in", emails).execute();
    const haveEmail = new Set(existingUsers.map((u) => u.email));
    const newUsers = DEMO_CUSTOMERS.filter((c) => !haveEmail.has(c.email));
    if (newUsers.length > 0) {
      await trx
        .insertInto("users")
        .values(
          newUsers.map((c) => ({
            id: demoId("user", c.email),
            email: c.email,
            name: c.name,
            email_verified: false,
            is_admin: false,
            email_notifications: true,
            email_marketing: false,
            created_at: daysAgo(c.daysAgo, now),
            updated_at: daysAgo(c.daysAgo, now),
          })),
        )
        .onConflict((oc) => oc.column("email").doNothing())
        .execute();
      summary.users = newUsers.length;
    }
    const userRows = await trx.selectFrom("users").select(["id", "email"]).where("email", "in", emails).execute();
    const userId = new Map(userRows.map((u) => [u.email, u.id]));

    // Reviews: one per (product, customer), kept as they are once written.
    const reviewRows = DEMO_REVIEWS.flatMap((r) => {
      const product = productId.get(slugify(r.product));
      const user = userId.get(r.customer);
      return product && user
        ? [{ id: demoId("review", `${slugify(r.product)}:${r.customer}`), product_id: product, user_id: user, rating: r.rating, comment: r.comment, created_at: daysAgo(r.daysAgo, now, 18) }]
        : [];
    });
    if (reviewRows.length > 0) {
      const existing = await trx
        .selectFrom("reviews")
        .select(["product_id", "user_id"])
        .where("user_id", "in", [...userId.values()])
        .execute();
      const have = new Set(existing.map((r) => `${r.product_id}:${r.user_id}`));
      const missing = reviewRows.filter((r) => !have.has(`${r.product_id}:${r.user_id}`));
      if (missing.length > 0) {
        await trx
          .insertInto("reviews")
          .values(missing)
          .onConflict((oc) => oc.columns(["product_id", "user_id"]).doNothing())
          .execute();
        summary.reviews = missing.length;
      }
    }

    // Shipping zones (by name) with their rules, written together when the zone is new.
    const zoneNames = DEMO_SHIPPING_ZONES.map((z) => z.name);
    const existingZones = await trx.selectFrom("shipping_zones").select("name").where("name", "in", zoneNames).execute();
    const haveZone = new Set(existingZones.map((z) => z.name));
    for (const [index, zone] of DEMO_SHIPPING_ZONES.entries()) {
      if (haveZone.has(zone.name)) continue;
      const id = demoId("zone", zone.name);
      // The first zone is the default at checkout: give it the earlier created_at.
      await trx
        .insertInto("shipping_zones")
        .values({ id, name: zone.name, base_rate_cents: zone.baseRateCents, created_at: daysAgo(200 - index, now) })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
      await trx
        .insertInto("shipping_rules")
        .values(
          zone.rules.map((r) => ({
            id: demoId("rule", `${zone.name}:${r.minCents}`),
            zone_id: id,
            min_total_cents: r.minCents,
            max_total_cents: r.maxCents,
            rate_cents: r.rateCents,
          })),
        )
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
      summary.zones += 1;
      summary.rules += zone.rules.length;
    }
    // The provinces each demo zone serves, where no zone serves them yet (an owner's own choices are kept).
    const demoZones = await trx.selectFrom("shipping_zones").select(["id", "name"]).where("name", "in", zoneNames).execute();
    const served = new Set((await trx.selectFrom("shipping_zone_provinces").select("province").execute()).map((p) => p.province));
    const provinceRows = DEMO_SHIPPING_ZONES.flatMap((zone) => {
      const id = demoZones.find((z) => z.name === zone.name)?.id;
      return id ? zone.provinces.filter((p) => !served.has(p)).map((province) => ({ province, zone_id: id })) : [];
    });
    if (provinceRows.length > 0) {
      await trx.insertInto("shipping_zone_provinces").values(provinceRows).onConflict((oc) => oc.column("province").doNothing()).execute();
    }

    // Coupons (by code), valid from the start of today for their number of days, ending at the end of a day.
    const codes = DEMO_COUPONS.map((c) => c.code);
    const existingCoupons = await trx.selectFrom("coupons").select("code").where("code", "in", codes).execute();
    const haveCode = new Set(existingCoupons.map((c) => c.code));
    const newCoupons = DEMO_COUPONS.filter((c) => !haveCode.has(c.code));
    if (newCoupons.length > 0) {
      const start = new Date(now);
      start.setUTCHours(0, 0, 0, 0);
      await trx
        .insertInto("coupons")
        .values(
          newCoupons.map((c) => {
            const end = new Date(start.getTime() + c.validDays * DAY);
            end.setUTCHours(23, 59, 59, 999);
            return {
              id: demoId("coupon", c.code),
              code: c.code,
              discount_type: c.discountType,
              discount_value: c.discountValue,
              minimum_spend_cents: c.minimumSpendCents,
              max_redemptions: c.maxRedemptions,
              times_redeemed: 0,
              start_date: start.toISOString(),
              end_date: end.toISOString(),
              is_active: true,
              description: c.description,
              created_by: null,
              created_at: new Date(now).toISOString(),
            };
          }),
        )
        .onConflict((oc) => oc.column("code").doNothing())
        .execute();
      summary.coupons = newCoupons.length;
    }
    return summary;
  });
}

/**
 * The demo shows samples and gift cards for sale (issue 33 point 4): each setting is saved with the demo's values only
 * when the owner has never saved it, so an owner's choice (even "off") stays. Returns how many were saved.
 */
async function turnOnDemoSettings(trx: Queryable, now: number): Promise<number> {
  const at = new Date(now);
  let saved = 0;
  if (!(await hasSampleSettings(trx))) {
    await saveSampleSettings(trx, DEMO_SAMPLE_SETTINGS, at);
    saved++;
  }
  if (!(await hasGiftCardSaleSettings(trx))) {
    await saveGiftCardSaleSettings(trx, DEMO_GIFT_CARD_SETTINGS, at);
    saved++;
  }
  return saved;
}

/** The demo's samples: R35 each, a set of five for R150, each sample's price back on a bottle within 60 days. */
export const DEMO_SAMPLE_SETTINGS = { enabled: true, priceCents: 3500, setSize: 5, setPriceCents: 15000, creditDays: 60 };
/** The demo's gift cards: R250, R500, R1 000, or any whole rand from R100 to R5 000. */
export const DEMO_GIFT_CARD_SETTINGS = { enabled: true, amountsCents: [25000, 50000, 100000], minCents: 10000, maxCents: 500000 };

/**
 * On server start with SEED_DEMO=true: loads the demo catalogue only when the shop has no products at all, so a
 * shop with real products (or whose owner deleted the demo) is never touched.
 */
export async function ensureDemoCatalogue(db: DB, options: SeedOptions = {}): Promise<SeedSummary | null> {
  const row = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  if (Number(row.n) > 0) return null;
  const started = Date.now();
  const summary = await seedDemo(db, options);
  logger.info({ ...summary, ms: Date.now() - started }, "demo catalogue loaded");
  return summary;
}

// --- large catalogue for benchmarks ---

/** Small deterministic PRNG (mulberry32), so a benchmark data set is reproducible from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = [
  "Amber", "Velvet", "Golden", "Silver", "Midnight", "Ivory", "Saffron", "Smoked", "Wild", "Silken", "Crimson", "Ashen",
  "Sunlit", "Hidden", "Gilded", "Misty", "Desert", "Coastal", "Verdant", "Opal", "Copper", "Cobalt", "Rosy", "Dusky",
  "Frosted", "Honeyed", "Spiced", "Lunar", "Solar", "Quiet",
];
const NOUNS = [
  "Ember", "Orchard", "Reverie", "Garden", "Harbour", "Meadow", "Horizon", "Canyon", "Lagoon", "Atelier", "Veil",
  "Cascade", "Grove", "Dune", "Sonnet", "Lantern", "Pavilion", "Citadel", "Terrace", "Voyage", "Bloomfield", "Study",
  "Ritual", "Aria", "Compass", "Promenade", "Sanctuary", "Mirage", "Tide", "Orbit",
];
const NOTES = ["bergamot", "rose", "oud", "vanilla", "cedar", "jasmine", "amber", "musk", "saffron", "vetiver", "iris", "neroli", "tonka bean", "patchouli", "sandalwood", "fig", "lavender", "incense"];
const CITIES: [string, string, string][] = [
  ["Johannesburg", "Gauteng", "2196"],
  ["Pretoria", "Gauteng", "0181"],
  ["Cape Town", "Western Cape", "8001"],
  ["Durban", "KwaZulu-Natal", "4001"],
  ["Gqeberha", "Eastern Cape", "6001"],
  ["Bloemfontein", "Free State", "9301"],
  ["Polokwane", "Limpopo", "0699"],
  ["Mbombela", "Mpumalanga", "1200"],
];

export interface LargeSeedOptions {
  products: number;
  orders: number;
  /**
   * Generated customers the orders are shared among, by a long-tailed law (most buy once, a few many times). Default:
   * as many as that law needs for the orders (about 29 in 100: a million orders, ~290 000 customers).
   */
  users?: number;
  seed?: number;
  now?: Date;
  /**
   * How long an unpaid order is held before the expiry job closes it, in minutes: a card or instant EFT order, a
   * bank transfer. Orders older than their hold are left as the job leaves them (cancelled, coupon given back).
   * Default: the shop's defaults (UNPAID_ORDER_TTL_MINUTES 60, EFT_HOLD_DAYS 3).
   */
  holds?: { card: number; eft: number };
}

export interface LargeSeedSummary {
  products: number;
  orders: number;
  orderLines: number;
  users: number;
  /** How long summing the orders' days took after the load (ms). */
  daySumsMs?: number;
  /** How long each step of the load took (ms), in order: what a slow seed is measured by. */
  phasesMs?: Record<string, number>;
  /** How the orders' triggers were held off during the load (`BulkOrderLoad.triggersSkipped`). */
  triggersSkipped?: "all" | "marking";
  /** The orders by status, as the load left them. */
  statuses?: Record<string, number>;
}

/**
 * A multi-row INSERT with the SQL text built directly (Kysely's builder costs more than the database does for
 * hundreds of thousands of generated rows). Every row must have the columns of the first one, in any order.
 * PostgreSQL gets the rows as one JSON parameter (json_populate_recordset, each value cast to its column's type): a
 * VALUES list of 11 000 parameters is parsed and planned at every batch, and the million orders' insert took twice as
 * long that way.
 */
async function bulkInsert(db: Queryable, table: keyof Database, rows: readonly Record<string, unknown>[]) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const names = columns.map((c) => `"${c}"`).join(", ");
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const json = await jsonColumns(db, table);
    const records = rows.map((row) => {
      const record: Record<string, unknown> = {};
      // a json / jsonb column's value is written here as its text: the record carries the value itself
      for (const c of columns) record[c] = json.has(c) && typeof row[c] === "string" ? JSON.parse(row[c] as string) : (row[c] ?? null);
      return record;
    });
    await db.executeQuery(CompiledQuery.raw(`insert into "${table}" (${names}) select ${names} from json_populate_recordset(null::"${table}", $1::json)`, [JSON.stringify(records)]));
    return;
  }
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${columns.map((c) => (params.push(row[c] ?? null), "?")).join(", ")})`);
  await db.executeQuery(CompiledQuery.raw(`insert into "${table}" (${names}) values ${tuples.join(", ")}`, params));
}

const jsonColumnsOf = new Map<string, Promise<Set<string>>>();
/** A PostgreSQL table's json and jsonb columns. */
function jsonColumns(db: Queryable, table: string): Promise<Set<string>> {
  let found = jsonColumnsOf.get(table);
  if (!found) {
    found = sql<{ name: string }>`
      select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} and data_type in ('json', 'jsonb')
    `
      .execute(db)
      .then(({ rows }) => new Set(rows.map((r) => r.name)));
    jsonColumnsOf.set(table, found);
  }
  return found;
}

const PRODUCT_BATCH = 500;
const ORDER_BATCH = 500;
/** The generated orders are placed over the last two years. */
const SPAN_DAYS = 730;

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/** One of `items`, each as likely as its weight. */
function weighted<T>(rng: () => number, items: ReadonlyArray<readonly [T, number]>): T {
  let r = rng() * items.reduce((sum, [, w]) => sum + w, 0);
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
}

/**
 * A big shop for benchmarks: N generated products (unique names and slugs, random categories, prices R159–R899,
 * created over the past two years, images pointing at the demo renditions so no new files are needed) and M orders
 * of 1–4 lines over the past two years, as a real shop's (issue 39 point 4): a long tail of customers (most buy once,
 * a few many times; 2 % guests), card, instant EFT and bank transfer, a coupon on about one in eight, and each order
 * where time has left it: paid ones processing for hours, shipped for days, then delivered (nothing older than a few
 * days still processing or shipped); unpaid ones pending only within their hold, older ones cancelled as the expiry
 * job closes them (their coupon given back), refused payments failed. Batched inserts, the products in one
 * transaction and the orders in another, each with its tables' secondary indexes built at its end; works on both
 * databases.
 */
export async function seedLargeCatalogue(db: DB, options: LargeSeedOptions): Promise<LargeSeedSummary> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // Random-id indexes outgrow SQLite's default 2 MB page cache quickly; a bigger cache keeps bulk inserts in memory.
    // A million orders' indexes are ~1 GB: with 128 MB the load read pages back from the OS all the time (200 000
    // orders: sys 23 s, the day sums after it 44 s; with 1 GB: 19 s and 27 s).
    await sql`pragma cache_size = -1048576`.execute(db);
    // A seed that fails is run again: its writes need not wait for the disk (each day summed after the load is a
    // transaction, and the load's 2 GB journal is copied into the file at its commit). Put back at the end.
    await sql`pragma synchronous = OFF`.execute(db);
  }
  const phasesMs: Record<string, number> = {};
  let phaseStarted = performance.now();
  const phaseDone = (name: string) => {
    const at = performance.now();
    phasesMs[name] = Math.round(at - phaseStarted);
    phaseStarted = at;
  };
  const rng = prng(options.seed ?? 20_251_122);
  const now = (options.now ?? new Date()).getTime();
  const run = Date.now().toString(36).slice(-5) + Math.floor(rng() * 1296).toString(36).padStart(2, "0");
  const categories = await ensureCategories(db, now);
  const categoryIds = [...categories.ids.values()];
  const images = DEMO_PRODUCTS.map((p) => demoImageUrl(productSlug(p), p.name, p.look));

  // Products
  /** a size an order line can buy (issue 33: lines name their size) */
  type Sellable = { id: string; sizeId: string; sizeLabel: string | null; name: string; price: number };
  const sellable: Sellable[] = [];
  const productRows: {
    id: string;
    name: string;
    slug: string;
    description: string;
    price_cents: number;
    max_price_cents: number;
    images: string;
    category_id: string;
    meta_title: string;
    meta_desc: string;
    created_at: string;
    inspired_house: string | null;
    inspired_fragrance: string | null;
  }[] = [];
  const inspirations = Object.values(DEMO_INSPIRED_BY);
  // Scent profiles (issue 22) from a generator of their own, so the products' other columns stay what they were
  // for a given seed: a demo product's family and wear, the generated notes as the pyramid, the category's audience.
  const scentRng = prng((options.seed ?? 20_251_122) + 22);
  const audienceOf = new Map([...categories.ids.entries()].map(([slug, id]) => [id, slug === "for-him" ? "men" : slug === "for-her" ? "women" : "anyone"] as const));
  for (let i = 1; i <= options.products; i++) {
    const name = `${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)} No. ${i}`;
    const price = (15 + Math.floor(rng() * 75)) * 1000 + 900;
    const notes = [pick(rng, NOTES), pick(rng, NOTES), pick(rng, NOTES)];
    const id = randomUUID();
    productRows.push({
      id,
      name,
      slug: `${slugify(name)}-${run}`,
      description: `A generated benchmark fragrance.\n\nTop notes: ${notes[0]}.\nHeart notes: ${notes[1]}.\nBase notes: ${notes[2]}.`,
      price_cents: price,
      max_price_cents: price,
      images: JSON.stringify([images[i % images.length]]),
      category_id: pick(rng, categoryIds),
      meta_title: `${name} | ${SHOP}`,
      meta_desc: `${name}: notes of ${notes.join(", ")}. Delivered across South Africa.`,
      created_at: new Date(now - Math.floor(rng() * 730 * DAY)).toISOString(),
      // Most generated products name an inspiration, so searches and the house filter see a realistic spread.
      ...(() => {
        const pair = rng() < 0.8 ? pick(rng, inspirations) : null;
        return { inspired_house: pair?.[0] ?? null, inspired_fragrance: pair?.[1] ?? null };
      })(),
    });
    const row = productRows[productRows.length - 1]!;
    const template = demoScentProfile(pick(scentRng, DEMO_PRODUCTS));
    Object.assign(
      row,
      profileToColumns({ ...template, top: [notes[0]!, pick(scentRng, template.top)], heart: [notes[1]!, pick(scentRng, template.heart)], base: [notes[2]!, pick(scentRng, template.base)], audience: audienceOf.get(row.category_id) ?? "anyone" }),
    );
    sellable.push({ id, sizeId: id, sizeLabel: null, name, price });
  }
  // One transaction with the products' secondary indexes built once at its end (suspended-indexes.server.ts): the
  // search's trigram indexes cost PostgreSQL ~0.35 ms a product inserted one by one (100 000 products: 40 s, 8 s).
  await db.transaction().execute(async (trx) => {
    const restoreIndexes = await suspendSecondaryIndexes(trx, ["products"]);
    for (let b = 0; b < productRows.length; b += PRODUCT_BATCH) {
      await insertProductsBulk(trx, productRows.slice(b, b + PRODUCT_BATCH), { rowsPerInsert: PRODUCT_BATCH });
      // each its one size, with the product's id, as the sizes migration gives every product (docs/decisions/049)
      await insertSizesBulk(
        trx,
        productRows.slice(b, b + PRODUCT_BATCH).map((p) => ({ id: p.id, product_id: p.id, label: "", code: "standard", price_cents: p.price_cents, position: 0, hidden: 0, created_at: p.created_at })),
        { rowsPerInsert: PRODUCT_BATCH },
      );
    }
    await restoreIndexes();
  });

  phaseDone("products");
  if (options.orders <= 0) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`pragma synchronous = NORMAL`.execute(db);
    return { products: options.products, orders: 0, orderLines: 0, users: 0, phasesMs };
  }

  // Products the orders can contain: the generated ones, or what the shop already sells.
  if (sellable.length === 0) {
    const existing = await db
      .selectFrom("product_sizes as s")
      .innerJoin("products as p", "p.id", "s.product_id")
      .select(["p.id", "p.name", "s.id as size_id", "s.label", "s.price_cents"])
      .where("s.hidden", "=", 0)
      .orderBy("p.id")
      .orderBy("s.position")
      .limit(1000)
      .execute();
    sellable.push(...existing.map((p) => ({ id: p.id, sizeId: p.size_id, sizeLabel: p.label || null, name: p.name, price: Number(p.price_cents) })));
  }
  if (sellable.length === 0) throw new Error("seedLargeCatalogue: orders need products; seed some products first");

  // Customers: a long tail, as a real shop's (issue 39 point 4). Each customer's number of orders is drawn from a
  // discrete Pareto law (P(n ≥ k) = k^-1.25, at most 200): about 58 % buy once, 1 in 6 four times or more, a few
  // dozen over a hundred times. Without `users`, customers are drawn until their orders make M (a million orders:
  // ~290 000 customers); with `users`, the M orders are shared among exactly that many by the same weights.
  const guestShare = 0.02;
  const countOf = () => Math.min(200, Math.floor(rng() ** (-1 / 1.25)));
  const registered = Math.round(options.orders * (1 - guestShare));
  const weights: number[] = [];
  if (options.users === undefined) {
    for (let total = 0; total < registered; ) {
      const n = Math.min(countOf(), registered - total);
      weights.push(n);
      total += n;
    }
  } else {
    for (let i = 0; i < options.users; i++) weights.push(countOf());
  }
  const userCount = weights.length;
  // Each order's customer (-1: a guest), the orders in time order: every customer's orders spread over the two years.
  const buyer = new Int32Array(options.orders).fill(-1);
  if (userCount > 0) {
    if (options.users === undefined) {
      let k = 0;
      for (let c = 0; c < userCount; c++) for (let n = 0; n < weights[c]!; n++) buyer[k++] = c;
    } else {
      const cumulative: number[] = [];
      let sum = 0;
      for (const w of weights) cumulative.push((sum += w));
      for (let k = 0; k < registered; k++) {
        const r = rng() * sum;
        let lo = 0;
        let hi = userCount - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (cumulative[mid]! > r) hi = mid;
          else lo = mid + 1;
        }
        buyer[k] = lo;
      }
    }
    for (let k = options.orders - 1; k > 0; k--) {
      const j = Math.floor(rng() * (k + 1));
      const t = buyer[k]!;
      buyer[k] = buyer[j]!;
      buyer[j] = t;
    }
  }
  // Placed times, oldest first, over two years; the shop grows (twice the orders a day at the end as at the start).
  const placedAt = (k: number) => {
    const u = (k + rng()) / options.orders;
    return Math.min(now - 60_000, now - SPAN_DAYS * DAY + Math.floor((-1 + Math.sqrt(1 + 3 * u)) * SPAN_DAYS * DAY));
  };
  const placed = new Float64Array(options.orders);
  const firstOrder = new Float64Array(userCount).fill(Number.NaN);
  for (let k = 0; k < options.orders; k++) {
    placed[k] = placedAt(k);
    const c = buyer[k]!;
    if (c >= 0 && Number.isNaN(firstOrder[c]!)) firstOrder[c] = placed[k]!;
  }
  const FIRST = ["Thabo", "Naledi", "Johan", "Priya", "Zanele", "Ruan", "Ayanda", "Fatima", "Kagiso", "Lindiwe", "Sipho", "Anele", "Pieter", "Aisha", "Lerato", "Themba", "Nomvula", "Megan", "Yusuf", "Karabo"];
  const LAST = ["Mokoena", "Dlamini", "van der Merwe", "Naidoo", "Nkosi", "Botha", "Khumalo", "Pillay", "Mthembu", "Pretorius", "Ndlovu", "Adams", "Sithole", "Jacobs", "Zulu", "Coetzee", "Govender", "Molefe", "Venter", "Radebe"];
  const users: { id: string; name: string; email: string }[] = [];
  const USER_BATCH = 1000;
  // One transaction with the users' seven secondary indexes built once at its end, as for the products.
  await db.transaction().execute(async (trx) => {
    const restoreIndexes = userCount > USER_BATCH ? await suspendSecondaryIndexes(trx, ["users"]) : async () => {};
    for (let from = 0; from < userCount; from += USER_BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(userCount, from + USER_BATCH); i++) {
        const first = pick(rng, FIRST);
        const name = `${first} ${pick(rng, LAST)}`;
        const user = { id: randomUUID(), name, email: `bench.${first.toLowerCase()}.${i + 1}.${run}@example.co.za` };
        users.push(user);
        // registered up to a month before their first order (or any time, for one who never ordered)
        const joined = new Date(Number.isNaN(firstOrder[i]!) ? now - Math.floor(rng() * SPAN_DAYS * DAY) : firstOrder[i]! - Math.floor(rng() * 30 * DAY)).toISOString();
        rows.push({ ...user, email_verified: false, is_admin: false, email_notifications: true, email_marketing: false, created_at: joined, updated_at: joined });
      }
      await bulkInsert(trx, "users", rows);
    }
    await restoreIndexes();
  });
  phaseDone("customers");
  const addressOf = (customer: number): ShippingAddress => {
    const c = customer >= 0 ? customer : 0;
    const [city, province, postalCode] = CITIES[c % CITIES.length]!;
    const name = customer >= 0 ? users[c]!.name : "Guest Shopper";
    return { name, telephone: `08${String(2_000_000 + ((c * 7919) % 8_000_000)).padStart(8, "0")}`, street: `${10 + (c % 290)} Jacaranda Street`, suburb: "Parkview", city, postalCode, province };
  };
  const zones = await db.selectFrom("shipping_zones").select("id").orderBy("created_at").execute();

  // Coupons the orders use (about one in eight): a redemption is held while its order is unpaid, kept once paid, and
  // given back when the order expires or its payment fails, as checkout and the expiry job do.
  const couponRows = [5, 10, 15, 20].map((percent) => ({
    id: randomUUID(),
    code: `BENCH${percent}${run.toUpperCase()}`,
    discount_type: "percentage" as const,
    discount_value: percent,
    max_redemptions: null,
    times_redeemed: 0,
    start_date: new Date(now - (SPAN_DAYS + 1) * DAY).toISOString(),
    end_date: new Date(now + 365 * DAY).toISOString(),
    is_active: true,
    description: `${percent}% off (benchmark)`,
    created_by: null,
    created_at: new Date(now - (SPAN_DAYS + 1) * DAY).toISOString(),
  }));
  await db.insertInto("coupons").values(couponRows).execute();
  const redeemed = new Map<string, number>();

  // How long an unpaid order is held before the expiry job closes it (docs/decisions/014): the shop's configuration.
  const holdMinutes = options.holds ?? { card: 60, eft: 3 * 24 * 60 };
  const PROVIDERS = { card: "simulated", instant_eft: "ozow", eft: "eft" } as const;

  let lineCount = 0;
  let triggersSkipped: "all" | "marking" = "marking";
  const statusCounts: Record<string, number> = {};
  // One transaction for the whole load, the orders tables' indexes and marking triggers suspended in it: the indexes
  // are built once and the days and hours marked once before it commits, the day sums computed once after it
  // (bulk-order-load.server.ts). A failed load rolls back whole.
  await db.transaction().execute(async (trx) => {
    const load = await startBulkOrderLoad(trx);
    triggersSkipped = load.triggersSkipped;
    phaseDone("suspend");
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    for (let b = 0; b < options.orders; b += ORDER_BATCH) {
      const orders = [];
      const lines = [];
      const metrics = [];
      const usage = [];
      const requests = [];
      for (let k = b; k < Math.min(options.orders, b + ORDER_BATCH); k++) {
        const id = randomUUID();
        const c = buyer[k]!;
        const created = placed[k]!;
        const method = weighted(rng, [["card", 62], ["instant_eft", 23], ["eft", 15]] as const);
        const hold = (method === "eft" ? holdMinutes.eft : holdMinutes.card) * 60_000;
        // What becomes of the order: paid (after minutes by card, hours to two days by bank transfer), left unpaid
        // (closed by the expiry job once its hold has passed) or refused by the provider.
        const outcome =
          method === "eft" ? weighted(rng, [["paid", 75], ["unpaid", 25]] as const) : weighted(rng, [["paid", 87], ["unpaid", 9], ["failed", 4]] as const);
        const paidAt = outcome === "paid" ? created + (method === "eft" ? 2 * 3_600_000 + Math.floor(rng() * 2.4 * DAY) : 60_000 + Math.floor(rng() * 14 * 60_000)) : null;
        let status: OrderStatus = "pending";
        let payment: PaymentStatus = "pending";
        let closedAt: number | null = null;
        let processing: number | null = null;
        let shipped: number | null = null;
        let delivered: number | null = null;
        if (paidAt !== null && paidAt <= now) {
          payment = "completed";
          processing = paidAt;
          const shipAt = paidAt + 6 * 3_600_000 + Math.floor(rng() * 1.5 * DAY);
          const deliverAt = shipAt + DAY + Math.floor(rng() * 3 * DAY);
          status = deliverAt <= now ? "delivered" : shipAt <= now ? "shipped" : "processing";
          if (shipAt <= now) shipped = shipAt;
          if (deliverAt <= now) delivered = deliverAt;
        } else if (outcome === "failed" && created + 5 * 60_000 <= now) {
          [status, payment, closedAt] = ["cancelled", "failed", created + 5 * 60_000];
        } else if (outcome === "unpaid" && created + hold <= now) {
          // the expiry job runs each minute
          [status, payment, closedAt] = ["cancelled", "cancelled", Math.min(now, created + hold + Math.floor(rng() * 60_000))];
        }
        statusCounts[status] = (statusCounts[status] ?? 0) + 1;
        const count = weighted(rng, [[1, 55], [2, 30], [3, 10], [4, 5]] as const);
        let subtotal = 0;
        for (let l = 0; l < count; l++) {
          // best sellers sell far more than the long tail
          const product = sellable[Math.floor(sellable.length * rng() ** 3)]!;
          const quantity = weighted(rng, [[1, 80], [2, 15], [3, 5]] as const);
          subtotal += product.price * quantity;
          lines.push({
            id: randomUUID(),
            order_id: id,
            product_id: product.id,
            size_id: product.sizeId,
            size_label: product.sizeLabel,
            name: product.name,
            quantity,
            unit_price_cents: product.price,
            total_price_cents: product.price * quantity,
            position: l,
          });
        }
        lineCount += count;
        const coupon = rng() < 0.125 ? couponRows[Math.floor(rng() ** 2 * couponRows.length)]! : null;
        const discount = coupon ? Math.round((subtotal * coupon.discount_value) / 100) : 0;
        const shipping = subtotal - discount >= 59_900 ? 0 : subtotal - discount >= 30_000 ? 4500 : 6000;
        const userId = c >= 0 ? users[c]!.id : null;
        if (coupon && status !== "cancelled") {
          usage.push({ id: randomUUID(), coupon_id: coupon.id, order_id: id, user_id: userId, discount_amount_cents: discount, created_at: iso(created) });
          redeemed.set(coupon.id, (redeemed.get(coupon.id) ?? 0) + 1);
        }
        load.add(new Date(created).toISOString());
        orders.push({
          id,
          user_id: userId,
          status,
          payment_status: payment,
          subtotal_cents: subtotal,
          discount_amount_cents: discount,
          shipping_cents: shipping,
          total_amount_cents: subtotal - discount + shipping,
          original_total_cents: coupon ? subtotal + shipping : null,
          coupon_code: coupon?.code ?? null,
          shipping_zone_id: zones[0]?.id ?? null,
          shipping_address: JSON.stringify(addressOf(c)),
          payment_provider: PROVIDERS[method],
          payment_method: method,
          payment_id: method === "eft" ? null : `sim_${id.slice(0, 12)}`,
          notes: null,
          tracking_number: shipped ? `SC${String(k + 100000).padStart(8, "0")}ZA` : null,
          created_at: iso(created),
          updated_at: iso(delivered ?? shipped ?? processing ?? closedAt ?? created),
          processing_started_at: iso(processing),
          shipped_at: iso(shipped),
          actual_delivery_date: iso(delivered),
        });
        if (shipped && processing) {
          metrics.push({
            order_id: id,
            processing_time: Math.round((shipped - processing) / 1000),
            delivery_time: delivered ? Math.round((delivered - shipped) / 1000) : null,
          });
        }
        // The review request went out REVIEW_REQUEST_AFTER_DAYS (5) after delivery: the last month's are on record,
        // so the review-request job finds none overdue when the shop starts.
        if (delivered !== null && userId && now - delivered > 5 * DAY && now - delivered < 40 * DAY) {
          requests.push({ order_id: id, user_id: userId, sent_at: iso(delivered + 5 * DAY) });
        }
      }
      await bulkInsert(trx, "orders", orders);
      for (let i = 0; i < lines.length; i += ORDER_BATCH * 2) {
        await bulkInsert(trx, "order_lines", lines.slice(i, i + ORDER_BATCH * 2));
      }
      await bulkInsert(trx, "order_metrics", metrics);
      await bulkInsert(trx, "coupon_usage", usage);
      await bulkInsert(trx, "review_requests", requests);
    }
    for (const [couponId, n] of redeemed) await trx.updateTable("coupons").set({ times_redeemed: n }).where("id", "=", couponId).execute();
    // Paid orders written directly still get their invoice numbers, oldest payment first (docs/decisions/019): before
    // the indexes are built again, so the update of ~700 000 rows maintains none of them.
    phaseDone("insert");
    await numberUninvoicedPaidOrders(trx);
    phaseDone("invoices");
    await load.finish(phaseDone);
  });
  phaseDone("commit");
  const sums = await sumOrderDaysAfterLoad(db);
  phaseDone("day sums");
  // After a bulk load the planner's statistics are stale until autovacuum comes round; without them PostgreSQL
  // scans the table for a search instead of using its trigram index (migration 0018). SQLite plans without them.
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) await sql`analyze`.execute(db);
  else await sql`pragma synchronous = NORMAL`.execute(db);
  phaseDone("analyze");
  return { products: options.products, orders: options.orders, orderLines: lineCount, users: users.length, daySumsMs: sums.ms, phasesMs, statuses: statusCounts, ...(isPostgres(db) ? { triggersSkipped } : {}) };
}

/** The shop's tables in an order that respects foreign keys. */
const SHOP_TABLES = [
  "coupon_usage",
  "order_metrics",
  "order_lines",
  "payment_events",
  "orders",
  "reviews",
  "product_tiers",
  "products",
  "categories",
  "shipping_zone_provinces",
  "shipping_rules",
  "shipping_zones",
  "coupons",
  "contact_messages",
  "mail_outbox",
] as const;

/**
 * Empties the shop: catalogue, orders, reviews, shipping, coupons, messages and outbox, plus users that have no
 * sign-in account (demo and benchmark customers). Real accounts, admins and settings stay. Returns rows deleted per table.
 */
export async function resetShop(db: DB): Promise<Record<string, number>> {
  return db.transaction().execute(async (trx) => {
    const deleted: Record<string, number> = {};
    for (const table of SHOP_TABLES) {
      const result = await trx.deleteFrom(table).executeTakeFirst();
      deleted[table] = Number(result.numDeletedRows);
    }
    const users = await trx
      .deleteFrom("users")
      .where("is_admin", "=", false)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom("accounts").select("accounts.id").whereRef("accounts.user_id", "=", "users.id"))))
      .executeTakeFirst();
    deleted.users = Number(users.numDeletedRows);
    return deleted;
  });
}
