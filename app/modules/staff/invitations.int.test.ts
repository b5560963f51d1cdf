import { sql } from "kysely";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { PRESET_ROLES } from "~/modules/accounts/permissions";
import { getSessionUser } from "~/modules/accounts/session.server";
import * as staffRoute from "~/routes/admin.staff";
import * as invitationRoute from "~/routes/staff.invitation";
import { resetEnvForTests } from "~/utils/env.server";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { cookieHeaderFrom, createUser, sessionCookieFor, signIn, uniqueEmail } from "../../../tests/factories/users";
import { acceptAsSignedIn, acceptWithNewAccount, hashToken, readInvitation } from "./invitations.server";
import { INVITATION_MESSAGES, STAFF_MESSAGES } from "./staff.schema";
import { INVITATION_MS } from "./staff.logic";

/**
 * Invitations on the real database (both engines) and a real SMTP server: the e-mail's single-use link, stored only as
 * a hash; accepted by a new person (a password, signed in, in the admin) or by the address's existing account; used
 * twice, late, revoked or by someone else, it says so and changes nothing.
 */
const db = () => getDb();
const ORIGIN = "http://localhost:3000";
let mail: MailServer;
let owner: { id: string; email: string; cookie: string };

beforeAll(async () => {
  mail = await startMailServer();
  process.env.SMTP_URL = mail.url;
  resetEnvForTests();
  const user = await createUser(db(), { isAdmin: true });
  await db().updateTable("users").set({ staff_role_id: "owner" }).where("id", "=", user.id).execute();
  owner = { id: user.id, email: user.email, cookie: await sessionCookieFor(db(), user.id) };
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await mail.close();
});
beforeEach(() => mail.clear());

const to = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");
function tokenIn(m: ParsedMail): string {
  const found = /\/staff\/invitation\?token=([A-Za-z0-9_-]{43})/.exec(m.text ?? "");
  if (!found) throw new Error(`no invitation link in: ${m.text}`);
  return found[1]!;
}

/** The owner invites through the page; answers the token of the e-mail that arrived. */
async function invite(email: string, roleId = "packer") {
  const answer = await callAction(staffRoute.action, "/admin/staff", { intent: "invite", email, roleId }, { headers: { cookie: owner.cookie } });
  expect(await dataOf(answer)).toMatchObject({ ok: true, message: STAFF_MESSAGES.invited(email.toLowerCase()) });
  const message = mail.received.filter((m) => to(m) === email.toLowerCase()).at(-1);
  expect(message, `an e-mail to ${email}`).toBeDefined();
  return { token: tokenIn(message!), message: message! };
}

const page = (token: string, cookie?: string) =>
  callLoader(invitationRoute.loader, `/staff/invitation?token=${encodeURIComponent(token)}`, { headers: cookie ? { cookie } : {} }).then(dataOf);
const accept = (form: Record<string, string>, cookie?: string) =>
  callAction(invitationRoute.action, `/staff/invitation?token=${encodeURIComponent(form.token ?? "")}`, form, { headers: cookie ? { cookie } : {} });
const invitationOf = (email: string) => db().selectFrom("staff_invitations").selectAll().where("email", "=", email).orderBy("created_at", "desc").executeTakeFirstOrThrow();
const userOf = (email: string) => db().selectFrom("users").select(["id", "is_admin", "staff_role_id", "email_verified"]).where("email", "=", email).executeTakeFirst();
const kinds = async (recordId: string) => (await db().selectFrom("activity_log").select("kind").where("record_id", "=", recordId).orderBy("id").execute()).map((r) => r.kind);
const PASSWORD = "cedar-iris-midnight-31";

