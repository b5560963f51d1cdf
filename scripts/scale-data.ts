/**
 * The shop at scale (issue 20 point 5): a database with 100 000 products and 1 000 000 orders over two years, made
 * once and kept, for `npm run bench -- --scale`.
 *
 *   npx tsx scripts/scale-data.ts sqlite            # /tmp/scentara-scale/shop-<version>.db
 *   npx tsx scripts/scale-data.ts postgres [URL]    # database scentara_scale_<version> beside URL's (default: SCALE_PG_URL)
 *
 * What it holds: the demo shop (categories, zones, coupons, demo customers), then 100 000 generated products (a fifth
 * with bulk tiers, a third with counted stock, SKUs), 100 000 customers, 1 000 000 orders placed over 730 days (more
 * recently than long ago, as a growing shop), 1–4 lines each, best sellers much more sold than the long tail, statuses
 * by the order's age (a few days: paid, packing, on their way; older: delivered or cancelled), card / instant EFT /
 * bank transfer, the nine provinces, a coupon on about one paid order in eight, invoice numbers in payment order,
 * order metrics, reviews and review requests. Rows are generated in JavaScript from one seeded PRNG (the same shop
 * every time, dated relative to the day it is made) and written in large batches: SQLite through one prepared
 * statement per table in big transactions, PostgreSQL through `insert … select * from unnest($1::text[], …)` (one
 * statement per 5 000 rows, no COPY).
 *
 * A finished database is marked (SQLite: a file beside it; PostgreSQL: a comment on the database), so a second run
 * reuses it; bump SCALE_DATA_VERSION when the generator changes. Migrations newer than the data are applied on reuse.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { allOrderDays, ensureOrderDays, liveFrom } from "~/modules/order-days/order-days.server";
import { addDays } from "~/utils/sa-days";
import { prng, seedDemo } from "~/modules/demo/seed.server";

export const SCALE_DATA_VERSION = "v2";
export const SCALE_DIR = "/tmp/scentara-scale";
export const DEFAULT_SCALE_PG_URL = process.env.SCALE_PG_URL ?? "postgres://postgres@127.0.0.1:54341/postgres";

export interface ScaleSize {
  products: number;
  orders: number;
  customers: number;
}
export const SCALE_SIZE: ScaleSize = { products: 100_000, orders: 1_000_000, customers: 100_000 };

const DAY = 86_400_000;
const SPAN_DAYS = 730;

// ---------------------------------------------------------------- deterministic pieces

/** A version-4-shaped UUID from the PRNG (ids look like the shop's, and the same run makes the same ids). */
function uuid(rng: () => number): string {
  const hex = (n: number) => Math.floor(rng() * 16 ** n).toString(16).padStart(n, "0");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(rng() * 4)).toString(16)}${hex(3)}-${hex(6)}${hex(6)}`;
}

const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
function weighted<T>(rng: () => number, items: ReadonlyArray<readonly [T, number]>): T {
  let r = rng() * items.reduce((s, [, w]) => s + w, 0);
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
}

const ADJECTIVES = ["Amber", "Velvet", "Golden", "Silver", "Midnight", "Ivory", "Saffron", "Smoked", "Wild", "Silken", "Crimson", "Ashen", "Sunlit", "Hidden", "Gilded", "Misty", "Desert", "Coastal", "Verdant", "Opal", "Copper", "Cobalt", "Rosy", "Dusky", "Frosted", "Honeyed", "Spiced", "Lunar", "Solar", "Quiet"];
const NOUNS = ["Ember", "Orchard", "Reverie", "Garden", "Harbour", "Meadow", "Horizon", "Canyon", "Lagoon", "Atelier", "Veil", "Cascade", "Grove", "Dune", "Sonnet", "Lantern", "Pavilion", "Citadel", "Terrace", "Voyage", "Bloomfield", "Study", "Ritual", "Aria", "Compass", "Promenade", "Sanctuary", "Mirage", "Tide", "Orbit"];
const NOTES = ["bergamot", "rose", "oud", "vanilla", "cedar", "jasmine", "amber", "musk", "saffron", "vetiver", "iris", "neroli", "tonka bean", "patchouli", "sandalwood", "fig", "lavender", "incense"];
const HOUSES: [string, string][] = [["Dior", "Sauvage"], ["Chanel", "Coco Mademoiselle"], ["Tom Ford", "Oud Wood"], ["YSL", "Libre"], ["Creed", "Aventus"], ["Lancôme", "La Vie Est Belle"], ["Gucci", "Bloom"], ["Armani", "Acqua di Giò"], ["Byredo", "Gypsy Water"], ["Maison Margiela", "Jazz Club"]];
const FIRST = ["Thabo", "Naledi", "Johan", "Priya", "Zanele", "Ruan", "Ayanda", "Fatima", "Kagiso", "Lindiwe", "Sipho", "Anele", "Pieter", "Aisha", "Lerato", "Themba", "Nomvula", "Chris", "Megan", "Yusuf", "Busisiwe", "Andile", "Karabo", "Refilwe", "Ilse", "Mandla", "Tshepo", "Nandi", "Riaan", "Zodwa"];
const LAST = ["Mokoena", "Dlamini", "van der Merwe", "Naidoo", "Nkosi", "Botha", "Khumalo", "Pillay", "Mthembu", "Pretorius", "Ndlovu", "Adams", "Sithole", "Jacobs", "Zulu", "Coetzee", "Mahlangu", "Govender", "Smith", "Molefe", "Venter", "Ngcobo", "Hendricks", "Maseko", "du Plessis", "Petersen", "Radebe", "Moodley", "Steyn", "Baloyi"];
const PLACES: [string, string, string][] = [
  ["Johannesburg", "Gauteng", "2196"], ["Pretoria", "Gauteng", "0181"], ["Soweto", "Gauteng", "1804"], ["Cape Town", "Western Cape", "8001"],
  ["Stellenbosch", "Western Cape", "7600"], ["Durban", "KwaZulu-Natal", "4001"], ["Pietermaritzburg", "KwaZulu-Natal", "3201"],
  ["Gqeberha", "Eastern Cape", "6001"], ["East London", "Eastern Cape", "5201"], ["Bloemfontein", "Free State", "9301"],
  ["Polokwane", "Limpopo", "0699"], ["Mbombela", "Mpumalanga", "1200"], ["Rustenburg", "North West", "0299"], ["Kimberley", "Northern Cape", "8301"],
];
const PLACE_WEIGHTS = [22, 9, 5, 18, 3, 12, 3, 5, 2, 5, 4, 4, 4, 2];
const STREETS = ["Jacaranda Street", "Main Road", "Church Street", "Oak Avenue", "Beach Road", "Voortrekker Road", "Nelson Mandela Drive", "Protea Lane", "Kloof Street", "Long Street"];

// ---------------------------------------------------------------- the sinks

type ColumnKind = "text" | "int" | "bigint" | "ts" | "json" | "bool";
interface TableSpec {
  table: string;
  columns: [string, ColumnKind][];
}
interface Sink {
  insert(spec: TableSpec, rows: unknown[][]): Promise<void>;
  /** commits what was written so far (SQLite: one transaction per flush) */
  flush(): Promise<void>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteSink(path: string): Sink {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: false });
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -600000; PRAGMA temp_store = MEMORY");
  const statements = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  let open = false;
  return {
    async insert(spec, rows) {
      let statement = statements.get(spec.table);
      if (!statement) {
        statement = db.prepare(`insert into "${spec.table}" (${spec.columns.map(([c]) => `"${c}"`).join(", ")}) values (${spec.columns.map(() => "?").join(", ")})`);
        statements.set(spec.table, statement);
      }
      if (!open) {
        db.exec("begin");
        open = true;
      }
      const bools = spec.columns.map(([, k]) => k === "bool");
      for (const row of rows) {
        for (let i = 0; i < row.length; i++) if (bools[i]) row[i] = row[i] ? 1 : 0;
        statement.run(...(row as (string | number | null)[]));
      }
    },
    async flush() {
      if (open) db.exec("commit");
      open = false;
    },
    async exec(sql) {
      db.exec(sql);
    },
    async close() {
      if (open) db.exec("commit");
      db.close();
    },
  };
}

function postgresSink(url: string): Sink {
  const client = new pg.Client({ connectionString: url });
  // The loading session fires no triggers (the day sums' stale marks, migration 0027: every day is summed after the
  // load anyway) and checks no foreign keys (the generator writes parents first).
  const connected = client.connect().then(() => client.query("set session_replication_role = replica"));
  const pgType: Record<ColumnKind, string> = { text: "text", int: "integer", bigint: "bigint", ts: "timestamptz", json: "jsonb", bool: "boolean" };
  const CHUNK = 5000;
  return {
    async insert(spec, rows) {
      await connected;
      for (let from = 0; from < rows.length; from += CHUNK) {
        const part = rows.slice(from, from + CHUNK);
        const arrays = spec.columns.map((_, i) => part.map((r) => r[i] ?? null));
        const text = `insert into "${spec.table}" (${spec.columns.map(([c]) => `"${c}"`).join(", ")}) select * from unnest(${spec.columns.map(([, k], i) => `$${i + 1}::${pgType[k]}[]`).join(", ")})`;
        await client.query(text, arrays);
      }
    },
    async flush() {},
    async exec(sql) {
      await connected;
      await client.query(sql);
    },
    async close() {
      await connected;
      await client.end();
    },
  };
}

// ---------------------------------------------------------------- the tables written

const PRODUCTS: TableSpec = {
  table: "products",
  columns: [["id", "text"], ["name", "text"], ["slug", "text"], ["description", "text"], ["price_cents", "int"], ["images", "json"], ["category_id", "text"], ["meta_title", "text"], ["meta_desc", "text"], ["created_at", "ts"], ["stock", "int"], ["inspired_house", "text"], ["inspired_fragrance", "text"], ["size_ml", "int"], ["sku", "text"], ["max_price_cents", "int"]],
};
/** each product's one size, with the product's id (as the sizes migration gives every product: docs/decisions/049) */
const SIZES: TableSpec = {
  table: "product_sizes",
  columns: [["id", "text"], ["product_id", "text"], ["label", "text"], ["code", "text"], ["size_ml", "int"], ["price_cents", "int"], ["sku", "text"], ["stock", "int"], ["position", "int"], ["hidden", "int"], ["created_at", "ts"]],
};
const TIERS: TableSpec = { table: "product_tiers", columns: [["id", "text"], ["product_id", "text"], ["size_id", "text"], ["min_quantity", "int"], ["max_quantity", "int"], ["price_cents", "int"]] };
const USERS: TableSpec = {
  table: "users",
  columns: [["id", "text"], ["email", "text"], ["name", "text"], ["email_verified", "bool"], ["is_admin", "bool"], ["email_notifications", "bool"], ["email_marketing", "bool"], ["created_at", "ts"], ["updated_at", "ts"]],
};
const ORDERS: TableSpec = {
  table: "orders",
  columns: [
    ["id", "text"], ["user_id", "text"], ["status", "text"], ["payment_status", "text"], ["subtotal_cents", "int"], ["discount_amount_cents", "int"], ["shipping_cents", "int"],
    ["total_amount_cents", "int"], ["original_total_cents", "int"], ["coupon_code", "text"], ["shipping_zone_id", "text"], ["shipping_address", "json"], ["payment_provider", "text"],
    ["payment_method", "text"], ["payment_id", "text"], ["tracking_number", "text"], ["created_at", "ts"], ["updated_at", "ts"], ["processing_started_at", "ts"], ["shipped_at", "ts"],
    ["actual_delivery_date", "ts"], ["invoice_number", "int"], ["invoice_issued_at", "ts"],
  ],
};
const LINES: TableSpec = {
  table: "order_lines",
  columns: [["id", "text"], ["order_id", "text"], ["product_id", "text"], ["size_id", "text"], ["size_label", "text"], ["name", "text"], ["quantity", "int"], ["unit_price_cents", "int"], ["total_price_cents", "int"], ["position", "int"]],
};
const METRICS: TableSpec = { table: "order_metrics", columns: [["order_id", "text"], ["processing_time", "int"], ["delivery_time", "int"]] };
const COUPONS: TableSpec = {
  table: "coupons",
  columns: [["id", "text"], ["code", "text"], ["discount_type", "text"], ["discount_value", "int"], ["minimum_spend_cents", "int"], ["max_redemptions", "int"], ["times_redeemed", "int"], ["start_date", "ts"], ["end_date", "ts"], ["is_active", "bool"], ["description", "text"], ["created_at", "ts"]],
};
const USAGE: TableSpec = { table: "coupon_usage", columns: [["id", "text"], ["coupon_id", "text"], ["order_id", "text"], ["user_id", "text"], ["discount_amount_cents", "int"], ["created_at", "ts"]] };
const REVIEWS: TableSpec = { table: "reviews", columns: [["id", "text"], ["product_id", "text"], ["user_id", "text"], ["rating", "int"], ["comment", "text"], ["created_at", "ts"]] };
const REVIEW_REQUESTS: TableSpec = { table: "review_requests", columns: [["order_id", "text"], ["user_id", "text"], ["sent_at", "ts"]] };

// ---------------------------------------------------------------- the generator

export interface ScaleSummary {
  products: number;
  customers: number;
  orders: number;
  lines: number;
  paid: number;
  coupons: number;
  reviews: number;
  seconds: number;
}

async function generate(sink: Sink, refs: { categoryIds: string[]; zoneId: string | null; now: number; invoiceFrom: number }, size: ScaleSize, log: (line: string) => void): Promise<ScaleSummary> {
  const started = Date.now();
  const rng = prng(20_261_126);
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const { now } = refs;
  const spanStart = now - SPAN_DAYS * DAY;

  // Products ------------------------------------------------------------------------------------------------------
  const products: { id: string; name: string; price: number }[] = [];
  let batch: unknown[][] = [];
  let tiers: unknown[][] = [];
  let sizes: unknown[][] = [];
  const sizeOf = new Map<string, string>();
  for (let i = 1; i <= size.products; i++) {
    const name = `${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)} No. ${i}`;
    const price = (15 + Math.floor(rng() * 75)) * 1000 + 900;
    const id = uuid(rng);
    const notes = [pick(rng, NOTES), pick(rng, NOTES), pick(rng, NOTES)];
    const inspired = rng() < 0.7 ? pick(rng, HOUSES) : null;
    const row = [
      id, name, `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-s${i}`, `A fragrance of the scale test.\n\nTop notes: ${notes[0]}.\nHeart notes: ${notes[1]}.\nBase notes: ${notes[2]}.`,
      price, JSON.stringify(["/images/placeholder.svg"]), pick(rng, refs.categoryIds), `${name} | Scentara`, `${name}: notes of ${notes.join(", ")}.`,
      iso(spanStart - 60 * DAY + Math.floor(rng() * (SPAN_DAYS + 60) * DAY)), rng() < 0.3 ? Math.floor(rng() * 200) : null, inspired?.[0] ?? null, inspired?.[1] ?? null, pick(rng, [30, 50, 100]), `SC-${String(i).padStart(6, "0")}`, price,
    ];
    batch.push(row);
    const [ml, sku, stock, createdAt] = [row[13] as number, row[14] as string, row[10] as number | null, row[9] as string];
    sizes.push([id, id, `${ml} ml`, `${ml}ml`, ml, price, sku, stock, 0, 0, createdAt]);
    sizeOf.set(id, `${ml} ml`);
    if (rng() < 0.2) {
      tiers.push([uuid(rng), id, id, 3, 5, price - 2000]);
      tiers.push([uuid(rng), id, id, 6, null, price - 4000]);
    }
    products.push({ id, name, price });
    if (batch.length === 10_000) {
      await sink.insert(PRODUCTS, batch);
      await sink.insert(SIZES, sizes);
      await sink.insert(TIERS, tiers);
      batch = [];
      sizes = [];
      tiers = [];
    }
  }
  await sink.insert(PRODUCTS, batch);
  await sink.insert(SIZES, sizes);
  await sink.insert(TIERS, tiers);
  await sink.flush();
  log(`  products: ${size.products} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Customers -----------------------------------------------------------------------------------------------------
  const customers: { id: string; email: string; address: string; name: string }[] = [];
  batch = [];
  for (let i = 1; i <= size.customers; i++) {
    const first = pick(rng, FIRST);
    const last = pick(rng, LAST);
    const name = `${first} ${last}`;
    const email = `${first}.${last.replace(/ /g, "")}.${i}@${pick(rng, ["gmail.com", "icloud.com", "outlook.com", "webmail.co.za", "mweb.co.za"])}`.toLowerCase();
    const [city, province, postalCode] = weighted(rng, PLACES.map((p, k) => [p, PLACE_WEIGHTS[k]!] as const));
    const address = JSON.stringify({ name, telephone: `0${6 + Math.floor(rng() * 3)}${String(Math.floor(rng() * 1e8)).padStart(8, "0")}`, street: `${1 + Math.floor(rng() * 300)} ${pick(rng, STREETS)}`, suburb: "Central", city, postalCode, province });
    const created = iso(spanStart - 90 * DAY + Math.floor(((i - 1) / size.customers) * (SPAN_DAYS + 89) * DAY));
    const id = uuid(rng);
    batch.push([id, email, name, true, false, true, rng() < 0.3, created, created]);
    customers.push({ id, email, address, name });
    if (batch.length === 10_000) {
      await sink.insert(USERS, batch);
      batch = [];
    }
  }
  await sink.insert(USERS, batch);
  await sink.flush();
  log(`  customers: ${size.customers} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Coupons -------------------------------------------------------------------------------------------------------
  const coupons = Array.from({ length: 30 }, (_, k) => ({ id: uuid(rng), code: `SCALE${["WINTER", "SPRING", "LOVE", "MOM", "DAD", "BLACKFRIDAY", "WELCOME", "VIP", "FREESHIP", "AMBER"][k % 10]}${20 + Math.floor(k / 10)}`, percent: 5 + (k % 4) * 5, used: 0 }));

  // The coupons first (their redemptions point at them); times_redeemed is set once the orders are in.
  const firstDay = iso(spanStart - DAY)!;
  await sink.insert(
    COUPONS,
    coupons.map((c) => [c.id, c.code, "percentage", c.percent, 0, null, 0, firstDay, iso(now + 365 * DAY), true, `${c.percent}% off (scale test)`, firstDay]),
  );
  await sink.flush();

  // Orders --------------------------------------------------------------------------------------------------------
  // Placed times, oldest first: density grows linearly from 1 to 2 over the two years (a growing shop).
  let orders: unknown[][] = [];
  let lines: unknown[][] = [];
  let metrics: unknown[][] = [];
  let usage: unknown[][] = [];
  let requests: unknown[][] = [];
  let lineCount = 0;
  let paid = 0;
  let couponOrders = 0;
  let invoice = refs.invoiceFrom - 1;
  const delivered: { orderId: string; userId: string; productIds: string[]; at: number }[] = [];
  const flushOrders = async () => {
    await sink.insert(ORDERS, orders);
    await sink.insert(LINES, lines);
    await sink.insert(METRICS, metrics);
    await sink.insert(USAGE, usage);
    await sink.insert(REVIEW_REQUESTS, requests);
    await sink.flush();
    orders = [];
    lines = [];
    metrics = [];
    usage = [];
    requests = [];
  };
  const popular = (n: number) => Math.floor(n * rng() ** 3); // best sellers sell far more than the long tail
  for (let i = 0; i < size.orders; i++) {
    const u = (i + rng()) / size.orders;
    const t = -1 + Math.sqrt(1 + 3 * u);
    const created = Math.min(now - 60_000, spanStart + Math.floor(t * SPAN_DAYS * DAY));
    const ageDays = (now - created) / DAY;
    const status =
      ageDays < 1 ? weighted(rng, [["pending", 30], ["processing", 60], ["cancelled", 10]] as const)
      : ageDays < 3 ? weighted(rng, [["pending", 6], ["processing", 30], ["shipped", 52], ["cancelled", 12]] as const)
      : ageDays < 10 ? weighted(rng, [["processing", 2], ["shipped", 28], ["delivered", 58], ["cancelled", 12]] as const)
      : weighted(rng, [["shipped", 0.5], ["delivered", 87.5], ["cancelled", 12]] as const);
    const method = status === "pending" ? weighted(rng, [["eft", 60], ["instant_eft", 20], ["card", 20]] as const) : weighted(rng, [["card", 62], ["instant_eft", 23], ["eft", 15]] as const);
    const payment = status === "pending" ? "pending" : status === "cancelled" ? weighted(rng, [["cancelled", 70], ["failed", 30]] as const) : "completed";
    const id = uuid(rng);
    const guest = rng() < 0.01;
    // most orders from anyone, some from a loyal tenth (at most a few dozen orders each, as a real shop's best customers)
    const customer = customers[rng() < 0.7 ? Math.floor(rng() * customers.length) : Math.floor(rng() * customers.length * 0.1)]!;
    const count = weighted(rng, [[1, 55], [2, 30], [3, 10], [4, 5]] as const);
    let subtotal = 0;
    const productIds: string[] = [];
    for (let l = 0; l < count; l++) {
      const product = products[popular(products.length)]!;
      const quantity = weighted(rng, [[1, 80], [2, 15], [3, 5]] as const);
      subtotal += product.price * quantity;
      productIds.push(product.id);
      lines.push([uuid(rng), id, product.id, product.id, sizeOf.get(product.id) ?? null, product.name, quantity, product.price, product.price * quantity, l]);
    }
    lineCount += count;
    const coupon = payment === "completed" && rng() < 0.125 ? coupons[Math.floor(rng() ** 2 * coupons.length)]! : null;
    const discount = coupon ? Math.round((subtotal * coupon.percent) / 100) : 0;
    const shipping = subtotal - discount >= 59_900 ? 0 : weighted(rng, [[6000, 70], [9900, 20], [4500, 10]] as const);
    const total = subtotal - discount + shipping;
    const processing = payment === "completed" ? created + 10 * 60_000 + Math.floor(rng() * 20 * 3_600_000) : null;
    const shipped = processing !== null && (status === "shipped" || status === "delivered") ? Math.min(now - 1000, processing + Math.floor(rng() * 2 * DAY)) : null;
    const deliveredAt = shipped !== null && status === "delivered" ? Math.min(now - 500, shipped + DAY + Math.floor(rng() * 4 * DAY)) : null;
    if (payment === "completed") paid++;
    const invoiceNumber = payment === "completed" ? ++invoice : null;
    if (coupon) {
      couponOrders++;
      coupon.used++;
      usage.push([uuid(rng), coupon.id, id, guest ? null : customer.id, discount, iso(created)]);
    }
    orders.push([
      id, guest ? null : customer.id, status, payment, subtotal, discount, shipping, total, coupon ? subtotal + shipping : null, coupon?.code ?? null, refs.zoneId,
      customer.address, "simulated", method, payment === "pending" ? null : `sim_${id.slice(0, 12)}`, shipped ? `SC${String(i + 1_000_000).padStart(9, "0")}ZA` : null,
      iso(created), iso(deliveredAt ?? shipped ?? processing ?? created), iso(processing), iso(shipped), iso(deliveredAt), invoiceNumber, iso(processing),
    ]);
    if (shipped !== null && processing !== null) metrics.push([id, Math.round((shipped - processing) / 1000), deliveredAt ? Math.round((deliveredAt - shipped) / 1000) : null]);
    // Review requests (issue 19) go out 5 days after delivery: the last 90 days' deliveries have had theirs.
    if (deliveredAt !== null && !guest && now - deliveredAt > 5 * DAY && now - deliveredAt < 90 * DAY) {
      requests.push([id, customer.id, iso(deliveredAt + 5 * DAY)]);
      delivered.push({ orderId: id, userId: customer.id, productIds, at: deliveredAt + 5 * DAY });
    }
    if (orders.length === 25_000) {
      await flushOrders();
      if ((i + 1) % 200_000 === 0) log(`  orders: ${i + 1} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
  await flushOrders();
  log(`  orders: ${size.orders}, lines: ${lineCount} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Coupons with their redemptions, the invoice counter ------------------------------------------------------------
  for (const c of coupons) await sink.exec(`update coupons set times_redeemed = ${c.used} where id = '${c.id}'`);
  await sink.exec(`update invoice_counter set next_number = ${invoice + 1} where id = 1`);

  // Reviews: a few per popular product, by customers who bought it, some after a review request ------------------
  const seen = new Set<string>();
  batch = [];
  for (let k = 0; k < 30_000; k++) {
    const product = products[popular(products.length)]!;
    const customer = customers[Math.floor(rng() * customers.length)]!;
    const key = `${product.id}:${customer.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    batch.push([uuid(rng), product.id, customer.id, weighted(rng, [[5, 55], [4, 28], [3, 10], [2, 4], [1, 3]] as const), "Lovely, lasts all day.", iso(spanStart + Math.floor(rng() * SPAN_DAYS * DAY))]);
  }
  for (const d of delivered) {
    if (rng() >= 0.12) continue;
    const key = `${d.productIds[0]}:${d.userId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    batch.push([uuid(rng), d.productIds[0], d.userId, 5, "Came after the reminder: smells wonderful.", iso(Math.min(now - 1000, d.at + Math.floor(rng() * 3 * DAY)))]);
  }
  await sink.insert(REVIEWS, batch);
  await sink.flush();
  return { products: size.products, customers: size.customers, orders: size.orders, lines: lineCount, paid, coupons: couponOrders, reviews: batch.length, seconds: (Date.now() - started) / 1000 };
}

// ---------------------------------------------------------------- the databases

/** The demo shop first (categories, zones, the demo coupons and customers), through the app's own code. */
async function prepare(url: string): Promise<{ categoryIds: string[]; zoneId: string | null; now: number; invoiceFrom: number }> {
  const handle = openDatabase(url, 2);
  try {
    await migrateToLatest(handle.db);
    await seedDemo(handle.db, { images: false });
    const categoryIds = (await handle.db.selectFrom("categories").select("id").execute()).map((c) => c.id);
    const zone = await handle.db.selectFrom("shipping_zones").select("id").orderBy("created_at").executeTakeFirst();
    const counter = await handle.db.selectFrom("invoice_counter").select("next_number").executeTakeFirst();
    return { categoryIds, zoneId: zone?.id ?? null, now: Date.now(), invoiceFrom: Number(counter?.next_number ?? 1) };
  } finally {
    await handle.close();
  }
}

/** After the rows: any later migration, then every settled day summed (what the first dashboard would otherwise do). */
async function finish(url: string, log: (line: string) => void) {
  const handle = openDatabase(url, 2);
  try {
    let started = Date.now();
    await migrateToLatest(handle.db);
    log(`  migrations after the rows: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    const all = await allOrderDays(handle.db);
    await ensureOrderDays(handle.db, { from: all.from, to: addDays(liveFrom(), -1) });
    log(`  every settled day summed (order_day_*): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await handle.close();
  }
}

/** Brings a kept database to the latest migrations (a migration added after the data was made). */
async function migrateKept(url: string) {
  const handle = openDatabase(url, 2);
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

export function scaleSqlitePath(version = SCALE_DATA_VERSION) {
  return `${SCALE_DIR}/shop-${version}.db`;
}

/** The SQLite scale database: reused when a finished one is there, else made (about a minute or two). */
export async function ensureScaleSqlite(log: (line: string) => void = console.log, size = SCALE_SIZE): Promise<{ url: string; made: ScaleSummary | null; madeAt: string }> {
  const path = scaleSqlitePath();
  const marker = `${path}.done`;
  if (existsSync(marker) && existsSync(path)) {
    await migrateKept(path);
    return { url: path, made: null, madeAt: readFileSync(marker, "utf8").trim() };
  }
  mkdirSync(SCALE_DIR, { recursive: true });
  for (const f of [path, `${path}-wal`, `${path}-shm`, marker]) rmSync(f, { force: true });
  log(`Scale data: making ${path}`);
  const refs = await prepare(path);
  const sink = sqliteSink(path);
  let made: ScaleSummary;
  try {
    made = await generate(sink, refs, size, log);
    await sink.exec("analyze");
    await sink.exec("pragma wal_checkpoint(truncate)");
  } finally {
    await sink.close();
  }
  await finish(path, log);
  const madeAt = new Date(refs.now).toISOString();
  writeFileSync(marker, `${madeAt}\n`);
  return { url: path, made, madeAt };
}

/** The PostgreSQL scale database beside `baseUrl`'s (scentara_scale_<version>): reused when finished, else made. */
export async function ensureScalePostgres(baseUrl = DEFAULT_SCALE_PG_URL, log: (line: string) => void = console.log, size = SCALE_SIZE): Promise<{ url: string; made: ScaleSummary | null; madeAt: string }> {
  const name = `scentara_scale_${SCALE_DATA_VERSION}`;
  const target = new URL(baseUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const found = await admin.query<{ note: string | null }>("select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1", [name]);
    const note = found.rows[0]?.note ?? "";
    if (note.startsWith("scentara scale data complete ")) {
      await migrateKept(url);
      return { url, made: null, madeAt: note.slice("scentara scale data complete ".length) };
    }
    log(`Scale data: making PostgreSQL database ${name}`);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const refs = await prepare(url);
  const sink = postgresSink(url);
  let made: ScaleSummary;
  try {
    // The shop search's trigram index (migration 0018) takes each product straight in (fastupdate off): 100 000 of
    // them cost minutes that way. Pending list on while loading, merged at the vacuum, then off again as the shop has it.
    await sink.exec("do $$ begin if to_regclass('products_search_trgm_idx') is not null then alter index products_search_trgm_idx set (fastupdate = on); end if; end $$");
    made = await generate(sink, refs, size, log);
    await sink.exec("vacuum analyze");
    await sink.exec("do $$ begin if to_regclass('products_search_trgm_idx') is not null then alter index products_search_trgm_idx set (fastupdate = off); end if; end $$");
  } finally {
    await sink.close();
  }
  await finish(url, log);
  const madeAt = new Date(refs.now).toISOString();
  const done = new pg.Client({ connectionString: baseUrl });
  await done.connect();
  await done.query(`comment on database ${name} is 'scentara scale data complete ${madeAt}'`);
  await done.end();
  return { url, made, madeAt };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [kind = "sqlite", url] = process.argv.slice(2);
  const started = Date.now();
  const result = kind === "postgres" ? await ensureScalePostgres(url) : await ensureScaleSqlite();
  console.log(`${result.url}: ${result.made ? `made in ${((Date.now() - started) / 1000).toFixed(0)} s` : `reused (made ${result.madeAt})`}`, result.made ?? "");
}
