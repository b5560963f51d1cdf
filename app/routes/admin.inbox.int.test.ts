import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { callAction, callLoader, dataOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertOrder } from "../../tests/factories/orders";
import { insertProduct } from "../../tests/factories/catalog";
import * as home from "./home";
import * as inbox from "./admin.inbox";
import * as dashboard from "./admin._index";

const db = () => getDb();
let cookie = "";

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
});

describe("the owner's inbox", () => {
  it("shows a contact-form message as unread on the dashboard and in the inbox, until it is marked read", async () => {
    const sent = await callAction(home.action, "/?index", { name: "Naledi", email: "naledi@example.co.za", message: "Is Amber Lantern long-lasting?" }, { ip: "10.9.9.9" });
    expect((await dataOf(sent)).ok).toBe(true);

    const figures = await dataOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }));
    expect(figures.inbox.unread).toBe(1);

    const unread = await dataOf(await callLoader(inbox.loader, "/admin/inbox?box=unread", { headers: { cookie } }));
    expect(unread.messages.rows).toHaveLength(1);
    expect(unread.messages.rows[0]).toMatchObject({ name: "Naledi", email: "naledi@example.co.za", message: "Is Amber Lantern long-lasting?", readAt: null });

    const marked = await callAction(inbox.action, "/admin/inbox", { intent: "read", id: unread.messages.rows[0].id }, { headers: { cookie } });
    expect(await dataOf(marked)).toMatchObject({ ok: true, message: "Marked as read" });
    expect((await dataOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }))).inbox.unread).toBe(0);
    expect((await dataOf(await callLoader(inbox.loader, "/admin/inbox?box=unread", { headers: { cookie } }))).messages.rows).toHaveLength(0);
    // still in the inbox, read
    const all = await dataOf(await callLoader(inbox.loader, "/admin/inbox", { headers: { cookie } }));
    expect(all.messages.rows[0].readAt).not.toBeNull();
  });

  it("lists every e-mail the shop sent or queued, with its state", async () => {
    const now = new Date().toISOString();
    await db()
      .insertInto("mail_outbox")
      .values([
        { id: newId(), to_address: "a@example.co.za", subject: "Queued one", text_body: "body", html_body: null, created_at: now, sent_at: null, error: null, attempts: 0, retry_at: null },
        { id: newId(), to_address: "b@example.co.za", subject: "Sent one", text_body: "body", html_body: null, created_at: now, sent_at: now, error: null, attempts: 1, retry_at: null },
        { id: newId(), to_address: "c@example.co.za", subject: "Refused for now", text_body: "body", html_body: null, created_at: now, sent_at: null, error: "451 Try again later", attempts: 1, retry_at: "2026-12-06T10:05:00.000Z" },
        { id: newId(), to_address: "d@example.co.za", subject: "Given up", text_body: "body", html_body: null, created_at: now, sent_at: null, error: "550 No such user", attempts: 1, retry_at: null },
      ])
      .execute();
    const sent = await dataOf(await callLoader(inbox.loader, "/admin/inbox?box=sent", { headers: { cookie } }));
    const states = Object.fromEntries(sent.outbox.rows.map((m: { subject: string; state: string }) => [m.subject, m.state]));
    expect(states).toMatchObject({ "Queued one": "queued", "Sent one": "sent", "Refused for now": "retrying", "Given up": "failed" });
    // the next try in South African time
    expect(sent.outbox.rows.find((m: { subject: string }) => m.subject === "Refused for now").retry).toMatch(/12:05/);
  });
});

describe("the dashboard", () => {
  it("counts users (admins by flag or ADMIN_EMAILS, recent = last 7 days) and the shop's records", async () => {
    const before = await dataOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }));
    const listed = await createUser(db());
    const old = await createUser(db());
    await db().updateTable("users").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", old.id).execute();
    await insertProduct(db());
    process.env.ADMIN_EMAILS = listed.email;
    resetEnvForTests();
    try {
      const after = await dataOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }));
      expect(after.users.total).toBe(before.users.total + 2);
      expect(after.users.admins).toBe(before.users.admins + 1);
      expect(after.users.regular).toBe(before.users.regular + 1);
      expect(after.users.recent).toBe(before.users.recent + 1);
      const products = (d: { shop: { label: string; value: number }[] }) => d.shop.find((card) => card.label === "Products")?.value;
      expect(products(after)).toBe(products(before)! + 1);
    } finally {
      delete process.env.ADMIN_EMAILS;
      resetEnvForTests();
    }
  });

  it("counts orders per status, each figure leading to its tab of the orders page", async () => {
    const before = await dataOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }));
    const shopper = await createUser(db());
    await insertOrder(db(), { userId: shopper.id });
    await insertOrder(db(), { userId: shopper.id, status: "processing", paymentStatus: "completed" });
    const after = await dataOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }));
    expect(after.orders).toEqual({ ...before.orders, pending: before.orders.pending + 1, processing: before.orders.processing + 1 });
  });
});
