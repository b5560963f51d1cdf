/**
 * Hostile input, on every action field and every query parameter (and route parameter), on SQLite and on
 * PostgreSQL (run by hostile-actions.int.test.ts and hostile-loaders.int.test.ts: two files, so the halves share the
 * cores instead of one file of 47 s on PostgreSQL ending the run alone): each value of tests/fuzz/corpus.ts replaces one field of a valid request at a time, and each action
 * also gets bodies that are not forms. Whatever comes in:
 * - the answer is never a 5xx (a thrown error counts as one);
 * - where the answer is a refusal (4xx), the catalogue, orders, coupons and users are exactly as before.
 *
 * A new action or loader joins with ONE line in ACTIONS or LOADERS below (a valid form or query; every key of it is
 * fuzzed), like the authorization matrix.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, isPostgres, type DB } from "~/db/db.server";
import { callAction, callActionRaw, callLoader, statusOf } from "../setup/route";
import { createUser, DEFAULT_TEST_PASSWORD, sessionCookieFor } from "../factories/users";
import { insertCategory, insertProduct, insertReview } from "../factories/catalog";
import { insertCoupon, insertZone } from "../factories/orders";
import { insertAwaitingOrder } from "../factories/payments";
import { installWriteMark, readWhileUnwritten } from "../setup/write-mark";
import { HOSTILE_VALUES, NON_FORM_BODIES, REPEATED_FIELD_VALUES } from "./corpus";
import { unsubscribeUrl } from "~/modules/marketing/unsubscribe.server";

type Actor = "visitor" | "customer" | "admin";
type RouteModule = { loader?: (args: any) => unknown; action?: (args: any) => unknown };

interface Fixture {
  customerId: string;
  adminId: string;
  customerEmail: string;
  productId: string;
  productSlug: string;
  categoryId: string;
  categorySlug: string;
  orderId: string;
  checkoutId: string;
  reviewId: string;
  zoneId: string;
}

interface FuzzAction {
  path: string;
  route: () => Promise<RouteModule>;
  as: Actor;
  /** A valid form; each key in turn gets every hostile value. */
  form: (f: Fixture) => Record<string, string>;
  params?: (f: Fixture) => Record<string, string>;
}

interface FuzzLoader {
  path: string;
  route: () => Promise<RouteModule>;
  as: Actor;
  /** A valid query; each key in turn gets every hostile value. */
  query: (f: Fixture) => Record<string, string>;
  /** Route parameters; each is fuzzed too. */
  params?: (f: Fixture) => Record<string, string>;
}

const ADDRESS = { name: "Thandi Nkosi", telephone: "0821234567", street: "1 Main Rd", suburb: "Sea Point", city: "Cape Town", postalCode: "8005", province: "Western Cape" };

