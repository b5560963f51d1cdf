/**
 * Each table has one owning area, and only that area writes it (issue 39 point 1; docs/architecture.md): another area,
 * and every flow in app/modules/flows/, changes a table by calling one of its owner's functions. Read from the code:
 * every non-test file under app/modules/ is scanned for the writes it makes —
 * - Kysely's `insertInto("t")`, `updateTable("t")`, `deleteFrom("t")`, `replaceInto("t")`, `mergeInto("t")` (an
 *   alias `"t as x"` counts as t);
 * - a multi-row insert built directly: `bulkInsert(db, "t", …)` / `bulkInsertChunked(db, "t", …)`;
 * - raw SQL naming a table: `insert into t`, `update t set`, `delete from t`;
 * — and fails on a write by an area that does not own the table, naming the file and line, unless the pair is one of
 * the exceptions still open below (each with why). An exception that no longer occurs fails too, so the list only
 * shrinks; a table written anywhere must have an owner here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const MODULES = "app/modules/";
const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** area → the tables it owns (docs/architecture.md's ladder). */
const OWNERS: Record<string, readonly string[]> = {
  settings: ["settings"],
  activity: ["activity_log"],
  mail: ["mail_outbox"],
  reactions: ["reactions"],
  "order-days": ["order_days", "order_day_totals", "order_day_products", "order_day_categories", "order_days_stale", "order_hour_changes"],
  backups: ["job_leases"],
  consent: ["consents"],
  accounts: ["users", "sessions", "accounts", "two_factors", "passkeys", "verifications", "rate_limits"],
  staff: ["staff_roles", "staff_invitations"],
  contact: ["contact_messages"],
  reviews: ["reviews", "review_requests"],
  marketing: ["announcements", "announcement_recipients"],
  shipping: ["shipping_zones", "shipping_rules", "shipping_zone_provinces"],
  coupons: ["coupons", "coupon_usage"],
  catalog: ["products", "product_sizes", "categories", "product_former_slugs", "product_size_former_codes"],
  pricing: ["product_tiers"],
  "catalog-csv": ["product_imports", "imported_images", "import_missing_images"],
  "stock-alerts": ["stock_alerts"],
  wishlist: ["wishlist_items", "wishlist_alerts"],
  orders: ["orders", "order_lines", "order_metrics"],
  samples: ["product_samples", "order_line_samples", "sample_credits"],
  "gift-cards": ["gift_cards", "gift_card_ledger", "gift_card_sales", "gift_card_changes"],
  rewards: ["reward_accounts", "reward_ledger", "reward_earnings", "reward_redemptions", "referrals"],
  whatsapp: ["whatsapp_subscriptions", "whatsapp_messages"],
  invoices: ["invoice_counter"],
  payments: ["payment_events"],
  returns: ["returns", "return_lines", "credit_note_counter"],
  cart: ["saved_carts"],
  couriers: ["shipments", "shipment_events", "courier_points", "courier_quote_cache"],
  reminders: ["reminders"],
  privacy: ["privacy_requests", "retention_runs"],
};

/**
 * Writes outside their owner still open (docs/architecture.md, "Still open"): "area table" → why. Remove a line when
 * its write moves to its owner (the test then insists).
 */
