import { verifyPassword } from "better-auth/crypto";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import * as login from "~/routes/auth.login";
import * as logout from "~/routes/auth.logout";
import * as register from "~/routes/auth.register";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { cookieHeaderFrom, createUser, sessionCookieFor, uniqueEmail } from "../../../tests/factories/users";
import { useShopPasswordHashing } from "../../../tests/setup/password-hashing";
import { MESSAGES } from "./accounts.schema";
import { getSessionUser, requireUser } from "./session.server";

const db = () => getDb();
let ipSeq = 0;
/** Each test its own client address, so rate limits of one test don't leak into another. */
const ip = () => `198.51.100.${++ipSeq}`;

function setCookiesOf(result: unknown): string[] {
  return result instanceof Response ? result.headers.getSetCookie() : [];
}

async function userFrom(cookie: string) {
  return getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }));
}

function withEnv(vars: Record<string, string | undefined>) {
  const before: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(vars)) {
    before[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
  restore.push(() => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvForTests();
  });
}
const restore: Array<() => void> = [];
afterEach(() => {
  while (restore.length) restore.pop()!();
});

describe("register", () => {
  describe("with the shop's own password hashing", () => {
    useShopPasswordHashing();
    it("stores the library's scrypt hash, which signs in", async () => {
      const email = uniqueEmail("Hashed");
      const password = "a quiet sandalwood evening";
      expect(statusOf(await callAction(register.action, "/auth/register", { email, password }, { ip: ip() }))).toBe(302);
      const { id } = await db().selectFrom("users").select("id").where("email", "=", email.toLowerCase()).executeTakeFirstOrThrow();
      const account = await db().selectFrom("accounts").select("password").where("user_id", "=", id).executeTakeFirstOrThrow();
      expect(account.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/); // scrypt salt:key, as better-auth writes it
      expect(await verifyPassword({ hash: account.password!, password })).toBe(true);
      const signedIn = await callAction(login.action, "/auth/login", { email, password }, { ip: ip() });
      expect(statusOf(signedIn)).toBe(302);
      expect(setCookiesOf(signedIn).some((c) => c.includes("session_token="))).toBe(true);
    });
  });

  it("creates an account with a library-hashed password and the default e-mail preferences, then sends to login", async () => {
    const email = uniqueEmail("New");
    const result = await callAction(register.action, "/auth/register", { email: `  ${email.toUpperCase()} `, password: "a quiet sandalwood evening" }, { ip: ip() });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?registered=1");
    // no session: registering does not sign in
    expect(setCookiesOf(result).some((c) => c.includes("session_token="))).toBe(false);

    const user = await db().selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirstOrThrow();
    expect(user.is_admin).toBe(false);
    expect(user.email_notifications).toBe(true);
    expect(user.email_marketing).toBe(false);
    expect(user.marketing_consent_at).toBeNull();
    // timestamps in the shop's portable format (ISO-8601 UTC text on both databases)
    expect(user.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const account = await db().selectFrom("accounts").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(account.provider_id).toBe("credential");
    expect(account.password).not.toContain("sandalwood");
    expect(account.password).toMatch(/[0-9a-f]{32}:[0-9a-f]{128}$/); // salt:key (the tests' own scrypt marks its hashes: tests/setup/password-hashing.ts)
  });

  it("answers an existing e-mail exactly like a new one, and tells the owner by e-mail", async () => {
    const existing = await createUser(db());
    const before = await db().selectFrom("users").select("id").execute();
    const result = await callAction(register.action, "/auth/register", { email: existing.email, password: "another long passphrase" }, { ip: ip() });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?registered=1");
    expect(await db().selectFrom("users").select("id").execute()).toHaveLength(before.length);
    const mail = await db().selectFrom("mail_outbox").selectAll().where("to_address", "=", existing.email).execute();
    expect(mail.map((m) => m.subject)).toContain("Your Scentara account");
    // the old password still works, the new one doesn't
    const ok = await callAction(login.action, "/auth/login", { email: existing.email, password: existing.password }, { ip: ip() });
    expect(statusOf(ok)).toBe(302);
    const bad = await callAction(login.action, "/auth/login", { email: existing.email, password: "another long passphrase" }, { ip: ip() });
    expect(statusOf(bad)).toBe(401);
  });

  it.each([
    ["", "Password is required"],
    ["short1!", "Password must be at least 8 characters"],
    ["x".repeat(129), "Password must be at most 128 characters"],
    ["password123", "This password is too common. Please choose a less common one."],
    ["Qwerty123", "This password is too common. Please choose a less common one."],
  ])("refuses the password %j with a clear message and creates nothing", async (password, message) => {
    const email = uniqueEmail();
    const result = await callAction(register.action, "/auth/register", { email, password }, { ip: ip() });
    expect(statusOf(result)).toBe(400);
    const body = await dataOf(result);
    expect(body.error).toBe(MESSAGES.registerFailed);
    expect(body.fieldErrors.password).toBe(message);
    expect(await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
  });

  it("accepts long passphrases (64 and 128 characters) with no composition rules", async () => {
    for (const length of [64, 128]) {
      const email = uniqueEmail();
      const password = "lowercase words only ".repeat(10).slice(0, length);
      const result = await callAction(register.action, "/auth/register", { email, password }, { ip: ip() });
      expect(statusOf(result)).toBe(302);
      expect(statusOf(await callAction(login.action, "/auth/login", { email, password }, { ip: ip() }))).toBe(302);
    }
  });

  it("refuses a missing or malformed e-mail", async () => {
    const result = await callAction(register.action, "/auth/register", { email: "not-an-email", password: "long enough passphrase" }, { ip: ip() });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).fieldErrors.email).toBe("Please enter a valid email address");
  });
});

