/**
 * Two-step sign-in, passkeys' gate, step-up and signed-in devices (issue 38, docs/decisions/059), on the real
 * database (SQLite and PostgreSQL). The clock is moved with fake Date, never waited for; codes are computed here
 * from the secret the setup page shows.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/db.server";
import { cookieHeaderFrom, createUser, DEFAULT_TEST_PASSWORD, sessionCookieFor } from "../../../tests/factories/users";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { base32Decode, totpCode } from "./totp.server";
import { backupCodesLeft, confirmAuthenticator, pendingAuthenticatorSetup, startAuthenticator } from "./two-factor.server";
import { saveStaffSecurity, staffSecurity } from "./staff-security.server";
import { getSessionUser, STEP_UP_WINDOW_MS } from "./session.server";
import { TWO_STEP_MESSAGES } from "./two-step.schema";
import * as login from "~/routes/auth.login";
import * as twoStep from "~/routes/auth.two-step";
import * as confirm from "~/routes/auth.confirm";
import * as security from "~/routes/profile.security";

const meta = { ip: "203.0.113.7", userAgent: "vitest", cookie: null };
const req = (cookie: string) => new Request("http://localhost:3000/", { headers: { cookie } });

afterEach(() => {
  vi.useRealTimers();
});

/** A user with an authenticator app confirmed; returns the secret's key bytes and the backup codes. */
async function userWithAuthenticator(options: { isAdmin?: boolean } = {}) {
  const db = getDb();
  const user = await createUser(db, options);
  await startAuthenticator(db, user.id);
  const setup = await pendingAuthenticatorSetup(db, user);
  const key = base32Decode(setup!.secretText);
  const { backupCodes } = await confirmAuthenticator(db, user.id, totpCode(key), meta);
  return { user, key, backupCodes };
}

async function passwordStep(email: string, ip = "198.51.100.1") {
  const result = await callAction(login.action, "/auth/login", { email, password: DEFAULT_TEST_PASSWORD, redirect: "/profile" }, { ip });
  expect(statusOf(result)).toBe(302);
  const response = result as Response;
  return { location: response.headers.get("location")!, cookie: cookieHeaderFrom(response.headers.getSetCookie()) };
}

async function codeStep(cookie: string, code: string, ip = "198.51.100.1") {
  return callAction(twoStep.action, "/auth/two-step", { code, redirect: "/profile" }, { headers: { cookie }, ip });
}

