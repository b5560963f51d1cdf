/**
 * Who changed what (issue 38 point 3, docs/decisions/060), on SQLite and PostgreSQL: an admin change and its log entry
 * commit or roll back together; the entry holds who, the address, the record and only the fields that changed; Admin →
 * Activity filters and pages by keyset; its CSV streams and is itself logged; nobody can change or delete an entry
 * younger than 5 years; the retention job deletes older ones at the clock it is given; a backup carries the log.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, openDatabase, type DB } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import { activityPeople } from "~/modules/activity/activity-admin.server";
import { migrateToLatest } from "~/db/migrate.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { createBackup } from "~/modules/backups/backup.server";
import { restoreBackup } from "~/modules/backups/restore.server";
import { DEFAULT_RETENTION } from "~/modules/privacy/retention.logic";
import { applyRetention } from "~/modules/privacy/retention.server";
import { DomainError } from "~/utils/errors";
import { createThrowawayDatabase } from "../../../tests/setup/pg-database";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { insertCategory, insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, insertOrder } from "../../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import * as activityRoute from "../../routes/admin.activity";
import * as activityCsv from "../../routes/admin.activity[.]csv";
import * as couponsRoute from "../../routes/admin.coupons";
import * as ordersRoute from "../../routes/admin.orders";
import * as productEdit from "../../routes/admin.products.edit";
import { recordActivity } from "./activity.server";

const db = () => getDb();
const IP = "203.0.113.7";
let admin = { id: "", email: "", cookie: "" };
let other = { id: "", email: "", cookie: "" };

beforeAll(async () => {
  const a = await createUser(db(), { isAdmin: true, email: "owner@activity.test" });
  admin = { id: a.id, email: a.email, cookie: await sessionCookieFor(db(), a.id) };
  const b = await createUser(db(), { isAdmin: true, email: "manager@activity.test" });
  other = { id: b.id, email: b.email, cookie: await sessionCookieFor(db(), b.id) };
});

// the summary read as `text`: on SQLite a column named summary is read as JSON (another table's is)
const COLUMNS = ["id", "kind", "actor_id", "actor_email", "ip", "record_type", "record_id", "summary as text", "before", "after"] as const;
const entriesOf = (type: string, id: string) =>
  db().selectFrom("activity_log").select(COLUMNS).where("record_type", "=", type).where("record_id", "=", id).orderBy("id").execute();
const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
const count = async () => Number((await db().selectFrom("activity_log").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

describe("an admin change and its entry, together", () => {
  it("a coupon saved and switched off: who, the address, the record, and only the fields that changed", async () => {
    const post = (form: Record<string, string>) => callAction(couponsRoute.action, "/admin/coupons", form, { headers: { cookie: admin.cookie }, ip: IP });
    const base = { intent: "save", code: "AUDIT10", discountType: "percentage", discountValue: "10", minimumSpend: "200", maxRedemptions: "", startDate: "2026-06-01", endDate: "2026-06-30", description: "Audit" };
    expect(await dataOf(await post(base))).toMatchObject({ ok: true });
    const coupon = await db().selectFrom("coupons").select("id").where("code", "=", "AUDIT10").executeTakeFirstOrThrow();
    expect(await dataOf(await post({ intent: "toggle", id: coupon.id, isActive: "false" }))).toMatchObject({ ok: true });
    const [created, toggled] = await entriesOf("coupon", coupon.id);
    expect(created).toMatchObject({ kind: "coupon.save", actor_id: admin.id, actor_email: admin.email, ip: IP, before: null });
    expect(created!.text).toContain("Coupon AUDIT10");
    expect(json(created!.after)).toMatchObject({ code: "AUDIT10", discount_type: "percentage", discount_value: 10 });
    expect(toggled).toMatchObject({ kind: "coupon.toggle", ip: IP });
    // only what changed (SQLite's 1/0 read as the same values as PostgreSQL's booleans)
    expect(Object.keys(json(toggled!.before))).toEqual(["is_active"]);
    expect(Boolean(json(toggled!.before).is_active)).toBe(true);
    expect(Boolean(json(toggled!.after).is_active)).toBe(false);
  });

  it("a product's price and stock changed on its page: before and after of each, and the page's history shows it", async () => {
    const category = await insertCategory(db());
    const product = await insertProduct(db(), { name: "Audit Amber", price_cents: 34999, stock: 12, category_id: category.id });
    const form = { intent: "save", id: product.id, name: "Audit Amber", slug: product.slug, price: "399.00", categoryId: category.id, stock: "7", stockWas: "12", description: "" };
    const result = await callAction(productEdit.action, `/admin/products/edit/${product.id}`, form, { headers: { cookie: admin.cookie }, ip: IP });
    expect(await dataOf(result)).toMatchObject({ ok: true });
    const [entry] = await entriesOf("product", product.id);
    expect(entry).toMatchObject({ kind: "product.save", actor_email: admin.email, ip: IP });
    expect(json(entry!.before)).toMatchObject({ price_cents: 34999, stock: 12 });
    expect(json(entry!.after)).toMatchObject({ price_cents: 39900, stock: 7 });
    expect(Object.keys(json(entry!.before))).not.toContain("name");
    const page = await dataOf(await callLoader(productEdit.loader, `/admin/products/edit/${product.id}`, { headers: { cookie: admin.cookie }, params: { id: product.id } }));
    expect(page.history[0]).toMatchObject({ who: admin.email });
    expect(page.history[0].changes).toEqual(expect.arrayContaining([{ field: "price", before: "R349.99", after: "R399.00" }]));
  });

  it("an order's status change (an outside intent): the entry is in the use case's own transaction, with the status before and after", async () => {
    const order = await insertOrder(db(), { userId: null, status: "processing", paymentStatus: "completed" });
    const result = await callAction(ordersRoute.action, "/admin/orders", { intent: "status", id: order.id, status: "shipped" }, { headers: { cookie: admin.cookie }, ip: IP });
    expect(await dataOf(result)).toMatchObject({ ok: true });
    const [entry] = await entriesOf("order", order.id);
    expect(entry).toMatchObject({ kind: "order.status", ip: IP, actor_id: admin.id });
    expect(json(entry!.before)).toMatchObject({ status: "processing", shipped_at: null });
    expect(json(entry!.after)).toMatchObject({ status: "shipped" });
    expect(entry!.text).toContain("status: processing → shipped");
    // the orders page shows it under the order
    const page = await dataOf(await callLoader(ordersRoute.loader, "/admin/orders?status=shipped", { headers: { cookie: admin.cookie } }));
    const row = page.list.rows.find((o: { id: string }) => o.id === order.id);
    expect(row.history[0]).toMatchObject({ kind: "order.status", who: admin.email });
  });

  const failing = (outside: boolean, fail: "error" | "domain") =>
    adminAction(
      z.object({ intent: z.literal("break"), id: z.string() }),
      {
        break: async (db, { id }) => {
          const write = (q: DB) => q.updateTable("coupons").set({ is_active: false }).where("id", "=", id).execute();
          // an ordinary intent writes in the dispatcher's transaction; an outside one in its use case's own
          if (outside) await inTransaction(db, async (trx) => (await write(trx), fail === "domain" ? Promise.reject(new DomainError("refused after writing", 409)) : Promise.reject(new Error("after writing"))));
          await write(db);
          if (fail === "domain") throw new DomainError("refused after writing", 409);
          throw new Error("after writing");
        },
      },
      { permission: "coupons", record: { type: "coupon", outside }, failure: { break: "Failed to break" } },
    );

  it.each([
    [false, "error"],
    [false, "domain"],
    [true, "error"],
    [true, "domain"],
  ] as const)("a handler that fails after writing (outside %s, %s) leaves neither its change nor an entry", async (outside, fail) => {
    const coupon = await insertCoupon(db(), { code: `ROLL${outside ? "O" : "I"}${fail === "domain" ? "D" : "E"}` });
    const before = await count();
    const result = await callAction(failing(outside, fail), "/admin/coupons", { intent: "break", id: coupon.id }, { headers: { cookie: admin.cookie }, ip: IP });
    expect(statusOf(result)).toBe(fail === "domain" ? 409 : 500);
    const row = await db().selectFrom("coupons").select("is_active").where("id", "=", coupon.id).executeTakeFirstOrThrow();
    expect(Boolean(row.is_active)).toBe(true);
    expect(await count()).toBe(before);
  });
});

describe("Admin → Activity", () => {
  const load = (query: string, cookie = admin.cookie) => callLoader(activityRoute.loader, `/admin/activity${query}`, { headers: { cookie } });
  let firstId = 0;

  beforeAll(async () => {
    // 120 entries: two people, three kinds, one record with its own 15, spread over days in March 2026
    for (let i = 0; i < 120; i++) {
      const actor = i % 2 === 0 ? { id: admin.id, email: admin.email } : { id: other.id, email: other.email };
      await recordActivity(db(), {
        actor,
        ip: "198.51.100.1",
        kind: ["paging.one", "paging.two", "paging.three"][i % 3]!,
        record: i % 8 === 0 ? { type: "review", id: "paged-review" } : { type: "category", id: `paged-${i}` },
        summary: `Paged entry ${i}`,
        before: { n: i },
        after: { n: i + 1 },
        at: new Date(Date.UTC(2026, 2, 1 + Math.floor(i / 10), 12)),
      });
    }
    firstId = Number((await db().selectFrom("activity_log").select("id").where("summary", "=", "Paged entry 0").executeTakeFirstOrThrow()).id);
  });

  it("filters by person, kind, record and dates, each entry with its record's link and its changes", async () => {
    const byKind = await dataOf(await load("?kind=paging.two"));
    expect(byKind.items).toHaveLength(40);
    expect(byKind.items.every((e: { kind: string }) => e.kind === "paging.two")).toBe(true);
    const byPerson = await dataOf(await load(`?person=${other.id}&kind=paging.one`));
    expect(byPerson.items.map((e: { summary: string }) => e.summary)).toEqual(
      Array.from({ length: 120 }, (_, i) => i)
        .filter((i) => i % 2 === 1 && i % 3 === 0)
        .reverse()
        .map((i) => `Paged entry ${i}`),
    );
    const byRecord = await dataOf(await load("?type=review&record=paged-review"));
    expect(byRecord.items).toHaveLength(15);
    expect(byRecord.items[0]).toMatchObject({ record: { label: "Review paged-review", href: "/admin/reviews" }, changes: [{ field: "n", before: "112", after: "113" }] });
    const byType = await dataOf(await load("?type=review"));
    expect(byType.items.length).toBeGreaterThanOrEqual(15);
    // 2026-03-03 to 2026-03-04: entries 20–39, newest first
    const byDates = await dataOf(await load("?from=2026-03-03&to=2026-03-04&kind="));
    expect(byDates.items.map((e: { summary: string }) => e.summary)).toEqual(Array.from({ length: 20 }, (_, i) => `Paged entry ${39 - i}`));
    expect(byDates.filters).toMatchObject({ from: "2026-03-03", to: "2026-03-04" });
    const none = await dataOf(await load("?from=2031-01-01"));
    expect(none.items).toEqual([]);
  });

  it("keyset pages: older and newer links walk the filtered log 50 at a time, newest first, and back", async () => {
    const seen: number[] = [];
    let page = await dataOf(await load("?from=2026-03-01&to=2026-03-31"));
    expect(page.newerHref).toBeNull();
    const pages = [page];
    while (page.olderHref) {
      page = await dataOf(await load(page.olderHref.slice("/admin/activity".length)));
      pages.push(page);
    }
    for (const p of pages) seen.push(...p.items.map((e: { id: number }) => e.id));
    expect(pages.map((p) => p.items.length)).toEqual([50, 50, 20]);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => firstId + 119 - i));
    // back up from the last page: the middle page again, then the first, which has no newer link
    const middle = await dataOf(await load(pages[2].newerHref.slice("/admin/activity".length)));
    expect(middle.items.map((e: { id: number }) => e.id)).toEqual(pages[1].items.map((e: { id: number }) => e.id));
    const top = await dataOf(await load(middle.newerHref.slice("/admin/activity".length)));
    expect(top.items.map((e: { id: number }) => e.id)).toEqual(pages[0].items.map((e: { id: number }) => e.id));
    expect(top.newerHref).toBeNull();
  });

  it("the CSV: the filtered log, one line per changed field, streamed; the download is itself logged", async () => {
    const response = (await callLoader(activityCsv.loader, "/admin/activity.csv?type=review&record=paged-review", { headers: { cookie: admin.cookie }, ip: IP })) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="scentara-activity-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = await response.text();
    const lines = text.replace(/^\uFEFF/, "").trim().split("\n");
    expect(lines[0]).toBe("Entry,When (UTC),Who,Address,Kind,Record type,Record id,Summary,Field,Before,After");
    expect(lines).toHaveLength(16);
    expect(lines[1]).toContain(",review,paged-review,Paged entry 112,n,112,113");
    const logged = await db().selectFrom("activity_log").select(COLUMNS).where("kind", "=", "export.activity").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(logged).toMatchObject({ actor_id: admin.id, ip: IP });
    expect(logged.text).toContain("type review, record paged-review");
  });

  it("only someone who may manage staff opens it; a packer gets 403", async () => {
    const packer = await createUser(db(), { role: "packer" });
    const cookie = await sessionCookieFor(db(), packer.id);
    expect(statusOf(await load("", cookie))).toBe(403);
    expect(statusOf(await callLoader(activityCsv.loader, "/admin/activity.csv", { headers: { cookie } }))).toBe(403);
    // and there is nothing to post to: the page has no action
    expect("action" in activityRoute).toBe(false);
  });
});

const old = (years: number, days = 0) => new Date(Date.now() - years * 365.25 * 86_400_000 - days * 86_400_000);

describe("nobody changes or deletes an entry", () => {
  it("an update is refused, always; a delete is refused for an entry younger than 5 years", async () => {
    await recordActivity(db(), { actor: null, kind: "immutable.test", summary: "Young entry" });
    await recordActivity(db(), { actor: null, kind: "immutable.test", summary: "Old entry", at: old(5, 30) });
    const young = db().selectFrom("activity_log").select("id").where("summary", "=", "Young entry");
    const { id } = await young.executeTakeFirstOrThrow();
    await expect(db().updateTable("activity_log").set({ summary: "rewritten" }).where("id", "=", id).execute()).rejects.toThrow(/cannot be changed/);
    await expect(db().updateTable("activity_log").set({ ip: null }).where("summary", "=", "Old entry").execute()).rejects.toThrow(/cannot be changed/);
    await expect(db().deleteFrom("activity_log").where("id", "=", id).execute()).rejects.toThrow(/kept for 5 years/);
    expect((await young.executeTakeFirst())?.id).toBe(id);
    // an entry past its 5 years may go (the retention job's delete)
    const gone = await db().deleteFrom("activity_log").where("summary", "=", "Old entry").executeTakeFirstOrThrow();
    expect(Number(gone.numDeletedRows)).toBe(1);
  });

  it("the retention job deletes only entries older than 5 years, at the clock it is given", async () => {
    const now = new Date();
    await recordActivity(db(), { actor: null, kind: "retention.test", summary: "Six years old", at: old(6) });
    await recordActivity(db(), { actor: null, kind: "retention.test", summary: "Five years and a week", at: old(5, 7) });
    await recordActivity(db(), { actor: null, kind: "retention.test", summary: "Four years and eleven months", at: old(4, 330) });
    await recordActivity(db(), { actor: null, kind: "retention.test", summary: "Today" });
    const counts = await applyRetention(db(), DEFAULT_RETENTION, now);
    expect(counts.activityEntries).toBe(2);
    const left = await db().selectFrom("activity_log").select("summary as text").where("kind", "=", "retention.test").orderBy("id").execute();
    expect(left.map((r) => r.text)).toEqual(["Four years and eleven months", "Today"]);
    // a clock a year behind: nothing of theirs is past its time yet
    await recordActivity(db(), { actor: null, kind: "retention.test", summary: "Five and a half years", at: old(5, 180) });
    expect((await applyRetention(db(), DEFAULT_RETENTION, new Date(now.getTime() - 365 * 86_400_000))).activityEntries).toBe(0);
  });
});

describe("backups carry the log", () => {
  let work = "";
  const drops: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "activity-backup-"));
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
    await rm(work, { recursive: true, force: true });
  });

  it("a backup holds activity_log; a restore puts it back, and a forced restore over a live log replaces it with the triggers kept", async () => {
    const source = openDatabase(join(work, "source.db"));
    await migrateToLatest(source.db);
    await recordActivity(source.db, { actor: { id: "u1", email: "owner@backup.test" }, ip: IP, kind: "coupon.save", record: { type: "coupon", id: "c1" }, summary: "Backed up", before: { a: 1 }, after: { a: 2 } });
    await recordActivity(source.db, { actor: null, kind: "old.entry", summary: "From long ago", at: old(3) });
    const backup = await createBackup({ databaseUrl: join(work, "source.db"), media: { kind: "local", dir: join(work, "media") }, outDir: join(work, "out") });
    await source.close();
    let target = join(work, "target.db");
    if (isPostgres(db())) {
      const database = await createThrowawayDatabase(process.env.TEST_PG_URL!, "act");
      drops.push(database.drop);
      target = database.url;
    }
    await restoreBackup({ file: backup.path, databaseUrl: target, media: { kind: "local", dir: join(work, "media-target") } });
    const restored = openDatabase(target);
    try {
      const rows = await restored.db.selectFrom("activity_log").select(["kind", "summary as text", "ip", "before", "after"]).orderBy("id").execute();
      expect(rows.map((r) => r.text)).toEqual(["Backed up", "From long ago"]);
      expect(json(rows[0]!.after)).toEqual({ a: 2 });
      // the shop goes on: a new entry after the restored ones (PostgreSQL's sequence moved past them)
      await recordActivity(restored.db, { actor: null, kind: "after.restore", summary: "Written after the restore" });
      // a forced restore over it replaces the live log (the operator's CLI), and the triggers still hold afterwards
      await restoreBackup({ file: backup.path, databaseUrl: target, media: { kind: "local", dir: join(work, "media-target") }, force: true });
      const again = await restored.db.selectFrom("activity_log").select("summary as text").orderBy("id").execute();
      expect(again.map((r) => r.text)).toEqual(["Backed up", "From long ago"]);
      await expect(restored.db.updateTable("activity_log").set({ summary: "x" }).execute()).rejects.toThrow(/cannot be changed/);
      await expect(restored.db.deleteFrom("activity_log").where("summary", "=", "Backed up").execute()).rejects.toThrow(/kept for 5 years/);
    } finally {
      await restored.close();
    }
  });
});

describe("the people filter", () => {
  it("lists the staff (owners, and anyone with a role) by e-mail, and no customer", async () => {
    const db = getDb();
    const owner = await createUser(db, { isAdmin: true, email: "aa-owner@people.test" });
    const packer = await createUser(db, { isAdmin: true, role: "packer", email: "bb-packer@people.test" });
    const customer = await createUser(db, { email: "cc-customer@people.test" });
    const people = (await activityPeople(db)).filter((p) => p.email.endsWith("@people.test"));
    expect(people).toEqual([
      { id: owner.id, email: "aa-owner@people.test" },
      { id: packer.id, email: "bb-packer@people.test" },
    ]);
    expect(people.map((p) => p.id)).not.toContain(customer.id);
  });
});