const ACTIONS: FuzzAction[] = [
  { path: "/", route: () => import("~/routes/home"), as: "visitor", form: () => ({ name: "Thandi", email: "thandi@example.co.za", message: "Do you ship to Durban?" }) },
  { path: "/auth/login", route: () => import("~/routes/auth.login"), as: "visitor", form: (f) => ({ email: f.customerEmail, password: DEFAULT_TEST_PASSWORD, redirect: "/shop" }) },
  { path: "/auth/register", route: () => import("~/routes/auth.register"), as: "visitor", form: () => ({ email: "new.shopper@example.co.za", password: "a long enough passphrase", redirect: "/checkout" }) },
  { path: "/auth/forgot-password", route: () => import("~/routes/auth.forgot-password"), as: "visitor", form: (f) => ({ email: f.customerEmail }) },
  { path: "/auth/reset-password", route: () => import("~/routes/auth.reset-password"), as: "visitor", form: () => ({ token: "no-such-token", password: "a long enough passphrase", confirmPassword: "a long enough passphrase" }) },
  { path: "/auth/logout", route: () => import("~/routes/auth.logout"), as: "customer", form: () => ({ unused: "x" }) },
  { path: "/profile/preferences", route: () => import("~/routes/profile.preferences"), as: "customer", form: () => ({ intent: "preferences", emailNotifications: "on", emailMarketing: "on" }) },
  { path: "/profile?index", route: () => import("~/routes/profile._index"), as: "customer", form: () => ({ intent: "password", currentPassword: "not the password", newPassword: "a brand new passphrase" }) },
  { path: "/profile/my-data", route: () => import("~/routes/profile.my-data"), as: "customer", form: () => ({ intent: "download" }) },
  { path: "/profile/delete-account", route: () => import("~/routes/profile.delete-account"), as: "customer", form: () => ({ password: "not the password" }) },
  { path: "/checkout", route: () => import("~/routes/checkout"), as: "customer", form: (f) => ({ ...ADDRESS, zoneId: "", couponCode: "", lines: JSON.stringify([{ productId: f.productId, quantity: 1 }]), checkoutToken: crypto.randomUUID(), paymentMethod: "card" }) },
  { path: "/pay/simulated", route: () => import("~/routes/pay.simulated"), as: "customer", form: () => ({ intent: "cancel" }), params: (f) => ({ checkoutId: f.checkoutId }) },
  { path: "/api/reviews", route: () => import("~/routes/api.reviews"), as: "customer", form: (f) => ({ productId: f.productId, productSlug: f.productSlug, rating: "5", comment: "Lovely" }) },
  { path: "/api/coupons/validate", route: () => import("~/routes/api.coupons.validate"), as: "visitor", form: (f) => ({ code: "FUZZ10", orderTotal: "40000", lines: JSON.stringify([{ productId: f.productId, quantity: 1 }]), zoneId: "" }) },
  { path: "/admin/categories", route: () => import("~/routes/admin.categories"), as: "admin", form: () => ({ intent: "add", name: "Fuzzed Category" }) },
  { path: "/admin/categories", route: () => import("~/routes/admin.categories"), as: "admin", form: () => ({ intent: "delete", id: "no-such-category" }) },
  { path: "/admin/products", route: () => import("~/routes/admin.products"), as: "admin", form: () => ({ intent: "delete", id: "no-such-product" }) },
  { path: "/admin/inbox", route: () => import("~/routes/admin.inbox"), as: "admin", form: () => ({ intent: "read", id: "no-such-message" }) },
  { path: "/admin/products/add", route: () => import("~/routes/admin.products.add"), as: "admin", form: (f) => ({ intent: "save", name: "Fuzzed Scent", price: "349.99", slug: "", categoryId: f.categoryId, description: "x", metaTitle: "", metaDesc: "", images: "[]", stock: "5", stockWas: "", inspiredHouse: "Dior", inspiredFragrance: "Sauvage", weightGrams: "420" }) },
  { path: "/admin/products/edit", route: () => import("~/routes/admin.products.edit"), as: "admin", form: (f) => ({ intent: "save", id: f.productId, name: "Fuzz Edit", price: "100", slug: f.productSlug, categoryId: f.categoryId, images: "[]", stock: "3", stockWas: "", inspiredHouse: "Chanel", inspiredFragrance: "Coco Mademoiselle", weightGrams: "" }), params: (f) => ({ id: f.productId }) },
  { path: "/admin/products/images", route: () => import("~/routes/admin.products.images"), as: "admin", form: () => ({ image: "x" }) },
  { path: "/admin/pricing", route: () => import("~/routes/admin.pricing"), as: "admin", form: (f) => ({ intent: "add", productId: f.productId, minQuantity: "200", maxQuantity: "", price: "99.00" }) },
  { path: "/admin/reviews", route: () => import("~/routes/admin.reviews"), as: "admin", form: (f) => ({ intent: "update", id: f.reviewId, rating: "4", comment: "Edited by the fuzz" }) },
  { path: "/admin/users", route: () => import("~/routes/admin.users"), as: "admin", form: (f) => ({ intent: "update", id: f.customerId, emailNotifications: "on" }) },
  { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), as: "admin", form: () => ({ intent: "save", code: "FUZZSAVE", discountType: "fixed_amount", discountValue: "25.00", minimumSpend: "0", maxRedemptions: "", startDate: "2026-06-01", endDate: "2026-06-30", description: "" }) },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), as: "admin", form: (f) => ({ intent: "status", id: f.orderId, status: "processing" }) },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), as: "admin", form: (f) => ({ intent: "update", id: f.orderId, ...ADDRESS, "line.0.id": "no-such-line", "line.0.quantity": "2", "line.0.unitPrice": "99.50", notes: "fuzz", trackingNumber: "FZ1" }) },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), as: "admin", form: (f) => ({ intent: "email", id: f.orderId }) },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), as: "admin", form: () => ({ intent: "saveZone", name: "Fuzzed Zone", baseRate: "85.00", provinces: "Limpopo" }) },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), as: "admin", form: () => ({ intent: "deleteZone", id: "no-such-zone" }) },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), as: "admin", form: (f) => ({ intent: "saveRule", zoneId: f.zoneId, minTotal: "1000.00", maxTotal: "", rate: "10.00" }) },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), as: "admin", form: () => ({ intent: "deleteRule", id: "no-such-rule" }) },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), as: "admin", form: () => ({ intent: "saveDelivery", collectionCompany: "Scentara", collectionStreet: "12 Main Road", collectionSuburb: "Rondebosch", collectionCity: "Cape Town", collectionProvince: "Western Cape", collectionCode: "7700", contactName: "Dispatch", contactMobile: "0821234567", contactEmail: "hello@scentara.co.za", boxLength: "25", boxWidth: "18", boxHeight: "12", bottleWeight: "350", packagingWeight: "250", doorMode: "quote", doorMargin: "-10.00", doorFlat: "99.00", lockerMode: "flat", lockerMargin: "0", lockerFlat: "60.00", pointMode: "quote", pointMargin: "5", pointFlat: "60" }) },
  { path: "/webhooks/payments/simulated", route: () => import("~/routes/webhooks.payments"), as: "visitor", form: () => ({ type: "payment.succeeded" }), params: () => ({ provider: "simulated" }) },
  { path: "/admin/marketing/new", route: () => import("~/routes/admin.marketing.$id"), as: "admin", form: (f) => ({ intent: "save", id: "new", subject: "Fuzzed news", body: "Hello\n\nThere", product1: f.productSlug, product2: "" }), params: () => ({ id: "new" }) },
  { path: "/admin/marketing/x", route: () => import("~/routes/admin.marketing.$id"), as: "admin", form: () => ({ intent: "send", id: "no-such-announcement" }), params: () => ({ id: "no-such-announcement" }) },
  { path: "/admin/marketing", route: () => import("~/routes/admin.marketing"), as: "admin", form: () => ({ intent: "delete", id: "no-such-announcement" }) },
  { path: "/unsubscribe", route: () => import("~/routes/unsubscribe"), as: "visitor", form: (f) => ({ token: new URL(unsubscribeUrl(f.customerId)).searchParams.get("token")! }) },
  { path: "/unsubscribe/one-click", route: () => import("~/routes/unsubscribe.one-click"), as: "visitor", form: (f) => ({ token: new URL(unsubscribeUrl(f.customerId)).searchParams.get("token")!, "List-Unsubscribe": "One-Click" }) },
  { path: "/orders/x/return", route: () => import("~/routes/orders.return"), as: "customer", form: () => ({ reason: "changed_mind", "qty.x": "1", opened: "on", note: "Too sweet" }), params: (f) => ({ id: f.orderId }) },
  { path: "/admin/returns/x", route: () => import("~/routes/admin.returns.$id"), as: "admin", form: () => ({ intent: "refund", id: "no-such-return", amount: "100.00", method: "provider", reference: "FNB 1" }), params: () => ({ id: "no-such-return" }) },
  { path: "/admin/returns/x", route: () => import("~/routes/admin.returns.$id"), as: "admin", form: () => ({ intent: "receive", id: "no-such-return", "restock.x": "1" }), params: () => ({ id: "no-such-return" }) },
];