describe("a new person", () => {
  it("gets an e-mail with a 72-hour single-use link, sets a password, is signed in, lands in the admin as a packer", async () => {
    const email = uniqueEmail("packer");
    const { token, message } = await invite(email);
    expect(message.subject).toBe("You're invited to join the Scentara team");
    expect(message.text).toContain(`${owner.email} invited you to help run Scentara as Packer.`);
    expect(message.text).toContain("Change an order's status, book the courier and print labels");
    expect(message.text).toContain("the link works once, for 72 hours");
    // 256 random bits; the database keeps its SHA-256 hash only, and the outbox no working link
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const row = await invitationOf(email);
    expect(row.token_hash).toBe(hashToken(token));
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(INVITATION_MS);
    const stored = await db().selectFrom("mail_outbox").select(sql<string>`text_body`.as("body")).where("to_address", "=", email).executeTakeFirstOrThrow();
    expect(stored.body).not.toContain(token);
    expect(JSON.stringify(await db().selectFrom("staff_invitations").selectAll().execute())).not.toContain(token);

    const shown = await page(token);
    expect(shown).toMatchObject({ state: "pending", signedIn: null, invitation: { email, accountExists: false, role: { name: "Packer" } } });

    const answer = await accept({ intent: "create", token, password: PASSWORD });
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin");
    const cookie = cookieHeaderFrom(response.headers.getSetCookie());
    const me = await getSessionUser(new Request(`${ORIGIN}/admin`, { headers: { cookie } }));
    expect(me).toMatchObject({ email, isAdmin: true, role: { id: "packer", name: "Packer" }, permissions: PRESET_ROLES.packer.permissions });
    const user = await userOf(email);
    expect(user).toMatchObject({ is_admin: true, staff_role_id: "packer", email_verified: true });
    expect(await invitationOf(email)).toMatchObject({ accepted_user_id: user!.id });
    expect(await kinds(row.id)).toEqual(["staff-invitation.invite"]);
    expect(await kinds(user!.id)).toEqual(["staff.invitation-accepted", "sign-in"]);
    // the password they chose signs them in
    expect(await signIn(email, PASSWORD)).toContain("session_token");

    // the same link again: says so, changes nothing
    const again = await accept({ intent: "create", token, password: "another-password-77" });
    expect(statusOf(again)).toBe(410);
    expect((await dataOf(again)).error).toBe(INVITATION_MESSAGES.used);
    expect(await page(token)).toMatchObject({ state: "accepted", invitation: null });
    expect(await kinds(user!.id)).toEqual(["staff.invitation-accepted", "sign-in"]);
  });

  it("a late link (the clock moved past 72 hours) says it expired and makes no account; a minute before, it still works", async () => {
    const email = uniqueEmail("late");
    const { token } = await invite(email);
    const sentAt = new Date((await invitationOf(email)).created_at);
    const late = new Date(sentAt.getTime() + INVITATION_MS);
    expect(await readInvitation(db(), token, late)).toEqual({ state: "expired", email });
    await expect(acceptWithNewAccount(db(), { token, password: PASSWORD }, { ip: "127.0.0.1" }, late)).rejects.toThrow(INVITATION_MESSAGES.expired);
    expect(await userOf(email)).toBeUndefined();
    const justInTime = new Date(late.getTime() - 60_000);
    expect((await readInvitation(db(), token, justInTime)).state).toBe("pending");

    // and through the page, once its row says so
    await db().updateTable("staff_invitations").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("email", "=", email).execute();
    const answer = await accept({ intent: "create", token, password: PASSWORD });
    expect(statusOf(answer)).toBe(410);
    expect((await dataOf(answer)).error).toBe(INVITATION_MESSAGES.expired);
    expect(await userOf(email)).toBeUndefined();
    // the owner sees it expired and sends it again: a new link, the old one dead
    const list = await dataOf(await callLoader(staffRoute.loader, "/admin/staff", { headers: { cookie: owner.cookie } }));
    const listed = (list.invitations as Array<{ id: string; email: string; state: string }>).find((i) => i.email === email)!;
    expect(listed.state).toBe("expired");
    mail.clear();
    const resent = await callAction(staffRoute.action, "/admin/staff", { intent: "resend", id: listed.id }, { headers: { cookie: owner.cookie } });
    expect(await dataOf(resent)).toMatchObject({ ok: true, message: STAFF_MESSAGES.resent(email) });
    const fresh = tokenIn(mail.received.at(-1)!);
    expect(fresh).not.toBe(token);
    expect((await page(token)).state).toBe("invalid");
    expect((await page(fresh)).state).toBe("pending");
  });

  it("a revoked link says so and changes nothing", async () => {
    const email = uniqueEmail("revoked");
    const { token } = await invite(email, "marketer");
    const row = await invitationOf(email);
    const answer = await callAction(staffRoute.action, "/admin/staff", { intent: "revoke", id: row.id }, { headers: { cookie: owner.cookie } });
    expect(await dataOf(answer)).toMatchObject({ ok: true, message: STAFF_MESSAGES.revoked(email) });
    expect(await page(token)).toMatchObject({ state: "revoked", invitation: null });
    const refused = await accept({ intent: "create", token, password: PASSWORD });
    expect(statusOf(refused)).toBe(410);
    expect((await dataOf(refused)).error).toBe(INVITATION_MESSAGES.revoked);
    expect(await userOf(email)).toBeUndefined();
    expect(await kinds(row.id)).toEqual(["staff-invitation.invite", "staff-invitation.revoke"]);
  });

  it("a nonsense or missing token is invalid", async () => {
    expect((await page("not-a-token")).state).toBe("invalid");
    expect((await page("")).state).toBe("invalid");
    expect(statusOf(await accept({ intent: "create", token: "x".repeat(43), password: PASSWORD }))).toBe(404);
  });
});

