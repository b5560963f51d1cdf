import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { cookieHeaderFrom, createUser, uniqueEmail } from "../../tests/factories/users";
import * as login from "./auth.login";
import * as register from "./auth.register";

describe("redirect after sign-in never leaves the shop", () => {
  it.each(["/.//evil.example/x", "/..//evil.example", "/%2e//evil.example", "/a/..//evil.example", "/\\evil.example", "/%5Cevil.example", "/\t/evil.example"])(
    "sign-in with redirect=%j lands on a page of this shop",
    async (target) => {
      const user = await createUser(getDb());
      const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password, redirect: target }, { ip: `10.77.${Math.floor(Math.random() * 250)}.1` });
      const location = (result as Response).headers.get("location")!;
      expect(location.startsWith("/")).toBe(true);
      expect(location.startsWith("//")).toBe(false);
      expect(new URL(location, "http://shop.test").host).toBe("shop.test");
    },
  );

  it("the login and register pages drop a redirect that leaves the shop, and keep one that doesn't", async () => {
    expect((await dataOf(await callLoader(login.loader, "/auth/login?redirect=%2F.%2F%2Fevil.example%2Fx"))).redirectTo).toBe("");
    expect((await dataOf(await callLoader(register.loader, "/auth/register?redirect=%2F..%2F%2Fevil.example"))).redirectTo).toBe("");
    expect((await dataOf(await callLoader(login.loader, "/auth/login?redirect=%2Fcheckout"))).redirectTo).toBe("/checkout");
  });
});

describe("from registering to signing in: the e-mail filled in, the way back kept (issue 13)", () => {
  let ipSeq = 0;
  const ip = () => `10.88.${Math.floor(Math.random() * 250)}.${++ipSeq}`;
  const setCookiesOf = (result: unknown) => (result instanceof Response ? result.headers.getSetCookie() : []);
  const registeredEmailCookie = (result: unknown) => setCookiesOf(result).find((c) => c.startsWith("scentara.registered_email="));

  it("registering on the way to checkout leads to a login page with the e-mail filled in and back to checkout", async () => {
    const email = uniqueEmail("Journey");
    const registered = await callAction(register.action, "/auth/register", { email: ` ${email.toUpperCase()} `, password: "a quiet sandalwood evening", redirect: "/checkout" }, { ip: ip() });
    expect(statusOf(registered)).toBe(302);
    const location = (registered as Response).headers.get("Location")!;
    expect(location).toBe("/auth/login?registered=1&redirect=%2Fcheckout");
    // the e-mail travels in a short-lived cookie of this browser, never in the address (history, logs, Referer)
    expect(location.toLowerCase()).not.toContain(email.toLowerCase().split("@")[0]);
    const cookie = registeredEmailCookie(registered)!;
    expect(cookie).toMatch(/; Path=\/auth; Max-Age=900; HttpOnly; SameSite=Lax$/);

    const page = await dataOf(await callLoader(login.loader, location, { headers: { cookie: cookieHeaderFrom([cookie]) } }));
    expect(page).toEqual({ redirectTo: "/checkout", warning: null, notice: "Your account is ready. Please sign in.", email: email.toLowerCase() });

    // signing in lands on checkout and forgets the e-mail
    const signedIn = await callAction(login.action, "/auth/login", { email: page.email, password: "a quiet sandalwood evening", redirect: page.redirectTo }, { ip: ip(), headers: { cookie: cookieHeaderFrom([cookie]) } });
    expect((signedIn as Response).headers.get("Location")).toBe("/checkout");
    expect(registeredEmailCookie(signedIn)).toMatch(/^scentara\.registered_email=; Path=\/auth; Max-Age=0;/);
  });

  it("an e-mail that already has an account gets the same answer, the same cookie and the same login page", async () => {
    const existing = await createUser(getDb());
    const fresh = uniqueEmail("fresh");
    const answers = [];
    for (const email of [existing.email, fresh]) {
      const result = await callAction(register.action, "/auth/register", { email, password: "another long passphrase", redirect: "/checkout" }, { ip: ip() });
      const cookie = registeredEmailCookie(result)!;
      const page = await dataOf(await callLoader(login.loader, "/auth/login?registered=1&redirect=%2Fcheckout", { headers: { cookie: cookieHeaderFrom([cookie]) } }));
      expect(page.email).toBe(email);
      answers.push({
        status: statusOf(result),
        location: (result as Response).headers.get("Location"),
        cookies: setCookiesOf(result).map((c) => c.replace(encodeURIComponent(email), "EMAIL")),
        page: { ...page, email: "EMAIL" },
      });
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it("the login page fills in nothing without the cookie, or from a cookie that isn't an e-mail address", async () => {
    expect((await dataOf(await callLoader(login.loader, "/auth/login"))).email).toBe("");
    for (const value of ["not-an-email", "%3Cscript%3E%40x", "%E0%A4%A", `${"a".repeat(250)}%40example.test`]) {
      const page = await dataOf(await callLoader(login.loader, "/auth/login", { headers: { cookie: `scentara.registered_email=${value}` } }));
      expect(page.email, value).toBe("");
    }
  });

  it("a refused registration leaves no e-mail behind", async () => {
    const result = await callAction(register.action, "/auth/register", { email: uniqueEmail(), password: "short" }, { ip: ip() });
    expect(statusOf(result)).toBe(400);
    expect(registeredEmailCookie(result)).toBeUndefined();
  });
});
