import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { USER_ADMIN_MESSAGES, USERS_SEARCH_BOUND } from "~/modules/accounts/users-admin.schema";
import { bulkInsert, bulkInsertChunked } from "~/db/bulk-insert.server";
import { updateUserByAdmin } from "~/modules/accounts/users-admin.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertOrder, TEST_ADDRESS } from "../../tests/factories/orders";
import * as route from "./admin.users";
import { resetEnvForTests } from "~/utils/env.server";
import { dashboardFigures } from "~/modules/reports/dashboard.server";

const db = () => getDb();
let owner = { id: "", cookie: "" };

beforeAll(async () => {
  // This file's database starts empty: the owner is its only admin.
  const admin = await createUser(db(), { isAdmin: true, email: "owner@shop.test" });
  owner = { id: admin.id, cookie: await sessionCookieFor(db(), admin.id) };
});

const post = (form: Record<string, string>, cookie = owner.cookie) => callAction(route.action, "/admin/users", form, { headers: { cookie } });
const load = async (path: string) => dataOf(await callLoader(route.loader, path, { headers: { cookie: owner.cookie } }));

describe("admin users", () => {
  it("promotes a customer, who is then an admin on their next request", async () => {
    const customer = await createUser(db(), { email: "thabo@example.co.za" });
    const cookie = await sessionCookieFor(db(), customer.id);
    expect((await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } })))?.isAdmin).toBe(false);
    const result = await post({ intent: "update", id: customer.id, isAdmin: "on", emailNotifications: "on" });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: USER_ADMIN_MESSAGES.updated });
    expect((await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } })))?.isAdmin).toBe(true);
    // and back, which is allowed: the owner is still an admin
    expect(await dataOf(await post({ intent: "update", id: customer.id, emailNotifications: "on" }))).toMatchObject({ ok: true });
  });

  it("an admin can't demote or delete themself, and the last admin stays", async () => {
    const self = await post({ intent: "update", id: owner.id, emailNotifications: "on" });
    expect(statusOf(self)).toBe(409);
    expect((await dataOf(self)).error).toBe(USER_ADMIN_MESSAGES.selfDemote);
    expect((await dataOf(await post({ intent: "delete", id: owner.id }))).error).toBe(USER_ADMIN_MESSAGES.selfDelete);

    // a second admin tries to remove the owner while the owner is the only other admin: allowed once, then refused
    const second = await createUser(db(), { isAdmin: true });
    const secondCookie = await sessionCookieFor(db(), second.id);
    const third = await createUser(db(), { isAdmin: true });
    expect((await dataOf(await post({ intent: "update", id: third.id }, secondCookie))).ok).toBe(true);
    const last = await post({ intent: "update", id: second.id }, owner.cookie);
    expect(await dataOf(last)).toMatchObject({ ok: true });
    // now the owner is the only admin; a (former) admin's stale page can't take it away either
    const users = await db().selectFrom("users").select("id").where("is_admin", "=", true).execute();
    expect(users.map((u) => u.id)).toEqual([owner.id]);
  });

  it("two admins demoting each other at the same moment leave one admin, never none", async () => {
    await db().updateTable("users").set({ is_admin: false }).where("id", "<>", owner.id).execute();
    const other = await createUser(db(), { isAdmin: true });
    const otherCookie = await sessionCookieFor(db(), other.id);
    const [a, b] = await Promise.all([
      post({ intent: "update", id: other.id }, owner.cookie),
      post({ intent: "update", id: owner.id }, otherCookie),
    ]);
    // One wins; the other is refused, either by the role check (already demoted: 403) or the last-admin rule (409).
    const statuses = [statusOf(a), statusOf(b)].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await db().selectFrom("users").select("id").where("is_admin", "=", true).execute();
    expect(admins).toHaveLength(1);
    // put the owner back as the only admin for the next tests
    await db().updateTable("users").set({ is_admin: true }).where("id", "=", owner.id).execute();
    await db().updateTable("users").set({ is_admin: false }).where("id", "=", other.id).execute();
  });

  it("the last-admin rule holds when both demotions reach the database at once (20 rounds)", async () => {
    for (let round = 0; round < 20; round++) {
      await db().updateTable("users").set({ is_admin: false }).where("id", "<>", owner.id).execute();
      const other = await createUser(db(), { isAdmin: true });
      const results = await Promise.allSettled([
        updateUserByAdmin(db(), owner.id, { id: other.id, isAdmin: false, emailNotifications: true, emailMarketing: false }),
        updateUserByAdmin(db(), other.id, { id: owner.id, isAdmin: false, emailNotifications: true, emailMarketing: false }),
      ]);
      const admins = await db().selectFrom("users").select("id").where("is_admin", "=", true).execute();
      expect(admins, `round ${round}: ${results.map((r) => r.status).join(", ")}`).toHaveLength(1);
      await db().updateTable("users").set({ is_admin: true }).where("id", "=", owner.id).execute();
    }
    await db().updateTable("users").set({ is_admin: false }).where("id", "<>", owner.id).execute();
  });

  it("switches marketing off, but only the customer can switch it on (POPIA consent)", async () => {
    const customer = await createUser(db(), { emailMarketing: true });
    expect(await dataOf(await post({ intent: "update", id: customer.id, emailNotifications: "on" }))).toMatchObject({ ok: true });
    const row = await db().selectFrom("users").select(["email_marketing", "marketing_consent_at"]).where("id", "=", customer.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email_marketing: false, marketing_consent_at: null });
    const refused = await post({ intent: "update", id: customer.id, emailMarketing: "on" });
    expect((await dataOf(refused)).error).toBe(USER_ADMIN_MESSAGES.marketingConsent);
  });

  it("deleting a user ends their sessions and keeps their paid orders with address and lines (docs/decisions/040)", async () => {
    const customer = await createUser(db(), { email: "leaving@example.co.za" });
    const cookie = await sessionCookieFor(db(), customer.id);
    const order = await insertOrder(db(), { userId: customer.id, status: "delivered", paymentStatus: "completed", lines: [{ name: "Amber Lantern", quantity: 2 }] });
    const unpaid = await insertOrder(db(), { userId: customer.id, status: "cancelled", paymentStatus: "failed" });
    expect(await dataOf(await post({ intent: "delete", id: customer.id }))).toMatchObject({ ok: true, message: USER_ADMIN_MESSAGES.deleted });
    expect(await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }))).toBeNull();
    const kept = await db().selectFrom("orders").select(["user_id", "shipping_address"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(kept.user_id).toBeNull();
    expect(kept.shipping_address).toEqual(TEST_ADDRESS);
    expect(await db().selectFrom("order_lines").select("name").where("order_id", "=", order.id).execute()).toEqual([{ name: "Amber Lantern" }]);
    // an order never paid keeps no name, telephone or address
    expect((await db().selectFrom("orders").select("shipping_address").where("id", "=", unpaid.id).executeTakeFirstOrThrow()).shipping_address.name).toBe("");
  });

  it("counts its people as the dashboard does (admins by flag or ADMIN_EMAILS, recent = last 7 days), from indexes", async () => {
    const before = (await load("/admin/users")).users;
    const listed = await createUser(db());
    const flagged = await createUser(db(), { isAdmin: true });
    const old = await createUser(db());
    await db().updateTable("users").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", old.id).execute();
    // a listed address that also has the flag counts once
    process.env.ADMIN_EMAILS = `${listed.email.toUpperCase()},${flagged.email},nobody-yet@shop.test`;
    resetEnvForTests();
    try {
      const after = (await load("/admin/users")).users;
      expect(after).toEqual({ total: before.total + 3, admins: before.admins + 2, regular: before.regular + 1, recent: before.recent + 2 });
      expect(after).toEqual((await dashboardFigures(db())).users);
    } finally {
      delete process.env.ADMIN_EMAILS;
      resetEnvForTests();
    }
    await db().deleteFrom("users").where("id", "in", [listed.id, flagged.id, old.id]).execute();
  });

  it("searches by e-mail and filters by role", async () => {
    await createUser(db(), { email: "zanele.search@example.co.za" });
    expect((await load("/admin/users?q=ZANELE.SEARCH")).list.rows.map((u: { email: string }) => u.email)).toEqual(["zanele.search@example.co.za"]);
    const admins = await load("/admin/users?role=admin");
    expect(admins.list.rows.every((u: { isAdmin: boolean }) => u.isAdmin)).toBe(true);
    expect(admins.list.rows.map((u: { email: string }) => u.email)).toContain("owner@shop.test");
    expect((await load("/admin/users?q=nobody-at-all")).list.rows).toEqual([]);
  });

  it("a search matching a few customers lists every one of them newest first, over as many pages as they fill", async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `few-${String(i).padStart(2, "0")}`, email: `lindiwe.few${i}@example.co.za`, created_at: day(i), updated_at: day(i) }));
    await bulkInsert(db(), "users", rows);
    const first = await load("/admin/users?q=LINDIWE.FEW");
    expect(first.list).toMatchObject({ matching: 30, pageCount: 2, more: false });
    expect(first.list.rows.map((u: { email: string }) => u.email)).toEqual(rows.slice(-25).reverse().map((r) => r.email));
    const second = await load("/admin/users?q=lindiwe.few&page=2");
    expect(second.list.rows.map((u: { email: string }) => u.email)).toEqual(rows.slice(0, 5).reverse().map((r) => r.email));
  });

  it(`a search matching more than ${USERS_SEARCH_BOUND} customers lists the newest ${USERS_SEARCH_BOUND}, says so, and a narrower one finds the rest`, async () => {
    const day = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, n)).toISOString();
    const rows = Array.from({ length: USERS_SEARCH_BOUND + 10 }, (_, i) => ({ id: `many-${String(i).padStart(5, "0")}`, email: `sipho.many${String(i).padStart(5, "0")}@example.co.za`, created_at: day(i), updated_at: day(i) }));
    await bulkInsertChunked(db(), "users", rows, 500);
    const view = await load("/admin/users?q=sipho.many");
    expect(view.list).toMatchObject({ matching: USERS_SEARCH_BOUND, pageCount: USERS_SEARCH_BOUND / 25, more: true });
    expect(view.list.rows[0].email).toBe(rows.at(-1)!.email);
    const last = await load(`/admin/users?q=sipho.many&page=${USERS_SEARCH_BOUND / 25}`);
    expect(last.list.rows.at(-1).email).toBe(rows[10]!.email);
    // the oldest ten are past the bound: a narrower search lists them
    const narrower = await load("/admin/users?q=sipho.many0000");
    expect(narrower.list).toMatchObject({ matching: 10, more: false });
    expect(narrower.list.rows.map((u: { email: string }) => u.email)).toEqual(rows.slice(0, 10).reverse().map((r) => r.email));
    // the role filter applies to the bounded search too
    expect((await load("/admin/users?q=sipho.many&role=admin")).list).toMatchObject({ matching: 0, rows: [], more: false });
  });
});