const LOADERS: FuzzLoader[] = [
  { path: "/shop", route: () => import("~/routes/shop"), as: "visitor", query: (f) => ({ q: "amber", category: f.categorySlug, house: "Dior", maxPrice: "900", page: "1" }) },
  { path: "/products", route: () => import("~/routes/product"), as: "visitor", query: () => ({ size: "50ml" }), params: (f) => ({ slug: f.productSlug }) },
  { path: "/cart", route: () => import("~/routes/cart"), as: "customer", query: (f) => ({ quote: JSON.stringify([{ productId: f.productId, quantity: 2 }]), coupon: "FUZZ10", zone: "" }) },
  { path: "/order-confirmation", route: () => import("~/routes/order-confirmation"), as: "customer", query: (f) => ({ id: f.orderId }) },
  { path: "/orders/x/invoice.pdf", route: () => import("~/routes/orders.invoice[.]pdf"), as: "customer", query: () => ({}), params: (f) => ({ id: f.orderId }) },
  { path: "/payment-status", route: () => import("~/routes/payment-status"), as: "customer", query: (f) => ({ orderId: f.orderId, status: "success" }) },
  { path: "/auth/login", route: () => import("~/routes/auth.login"), as: "visitor", query: () => ({ redirect: "/checkout", registered: "1" }) },
  { path: "/auth/register", route: () => import("~/routes/auth.register"), as: "visitor", query: () => ({ redirect: "/checkout" }) },
  { path: "/auth/reset-password", route: () => import("~/routes/auth.reset-password"), as: "visitor", query: () => ({ token: "no-such-token" }) },
  { path: "/profile", route: () => import("~/routes/profile"), as: "customer", query: () => ({ tab: "orders" }) },
  { path: "/profile", route: () => import("~/routes/profile._index"), as: "customer", query: () => ({ updated: "password", data: "busy" }) },
  { path: "/profile/delete-account", route: () => import("~/routes/profile.delete-account"), as: "customer", query: () => ({ done: "1" }) },
  { path: "/admin/privacy", route: () => import("~/routes/admin.privacy"), as: "admin", query: () => ({}) },
  { path: "/api/reviews", route: () => import("~/routes/api.reviews"), as: "customer", query: (f) => ({ productId: f.productId }) },
  { path: "/pay/simulated", route: () => import("~/routes/pay.simulated"), as: "customer", query: () => ({}), params: (f) => ({ checkoutId: f.checkoutId }) },
  { path: "/payment/eft", route: () => import("~/routes/payment.eft"), as: "customer", query: () => ({}), params: (f) => ({ orderId: f.orderId }) },
  { path: "/pay/form", route: () => import("~/routes/pay.form"), as: "customer", query: () => ({}), params: (f) => ({ orderId: f.orderId }) },
  { path: "/admin/categories", route: () => import("~/routes/admin.categories"), as: "admin", query: () => ({ confirm: "x" }) },
  { path: "/admin", route: () => import("~/routes/admin._index"), as: "admin", query: () => ({ from: "2026-03-01", to: "2026-03-31", grouping: "week" }) },
  { path: "/admin/sales.csv", route: () => import("~/routes/admin.sales[.]csv"), as: "admin", query: () => ({ dataset: "coupons", from: "2026-03-01", to: "2026-03-31", grouping: "day" }) },
  { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), as: "admin", query: () => ({ q: "fuzz", status: "active", page: "1", edit: "new" }) },
  { path: "/admin/users", route: () => import("~/routes/admin.users"), as: "admin", query: () => ({ q: "example", role: "admin", page: "1" }) },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), as: "admin", query: () => ({ status: "pending", q: "3f2a9c1e", page: "2", edit: "x", confirm: "x" }) },
  { path: "/admin/reviews", route: () => import("~/routes/admin.reviews"), as: "admin", query: (f) => ({ q: "lovely", rating: "5", page: "1", edit: f.reviewId }) },
  { path: "/admin/pricing", route: () => import("~/routes/admin.pricing"), as: "admin", query: () => ({ q: "amber", page: "1" }) },
  { path: "/admin/products/edit", route: () => import("~/routes/admin.products.edit"), as: "admin", query: () => ({}), params: (f) => ({ id: f.productId }) },
  { path: "/admin/inbox", route: () => import("~/routes/admin.inbox"), as: "admin", query: () => ({ box: "sent", page: "2" }) },
  { path: "/admin/products", route: () => import("~/routes/admin.products"), as: "admin", query: (f) => ({ q: "rose", category: "none", page: "2", confirm: f.productId }) },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), as: "admin", query: (f) => ({ confirm: f.zoneId, edit: "new" }) },
  { path: "/orders/x/return", route: () => import("~/routes/orders.return"), as: "customer", query: () => ({ requested: "1" }), params: (f) => ({ id: f.orderId }) },
  { path: "/returns/x/credit-note.pdf", route: () => import("~/routes/returns.credit-note[.]pdf"), as: "customer", query: () => ({}), params: () => ({ id: "no-such-return" }) },
  { path: "/admin/returns", route: () => import("~/routes/admin.returns"), as: "admin", query: () => ({ tab: "overdue", page: "2" }) },
  { path: "/admin/returns/x", route: () => import("~/routes/admin.returns.$id"), as: "admin", query: () => ({}), params: () => ({ id: "no-such-return" }) },
  { path: "/admin/marketing", route: () => import("~/routes/admin.marketing"), as: "admin", query: () => ({ page: "2", confirm: "x" }) },
  { path: "/admin/marketing/new", route: () => import("~/routes/admin.marketing.$id"), as: "admin", query: () => ({ confirm: "send", saved: "1" }), params: () => ({ id: "new" }) },
  { path: "/admin/users", route: () => import("~/routes/admin.users"), as: "admin", query: (f) => ({ consents: f.customerId }) },
  { path: "/admin/consents.csv", route: () => import("~/routes/admin.consents[.]csv"), as: "admin", query: () => ({}) },
  { path: "/unsubscribe", route: () => import("~/routes/unsubscribe"), as: "visitor", query: (f) => ({ token: new URL(unsubscribeUrl(f.customerId)).searchParams.get("token")! }) },
  { path: "/unsubscribe/one-click", route: () => import("~/routes/unsubscribe.one-click"), as: "visitor", query: (f) => ({ token: new URL(unsubscribeUrl(f.customerId)).searchParams.get("token")! }) },
  { path: "/scent-finder", route: () => import("~/routes/scent-finder"), as: "visitor", query: () => ({ for: "men", when: "evening", family: "woody", love: "Tom Ford", strength: "strong", budget: "600" }) },
];