describe("a person with a customer account", () => {
  it("is asked to sign in with it; signed in, joins with the invitation's role in one step", async () => {
    const customer = await createUser(db());
    const { token } = await invite(customer.email, "bookkeeper");
    expect(await page(token)).toMatchObject({ invitation: { accountExists: true } });
    // setting a password for an address that has an account is refused: sign in instead
    const refused = await accept({ intent: "create", token, password: PASSWORD });
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).error).toBe(INVITATION_MESSAGES.accountExists);
    // a visitor pressing join goes to sign in, and comes back here
    const visitor = (await accept({ intent: "join", token })) as Response;
    expect(visitor.headers.get("location")).toBe(`/auth/login?redirect=${encodeURIComponent(`/staff/invitation?token=${token}`)}`);

    const cookie = await sessionCookieFor(db(), customer.id);
    expect(await page(token, cookie)).toMatchObject({ signedIn: { email: customer.email, isStaff: false } });
    const joined = (await accept({ intent: "join", token }, cookie)) as Response;
    expect(joined.headers.get("location")).toBe("/admin");
    // the same session, on its very next request, is a bookkeeper's
    expect(await getSessionUser(new Request(`${ORIGIN}/admin`, { headers: { cookie } }))).toMatchObject({ isAdmin: true, role: { id: "bookkeeper" } });
    const again = await accept({ intent: "join", token }, cookie);
    expect(statusOf(again)).toBe(410);
  });

  it("signed in as someone else: told the invitation is for its address, nothing changes; signing out there comes back to it", async () => {
    const invited = await createUser(db());
    const other = await createUser(db());
    const { token } = await invite(invited.email);
    const otherCookie = await sessionCookieFor(db(), other.id);
    for (const form of [{ intent: "join", token }, { intent: "create", token, password: PASSWORD }] as Array<Record<string, string>>) {
      const answer = await accept(form, otherCookie);
      expect(statusOf(answer)).toBe(403);
      expect((await dataOf(answer)).error).toBe(INVITATION_MESSAGES.otherAccount(invited.email, other.email));
    }
    expect(await userOf(other.email)).toMatchObject({ is_admin: false, staff_role_id: null });
    expect(await userOf(invited.email)).toMatchObject({ is_admin: false, staff_role_id: null });
    expect((await invitationOf(invited.email)).accepted_at).toBeNull();
    const out = (await accept({ intent: "switch", token }, otherCookie)) as Response;
    expect(out.headers.get("location")).toBe(`/staff/invitation?token=${encodeURIComponent(token)}`);
    expect(await getSessionUser(new Request(`${ORIGIN}/`, { headers: { cookie: otherCookie } }))).toBeNull();
  });

  it("the same link accepted twice at the same moment joins once", async () => {
    const customer = await createUser(db());
    const { token } = await invite(customer.email, "marketer");
    const results = await Promise.allSettled([acceptAsSignedIn(db(), token, customer), acceptAsSignedIn(db(), token, customer)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await kinds(customer.id)).toEqual(["staff.invitation-accepted"]);
  });
});

describe("inviting", () => {
  it("someone already on the staff is refused; a second invitation to an address replaces the first", async () => {
    const staff = await createUser(db(), { isAdmin: true });
    const refused = await callAction(staffRoute.action, "/admin/staff", { intent: "invite", email: staff.email, roleId: "packer" }, { headers: { cookie: owner.cookie } });
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).error).toBe(STAFF_MESSAGES.alreadyStaff);
    expect(mail.received).toEqual([]);

    const email = uniqueEmail("twice");
    const first = await invite(email, "packer");
    const second = await invite(email, "marketer");
    expect((await page(first.token)).state).toBe("revoked");
    expect(await page(second.token)).toMatchObject({ state: "pending", invitation: { role: { name: "Marketer" } } });
  });

  it("bad input gets its message and sends nothing", async () => {
    for (const [form, field] of [
      [{ intent: "invite", email: "not-an-address", roleId: "packer" }, "email"],
      [{ intent: "invite", email: uniqueEmail(), roleId: "" }, "roleId"],
    ] as const) {
      const answer = await callAction(staffRoute.action, "/admin/staff", form, { headers: { cookie: owner.cookie } });
      expect(statusOf(answer)).toBe(400);
      expect((await dataOf(answer)).fieldErrors).toHaveProperty(field);
    }
    expect(mail.received).toEqual([]);
  });
});
