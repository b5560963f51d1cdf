/**
 * Admin → Activity at a million entries (docs/decisions/060): fills a throwaway database's activity_log with 1 000 000
 * entries (a few people, ~40 kinds, records of every type, three years of dates) and times the page's queries with each
 * filter, the first page and a deep keyset page, plus a record's history. Usage:
 *   tsx scripts/activity-bench.ts <sqlite file | postgres://…>   (the database is made and migrated; use a throwaway one)
 */
import { sql } from "kysely";
import { openDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { activityKinds, listActivity, recordHistory, type ActivityFilters } from "~/modules/activity/activity-admin.server";

const url = process.argv[2];
if (!url) throw new Error("usage: tsx scripts/activity-bench.ts <database url>");
const TOTAL = Number(process.env.ACTIVITY_ROWS ?? 1_000_000);
const handle = openDatabase(url);
const db = handle.db;
await migrateToLatest(db);

const people = Array.from({ length: 8 }, (_, i) => ({ id: `person-${i}`, email: `staff${i}@shop.test` }));
const types = ["product", "order", "coupon", "gift-card", "review", "zone", "settings", "return"];
const verbs = ["save", "status", "payment", "delete", "toggle"];
const start = Date.parse("2023-12-01T00:00:00Z");
const span = Date.parse("2026-12-01T00:00:00Z") - start;

const have = Number((await sql<{ n: number }>`select count(*) as n from activity_log`.execute(db)).rows[0]!.n);
if (have < TOTAL) {
  const t0 = performance.now();
  const batch = 2000;
  for (let i = have; i < TOTAL; i += batch) {
    const rows = [];
    for (let j = i; j < Math.min(TOTAL, i + batch); j++) {
      const type = types[j % types.length]!;
      const person = people[(j * 7) % people.length]!;
      rows.push({
        at: new Date(start + Math.floor((span * j) / TOTAL)).toISOString(),
        actor_id: person.id,
        actor_email: person.email,
        ip: `198.51.100.${j % 250}`,
        kind: `${type}.${verbs[(j >> 3) % verbs.length]}`,
        record_type: type,
        record_id: `${type}-${j % 20000}`,
        summary: `Entry ${j}: ${type} changed`,
        before: JSON.stringify({ price_cents: j % 1000, status: "pending" }),
        after: JSON.stringify({ price_cents: (j % 1000) + 100, status: "processing" }),
      });
    }
    await db.insertInto("activity_log").values(rows).execute();
  }
  if (url.startsWith("postgres")) await sql`analyze activity_log`.execute(db);
  else await sql`analyze`.execute(db);
  console.log(`inserted ${TOTAL - have} entries in ${Math.round(performance.now() - t0)} ms`);
}

const none: ActivityFilters = { person: "", kind: "", type: "", record: "", from: "", to: "" };
const deepCursor = Number((await sql<{ id: number }>`select id from activity_log order by id limit 1 offset 500000`.execute(db)).rows[0]!.id);
const cases: Array<[string, Partial<ActivityFilters>, { before?: number }]> = [
  ["first page, no filter", {}, {}],
  ["deep page (id ~500 000), no filter", {}, { before: deepCursor }],
  ["person", { person: "person-3" }, {}],
  ["person, deep page", { person: "person-3" }, { before: deepCursor }],
  ["kind", { kind: "order.status" }, {}],
  ["record type", { type: "coupon" }, {}],
  ["record type + id", { type: "order", record: "order-1234" }, {}],
  ["dates (one month)", { from: "2025-03-01", to: "2025-03-31" }, {}],
  ["person + kind + dates (none match)", { person: "person-5", kind: "product.save", from: "2024-06-01", to: "2024-12-31" }, {}],
  ["person + kind + dates (matching)", { person: "person-5", kind: "gift-card.save", from: "2024-06-01", to: "2024-12-31" }, {}],
  ["kind + record type (none match)", { kind: "order.status", type: "coupon" }, {}],
  ["person + record type (none match)", { person: "person-5", type: "coupon" }, {}],
  ["person + kind + record type (none match)", { person: "person-5", kind: "gift-card.save", type: "coupon" }, {}],
  ["rare kind (no match)", { kind: "nothing.here" }, {}],
];
async function time(label: string, run: () => Promise<unknown>) {
  await run(); // warm
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(40)} median ${times[2]!.toFixed(2)} ms  max ${times[4]!.toFixed(2)} ms`);
}
for (const [label, filters, cursor] of cases) await time(label, () => listActivity(db, { ...none, ...filters }, cursor));
await time("the kinds (filter choices)", () => activityKinds(db));
await time("a record's history (order page)", () => recordHistory(db, "order", "order-1234"));
await handle.close();