/** What a refusal must leave alone. */
const GUARDED_TABLES = ["products", "categories", "product_tiers", "reviews", "orders", "order_lines", "coupons", "coupon_usage", "users", "shipping_zones", "shipping_rules", "shipping_zone_provinces", "returns", "return_lines", "consents", "announcements", "announcement_recipients"] as const;

/**
 * Every guarded table's rows, as one fingerprint per table (row count and every row's text), read in ONE query.
 * The fuzz makes about 13 000 calls and reads this before and after each refusal: a `select *` per table into
 * JavaScript objects took 80 of the 136 s on PostgreSQL. The database renders and orders the rows itself (PostgreSQL
 * a digest of `row::text`; SQLite `quote()` of each column, as it has no row-to-text), and a difference still names
 * its table.
 */
let fingerprintQuery: string | undefined;
/** PostgreSQL's fingerprint of one table (the function fuzz_fingerprint reads them all: installGuards). */
const pgFingerprintOf = (table: string) => `(select count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') from "${table}" t)`;
async function guardedState(db: DB): Promise<Record<string, string>> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ state: Record<string, string> }>`select fuzz_fingerprint() as state`.execute(db);
    return { ...rows[0]!.state };
  }
  if (!fingerprintQuery) {
    const parts: string[] = [];
    for (const table of GUARDED_TABLES) {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
      const row = rows.map((c) => `quote("${c.name}")`).join(" || ',' || ");
      parts.push(`(select count(*) || ':' || coalesce(group_concat(r, '|'), '') from (select ${row} as r from "${table}" order by 1)) as "${table}"`);
    }
    fingerprintQuery = `select ${parts.join(", ")}`;
  }
  const { rows } = await sql<Record<string, string>>`${sql.raw(fingerprintQuery)}`.execute(db);
  return { ...rows[0] };
}

