import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as login from "~/routes/auth.login";
import * as profile from "~/routes/profile";
import * as account from "~/routes/profile._index";
import * as ordersTab from "~/routes/profile.orders";
import * as preferencesTab from "~/routes/profile.preferences";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { cookieHeaderFrom, createUser, sessionCookieFor } from "../../../tests/factories/users";
import { insertOrder } from "../../../tests/factories/orders";
import { getSessionUser } from "./session.server";

const db = () => getDb();
const sessionOf = (cookie: string) => getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }));

describe("profile", () => {
  it("sends a visitor to login with a redirect back, from the frame and from every tab", async () => {
    const pages: Array<[Parameters<typeof callLoader>[0], string]> = [[profile.loader, "/profile"], [account.loader, "/profile"], [ordersTab.loader, "/profile/orders"], [preferencesTab.loader, "/profile/preferences"]];
    for (const [loader, path] of pages) {
      const result = await callLoader(loader, path);
      expect(statusOf(result)).toBe(302);
      expect((result as Response).headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(path)}`);
    }
  });

  it("the tabs' old addresses (?tab=, in e-mails already sent) lead to their pages", async () => {
    for (const [tab, path] of [["orders", "/profile/orders"], ["preferences", "/profile/preferences"]]) {
      const result = await callLoader(profile.loader, `/profile?tab=${tab}`);
      expect(statusOf(result)).toBe(301);
      expect((result as Response).headers.get("Location")).toBe(path);
    }
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    // ?tab=account (or anything else) was the account tab: it still is
    expect(await dataOf(await callLoader(profile.loader, "/profile?tab=account", { headers: { cookie } }))).toEqual({ email: user.email });
  });

  it("shows the account's e-mail and the default preferences (notifications on, marketing off)", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const page = await dataOf(await callLoader(profile.loader, "/profile", { headers: { cookie } }));
    expect(page.email).toBe(user.email);
    const preferences = await dataOf(await callLoader(preferencesTab.loader, "/profile/preferences", { headers: { cookie } }));
    expect(preferences.preferences).toEqual({ emailNotifications: true, emailMarketing: false, marketingConsentAt: null });
  });

  it("lists only the user's own orders, newest first, with short id, en-ZA date, status and total", async () => {
    const user = await createUser(db());
    const other = await createUser(db());
    const older = await insertOrder(db(), { userId: user.id, createdAt: "2025-03-01T10:00:00.000Z", lines: [{ unitPriceCents: 129900 }], shippingCents: 0 });
    const newer = await insertOrder(db(), { userId: user.id, createdAt: "2025-06-15T10:00:00.000Z", status: "processing", paymentStatus: "completed" });
    await insertOrder(db(), { userId: other.id });
    const cookie = await sessionCookieFor(db(), user.id);
    const page = await dataOf(await callLoader(ordersTab.loader, "/profile/orders", { headers: { cookie } }));
    expect(page.orders.map((o: any) => o.id)).toEqual([newer.id, older.id]);
    expect(page.orders[1]).toMatchObject({ shortId: older.id.slice(0, 8), status: "pending", total: "R1 299.00" });
    expect(page.orders[1].date).toMatch(/2025/);
    expect(page.orders[0].status).toBe("processing");

    const emptyCookie = await sessionCookieFor(db(), other.id);
    const otherPage = await dataOf(await callLoader(ordersTab.loader, "/profile/orders", { headers: { cookie: emptyCookie } }));
    expect(otherPage.orders).toHaveLength(1);
    const fresh = await createUser(db());
    const none = await dataOf(await callLoader(ordersTab.loader, "/profile/orders", { headers: { cookie: await sessionCookieFor(db(), fresh.id) } }));
    expect(none.orders).toEqual([]);
  });

  it("lists payment attempts that didn't go through apart from real orders, newest first, with their count", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const at = (day: number) => `2025-07-${String(day).padStart(2, "0")}T10:00:00.000Z`;
    const awaiting = await insertOrder(db(), { userId: user.id, createdAt: at(1) });
    const paid = await insertOrder(db(), { userId: user.id, createdAt: at(2), status: "processing", paymentStatus: "completed" });
    // cancelled after payment (a refund case): still a real order
    const paidThenCancelled = await insertOrder(db(), { userId: user.id, createdAt: at(3), status: "cancelled", paymentStatus: "completed" });
    const cancelledAttempt = await insertOrder(db(), { userId: user.id, createdAt: at(4), status: "cancelled", paymentStatus: "cancelled" });
    const failedAttempt = await insertOrder(db(), { userId: user.id, createdAt: at(5), status: "cancelled", paymentStatus: "failed" });
    const page = await dataOf(await callLoader(ordersTab.loader, "/profile/orders", { headers: { cookie } }));
    expect(page.orders.map((o: any) => o.id)).toEqual([paidThenCancelled.id, paid.id, awaiting.id]);
    expect(page.attempts.count).toBe(2);
    expect(page.attempts.rows.map((o: any) => o.id)).toEqual([failedAttempt.id, cancelledAttempt.id]);
    expect(page.attempts.rows[0]).toMatchObject({ shortId: failedAttempt.id.slice(0, 8), paymentStatus: "failed", status: "cancelled" });

    // only attempts: no real order yet, the attempts still listed (folded) below the empty state
    const onlyAttempts = await createUser(db());
    await insertOrder(db(), { userId: onlyAttempts.id, status: "cancelled", paymentStatus: "cancelled" });
    const second = await dataOf(await callLoader(ordersTab.loader, "/profile/orders", { headers: { cookie: await sessionCookieFor(db(), onlyAttempts.id) } }));
    expect(second.orders).toEqual([]);
    expect(second.attempts.count).toBe(1);
    // the account tab reads no orders at all
    const accountPage = await dataOf(await callLoader(account.loader, "/profile", { headers: { cookie } }));
    expect(accountPage).toEqual({ notice: null, dataNotice: null, giftCards: [] });
  });

  it("shows at most the 20 newest attempts and says how many there are", async () => {
    const user = await createUser(db());
    for (let i = 0; i < 22; i++) {
      await insertOrder(db(), { userId: user.id, status: "cancelled", paymentStatus: "cancelled", createdAt: `2025-08-01T10:${String(i).padStart(2, "0")}:00.000Z` });
    }
    const page = await dataOf(await callLoader(ordersTab.loader, "/profile/orders", { headers: { cookie: await sessionCookieFor(db(), user.id) } }));
    expect(page.attempts.count).toBe(22);
    expect(page.attempts.rows).toHaveLength(20);
    expect(page.orders).toEqual([]);
  });

  it("changes the password with the current one; other sessions end, this browser gets a new session", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const otherDevice = await sessionCookieFor(db(), user.id);
    // seen once, so the server remembers it (docs/decisions/021): the change must still end it at once
    expect(await sessionOf(otherDevice)).toMatchObject({ id: user.id });

    const wrong = await callAction(account.action, "/profile?index", { intent: "password", currentPassword: "not it at all", newPassword: "brand new passphrase" }, { headers: { cookie } });
    expect(statusOf(wrong)).toBe(400);
    expect((await dataOf(wrong)).error).toBe("Failed to update password. Please try again.");

    const ok = await callAction(account.action, "/profile?index", { intent: "password", currentPassword: user.password, newPassword: "brand new passphrase" }, { headers: { cookie } });
    // Post/Redirect/Get with the new session cookie: works the same with and without JavaScript
    expect(statusOf(ok)).toBe(303);
    expect((ok as Response).headers.get("location")).toBe("/profile?updated=password");
    const newCookie = cookieHeaderFrom((ok as Response).headers.getSetCookie());
    expect(await sessionOf(newCookie)).toMatchObject({ id: user.id });
    expect(await sessionOf(otherDevice)).toBeNull();
    // the page it lands on, with the new cookie, is still signed in and says so
    const frame = await dataOf(await callLoader(profile.loader, "/profile?updated=password", { headers: { cookie: newCookie } }));
    expect(frame).toEqual({ email: user.email });
    const page = await dataOf(await callLoader(account.loader, "/profile?updated=password", { headers: { cookie: newCookie } }));
    expect(page).toMatchObject({ notice: "Password updated successfully" });

    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: "brand new passphrase" }, { ip: "192.0.2.10" }))).toBe(302);
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: "192.0.2.11" }))).toBe(401);
  });

  it("requires both password fields and applies the password rules", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const empty = await callAction(account.action, "/profile?index", { intent: "password", currentPassword: "", newPassword: "" }, { headers: { cookie } });
    expect(statusOf(empty)).toBe(400);
    expect((await dataOf(empty)).fieldErrors).toEqual({ currentPassword: "Current password is required", newPassword: "New password is required" });
    const short = await callAction(account.action, "/profile?index", { intent: "password", currentPassword: user.password, newPassword: "short" }, { headers: { cookie } });
    expect((await dataOf(short)).fieldErrors.newPassword).toBe("Password must be at least 8 characters");
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: "192.0.2.12" }))).toBe(302);
  });

  it("saves e-mail preferences; marketing consent is recorded when given and cleared on opt-out (POPIA)", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const on = await callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailNotifications: "on", emailMarketing: "on" }, { headers: { cookie } });
    expect(await dataOf(on)).toEqual({ ok: true, intent: "preferences", message: "Email preferences updated successfully!" });
    let row = await db().selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.email_marketing).toBe(true);
    expect(row.email_notifications).toBe(true);
    expect(Date.now() - new Date(row.marketing_consent_at!).getTime()).toBeLessThan(60_000);
    const consentAt = row.marketing_consent_at;

    // saving again keeps the original consent time
    await callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailMarketing: "on" }, { headers: { cookie } });
    row = await db().selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.marketing_consent_at).toBe(consentAt);
    expect(row.email_notifications).toBe(false); // unchecked box = off

    await callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailNotifications: "on" }, { headers: { cookie } });
    row = await db().selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.email_marketing).toBe(false);
    expect(row.marketing_consent_at).toBeNull();
    expect(row.email_notifications).toBe(true);
  });

  it("refuses changes from another site and from visitors, changing nothing", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const crossSite = await callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailMarketing: "on" }, { headers: { cookie, origin: "https://evil.example" } });
    expect(statusOf(crossSite)).toBe(403);
    const visitor = await callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailMarketing: "on" });
    expect(statusOf(visitor)).toBe(302);
    const row = await db().selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.email_marketing).toBe(false);
  });
});
