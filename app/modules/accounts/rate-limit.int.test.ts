import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as forgot from "~/routes/auth.forgot-password";
import * as login from "~/routes/auth.login";
import * as register from "~/routes/auth.register";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, uniqueEmail } from "../../../tests/factories/users";
import { addressKey, consume, RATE_RULES, rateKey, tooManyAttemptsMessage } from "./rate-limit.server";

const db = () => getDb();

async function counter(key: string) {
  return (await db().selectFrom("rate_limits").select("count").where("key", "=", key).executeTakeFirst())?.count ?? 0;
}
async function setCounter(key: string, count: number) {
  await db().updateTable("rate_limits").set({ count }).where("key", "=", key).execute();
}

describe("rate limits (stored in the database)", () => {
  it("counts within a window and starts again after it", async () => {
    const rule = { max: 2, windowMs: 60_000 };
    const t0 = 1_700_000_000_000;
    expect((await consume(db(), "t:window", rule, t0)).allowed).toBe(true);
    expect((await consume(db(), "t:window", rule, t0 + 1000)).allowed).toBe(true);
    const third = await consume(db(), "t:window", rule, t0 + 2000);
    expect(third).toEqual({ allowed: false, retryAfterMs: 58_000 });
    expect((await consume(db(), "t:window", rule, t0 + 60_000)).allowed).toBe(true);
  });

  it("holds under concurrent attempts", async () => {
    const rule = { max: 5, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 12 }, () => consume(db(), "t:concurrent", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("says how long to wait", () => {
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe("Too many attempts, try again in 15 minutes");
    expect(tooManyAttemptsMessage(30_000)).toBe("Too many attempts, try again in 1 minute");
  });

  it("an attacker guessing from one address is throttled there; the owner signs in from another address", async () => {
    const owner = await createUser(db());
    const attacker = "10.1.0.66";
    for (let i = 0; i < RATE_RULES.signInIpEmail.max; i++) {
      const r = await callAction(login.action, "/auth/login", { email: owner.email, password: `guess ${i}` }, { ip: attacker });
      expect(statusOf(r)).toBe(401);
    }
    // the next guess is refused, and learns nothing about the account
    const throttled = await callAction(login.action, "/auth/login", { email: owner.email, password: "guess 8" }, { ip: attacker });
    expect(statusOf(throttled)).toBe(429);
    expect((await dataOf(throttled)).error).toBe("Too many attempts, try again in 15 minutes");

    // the owner, at home, signs in and gets a session
    const home = await callAction(login.action, "/auth/login", { email: owner.email, password: owner.password }, { ip: "10.1.9.9" });
    expect(statusOf(home)).toBe(302);
    expect((home as Response).headers.get("set-cookie")).toMatch(/scentara\.session_token=/);

    // the attacker's address stays refused, even with the right password
    const blocked = await callAction(login.action, "/auth/login", { email: owner.email, password: owner.password }, { ip: attacker });
    expect(statusOf(blocked)).toBe(429);
    expect((await dataOf(blocked)).error).toBe("Too many attempts, try again in 15 minutes");
    // no session but the owner's own
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", owner.id).execute()).toHaveLength(1);

    // an unknown e-mail is throttled in exactly the same way
    const ghost = uniqueEmail();
    for (let i = 0; i < RATE_RULES.signInIpEmail.max; i++) await callAction(login.action, "/auth/login", { email: ghost, password: "wrong password" }, { ip: "10.2.0.66" });
    const ghostBlocked = await callAction(login.action, "/auth/login", { email: ghost, password: "wrong password" }, { ip: "10.2.0.66" });
    expect(statusOf(ghostBlocked)).toBe(429);
    expect(await dataOf(ghostBlocked)).toEqual(await dataOf(blocked));
  });

  it("a throttled address hammering on doesn't push the account towards its ceiling", async () => {
    const owner = await createUser(db());
    for (let i = 0; i < RATE_RULES.signInIpEmail.max; i++) await callAction(login.action, "/auth/login", { email: owner.email, password: `guess ${i}` }, { ip: "10.9.0.66" });
    // far more refused requests than the whole account ceiling
    for (let i = 0; i < RATE_RULES.signInEmail.max + 5; i++) {
      expect(statusOf(await callAction(login.action, "/auth/login", { email: owner.email, password: `guess ${i}` }, { ip: "10.9.0.66" }))).toBe(429);
    }
    expect(await counter(rateKey.signInEmail(owner.email))).toBe(RATE_RULES.signInIpEmail.max);
    expect(statusOf(await callAction(login.action, "/auth/login", { email: owner.email, password: owner.password }, { ip: "10.9.9.9" }))).toBe(302);
  });

  it("guessing spread over many addresses meets a per-account ceiling, which doesn't count against the owner's address", async () => {
    const owner = await createUser(db());
    await callAction(login.action, "/auth/login", { email: owner.email, password: "wrong" }, { ip: "10.8.0.1" });
    await setCounter(rateKey.signInEmail(owner.email), RATE_RULES.signInEmail.max); // as if many addresses had failed
    const blocked = await callAction(login.action, "/auth/login", { email: owner.email, password: owner.password }, { ip: "10.8.0.2" });
    expect(statusOf(blocked)).toBe(429);
    expect((await dataOf(blocked)).error).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
    expect(await counter(rateKey.signInIpEmail("10.8.0.2", owner.email))).toBe(0);
    expect(await counter(rateKey.signInIp("10.8.0.2"))).toBe(0);
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped client as its IPv4 address", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("::ffff:c000:207")).toBe("192.0.2.7");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("unknown")).toBe("unknown");
    expect(rateKey.signInIpEmail("2001:db8:1:2::5", "a@b.test")).toBe(rateKey.signInIpEmail("2001:db8:1:2::6", "a@b.test"));
  });

  it("limits failed sign-ins per IP across e-mails; successful sign-ins don't count", async () => {
    const user = await createUser(db());
    const key = rateKey.signInIp("10.3.0.1");
    for (let i = 0; i < 3; i++) expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: "10.3.0.1" }))).toBe(302);
    for (let i = 0; i < 2; i++) await callAction(login.action, "/auth/login", { email: uniqueEmail(), password: "wrong password" }, { ip: "10.3.0.1" });
    expect(await counter(key)).toBe(2); // the three successes gave their attempts back
    await setCounter(key, RATE_RULES.signInIp.max); // as if the address had failed the maximum number of times
    const blocked = await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: "10.3.0.1" });
    expect(statusOf(blocked)).toBe(429);
    expect((await dataOf(blocked)).error).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
    // another address is unaffected
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: "10.3.0.2" }))).toBe(302);
  });

  it("limits registration per IP and per e-mail", async () => {
    const key = rateKey.registerIp("10.4.0.1");
    for (let i = 0; i < 2; i++) {
      expect(statusOf(await callAction(register.action, "/auth/register", { email: uniqueEmail(), password: "long enough passphrase" }, { ip: "10.4.0.1" }))).toBe(302);
    }
    expect(await counter(key)).toBe(2);
    await setCounter(key, RATE_RULES.registerIp.max);
    const email = uniqueEmail();
    const blocked = await callAction(register.action, "/auth/register", { email, password: "long enough passphrase" }, { ip: "10.4.0.1" });
    expect(statusOf(blocked)).toBe(429);
    expect((await dataOf(blocked)).error).toMatch(/^Too many attempts, try again in \d+ minutes$/);
    expect(await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();

    const target = uniqueEmail();
    for (let i = 0; i < RATE_RULES.registerEmail.max; i++) await callAction(register.action, "/auth/register", { email: target, password: "long enough passphrase" }, { ip: `10.5.0.${i}` });
    expect(statusOf(await callAction(register.action, "/auth/register", { email: target, password: "long enough passphrase" }, { ip: "10.5.1.1" }))).toBe(429);
  });

  it("limits password reset requests per e-mail and per IP, the same for unknown e-mails", async () => {
    const user = await createUser(db());
    for (let i = 0; i < RATE_RULES.resetEmail.max; i++) {
      expect(statusOf(await callAction(forgot.action, "/auth/forgot-password", { email: user.email }, { ip: `10.6.0.${i}` }))).toBe(200);
    }
    const blocked = await callAction(forgot.action, "/auth/forgot-password", { email: user.email }, { ip: "10.6.1.1" });
    expect(statusOf(blocked)).toBe(429);
    expect((await dataOf(blocked)).error).toBe("Too many attempts, try again in 60 minutes");
    const mails = await db().selectFrom("mail_outbox").select("id").where("to_address", "=", user.email).execute();
    expect(mails).toHaveLength(RATE_RULES.resetEmail.max);

    for (let i = 0; i < RATE_RULES.resetIp.max; i++) await callAction(forgot.action, "/auth/forgot-password", { email: uniqueEmail() }, { ip: "10.7.0.1" });
    expect(statusOf(await callAction(forgot.action, "/auth/forgot-password", { email: uniqueEmail() }, { ip: "10.7.0.1" }))).toBe(429);
  });
});
