/**
 * Announcements (issue 21 point 2), on SQLite and PostgreSQL: the owner's pages (draft, test, send, retry), and the
 * sender job's promises — only to people opted in at their turn, through the outbox, throttled, resumable after a
 * process dies, never twice to one person even with several senders at once.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as page from "~/routes/admin.marketing.$id";
import * as list from "~/routes/admin.marketing";
import { setMarketingConsent } from "~/modules/consent/consent.server";
import { env } from "~/utils/env.server";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, uniqueEmail, type TestUser } from "../../../tests/factories/users";
import { insertProduct } from "../../../tests/factories/catalog";
import { ANNOUNCEMENT_MESSAGES as M } from "./announcements.schema";
import { ANNOUNCEMENT_CLAIM_STALE_MS, sendAnnouncementBatch } from "./announcement-sender.server";
import { announcementProgress, getAnnouncement, queueAnnouncement } from "./announcements.server";
import { UNSUBSCRIBE_PATH } from "./unsubscribe.server";

const db = () => getDb();
let admin: TestUser;
let cookie: string;

beforeEach(async () => {
  // Each test starts with nobody opted in (users of earlier tests are switched off) and no announcement being sent.
  await db().updateTable("users").set({ email_marketing: false }).execute();
  await db().updateTable("announcements").set({ status: "sent" }).where("status", "=", "sending").execute();
  admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
});

const post = (id: string, form: Record<string, string>) => callAction(page.action, `/admin/marketing/${id}`, form, { headers: { cookie }, params: { id } });

async function draft(fields: Partial<Record<"subject" | "body" | "product1" | "product2", string>> = {}): Promise<string> {
  const result = await post("new", { intent: "save", id: "new", subject: "New in: Amber Lantern", body: "Three new scents for winter.\n\nCome and smell them.", ...fields });
  expect(statusOf(result)).toBe(302);
  const location = (result as Response).headers.get("Location")!;
  expect(location).toMatch(/^\/admin\/marketing\/[0-9a-f-]{36}\?saved=1$/);
  return location.slice("/admin/marketing/".length, location.indexOf("?"));
}

async function outboxTo(address: string) {
  return db().selectFrom("mail_outbox").select(["id", "subject", "text_body", "html_body", "list_unsubscribe", "sent_at", "error"]).where("to_address", "=", address).execute();
}

async function drain(limit = 100) {
  const runs = [];
  for (let i = 0; i < 20; i++) {
    const run = await sendAnnouncementBatch(db(), { limit });
    runs.push(run);
    if (run.sent + run.failed + run.skipped === 0) break;
  }
  return runs;
}

describe("writing a draft", () => {
  it("a new draft is saved and continues on its own page; the products are found by link, slug or SKU", async () => {
    const amber = await insertProduct(db(), { name: "Amber Lantern", slug: "amber-lantern" });
    const rose = await insertProduct(db(), { name: "Rose Noir" });
    await db().updateTable("products").set({ sku: "RN-50" }).where("id", "=", rose.id).execute();
    const id = await draft({ product1: `${env().PUBLIC_BASE_URL}/products/amber-lantern?ref=x`, product2: "RN-50" });
    const saved = await getAnnouncement(db(), id);
    expect(saved).toMatchObject({ status: "draft", subject: "New in: Amber Lantern", body: "Three new scents for winter.\n\nCome and smell them.", productIds: [amber.id, rose.id] });

    // editing it: the same page, the products swapped, one left empty
    expect(await dataOf(await post(id, { intent: "save", id, subject: "  Amber   Lantern is here ", body: "Smell it.", product1: rose.slug, product2: "" }))).toMatchObject({ ok: true, message: M.saved, id });
    expect(await getAnnouncement(db(), id)).toMatchObject({ subject: "Amber Lantern is here", body: "Smell it.", productIds: [rose.id] });

    const shown = await dataOf(await callLoader(page.loader, `/admin/marketing/${id}`, { headers: { cookie }, params: { id } }));
    expect(shown.announcement).toMatchObject({ status: "draft", products: [{ slug: rose.slug, name: "Rose Noir" }] });
    expect(shown.preview.subject).toBe("Amber Lantern is here");
    expect(shown.preview.bodyHtml).toContain("Rose Noir");
    expect(shown.preview.bodyHtml).not.toMatch(/<body/i);
    expect(shown.preview.text).toContain(`${env().PUBLIC_BASE_URL}${UNSUBSCRIBE_PATH}?token=`);
  });

  it("bad input gets a clear message and stores nothing", async () => {
    const count = async () => Number((await db().selectFrom("announcements").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    const before = await count();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ subject: "", body: "x" }, "subject", M.subjectRequired],
      [{ subject: "x".repeat(151), body: "x" }, "subject", M.subjectTooLong],
      [{ subject: "Hi", body: "   " }, "body", M.bodyRequired],
      [{ subject: "Hi", body: "x".repeat(5001) }, "body", M.bodyTooLong],
      [{ subject: "Hi", body: "x", product1: "no-such-scent" }, "product1", M.productNotFound("no-such-scent")],
    ];
    for (const [fields, field, message] of cases) {
      const result = await post("new", { intent: "save", id: "new", product1: "", product2: "", ...fields });
      expect(statusOf(result), field).toBe(400);
      expect((await dataOf(result)).fieldErrors[field]).toBe(message);
    }
    const p = await insertProduct(db());
    const twice = await post("new", { intent: "save", id: "new", subject: "Hi", body: "x", product1: p.slug, product2: p.slug });
    expect((await dataOf(twice)).fieldErrors.product2).toBe(M.sameProductTwice);
    expect(await count()).toBe(before);
  });
});

describe("sending", () => {
  it("reaches exactly the people opted in at their turn, once each, through the outbox, with the unsubscribe link and headers", async () => {
    const never = await createUser(db(), { email: uniqueEmail("never") });
    const keen = await createUser(db(), { email: uniqueEmail("keen"), emailMarketing: true });
    const alsoKeen = await createUser(db(), { email: uniqueEmail("alsokeen"), emailMarketing: true });
    const leaving = await createUser(db(), { email: uniqueEmail("leaving"), emailMarketing: true });
    await insertProduct(db(), { name: "Velvet Oud", slug: "velvet-oud", price_cents: 89900 });
    const id = await draft({ product1: "velvet-oud" });

    expect(await dataOf(await post(id, { intent: "send", id }))).toMatchObject({ ok: true, message: M.queued(3) });
    expect(await getAnnouncement(db(), id)).toMatchObject({ status: "sending", recipientsTotal: 3 });
    // opted out after Send was pressed, before their turn: skipped
    await setMarketingConsent(db(), { userId: leaving.id, granted: false, source: "profile", wording: "x" });
    // a second Send (another tab) is refused and lists nobody again
    const again = await post(id, { intent: "send", id });
    expect(statusOf(again)).toBe(409);
    expect((await dataOf(again)).error).toBe(M.notDraft);

    await drain();
    expect(await announcementProgress(db(), id)).toMatchObject({ total: 3, sent: 2, skipped: 1, failed: 0, pending: 0, sending: 0 });
    expect(await getAnnouncement(db(), id)).toMatchObject({ status: "sent" });
    expect(await outboxTo(never.email)).toEqual([]);
    expect(await outboxTo(leaving.email)).toEqual([]);
    for (const person of [keen, alsoKeen]) {
      const mails = await outboxTo(person.email);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe("New in: Amber Lantern");
      expect(mail.error).toBeNull();
      expect(mail.list_unsubscribe).toMatch(new RegExp(`^${env().PUBLIC_BASE_URL}/unsubscribe/one-click\\?token=[A-Za-z0-9_%.-]+$`));
      // the footer names the shop, why they get it, and the same one-click link as the header
      expect(mail.text_body).toContain(`Sent by ${env().SHOP_NAME}`);
      const page = mail.list_unsubscribe!.replace("/unsubscribe/one-click?", "/unsubscribe?");
      expect(mail.text_body).toContain(`Unsubscribe (one click, no sign-in): ${page}`);
      expect(mail.text_body).toContain("Velvet Oud");
      expect(mail.text_body).toContain("R899.00");
      expect(mail.html_body).toContain(`href="${page}"`);
    }
    // each person's link is their own
    expect((await outboxTo(keen.email))[0]!.list_unsubscribe).not.toBe((await outboxTo(alsoKeen.email))[0]!.list_unsubscribe);
    // nothing more to send: another run writes nothing
    expect(await sendAnnouncementBatch(db(), { limit: 100 })).toMatchObject({ sent: 0, failed: 0, skipped: 0 });
  });

  it("is throttled: a run sends at most its limit, and the rest wait for the next runs", async () => {
    const people = await Promise.all(Array.from({ length: 5 }, () => createUser(db(), { emailMarketing: true })));
    const id = await draft();
    await queueAnnouncement(db(), id, admin.id);
    const first = await sendAnnouncementBatch(db(), { limit: 2 });
    expect(first.sent).toBe(2);
    expect(await announcementProgress(db(), id)).toMatchObject({ total: 5, sent: 2, pending: 3 });
    const page2 = await dataOf(await callLoader(list.loader, "/admin/marketing", { headers: { cookie } }));
    const row = page2.list.rows.find((r: { id: string }) => r.id === id);
    expect(row).toMatchObject({ status: "sending", progress: { total: 5, sent: 2, pending: 3 } });
    await drain(2);
    expect(await announcementProgress(db(), id)).toMatchObject({ total: 5, sent: 5, pending: 0 });
    for (const p of people) expect(await outboxTo(p.email)).toHaveLength(1);
  });

  it("several senders at once (processes without the lease, a second server) still write to each person once", async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => createUser(db(), { emailMarketing: true })));
    const id = await draft();
    await queueAnnouncement(db(), id, admin.id);
    for (let round = 0; round < 6; round++) await Promise.all([1, 2, 3].map(() => sendAnnouncementBatch(db(), { limit: 3 })));
    await drain();
    for (const p of people) expect(await outboxTo(p.email)).toHaveLength(1);
    expect(await announcementProgress(db(), id)).toMatchObject({ total: 12, sent: 12 });
  });

  it("resumes after a process died mid-run: an unwritten claim is sent once, a written one never again", async () => {
    const [written, unwritten, untouched] = await Promise.all([1, 2, 3].map(() => createUser(db(), { emailMarketing: true })));
    const id = await draft();
    await queueAnnouncement(db(), id, admin.id);
    // A process claimed two people, wrote one e-mail, and died; its claims are an hour old.
    const then = new Date(Date.now() - 60 * 60_000).toISOString();
    await db().updateTable("announcement_recipients").set({ status: "sending", claimed_at: then, outbox_id: "outbox-of-the-dead" }).where("user_id", "=", written!.id).execute();
    await db().insertInto("mail_outbox").values({ id: "outbox-of-the-dead", to_address: written!.email, subject: "New in: Amber Lantern", text_body: "x", html_body: null }).execute();
    await db().updateTable("announcement_recipients").set({ status: "sending", claimed_at: then, outbox_id: "never-written" }).where("user_id", "=", unwritten!.id).execute();
    // A claim made a moment ago by a live process is left alone.
    const fresh = await createUser(db(), { emailMarketing: true });
    await db().insertInto("announcement_recipients").values({ announcement_id: id, user_id: fresh.id, status: "sending", claimed_at: new Date().toISOString(), outbox_id: "in-flight" }).execute();

    const run = await sendAnnouncementBatch(db(), { limit: 100 });
    expect(run.recovered).toBe(2);
    expect(await outboxTo(written!.email)).toHaveLength(1); // the dead process's e-mail, not a second one
    expect(await outboxTo(unwritten!.email)).toHaveLength(1);
    expect(await outboxTo(untouched!.email)).toHaveLength(1);
    expect(await outboxTo(fresh.email)).toHaveLength(0);
    expect(await announcementProgress(db(), id)).toMatchObject({ sent: 3, sending: 1 });
    expect(await getAnnouncement(db(), id)).toMatchObject({ status: "sending" });

    // the live process's claim goes stale too (it died as well): nothing was written under its id, so it is sent
    const later = new Date(Date.now() + ANNOUNCEMENT_CLAIM_STALE_MS + 60_000);
    await sendAnnouncementBatch(db(), { limit: 100, now: later });
    expect(await outboxTo(fresh.email)).toHaveLength(1);
    expect(await getAnnouncement(db(), id)).toMatchObject({ status: "sent" });
  });

  it("nobody opted in: Send is refused with a clear message and changes nothing", async () => {
    await createUser(db());
    const id = await draft();
    const result = await post(id, { intent: "send", id });
    expect(statusOf(result)).toBe(409);
    expect((await dataOf(result)).error).toBe(M.nobodyOptedIn);
    expect(await getAnnouncement(db(), id)).toMatchObject({ status: "draft", recipientsTotal: 0 });
    expect(await announcementProgress(db(), id)).toMatchObject({ total: 0 });
  });

  it("what was sent can't be edited or deleted any more", async () => {
    await createUser(db(), { emailMarketing: true });
    const id = await draft();
    await queueAnnouncement(db(), id, admin.id);
    const edit = await post(id, { intent: "save", id, subject: "Changed", body: "Changed" });
    expect(statusOf(edit)).toBe(409);
    const del = await callAction(list.action, "/admin/marketing", { intent: "delete", id }, { headers: { cookie } });
    expect(statusOf(del)).toBe(409);
    expect(await getAnnouncement(db(), id)).toMatchObject({ subject: "New in: Amber Lantern", status: "sending" });
  });

  it("a draft can be deleted", async () => {
    const id = await draft();
    expect(await dataOf(await callAction(list.action, "/admin/marketing", { intent: "delete", id }, { headers: { cookie } }))).toMatchObject({ ok: true, message: M.deleted });
    expect(await getAnnouncement(db(), id)).toBeNull();
  });
});

describe("the test to oneself", () => {
  it("goes to the admin only, marked [Test], with the marketing footer and headers; nobody else gets anything", async () => {
    const keen = await createUser(db(), { emailMarketing: true });
    const id = await draft();
    const result = await dataOf(await post(id, { intent: "test", id }));
    // no mail server in this test: written to the outbox, and the page says so
    expect(result).toMatchObject({ ok: true, message: M.testInOutbox(admin.email) });
    const mails = await outboxTo(admin.email);
    expect(mails.map((m) => m.subject)).toEqual(["[Test] New in: Amber Lantern"]);
    expect(mails[0]!.list_unsubscribe).toContain("/unsubscribe/one-click?token=");
    expect(await outboxTo(keen.email)).toEqual([]);
    expect(await getAnnouncement(db(), id)).toMatchObject({ status: "draft" });
  });
});

describe("retrying the refused", () => {
  it("puts only the failed back in the queue; the sender sends them and finishes", async () => {
    const [ok, refused] = await Promise.all([createUser(db(), { emailMarketing: true }), createUser(db(), { emailMarketing: true })]);
    const id = await draft();
    await queueAnnouncement(db(), id, admin.id);
    await drain();
    // as if the mail server had refused one of them
    await db().updateTable("announcement_recipients").set({ status: "failed", error: "550 mailbox full" }).where("announcement_id", "=", id).where("user_id", "=", refused!.id).execute();
    const shown = await dataOf(await callLoader(page.loader, `/admin/marketing/${id}`, { headers: { cookie }, params: { id } }));
    expect(shown.progress).toMatchObject({ failed: 1, lastError: "550 mailbox full" });

    expect(await dataOf(await post(id, { intent: "retry", id }))).toMatchObject({ ok: true, message: M.retried });
    await drain();
    expect(await announcementProgress(db(), id)).toMatchObject({ sent: 2, failed: 0 });
    expect(await outboxTo(ok!.email)).toHaveLength(1);
    expect(await outboxTo(refused!.email)).toHaveLength(2); // the refused attempt and the one that went
    const nothing = await post(id, { intent: "retry", id });
    expect(statusOf(nothing)).toBe(409);
  });
});