describe("authenticator app (TOTP, RFC 6238)", () => {
  it("is confirmed with a code from the shown secret, and its secret is stored encrypted", async () => {
    const db = getDb();
    const user = await createUser(db);
    await startAuthenticator(db, user.id);
    const setup = await pendingAuthenticatorSetup(db, user);
    expect(setup!.uri).toMatch(/^otpauth:\/\/totp\/Scentara:/);
    expect(setup!.qr.size).toBeGreaterThan(20);
    const key = base32Decode(setup!.secretText);
    const plain = new TextDecoder().decode(key);
    const row = await db.selectFrom("two_factors").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(plain);
    expect(row.verified).toBe(false);
    await expect(confirmAuthenticator(db, user.id, "000000" === totpCode(key) ? "111111" : "000000", meta)).rejects.toThrow(TWO_STEP_MESSAGES.codeWrong);
    const { backupCodes } = await confirmAuthenticator(db, user.id, totpCode(key), meta);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    expect(await backupCodesLeft(db, user.id)).toBe(10);
    const stored = await db.selectFrom("two_factors").select("backup_codes").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    for (const code of backupCodes) expect(stored.backup_codes).not.toContain(code);
    expect((await db.selectFrom("users").select("two_factor_enabled").where("id", "=", user.id).executeTakeFirstOrThrow()).two_factor_enabled).toBe(true);
  });

  it("a password sign-in asks for the code; the clock moved, an old code is refused, the current one signs in, once", async () => {
    const { user, key } = await userWithAuthenticator();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5 * 60_000 });
    const first = await passwordStep(user.email);
    expect(first.location).toBe("/auth/two-step?redirect=%2Fprofile");
    expect(first.cookie).toMatch(/scentara\.two_factor=/);
    expect(first.cookie).not.toMatch(/session_token/);
    // the code of five minutes ago
    const stale = await codeStep(first.cookie, totpCode(key, Date.now() - 5 * 60_000));
    expect(statusOf(stale)).toBe(400);
    expect((await dataOf(stale)).fieldErrors.code).toBe(TWO_STEP_MESSAGES.codeWrong);
    const code = totpCode(key);
    const signedIn = await codeStep(first.cookie, code);
    expect(statusOf(signedIn)).toBe(302);
    expect((signedIn as Response).headers.get("location")).toBe("/profile");
    const session = cookieHeaderFrom((signedIn as Response).headers.getSetCookie());
    expect(await getSessionUser(req(session))).toMatchObject({ id: user.id, secondFactor: true });
    // the same code again, on a new sign-in: refused
    const second = await passwordStep(user.email);
    const reused = await codeStep(second.cookie, code);
    expect(statusOf(reused)).toBe(400);
    expect((await dataOf(reused)).fieldErrors.code).toBe(TWO_STEP_MESSAGES.codeReused);
    // 30 seconds on, the app's next code works
    vi.setSystemTime(Date.now() + 30_000);
    expect(statusOf(await codeStep(second.cookie, totpCode(key)))).toBe(302);
  });

  it("backup codes sign in once each", async () => {
    const db = getDb();
    const { user, backupCodes } = await userWithAuthenticator();
    const a = await passwordStep(user.email);
    expect(statusOf(await codeStep(a.cookie, backupCodes[0]!))).toBe(302);
    const b = await passwordStep(user.email);
    const again = await codeStep(b.cookie, backupCodes[0]!);
    expect(statusOf(again)).toBe(400);
    expect(statusOf(await codeStep(b.cookie, backupCodes[1]!))).toBe(302);
    expect(await backupCodesLeft(db, user.id)).toBe(8);
  });

  it("wrong codes are throttled like passwords (per account), and a staff member's are logged", async () => {
    const db = getDb();
    const { user, key } = await userWithAuthenticator({ isAdmin: true });
    const wrong = totpCode(key) === "000000" ? "111111" : "000000";
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const { cookie } = await passwordStep(user.email, `198.51.100.${10 + i}`);
      statuses.push(statusOf(await codeStep(cookie, wrong, `198.51.100.${10 + i}`)));
    }
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(400));
    expect(statuses[8]).toBe(429);
    // even the right code waits now
    const { cookie } = await passwordStep(user.email, "198.51.100.99");
    const refused = await codeStep(cookie, totpCode(key), "198.51.100.99");
    expect(statusOf(refused)).toBe(429);
    expect((await dataOf(refused)).error).toMatch(/Too many attempts/);
    const failures = await db.selectFrom("activity_log").select(["kind", "actor_id"]).where("actor_id", "=", user.id).where("kind", "=", "sign-in.second-factor-failed").execute();
    expect(failures.length).toBe(8);
  });

  it("a staff member's completed sign-in is logged; a customer's isn't", async () => {
    const db = getDb();
    const staff = await userWithAuthenticator({ isAdmin: true });
    // the code that confirmed the app is spent: the app's next one
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30_000 });
    const { cookie } = await passwordStep(staff.user.email);
    expect(statusOf(await codeStep(cookie, totpCode(staff.key)))).toBe(302);
    const customer = await createUser(db);
    await passwordStep(customer.email);
    const kinds = await db.selectFrom("activity_log").select(["actor_id", "after"]).where("kind", "=", "sign-in").where("actor_id", "in", [staff.user.id, customer.id]).execute();
    expect(kinds).toHaveLength(1);
    expect(kinds[0]!.actor_id).toBe(staff.user.id);
    // (activity_log.summary is read back as JSON on SQLite by the shared column list: `after` carries the method)
    expect(kinds[0]!.after).toEqual({ method: "password and authenticator code" });
  });

  it("an expired or missing challenge sends the person back to sign in", async () => {
    const noChallenge = await callLoader(twoStep.loader, "/auth/two-step");
    expect(statusOf(noChallenge)).toBe(302);
    expect((noChallenge as Response).headers.get("location")).toMatch(/^\/auth\/login\?expired=1/);
    const { user, key } = await userWithAuthenticator();
    const { cookie } = await passwordStep(user.email);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    const late = await codeStep(cookie, totpCode(key));
    expect(statusOf(late)).toBe(401);
  });
});