describe("sign in", () => {
  it("starts a new session with an HttpOnly, SameSite=Lax cookie (not Secure on http) and goes home", async () => {
    const user = await createUser(db());
    const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip() });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/");
    const cookie = setCookiesOf(result).find((c) => c.startsWith("scentara.session_token="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    const sessionUser = await userFrom(cookieHeaderFrom(setCookiesOf(result)));
    expect(sessionUser).toMatchObject({ id: user.id, email: user.email, isAdmin: false, role: null, permissions: [], secondFactor: false });
  });

  it("marks the cookie Secure (with the __Secure- prefix) when the public URL is https", async () => {
    withEnv({ PUBLIC_BASE_URL: "https://shop.example", AUTH_SECRET: "https-test-secret-https-test-secret-0123", ALLOW_TEST_PAYMENTS: "true" });
    const user = await createUser(db());
    const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip(), headers: { origin: "https://shop.example" } });
    expect(statusOf(result)).toBe(302);
    const cookie = setCookiesOf(result).find((c) => c.includes("session_token="))!;
    expect(cookie.startsWith("__Secure-scentara.session_token=")).toBe(true);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
  });

  it("gives every sign-in a new session, and ends the browser's previous one", async () => {
    const user = await createUser(db());
    const first = await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip() });
    const firstCookie = cookieHeaderFrom(setCookiesOf(first));
    const second = await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip(), headers: { cookie: firstCookie } });
    const secondCookie = cookieHeaderFrom(setCookiesOf(second));
    expect(secondCookie).not.toBe(firstCookie);
    expect(await userFrom(secondCookie)).toMatchObject({ id: user.id });
    expect(await userFrom(firstCookie)).toBeNull();
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
  });

  it("answers a wrong password and an unknown e-mail with the same message and status", async () => {
    const user = await createUser(db());
    const wrong = await callAction(login.action, "/auth/login", { email: user.email, password: "not the password" }, { ip: ip() });
    const unknown = await callAction(login.action, "/auth/login", { email: uniqueEmail(), password: "not the password" }, { ip: ip() });
    expect(statusOf(wrong)).toBe(401);
    expect(statusOf(unknown)).toBe(401);
    expect(await dataOf(wrong)).toEqual(await dataOf(unknown));
    expect((await dataOf(wrong)).error).toBe("Failed to sign in. Please check your credentials.");
    expect(setCookiesOf(wrong)).toEqual([]);
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });

  it("follows a redirect parameter only to a path on this site", async () => {
    const user = await createUser(db());
    const cases: Array<[string, string]> = [
      ["/checkout", "/checkout"],
      ["/order-confirmation?id=abc", "/order-confirmation?id=abc"],
      ["https://evil.example/phish", "/"],
      ["//evil.example", "/"],
      ["/\\evil.example", "/"],
    ];
    for (const [target, expected] of cases) {
      const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password, redirect: target }, { ip: ip() });
      expect((result as Response).headers.get("Location")).toBe(expected);
    }
    const page = await dataOf(await callLoader(login.loader, "/auth/login?redirect=https%3A%2F%2Fevil.example"));
    expect(page.redirectTo).toBe("");
    const kept = await dataOf(await callLoader(login.loader, "/auth/login?redirect=%2Fadmin%2Forders"));
    expect(kept.redirectTo).toBe("/admin/orders");
  });

  it.each([
    "/.//evil.example/x",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/..//evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "///evil.example",
    "https://evil.example",
    "javascript:alert(1)",
  ])("signs in with redirect=%j and lands on a page of this shop", async (target) => {
    const user = await createUser(db());
    const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password, redirect: target }, { ip: ip() });
    expect(statusOf(result)).toBe(302);
    const location = (result as Response).headers.get("Location")!;
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, "http://shop.test").host).toBe("shop.test");
    expect(setCookiesOf(result).some((c) => c.startsWith("scentara.session_token="))).toBe(true);
  });

  it("register and the sign-in redirect of a protected page carry no outside target either", async () => {
    const registered = await callAction(register.action, "/auth/register", { email: uniqueEmail(), password: "long enough passphrase", redirect: "/.//evil.example/x" }, { ip: ip() });
    expect((registered as Response).headers.get("Location")).toBe("/auth/login?registered=1");
    const kept = await callAction(register.action, "/auth/register", { email: uniqueEmail(), password: "long enough passphrase", redirect: "/checkout" }, { ip: ip() });
    expect((kept as Response).headers.get("Location")).toBe("/auth/login?registered=1&redirect=%2Fcheckout");
    // A request for '//evil.example/profile' on this host must not come back as a login link to that host.
    const thrown = await requireUser(new Request("http://localhost:3000//evil.example/profile")).catch((r: unknown) => r);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/auth/login");
    const page = await dataOf(await callLoader(login.loader, "/auth/login?redirect=%2F.%2F%2Fevil.example%2Fx"));
    expect(page.redirectTo).toBe("");
  });

  it("refuses a cross-site form post and starts no session", async () => {
    const user = await createUser(db());
    const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip(), headers: { origin: "https://evil.example" } });
    expect(statusOf(result)).toBe(403);
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });
});

