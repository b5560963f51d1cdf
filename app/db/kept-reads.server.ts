import { sql } from "kysely";
import { requestScope } from "~/utils/logger.server";
import type { Queryable } from "./db.server";

/**
 * Reads kept in this process until the data they read changes (docs/decisions/042): the admin's heaviest reads at a
 * million orders (the dashboard's figures, the order tabs' counts, a search's customers and counts) are given again
 * while the counts of changes of their topics stand (migration 0030: triggers count every insert, update and delete,
 * by any process, on each topic's tables).
 * - `orders`: orders, order_lines, order_metrics, returns;
 * - `customers`: users;
 * - `reviews`: reviews, review_requests;
 * - `catalog`: products, categories, coupons, shipping_zones;
 * - `sums`: the settled days' stored sums (order_day_totals, order_day_coupons, order_day_returning: migration 0031);
 * - `sellers`: the settled days' stored sellers (order_day_sellers: migration 0031);
 * - `old-orders`: orders older than 20 hours (their days marked stale, order_days_stale: migration 0031).
 */
export type ChangeTopic = "orders" | "customers" | "reviews" | "catalog" | "sums" | "sellers" | "old-orders";

/** Each topic's count of changes (migration 0030: the sum of its slots). */
export function dataChanges(db: Queryable): Promise<Record<ChangeTopic, string>> {
  return sharedWhileInFlight(db, "data_changes", () => readDataChanges(db));
}

async function readDataChanges(db: Queryable): Promise<Record<ChangeTopic, string>> {
  const { rows } = await sql<{ topic: ChangeTopic; n: unknown }>`select topic, sum(n) as n from data_changes group by topic`.execute(db);
  const counts: Record<ChangeTopic, string> = { orders: "0", customers: "0", reviews: "0", catalog: "0", sums: "0", sellers: "0", "old-orders": "0" };
  for (const r of rows) counts[r.topic] = String(r.n ?? 0);
  return counts;
}

const kept = new WeakMap<object, Map<string, { changes: string; value: Promise<unknown> }>>();
const KEPT_MAX = 32;

/**
 * What `read` gives, kept in this process (per database) until one of `topics` changes. The counts are read first,
 * so a change committed while `read` runs leaves the kept value under the older counts and the next call reads again.
 * Inside a transaction it always reads (its own changes are not yet anyone's). `keep` may refuse to keep a value (a
 * large one: the kept reads are few, KEPT_MAX, and meant to be small).
 */
export async function keptWhileUnchanged<T>(
  db: Queryable,
  key: string,
  read: () => Promise<T>,
  options: { topics?: readonly ChangeTopic[]; keep?: (value: T) => boolean } = {},
): Promise<T> {
  if (db.isTransaction) return read();
  const counts = await dataChanges(db);
  const changes = (options.topics ?? ["orders"]).map((t) => `${t}:${counts[t]}`).join(" ");
  let values = kept.get(db);
  if (!values) kept.set(db, (values = new Map()));
  const hit = values.get(key);
  if (hit && hit.changes === changes) return hit.value as Promise<T>;
  const value = read();
  if (values.size >= KEPT_MAX) values.delete(values.keys().next().value!);
  values.set(key, { changes, value });
  const forget = () => {
    if (values.get(key)?.value === value) values.delete(key);
  };
  value.then((v) => {
    if (options.keep && !options.keep(v)) forget();
  }, forget);
  return value;
}

const inFlight = new WeakMap<object, WeakMap<object, Map<string, Promise<unknown>>>>();

/**
 * One read for the calls that one request makes while it is in flight: a page's loaders ask for their figures all at
 * once, and each figure checks the same counts (a dozen identical small queries, each a round trip on PostgreSQL).
 * Only within a request, and only while the read runs: a call made after it has finished reads again, so a loader that
 * runs after its request's action (the action's writes committed) never gets a read made before them; nor does one
 * request ever get another's. Outside a request, and inside a transaction, every call reads.
 */
export function sharedWhileInFlight<T>(db: Queryable, key: string, read: () => Promise<T>): Promise<T> {
  const scope = requestScope.getStore();
  if (!scope || db.isTransaction) return read();
  let byDb = inFlight.get(scope);
  if (!byDb) inFlight.set(scope, (byDb = new WeakMap()));
  let reads = byDb.get(db);
  if (!reads) byDb.set(db, (reads = new Map()));
  const running = reads.get(key);
  if (running) return running as Promise<T>;
  const value = read();
  reads.set(key, value);
  const done = () => {
    if (reads.get(key) === value) reads.delete(key);
  };
  value.then(done, done);
  return value;
}