describe("the owner requires two-step sign-in of staff", () => {
  it("a member of staff without a second factor is sent to set one up; admin actions answer 403; with one, the admin opens", async () => {
    const db = getDb();
    const staff = await createUser(db, { isAdmin: true });
    const cookie = await sessionCookieFor(db, staff.id);
    const dashboard = await import("~/routes/admin._index");
    const coupons = await import("~/routes/admin.coupons");
    expect(statusOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }))).toBe(200);
    await saveStaffSecurity(db, { requireTwoStep: true });
    try {
      expect(await staffSecurity(db)).toEqual({ requireTwoStep: true });
      const gated = await callLoader(dashboard.loader, "/admin", { headers: { cookie } });
      expect(statusOf(gated)).toBe(302);
      expect((gated as Response).headers.get("location")).toBe("/profile/security?required=staff");
      const refused = await callAction(coupons.action, "/admin/coupons", { intent: "delete", id: "x" }, { headers: { cookie } });
      expect(statusOf(refused)).toBe(403);
      expect((await dataOf(refused)).error).toBe(TWO_STEP_MESSAGES.setupRequired);
      // the setup page itself opens, and says why
      const page = await dataOf(await callLoader(security.loader, "/profile/security", { headers: { cookie } }));
      expect(page.required).toBe(true);
      // a customer's pages are untouched
      const customer = await createUser(db);
      expect(statusOf(await callLoader(security.loader, "/profile/security", { headers: { cookie: await sessionCookieFor(db, customer.id) } }))).toBe(200);
      // an authenticator app confirmed: the admin opens at the next request
      await startAuthenticator(db, staff.id);
      const key = base32Decode((await pendingAuthenticatorSetup(db, staff))!.secretText);
      await confirmAuthenticator(db, staff.id, totpCode(key), meta);
      expect(statusOf(await callLoader(dashboard.loader, "/admin", { headers: { cookie } }))).toBe(200);
    } finally {
      await saveStaffSecurity(db, { requireTwoStep: false });
    }
  });
});