/**
 * The fingerprint costs a few milliseconds and the fuzz needs one around each of ~10 000 refusals, so a cheap write
 * mark (tests/setup/write-mark.ts) says when it can't have changed: the fingerprint is read again only when the mark
 * has moved. On PostgreSQL the fingerprint is a function too, planned once per connection rather than at each read.
 */
async function installGuards(db: DB) {
  await installWriteMark(db, GUARDED_TABLES);
  if (isPostgres(db)) {
    await sql`create function fuzz_fingerprint() returns json language plpgsql stable as $$ begin return json_build_object(${sql.raw(GUARDED_TABLES.map((t) => `'${t}', ${pgFingerprintOf(t)}`).join(", "))}); end $$`.execute(db);
  }
}

/** The guarded tables' fingerprint, read again only when the write mark has moved since it was last read. */
const stateNow = readWhileUnwritten(guardedState);

const fixture = {} as Fixture;
const figures = { calls: 0, fiveXX: 0, refusals: 0 };

/**
 * Sessions are read once and reused while they hold: a session while its row exists (sign-out deletes it). The
 * guarded state is reused while the write mark stands still (stateNow).
 */
const sessions = new Map<Actor, { cookie: string; token: string }>();

async function headersFor(as: Actor): Promise<Record<string, string>> {
  if (as === "visitor") return {};
  const db = getDb();
  let session = sessions.get(as);
  if (session && !(await db.selectFrom("sessions").select("id").where("token", "=", session.token).executeTakeFirst())) session = undefined;
  if (!session) {
    const cookie = await sessionCookieFor(db, as === "admin" ? fixture.adminId : fixture.customerId);
    session = { cookie, token: decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)).split(".")[0] };
    sessions.set(as, session);
  }
  return { cookie: session.cookie };
}

