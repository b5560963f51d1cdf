/**
 * npm run seed [-- --reset] [-- --products N --orders M] [-- --no-images]
 *
 * Migrates the database named by DATABASE_URL (like the server), loads the demo catalogue (idempotent: running it
 * again adds nothing), and optionally a large generated catalogue for benchmarks. --reset empties the shop tables
 * first (catalogue, orders, reviews, shipping, coupons, messages; users without a sign-in account) without asking.
 */
import { parseArgs } from "node:util";
import { closeDatabase, database } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { resetShop, seedDemo, seedLargeCatalogue } from "~/modules/demo/seed.server";
import { mediaRoot } from "~/modules/media/media-paths.server";
import { describeDatabase } from "~/utils/database-url.server";
import { env } from "~/utils/env.server";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "0" },
    orders: { type: "string", default: "0" },
    reset: { type: "boolean", default: false },
    "no-images": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log("Usage: npm run seed -- [--reset] [--products N] [--orders M] [--no-images]");
  process.exit(0);
}

function count(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number of 0 or more, got '${raw}'`);
    process.exit(2);
  }
  return n;
}

const products = count("products", values.products);
const orders = count("orders", values.orders);

async function main() {
  const { db } = database();
  console.log(`Database: ${describeDatabase(env().DATABASE_URL)}`);
  const migrations = await migrateToLatest(db);
  console.log(migrations.length ? `Migrated: ${migrations.map((m) => m.migrationName).join(", ")}` : "Migrations: up to date");

  if (values.reset) {
    const deleted = await resetShop(db);
    const parts = Object.entries(deleted)
      .filter(([, n]) => n > 0)
      .map(([table, n]) => `${table} ${n}`);
    console.log(`Reset: deleted ${parts.length ? parts.join(", ") : "nothing (already empty)"}`);
  }

  let started = Date.now();
  const images = !values["no-images"];
  const demo = await seedDemo(db, { images });
  const added = Object.entries(demo)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} ${what}`);
  console.log(`Demo catalogue: ${added.length ? `added ${added.join(", ")}` : "already present, nothing added"} (${Date.now() - started} ms)`);
  if (images) {
    const config = env();
    console.log(config.MEDIA_STORAGE === "s3" ? `Images: bucket ${config.S3_BUCKET}, under products/` : `Images: ${mediaRoot()}/products`);
  }

  if (products > 0 || orders > 0) {
    started = Date.now();
    // the orders' statuses as this shop's expiry job would have left them (UNPAID_ORDER_TTL_MINUTES 0: it never runs)
    const config = env();
    const card = config.UNPAID_ORDER_TTL_MINUTES > 0 ? config.UNPAID_ORDER_TTL_MINUTES : Number.POSITIVE_INFINITY;
    const large = await seedLargeCatalogue(db, { products, orders, holds: { card, eft: config.UNPAID_ORDER_TTL_MINUTES > 0 ? config.EFT_HOLD_DAYS * 24 * 60 : card } });
    console.log(
      `Large catalogue: added ${large.products} products, ${large.orders} orders (${large.orderLines} lines) for ${large.users} customers (${((Date.now() - started) / 1000).toFixed(1)} s${large.daySumsMs === undefined ? "" : `, of which summing the order days ${(large.daySumsMs / 1000).toFixed(1)} s`})`,
    );
    if (large.triggersSkipped === "marking" && large.orders > 0) {
      console.log("  (orders loaded with foreign-key checks: this database role may not set session_replication_role)");
    }
    if (large.statuses) console.log(`  orders by status: ${Object.entries(large.statuses).map(([status, n]) => `${status} ${n}`).join(", ")}`);
    if (large.phasesMs) console.log(`  steps: ${Object.entries(large.phasesMs).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(", ")}`);
  }
}

try {
  await main();
} catch (error) {
  console.error("Seeding failed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
