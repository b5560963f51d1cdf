import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as forgot from "~/routes/auth.forgot-password";
import * as login from "~/routes/auth.login";
import * as reset from "~/routes/auth.reset-password";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, uniqueEmail } from "../../../tests/factories/users";
import { MESSAGES } from "./accounts.schema";
import { getSessionUser } from "./session.server";

const db = () => getDb();
let ipSeq = 0;
const ip = () => `203.0.113.${++ipSeq}`;

async function resetLinkFor(email: string): Promise<string> {
  const rows = await db().selectFrom("mail_outbox").selectAll().where("to_address", "=", email).orderBy("created_at", "desc").execute();
  const link = rows.map((r) => /https?:\/\/\S+\/auth\/reset-password\?token=\S+/.exec(r.text_body)?.[0]).find(Boolean);
  if (!link) throw new Error(`no reset link mailed to ${email}`);
  return link;
}

describe("forgot password", () => {
  it("mails a reset link to an existing account, and answers an unknown e-mail the same way without mailing", async () => {
    const user = await createUser(db());
    const known = await callAction(forgot.action, "/auth/forgot-password", { email: user.email.toUpperCase() }, { ip: ip() });
    const unknownEmail = uniqueEmail();
    const unknown = await callAction(forgot.action, "/auth/forgot-password", { email: unknownEmail }, { ip: ip() });
    expect(statusOf(known)).toBe(200);
    expect(statusOf(unknown)).toBe(200);
    expect(await dataOf(known)).toEqual({ ok: true, message: "Password reset instructions have been sent to your email." });
    expect(await dataOf(unknown)).toEqual(await dataOf(known));

    const link = await resetLinkFor(user.email);
    expect(link.startsWith("http://localhost:3000/auth/reset-password?token=")).toBe(true);
    expect(await db().selectFrom("mail_outbox").select("id").where("to_address", "=", unknownEmail).execute()).toHaveLength(0);
  });

  it("needs an e-mail", async () => {
    const result = await callAction(forgot.action, "/auth/forgot-password", { email: "" }, { ip: ip() });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).fieldErrors.email).toBe("Email is required");
  });
});

describe("reset password from the link", () => {
  it("sets the new password once, ends every session, and the link is then spent", async () => {
    const user = await createUser(db());
    const oldSession = await sessionCookieFor(db(), user.id);
    await callAction(forgot.action, "/auth/forgot-password", { email: user.email }, { ip: ip() });
    const link = new URL(await resetLinkFor(user.email));
    const token = link.searchParams.get("token")!;

    const page = await dataOf(await callLoader(reset.loader, link.pathname + link.search));
    expect(page.usable).toBe(true);

    const done = await callAction(reset.action, link.pathname + link.search, { token, password: "fresh bergamot morning" });
    expect(statusOf(done)).toBe(302);
    expect((done as Response).headers.get("Location")).toBe("/auth/login?reset=1");

    // sessions from before the reset are over
    expect(await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie: oldSession } }))).toBeNull();
    // new password works, old one doesn't
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: "fresh bergamot morning" }, { ip: ip() }))).toBe(302);
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip() }))).toBe(401);

    // the link works once
    expect((await dataOf(await callLoader(reset.loader, link.pathname + link.search))).usable).toBe(false);
    const again = await callAction(reset.action, "/auth/reset-password", { token, password: "yet another passphrase" });
    expect(statusOf(again)).toBe(400);
    expect((await dataOf(again)).error).toBe(MESSAGES.resetLinkInvalid);
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: "yet another passphrase" }, { ip: ip() }))).toBe(401);
  });

  it("refuses an expired link (one hour) and a made-up token", async () => {
    const user = await createUser(db());
    await callAction(forgot.action, "/auth/forgot-password", { email: user.email }, { ip: ip() });
    const token = new URL(await resetLinkFor(user.email)).searchParams.get("token")!;
    const row = await db().selectFrom("verifications").select(["id", "expires_at", "created_at"]).where("identifier", "=", `reset-password:${token}`).executeTakeFirstOrThrow();
    const lifetime = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime();
    expect(Math.round(lifetime / 60_000)).toBe(60);

    await db().updateTable("verifications").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", row.id).execute();
    expect((await dataOf(await callLoader(reset.loader, `/auth/reset-password?token=${token}`))).usable).toBe(false);
    const expired = await callAction(reset.action, "/auth/reset-password", { token, password: "fresh bergamot morning" });
    expect(statusOf(expired)).toBe(400);
    expect(statusOf(await callAction(login.action, "/auth/login", { email: user.email, password: user.password }, { ip: ip() }))).toBe(302);

    const madeUp = await callAction(reset.action, "/auth/reset-password", { token: "x".repeat(24), password: "fresh bergamot morning" });
    expect(statusOf(madeUp)).toBe(400);
  });

  it("applies the password rules to the new password", async () => {
    const user = await createUser(db());
    await callAction(forgot.action, "/auth/forgot-password", { email: user.email }, { ip: ip() });
    const token = new URL(await resetLinkFor(user.email)).searchParams.get("token")!;
    const common = await callAction(reset.action, "/auth/reset-password", { token, password: "iloveyou" });
    expect(statusOf(common)).toBe(400);
    expect((await dataOf(common)).fieldErrors.password).toBe(MESSAGES.passwordCommon);
    // the token is still good after a refused attempt
    expect((await dataOf(await callLoader(reset.loader, `/auth/reset-password?token=${token}`))).usable).toBe(true);
  });
});