/**
 * What a probe checks of the guarded tables: "refusals" (actions) — a refused call changed nothing; "every" — no call
 * changed anything, whatever it answered; "none" — the caller compares once around a series of calls (loaders).
 */
type StateCheck = "refusals" | "every" | "none";

/**
 * The guarded state as the last probe's check read it after its call: the next probe's "before", since nothing runs
 * between two probes but their headers (a session row, which is not guarded). One read fewer around each of ~10 000
 * refusals. Forgotten as a call starts, and before each test (a test may write between its probes).
 */
let stateAfterLastProbe: Record<string, string> | undefined;

/** One call: never 5xx; and the guarded tables as `check` says. Returns the status. */
async function probe(label: string, as: Actor, call: (headers: Record<string, string>) => Promise<unknown>, check: StateCheck = "refusals"): Promise<number> {
  const db = getDb();
  const headers = await headersFor(as);
  const before = check === "none" ? undefined : (stateAfterLastProbe ?? (await stateNow(db)));
  stateAfterLastProbe = undefined;
  let status: number;
  try {
    status = statusOf(await call(headers));
  } catch (error) {
    status = 500; // what the HTTP server would answer for a thrown error
    console.error(label, error);
  }
  figures.calls += 1;
  if (status >= 500) figures.fiveXX += 1;
  expect(status, label).toBeLessThan(500);
  if (status >= 400) figures.refusals += 1;
  if (check === "every" || (check === "refusals" && status >= 400)) {
    const after = await stateNow(db);
    expect(after, `${label}: answered ${status} but changed the data`).toEqual(before);
    stateAfterLastProbe = after;
  }
  return status;
}

function variants(base: Record<string, string>, key: string): Array<{ label: string; form: Record<string, string | string[]> }> {
  return [
    ...HOSTILE_VALUES.map((value) => ({ label: `${key}=${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? `…(${value.length})` : ""}`, form: { ...base, [key]: value } })),
    { label: `${key} repeated`, form: { ...base, [key]: [...REPEATED_FIELD_VALUES] } },
  ];
}



/** The shop the probes run against, made once per test file, and the figures printed after it. */
function useFixture(what: string) {
  beforeAll(async () => {
    const db = getDb();
    const customer = await createUser(db);
    const admin = await createUser(db, { isAdmin: true });
    const category = await insertCategory(db);
    const product = await insertProduct(db, { category_id: category.id });
    await insertCoupon(db, { code: "FUZZ10" });
    const order = await insertAwaitingOrder(db, { userId: customer.id, lines: [{ productId: product.id, quantity: 1 }] });
    const review = await insertReview(db, product.id, { comment: "Lovely" });
    const zone = await insertZone(db, { rules: [{ minTotalCents: 0, maxTotalCents: 99999, rateCents: 6000 }] });
    await installGuards(db);
    Object.assign(fixture, {
      customerId: customer.id,
      adminId: admin.id,
      customerEmail: customer.email,
      productId: product.id,
      productSlug: product.slug,
      categoryId: category.id,
      categorySlug: category.slug,
      orderId: order.id,
      checkoutId: order.checkoutId,
      reviewId: review.id,
      zoneId: zone.id,
    });
  });

  afterAll(() => {
    console.log(`hostile input, ${what} (${process.env.TEST_DB}): ${HOSTILE_VALUES.length} values + a repeated field; ${figures.calls} calls, ${figures.refusals} refusals, ${figures.fiveXX} answers of 5xx`);
  });
  beforeEach(() => {
    stateAfterLastProbe = undefined;
  });
}