const STILL_OPEN: Record<string, string> = {
  // personal data erased by the account deletion flow and privacy's retention, table by table
  "flows contact_messages": "account deletion erases the person's messages",
  "flows mail_outbox": "account deletion erases the person's e-mails",
  "flows review_requests": "account deletion",
  "flows verifications": "account deletion",
  "flows rate_limits": "account deletion",
  "flows returns": "account deletion blanks return notes",
  "flows users": "account deletion deletes the user",
  "flows privacy_requests": "account deletion records its request",
  "flows consents": "account deletion forgets the consent log's e-mail",
  "flows payment_events": "the payment flow records the provider's events (docs/architecture.md: by design for now)",
  "privacy activity_log": "retention",
  "privacy contact_messages": "retention",
  "privacy mail_outbox": "retention",
  "privacy rate_limits": "retention",
  "privacy sessions": "retention",
  "privacy verifications": "retention",
  "reminders saved_carts": "a deleted person's and an old saved cart go with the reminders",
  // who may sign in, and settings written by the areas that keep them
  "accounts settings": "the admin-role lock's row",
  "backups settings": "the nightly backup's failure note",
  "consent users": "the marketing consent's columns on users",
  "staff users": "a person's staff role",
  // the product's one-size form copies its tiers to the size (catalog sits below pricing)
  "catalog product_tiers": "syncSingleSize gives tiers written on the product its first size",
  // paid orders loaded by the seed numbered in one statement
  "invoices orders": "numberUninvoicedPaidOrders (the benchmark seed's bulk load)",
  // the demo and benchmark seed fills the rest of a shop directly
  "demo users": "demo customers and the benchmark's",
  "demo reviews": "demo reviews",
  "demo shipping_zones": "demo zones",
  "demo shipping_rules": "demo rules",
  "demo shipping_zone_provinces": "demo zones",
  "demo coupons": "demo and benchmark coupons",
  "demo orders": "the benchmark's million orders",
  "demo order_lines": "the benchmark's orders",
  "demo order_metrics": "the benchmark's orders",
  "demo coupon_usage": "the benchmark's orders",
  "demo review_requests": "the benchmark's orders",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !TEST.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

const ownerOf = new Map(Object.entries(OWNERS).flatMap(([area, tables]) => tables.map((t) => [t, area] as const)));

const KYSELY = /\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*["'`]([a-z_]+)(?:\s+as\s+\w+)?["'`]/g;
const BULK = /\bbulkInsert(?:Chunked)?\(\s*\w+\s*,\s*["']([a-z_]+)["']/g;
const RAW = /\b(?:insert\s+into|delete\s+from)\s+"?([a-z_]+)"?|\bupdate\s+"?([a-z_]+)"?\s+set\b/gi;

interface Write {
  area: string;
  table: string;
  where: string;
}

/** Every write of every non-test file under app/modules/. */
function writes(): Write[] {
  const found: Write[] = [];
  for (const file of sourceFiles(MODULES)) {
    const area = file.slice(MODULES.length).split("/")[0]!;
    const text = readFileSync(join(root, file), "utf8");
    const lineOf = (index: number) => text.slice(0, index).split("\n").length;
    for (const m of text.matchAll(KYSELY)) found.push({ area, table: m[2]!, where: `${file}:${lineOf(m.index)}` });
    for (const m of text.matchAll(BULK)) found.push({ area, table: m[1]!, where: `${file}:${lineOf(m.index)}` });
    for (const m of text.matchAll(RAW)) {
      const table = (m[1] ?? m[2])!;
      // raw SQL names a known table; prose ("update the shop first") does not
      if (ownerOf.has(table)) found.push({ area, table, where: `${file}:${lineOf(m.index)}` });
    }
  }
  return found;
}

describe("each table is written only by its owning area", () => {
  const all = writes();

  it("finds the writes (the scan reads the code)", () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((w) => w.area === "catalog" && w.table === "products")).toBe(true);
  });

  it("every table written has an owner", () => {
    const unowned = [...new Set(all.filter((w) => !ownerOf.has(w.table)).map((w) => `${w.table} (${w.where})`))];
    expect(unowned, "tables written with no owner in OWNERS (add the table to its area)").toEqual([]);
  });

  it("no area writes another's table, and flows write none (they call the owners' functions)", () => {
    const foreign = all.filter((w) => ownerOf.has(w.table) && ownerOf.get(w.table) !== w.area && !(`${w.area} ${w.table}` in STILL_OPEN));
    expect(
      foreign.map((w) => `${w.where}: ${w.area} writes ${w.table}, owned by ${ownerOf.get(w.table)}`),
      "call a function of the owning area instead (e.g. orders/order-writes.server.ts, catalog/catalog-bulk.server.ts)",
    ).toEqual([]);
  });

  it("every exception still open still occurs (remove it once its write has moved)", () => {
    const seen = new Set(all.map((w) => `${w.area} ${w.table}`));
    expect(Object.keys(STILL_OPEN).filter((pair) => !seen.has(pair))).toEqual([]);
  });
});