describe("admin is decided on the server", () => {
  it("makes ADMIN_EMAILS users admin at sign-in (record upserted) and leaves others to their flag", async () => {
    const listed = uniqueEmail("boss");
    withEnv({ ADMIN_EMAILS: `someone@else.test, ${listed.toUpperCase()}` });
    const boss = await createUser(db(), { email: listed });
    const customer = await createUser(db());
    const flagged = await createUser(db(), { isAdmin: true });

    const bossLogin = await callAction(login.action, "/auth/login", { email: boss.email, password: boss.password }, { ip: ip() });
    expect((await db().selectFrom("users").select("is_admin").where("id", "=", boss.id).executeTakeFirstOrThrow()).is_admin).toBe(true);
    expect(await userFrom(cookieHeaderFrom(setCookiesOf(bossLogin)))).toMatchObject({ isAdmin: true });

    const customerLogin = await callAction(login.action, "/auth/login", { email: customer.email, password: customer.password }, { ip: ip() });
    expect(await userFrom(cookieHeaderFrom(setCookiesOf(customerLogin)))).toMatchObject({ isAdmin: false });
    expect((await db().selectFrom("users").select("is_admin").where("id", "=", customer.id).executeTakeFirstOrThrow()).is_admin).toBe(false);

    expect(await userFrom(await sessionCookieFor(db(), flagged.id))).toMatchObject({ isAdmin: true });
  });

  it("a client can't make itself admin through the registration form", async () => {
    const email = uniqueEmail();
    await callAction(register.action, "/auth/register", { email, password: "long enough passphrase", isAdmin: "true", is_admin: "1" }, { ip: ip() });
    const row = await db().selectFrom("users").select("is_admin").where("email", "=", email).executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(false);
  });
});

describe("sign out", () => {
  it("ends the session on the server, clears the cookie and goes home", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const result = await callAction(logout.action, "/auth/logout", {}, { headers: { cookie } });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/");
    const cleared = setCookiesOf(result).find((c) => c.startsWith("scentara.session_token="));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(await userFrom(cookie)).toBeNull();
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });

  it("won't sign out from another site's form, nor on a GET", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const crossSite = await callAction(logout.action, "/auth/logout", {}, { headers: { cookie, origin: "https://evil.example" } });
    expect(statusOf(crossSite)).toBe(403);
    const get = await callLoader(logout.loader, "/auth/logout", { headers: { cookie } });
    expect(statusOf(get)).toBe(302);
    expect(await userFrom(cookie)).toMatchObject({ id: user.id });
  });
});

describe("create-admin (first start)", () => {
  it("creates an admin with a one-time password that signs in; run again, it replaces the password and ends sessions", async () => {
    const { createOrResetAdmin } = await import("./accounts.server");
    const email = uniqueEmail("owner");
    const first = await createOrResetAdmin(db(), email.toUpperCase());
    expect(first.created).toBe(true);
    expect(first.password.length).toBeGreaterThanOrEqual(20);
    const signedIn = await callAction(login.action, "/auth/login", { email, password: first.password }, { ip: ip() });
    const cookie = cookieHeaderFrom(setCookiesOf(signedIn));
    expect(await userFrom(cookie)).toMatchObject({ email, isAdmin: true });

    const second = await createOrResetAdmin(db(), email);
    expect(second.created).toBe(false);
    expect(second.password).not.toBe(first.password);
    expect(await userFrom(cookie)).toBeNull();
    expect(statusOf(await callAction(login.action, "/auth/login", { email, password: first.password }, { ip: ip() }))).toBe(401);
    expect(statusOf(await callAction(login.action, "/auth/login", { email, password: second.password }, { ip: ip() }))).toBe(302);
  });

  it("promotes an existing customer", async () => {
    const { createOrResetAdmin } = await import("./accounts.server");
    const customer = await createUser(db());
    const result = await createOrResetAdmin(db(), customer.email);
    expect(result).toMatchObject({ created: false, userId: customer.id });
    expect((await db().selectFrom("users").select("is_admin").where("id", "=", customer.id).executeTakeFirstOrThrow()).is_admin).toBe(true);
  });
});
