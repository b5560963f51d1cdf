/**
 * The daily retention job (POPIA s14; docs/decisions/040) on SQLite and PostgreSQL: each rule erases exactly what is
 * past its time and nothing younger, a run is recorded, a second run finds nothing more, two processes running it at
 * once erase each row once, and the job runs in one process at a time (its lease) and once a day (its record).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";
import { sql } from "kysely";
import { databaseLease, startJobs } from "../../../server/jobs";
import { insertOrder, TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import { newId } from "~/utils/ids";
import { insertProduct } from "../../../tests/factories/catalog";
import { DEFAULT_RETENTION, EMPTY_COUNTS, type RetentionCounts } from "./retention.logic";
import { applyRetention, listRetentionRuns, runRetention, runRetentionIfDue } from "./retention.server";

const db = () => getDb();
const NOW = new Date("2026-11-26T12:00:00.000Z");
const ago = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

async function contact(createdAt: string, email = "thandi@example.co.za") {
  const id = newId();
  await db().insertInto("contact_messages").values({ id, name: "Thandi", email, message: "Do you ship to Durban?", created_at: createdAt }).execute();
  return id;
}

async function mail(createdAt: string, to = "thandi@example.co.za") {
  const id = newId();
  await db().insertInto("mail_outbox").values({ id, to_address: to, subject: "Your order", text_body: "Hi Thandi, your order is on its way.", html_body: "<p>Hi Thandi</p>", created_at: createdAt }).execute();
  return id;
}

async function clean() {
  for (const table of ["contact_messages", "mail_outbox", "retention_runs", "job_leases", "whatsapp_messages", "reminders", "saved_carts", "stock_alerts"] as const) await db().deleteFrom(table).execute();
  await db().deleteFrom("order_lines").execute();
  await db().deleteFrom("orders").execute();
}

beforeEach(clean);

describe("what each rule erases", () => {
  it("contact messages after 12 months; the e-mail's text after 90 days and its record after 12 months", async () => {
    const oldMessage = await contact(ago(366));
    const youngMessage = await contact(ago(364));
    const ancientMail = await mail(ago(400));
    const oldMail = await mail(ago(91));
    const youngMail = await mail(ago(89));

    const counts = await applyRetention(db(), DEFAULT_RETENTION, NOW);
    expect(counts).toMatchObject({ contactMessages: 1, mailRecords: 1, mailBodies: 1 });

    const messages = await db().selectFrom("contact_messages").select("id").execute();
    expect(messages.map((m) => m.id)).toEqual([youngMessage]);
    expect(messages.map((m) => m.id)).not.toContain(oldMessage);
    const mails = Object.fromEntries((await db().selectFrom("mail_outbox").select(["id", "to_address", "subject", "text_body", "html_body"]).execute()).map((m) => [m.id, m]));
    expect(mails[ancientMail]).toBeUndefined();
    // the record stays (who, what, when), the words go
    expect(mails[oldMail]).toMatchObject({ to_address: "thandi@example.co.za", subject: "Your order", text_body: "", html_body: null });
    expect(mails[youngMail]).toMatchObject({ text_body: "Hi Thandi, your order is on its way.", html_body: "<p>Hi Thandi</p>" });
  });

  it("a never-paid order loses name, telephone and address after 12 months; its lines and amounts stay; paid and younger orders keep theirs", async () => {
    const customer = await createUser(db());
    const abandoned = await insertOrder(db(), { userId: customer.id, status: "cancelled", paymentStatus: "cancelled", createdAt: ago(370), notes: "Called her about the address" });
    const youngAbandoned = await insertOrder(db(), { userId: customer.id, status: "cancelled", paymentStatus: "failed", createdAt: ago(300) });
    const paid = await insertOrder(db(), { userId: customer.id, status: "delivered", paymentStatus: "completed", createdAt: ago(370) });

    expect((await applyRetention(db(), DEFAULT_RETENTION, NOW)).unpaidOrders).toBe(1);
    const row = async (id: string) => db().selectFrom("orders").select(["shipping_address", "notes", "personal_data_erased_at", "total_amount_cents", "user_id"]).where("id", "=", id).executeTakeFirstOrThrow();
    const erased = await row(abandoned.id);
    expect(erased.shipping_address).toEqual({ name: "", telephone: "", street: "", suburb: "", city: "", postalCode: "", province: TEST_ADDRESS.province });
    expect(erased.notes).toBeNull();
    expect(erased.personal_data_erased_at).toBe(NOW.toISOString());
    expect(erased.total_amount_cents).toBe(abandoned.totalAmountCents);
    expect(erased.user_id).toBe(customer.id);
    expect(await db().selectFrom("order_lines").select("name").where("order_id", "=", abandoned.id).execute()).toHaveLength(1);
    expect((await row(youngAbandoned.id)).shipping_address).toEqual(TEST_ADDRESS);
    expect((await row(paid.id)).shipping_address).toEqual(TEST_ADDRESS);
  });

  it("a paid order keeps its invoice details 5 years; after them, only once no account is linked", async () => {
    const customer = await createUser(db());
    const invoiced = async (userId: string | null, issuedDaysAgo: number) => {
      const o = await insertOrder(db(), { userId, status: "delivered", paymentStatus: "completed", createdAt: ago(issuedDaysAgo + 1) });
      await db().updateTable("orders").set({ invoice_number: Math.floor(Math.random() * 1e9), invoice_issued_at: ago(issuedDaysAgo) }).where("id", "=", o.id).execute();
      return o.id;
    };
    const oldUnlinked = await invoiced(null, 5 * 365 + 5);
    const youngUnlinked = await invoiced(null, 5 * 365 - 5);
    const oldOfCustomer = await invoiced(customer.id, 5 * 365 + 5);

    expect((await applyRetention(db(), DEFAULT_RETENTION, NOW)).invoicedOrders).toBe(1);
    const address = async (id: string) => (await db().selectFrom("orders").select("shipping_address").where("id", "=", id).executeTakeFirstOrThrow()).shipping_address;
    expect((await address(oldUnlinked)).name).toBe("");
    expect(await address(youngUnlinked)).toEqual(TEST_ADDRESS);
    expect(await address(oldOfCustomer)).toEqual(TEST_ADDRESS); // still in its owner's order history
  });

  it("ended sessions, expired reset links and day-old sign-in counters go; live ones stay", async () => {
    const customer = await createUser(db());
    const stamp = NOW.toISOString();
    await db()
      .insertInto("sessions")
      .values([
        { id: newId(), user_id: customer.id, token: newId(), expires_at: ago(1), ip_address: "196.25.1.1", user_agent: "Old phone", created_at: ago(15), updated_at: ago(15) },
        { id: newId(), user_id: customer.id, token: newId(), expires_at: new Date(NOW.getTime() + 86_400_000).toISOString(), ip_address: "196.25.1.2", user_agent: "New phone", created_at: stamp, updated_at: stamp },
      ])
      .execute();
    await db()
      .insertInto("verifications")
      .values({ id: newId(), identifier: "reset-password:old", value: customer.id, expires_at: ago(1), created_at: ago(2), updated_at: ago(2) })
      .execute();
    await db()
      .insertInto("rate_limits")
      .values([
        { id: newId(), key: "signin:ip:196.25.1.1", count: 3, last_request: NOW.getTime() - 2 * 86_400_000 },
        { id: newId(), key: "signin:ip:196.25.1.2", count: 1, last_request: NOW.getTime() - 60_000 },
      ])
      .execute();

    const counts = await applyRetention(db(), DEFAULT_RETENTION, NOW);
    expect(counts).toMatchObject({ sessions: 1, verifications: 1, rateLimits: 1 });
    expect((await db().selectFrom("sessions").select("user_agent").where("user_id", "=", customer.id).execute()).map((s) => s.user_agent)).toEqual(["New phone"]);
    expect(await db().selectFrom("rate_limits").select("key").where("key", "like", "signin:ip:196.25.1.%").execute()).toEqual([{ key: "signin:ip:196.25.1.2" }]);
  });
});

describe("the data of issue 33/34 (docs/decisions/040 addendum)", () => {
  async function whatsappMessage(orderId: string, createdAt: string, status: "delivered" | "queued" = "delivered") {
    const id = newId();
    await db()
      .insertInto("whatsapp_messages")
      .values({ id, dedupe_key: `delivered:${orderId}:${id}`, order_id: orderId, user_id: null, event: "delivered", to_phone: "27825550101", template: "order_delivered", language: "en", params: JSON.stringify(["Thandi", "ab12cd34"]), status, is_test: true, error: status === "delivered" ? null : "27825550101 unreachable", next_attempt_at: createdAt, created_at: createdAt, updated_at: createdAt })
      .execute();
    return id;
  }

  it("a WhatsApp message's number and words go after 90 days, its record after 12 months; a message still queued is left to the sender", async () => {
    const order = await insertOrder(db(), { userId: null, status: "delivered", paymentStatus: "completed", createdAt: ago(400) });
    const ancient = await whatsappMessage(order.id, ago(370));
    const old = await whatsappMessage(order.id, ago(91));
    const young = await whatsappMessage(order.id, ago(89));
    const stuck = await whatsappMessage(order.id, ago(95), "queued");

    expect(await applyRetention(db(), DEFAULT_RETENTION, NOW)).toMatchObject({ whatsappTexts: 1, whatsappRecords: 1 });
    const rows = Object.fromEntries((await db().selectFrom("whatsapp_messages").select(["id", "to_phone", "params", "status", "error"]).execute()).map((m) => [m.id, m]));
    expect(rows[ancient]).toBeUndefined();
    expect(rows[old]).toMatchObject({ to_phone: "", params: [], status: "delivered", error: null });
    expect(rows[young]).toMatchObject({ to_phone: "27825550101", params: ["Thandi", "ab12cd34"] });
    expect(rows[stuck]).toMatchObject({ to_phone: "27825550101", status: "queued" });
    // the next run finds nothing more
    expect(await applyRetention(db(), DEFAULT_RETENTION, NOW)).toMatchObject({ whatsappTexts: 0, whatsappRecords: 0 });
  });

  it("finds the WhatsApp messages past their time through the created_at index, not by reading the whole outbox (migration 0046)", async () => {
    const pg = isPostgres(db());
    const plan = pg
      ? await db()
          .transaction()
          .execute(async (trx) => {
            // a test database holds a handful of rows, for which a sequential scan is cheapest: ask whether the index can serve
            await sql`set local enable_seqscan = off`.execute(trx);
            return (await sql<{ "QUERY PLAN": string }>`explain delete from whatsapp_messages where created_at < ${ago(365)}`.execute(trx)).rows.map((r) => r["QUERY PLAN"]);
          })
      : (await sql<{ detail: string }>`explain query plan delete from whatsapp_messages where created_at < ${ago(365)}`.execute(db())).rows.map((r) => r.detail);
    expect(plan.join("\n")).toContain("whatsapp_messages_created_idx");
  });

  it("a reminder's items go after 90 days and its account after 12 months, the reminder staying in the figures; a cart unchanged for 90 days goes", async () => {
    const customer = await createUser(db());
    const other = await createUser(db());
    const product = await insertProduct(db());
    const lines = JSON.stringify([{ productId: product.id, quantity: 1 }]);
    const reminder = async (claimedAt: string) => {
      const id = newId();
      await db().insertInto("reminders").values({ id, kind: "cart", subject_id: newId(), user_id: customer.id, lines, status: "sent", claimed_at: claimedAt, sent_at: claimedAt }).execute();
      return id;
    };
    const ancient = await reminder(ago(370));
    const old = await reminder(ago(91));
    const young = await reminder(ago(89));
    await db().insertInto("saved_carts").values({ user_id: customer.id, lines, version: 2, cart_id: newId(), changed_at: ago(91), updated_at: ago(91) }).execute();
    await db().insertInto("saved_carts").values({ user_id: other.id, lines, version: 2, cart_id: newId(), changed_at: ago(89), updated_at: ago(89) }).execute();

    expect(await applyRetention(db(), DEFAULT_RETENTION, NOW)).toMatchObject({ reminderContents: 2, reminderLinks: 1, savedCarts: 1 });
    const rows = Object.fromEntries((await db().selectFrom("reminders").select(["id", "user_id", "lines", "status"]).execute()).map((r) => [r.id, r]));
    expect(rows[ancient]).toEqual({ id: ancient, user_id: null, lines: [], status: "sent" });
    expect(rows[old]).toEqual({ id: old, user_id: customer.id, lines: [], status: "sent" });
    expect(rows[young]).toMatchObject({ user_id: customer.id, lines: [{ productId: product.id, quantity: 1 }] });
    expect((await db().selectFrom("saved_carts").select("user_id").execute()).map((c) => c.user_id)).toEqual([other.id]);
    expect(await applyRetention(db(), DEFAULT_RETENTION, NOW)).toMatchObject({ reminderContents: 0, reminderLinks: 0, savedCarts: 0 });
    // the owner's setting decides the cart's period
    expect((await applyRetention(db(), { ...DEFAULT_RETENTION, savedCartDays: 30 }, NOW)).savedCarts).toBe(1);
  });

  it("back-in-stock requests: unconfirmed after 7 days, any after 6 months; counted by the run", async () => {
    const product = await insertProduct(db());
    const alert = async (status: "pending" | "waiting", createdAt: string) => {
      const id = newId();
      await db().insertInto("stock_alerts").values({ id, product_id: product.id, size_id: null, user_id: null, email: `visitor.${id}@example.co.za`, status, created_at: createdAt, confirmed_at: status === "waiting" ? createdAt : null }).execute();
      return id;
    };
    await alert("waiting", ago(185));
    await alert("pending", ago(8));
    const waiting = await alert("waiting", ago(170));
    const pending = await alert("pending", ago(6));
    expect((await applyRetention(db(), DEFAULT_RETENTION, NOW)).stockAlerts).toBe(2);
    expect((await db().selectFrom("stock_alerts").select("id").execute()).map((a) => a.id).sort()).toEqual([waiting, pending].sort());
  });
});

describe("runs", () => {
  it("records each run with what it erased; a second run the same day finds nothing more", async () => {
    await contact(ago(400));
    await mail(ago(100));
    const first = await runRetention(db(), { policy: DEFAULT_RETENTION, now: NOW, holder: "test-a" });
    expect(first.counts).toMatchObject({ contactMessages: 1, mailBodies: 1 });
    const again = await runRetention(db(), { policy: DEFAULT_RETENTION, now: new Date(NOW.getTime() + 60_000), holder: "test-a" });
    expect(again.counts).toEqual(EMPTY_COUNTS);
    const runs = await listRetentionRuns(db());
    expect(runs.map((r) => [r.outcome, r.holder])).toEqual([
      ["done", "test-a"],
      ["done", "test-a"],
    ]);
    expect(runs[1]!.counts).toMatchObject({ contactMessages: 1, mailBodies: 1 });
    expect(runs[1]!.finishedAt).not.toBeNull();
  });

  it("is due once a day: the job's tick runs only when the last run started a day ago", async () => {
    expect(await runRetentionIfDue(db(), { policy: DEFAULT_RETENTION, now: NOW })).not.toBeNull();
    expect(await runRetentionIfDue(db(), { policy: DEFAULT_RETENTION, now: new Date(NOW.getTime() + 3 * 3_600_000) })).toBeNull();
    expect(await runRetentionIfDue(db(), { policy: DEFAULT_RETENTION, now: new Date(NOW.getTime() + 24 * 3_600_000) })).not.toBeNull();
    expect(await listRetentionRuns(db())).toHaveLength(2);
  });

  it("two processes running it at once erase each row once: the counts add up to what was due", async () => {
    const customer = await createUser(db());
    for (let i = 0; i < 30; i++) await contact(ago(400 + i));
    for (let i = 0; i < 30; i++) await mail(ago(100 + i));
    for (let i = 0; i < 12; i++) await insertOrder(db(), { userId: customer.id, status: "cancelled", paymentStatus: "cancelled", createdAt: ago(400 + i) });
    const [a, b] = await Promise.all([
      runRetention(db(), { policy: DEFAULT_RETENTION, now: NOW, holder: "server-a" }),
      runRetention(db(), { policy: DEFAULT_RETENTION, now: NOW, holder: "server-b" }),
    ]);
    const sum = (key: keyof RetentionCounts) => a.counts[key] + b.counts[key];
    expect(sum("contactMessages")).toBe(30);
    expect(sum("mailBodies")).toBe(30);
    expect(sum("unpaidOrders")).toBe(12);
    expect(await db().selectFrom("contact_messages").select("id").execute()).toEqual([]);
    const left = await db().selectFrom("orders").select("shipping_address").where("user_id", "=", customer.id).execute();
    expect(left.every((o) => o.shipping_address.name === "" && o.shipping_address.telephone === "")).toBe(true);
  });

  it("a failed run is recorded as failed, with the reason", async () => {
    const broken = { ...DEFAULT_RETENTION, contactMonths: Number.NaN };
    await expect(runRetention(db(), { policy: broken, now: NOW, holder: "test" })).rejects.toThrow();
    const [run] = await listRetentionRuns(db());
    expect(run!.outcome).toBe("failed");
    expect(run!.error).toBeTruthy();
  });
});

describe("the scheduled job", () => {
  it("one process at a time: of two holders asking for its lease at once, exactly one gets it", async () => {
    const a = databaseLease(db, "retention", "server-a", 60_000);
    const b = databaseLease(db, "retention", "server-b", 60_000);
    const [gotA, gotB] = await Promise.all([a.take(NOW.getTime()), b.take(NOW.getTime())]);
    expect([gotA, gotB].filter(Boolean)).toHaveLength(1);
  });

  it("is scheduled by the server with the configured periods and runs the erasure once in the lease holder", async () => {
    await contact(ago(400));
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
    const config = { UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0, JOBS_EVERY_SECONDS: 1, RETENTION_CONTACT_MONTHS: 12, RETENTION_MAIL_BODY_DAYS: 90, RETENTION_UNPAID_ORDER_MONTHS: 12, RETENTION_INVOICE_YEARS: 5, RETENTION_SAVED_CART_DAYS: 90 };
    const one = startJobs(config, db, logger, "server-a");
    const two = startJobs(config, db, logger, "server-b");
    expect(one.jobs.map((j) => j.name)).toContain("retention");
    const leaseExpiry = async () => Number((await db().selectFrom("job_leases").select("expires_at").where("name", "=", "retention").executeTakeFirst())?.expires_at ?? 0);
    try {
      await expect.poll(async () => (await listRetentionRuns(db())).filter((r) => r.outcome === "done").length, { timeout: 8000 }).toBe(1);
      expect(await db().selectFrom("contact_messages").select("id").execute()).toEqual([]);
      // Two more looks by the holder (it renews its lease at each, a second apart): the run is not repeated that day.
      const seen = await leaseExpiry();
      await expect.poll(async () => (await leaseExpiry()) - seen, { timeout: 8000 }).toBeGreaterThanOrEqual(1900);
    } finally {
      await one.stopAll();
      await two.stopAll();
    }
    expect(await listRetentionRuns(db())).toHaveLength(1);
  });
});