/** Every action (hostile-actions.int.test.ts). */
export function fuzzActions() {
  useFixture("actions");
  describe.each(ACTIONS)("action $path ($as)", (entry) => {
    it("every hostile value in every field: no 5xx, refusals change nothing", { timeout: 240_000 }, async () => {
      const { action } = await entry.route();
      const base = entry.form(fixture);
      const params = entry.params?.(fixture) ?? {};
      for (const key of [...Object.keys(base), "unexpected"]) {
        for (const { label, form } of variants(base, key)) {
          await probe(`${entry.path} ${label}`, entry.as, (headers) => callAction(action!, entry.path, form, { headers, params }));
        }
      }
      for (const key of Object.keys(params)) {
        for (const value of HOSTILE_VALUES) {
          await probe(`${entry.path} :${key}=${JSON.stringify(value.slice(0, 40))}`, entry.as, (headers) => callAction(action!, entry.path, base, { headers, params: { ...params, [key]: value } }));
        }
      }
    });

    it.each(NON_FORM_BODIES)("a body that is not a form ($label) gets 400 or 415", async ({ label, contentType, body }) => {
      const { action } = await entry.route();
      const params = entry.params?.(fixture) ?? {};
      const status = await probe(`${entry.path} ${label}`, entry.as, (headers) => callActionRaw(action!, entry.path, body, contentType, { headers, params }));
      // The webhook authenticates its raw body by signature (any body without one is 400/401); everything else reads a form.
      if (entry.path.startsWith("/webhooks/")) expect([400, 401]).toContain(status);
      // The coupon endpoint also takes JSON: a JSON body is read, the others refused.
      else if (entry.path === "/api/coupons/validate" && contentType === "application/json") expect(status).toBeLessThan(500);
      else expect([400, 415]).toContain(status);
    });
  });
}

/** Every loader (hostile-loaders.int.test.ts). */
export function fuzzLoaders() {
  useFixture("loaders");
  describe.each(LOADERS)("loader $path ($as)", (entry) => {
    // A loader only reads: the guarded tables are compared once around all of its ~300 calls (reading them around each
    // call was half the run's time); FUZZ_CHECK_EACH=1 compares around each call, to name the value that changed them.
    it("every hostile value in every query and route parameter: no 5xx, nothing changes", { timeout: 240_000 }, async () => {
      const { loader } = await entry.route();
      const db = getDb();
      const check: StateCheck = process.env.FUZZ_CHECK_EACH === "1" ? "every" : "none";
      const before = await stateNow(db);
      const base = entry.query(fixture);
      const params = entry.params?.(fixture) ?? {};
      const pathFor = (query: Record<string, string | string[]>) => {
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
        return `${entry.path}?${search}`;
      };
      for (const key of [...Object.keys(base), "unexpected"]) {
        for (const { label, form } of variants(base, key)) {
          await probe(`${entry.path} ${label}`, entry.as, (headers) => callLoader(loader!, pathFor(form), { headers, params }), check);
        }
      }
      for (const key of Object.keys(params)) {
        for (const value of HOSTILE_VALUES) {
          await probe(`${entry.path} :${key}=${JSON.stringify(value.slice(0, 40))}`, entry.as, (headers) => callLoader(loader!, pathFor(base), { headers, params: { ...params, [key]: value } }), check);
        }
      }
      const after = await stateNow(db);
      expect(after, `${entry.path}: hostile queries changed the data (FUZZ_CHECK_EACH=1 names the value)`).toEqual(before);
    });

    // Loaders that read a query refuse a NUL in it themselves (for the others the HTTP server does: server/input-guards.ts).
    if (Object.keys(entry.query({} as Fixture)).length > 0) {
      it("a NUL byte in the query is refused with 400", async () => {
        const { loader } = await entry.route();
        const params = entry.params?.(fixture) ?? {};
        const status = await probe(`${entry.path} ?x=%00`, entry.as, (headers) => callLoader(loader!, `${entry.path}?x=%00`, { headers, params }));
        expect(status).toBe(400);
      });
    }
  });
}