describe("step-up: the password again after 10 minutes", () => {
  it("a backup download and a gift card cancel are refused when the last proof is old; /auth/confirm stamps the session", async () => {
    const db = getDb();
    const owner = await createUser(db, { isAdmin: true });
    const cookie = await sessionCookieFor(db, owner.id);
    const backups = await import("~/routes/admin.data.backups.$name");
    const giftCards = await import("~/routes/admin.gift-cards");
    const path = "/admin/data/backups/not-an-archive";
    // just signed in: passes the step-up (and the name is refused)
    expect(statusOf(await callLoader(backups.loader, path, { headers: { cookie }, params: { name: "not-an-archive" } }))).toBe(400);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + STEP_UP_WINDOW_MS + 60_000 });
    const asked = await callLoader(backups.loader, path, { headers: { cookie }, params: { name: "not-an-archive" } });
    expect(statusOf(asked)).toBe(302);
    expect((asked as Response).headers.get("location")).toBe(`/auth/confirm?redirect=${encodeURIComponent(path)}`);
    const cancel = await callAction(giftCards.action, "/admin/gift-cards", { intent: "cancel", id: "no-such-card" }, { headers: { cookie, referer: "http://localhost:3000/admin/gift-cards?page=2" } });
    expect(statusOf(cancel)).toBe(403);
    expect(await dataOf(cancel)).toMatchObject({ ok: false, error: TWO_STEP_MESSAGES.confirmNeeded, confirm: `/auth/confirm?redirect=${encodeURIComponent("/admin/gift-cards?page=2")}` });
    // a wrong password changes nothing; the right one comes back to the page
    const wrong = await callAction(confirm.action, "/auth/confirm", { password: "not-the-password", redirect: path }, { headers: { cookie } });
    expect(statusOf(wrong)).toBe(400);
    const right = await callAction(confirm.action, "/auth/confirm", { password: DEFAULT_TEST_PASSWORD, redirect: path }, { headers: { cookie } });
    expect(statusOf(right)).toBe(302);
    expect((right as Response).headers.get("location")).toBe(path);
    expect(statusOf(await callLoader(backups.loader, path, { headers: { cookie }, params: { name: "not-an-archive" } }))).toBe(400);
    // ten more minutes: asked again
    vi.setSystemTime(Date.now() + STEP_UP_WINDOW_MS + 1_000);
    expect(statusOf(await callLoader(backups.loader, path, { headers: { cookie }, params: { name: "not-an-archive" } }))).toBe(302);
  });

  it("changing a factor in the profile asks for the password again after 10 minutes", async () => {
    const db = getDb();
    const user = await createUser(db);
    const cookie = await sessionCookieFor(db, user.id);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + STEP_UP_WINDOW_MS + 60_000 });
    const asked = await callAction(security.action, "/profile/security", { intent: "totp-start" }, { headers: { cookie } });
    expect(statusOf(asked)).toBe(302);
    expect((asked as Response).headers.get("location")).toBe("/auth/confirm?redirect=%2Fprofile%2Fsecurity");
    expect(await db.selectFrom("two_factors").select("id").where("user_id", "=", user.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("signed-in devices", () => {
  it("lists the person's sessions in plain words, signs one out and then every other, on the very next request", async () => {
    const db = getDb();
    const user = await createUser(db);
    const here = await sessionCookieFor(db, user.id);
    const phone = await sessionCookieFor(db, user.id);
    const laptop = await sessionCookieFor(db, user.id);
    const sessions = await db.selectFrom("sessions").select(["id", "token"]).where("user_id", "=", user.id).orderBy("created_at").execute();
    const agents = [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
    ];
    for (const [i, s] of sessions.entries()) await db.updateTable("sessions").set({ user_agent: agents[i]!, ip_address: `192.0.2.${i + 1}` }).where("id", "=", s.id).execute();
    for (const c of [here, phone, laptop]) expect(await getSessionUser(req(c))).toMatchObject({ id: user.id });
    // seen: last_seen_at is written (after the answer, not holding it up)
    await vi.waitFor(async () => {
      const seen = await db.selectFrom("sessions").select("last_seen_at").where("user_id", "=", user.id).execute();
      expect(seen.every((s) => s.last_seen_at)).toBe(true);
    });
    const page = await dataOf(await callLoader(security.loader, "/profile/security", { headers: { cookie: here } }));
    expect(page.devices.map((d: { label: string; current: boolean; ip: string }) => [d.label, d.current, d.ip])).toEqual([
      ["Chrome on Linux", true, "192.0.2.1"],
      expect.anything(),
      expect.anything(),
    ]);
    expect(page.devices.map((d: { label: string }) => d.label).sort()).toEqual(["Chrome on Linux", "Edge on Windows", "Safari on iPhone"]);
    const phoneId = page.devices.find((d: { label: string }) => d.label === "Safari on iPhone").id;
    const ended = await callAction(security.action, "/profile/security", { intent: "device-end", id: phoneId }, { headers: { cookie: here } });
    expect(await dataOf(ended)).toMatchObject({ ok: true, message: TWO_STEP_MESSAGES.sessionEnded });
    expect(await getSessionUser(req(phone))).toBeNull();
    expect(await getSessionUser(req(laptop))).toMatchObject({ id: user.id });
    // someone else's session can't be ended from here
    const other = await createUser(db);
    await sessionCookieFor(db, other.id);
    const theirs = await db.selectFrom("sessions").select("id").where("user_id", "=", other.id).executeTakeFirstOrThrow();
    expect(statusOf(await callAction(security.action, "/profile/security", { intent: "device-end", id: theirs.id }, { headers: { cookie: here } }))).toBe(404);
    await callAction(security.action, "/profile/security", { intent: "devices-end-others" }, { headers: { cookie: here } });
    expect(await getSessionUser(req(laptop))).toBeNull();
    expect(await getSessionUser(req(here))).toMatchObject({ id: user.id });
    expect(await db.selectFrom("sessions").select("id").where("id", "=", theirs.id).executeTakeFirst()).toBeTruthy();
  });
});
