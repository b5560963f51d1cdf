import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";
import { PRESET_ROLES, ALL_PERMISSIONS, type Permission } from "~/modules/accounts/permissions";
import { getSessionUser, PERMISSION_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { updateUserByAdmin } from "~/modules/accounts/users-admin.server";
import { USER_ADMIN_MESSAGES } from "~/modules/accounts/users-admin.schema";
import * as staffRoute from "~/routes/admin.staff";
import * as usersRoute from "~/routes/admin.users";
import * as productsRoute from "~/routes/admin.products";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { STAFF_MESSAGES } from "./staff.schema";
import { recordActivity } from "~/modules/activity/activity.server";
import { STAFF_SECURITY_KEY, staffSecurity, TWO_STEP_SETUP_PATH } from "~/modules/accounts/staff-security.server";
import { changeStaffRole, listRoles, listStaff, removeFromStaff } from "./staff.server";

/**
 * Admin → Staff on the real database (both engines): a role change holds from the person's very next request, a
 * removal leaves a customer account, there is always an owner (also when two owners demote each other at once), the
 * owner's own roles, and each change's activity entry written with it or rolled back with it.
 */
const db = () => getDb();
const ORIGIN = "http://localhost:3000";

async function staffMember(roleId: string | null, email?: string) {
  const user = await createUser(db(), { isAdmin: true, email });
  if (roleId) await db().updateTable("users").set({ staff_role_id: roleId }).where("id", "=", user.id).execute();
  return { ...user, cookie: await sessionCookieFor(db(), user.id) };
}

const post = (cookie: string, form: Record<string, string | string[]>) => callAction(staffRoute.action, "/admin/staff", form, { headers: { cookie } });
const who = (cookie: string) => getSessionUser(new Request(`${ORIGIN}/admin`, { headers: { cookie } }));
const userRow = (id: string) => db().selectFrom("users").select(["id", "email", "is_admin", "staff_role_id"]).where("id", "=", id).executeTakeFirstOrThrow();
// not `summary`: on SQLite a column of that name is read as JSON (another table's summary is), so it's read as text here
const activity = (recordId: string) =>
  db()
    .selectFrom("activity_log")
    .select(["id", "kind", "actor_id", "actor_email", "record_type", "record_id", "before", "after", sql<string>`summary || ''`.as("line")])
    .where("record_id", "=", recordId)
    .orderBy("id")
    .execute();
const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

/** Only one owner left at the start of a test: every other admin of earlier tests is a customer again. */
let owner: Awaited<ReturnType<typeof staffMember>>;
beforeEach(async () => {
  await db().updateTable("users").set({ is_admin: false, staff_role_id: null }).execute();
  owner = await staffMember("owner");
});

describe("the Staff page", () => {
  it("lists the staff with role, second factor and last sign-in, the roles with their people, and refuses a packer", async () => {
    const packer = await staffMember("packer");
    const page = await dataOf(await callLoader(staffRoute.loader, "/admin/staff", { headers: { cookie: owner.cookie } }));
    const rows = page.staff as Array<{ email: string; role: { name: string }; secondFactor: boolean; lastSignIn: string | null; owner: boolean }>;
    expect(rows.find((r) => r.email === packer.email)).toMatchObject({ role: { name: "Packer" }, secondFactor: false, owner: false });
    expect(rows.find((r) => r.email === owner.email)).toMatchObject({ role: { name: "Owner" }, owner: true });
    // the session the factory made counts as a sign-in
    expect(rows.find((r) => r.email === packer.email)!.lastSignIn).toMatch(/\d{4}/);
    expect((page.roles as Array<{ id: string; members: number }>).find((r) => r.id === "packer")!.members).toBe(1);
    const refused = await callLoader(staffRoute.loader, "/admin/staff", { headers: { cookie: packer.cookie } });
    expect(statusOf(refused)).toBe(403);
    expect((await dataOf(refused)).error).toBe(PERMISSION_DENIED_MESSAGE);
    // signed out (the session row is gone), the last sign-in the activity log recorded still shows
    const signedInAt = new Date("2026-11-30T09:15:00.000Z");
    await db().deleteFrom("sessions").where("user_id", "=", packer.id).execute();
    await recordActivity(db(), { actor: packer, kind: "sign-in", record: { type: "user", id: packer.id }, summary: "signed in", at: signedInAt });
    expect((await listStaff(db())).find((r) => r.id === packer.id)!.lastSignInAt).toBe(signedInAt.toISOString());
  });
});

describe("owners from the server's side", () => {
  it("npm run create-admin makes an owner of any account (a packer too), and an ADMIN_EMAILS address is an owner at sign-in", async () => {
    const { createOrResetAdmin, signInWithPassword } = await import("~/modules/accounts/accounts.server");
    const packer = await staffMember("packer");
    await createOrResetAdmin(db(), packer.email);
    expect(await userRow(packer.id)).toMatchObject({ is_admin: true, staff_role_id: "owner" });

    const listed = await staffMember("marketer");
    const restore = process.env.ADMIN_EMAILS;
    const { resetEnvForTests } = await import("~/utils/env.server");
    process.env.ADMIN_EMAILS = listed.email;
    resetEnvForTests();
    try {
      await signInWithPassword(db(), { email: listed.email, password: listed.password }, { ip: "203.0.113.9" });
      expect(await userRow(listed.id)).toMatchObject({ is_admin: true, staff_role_id: "owner" });
      expect(await who(listed.cookie)).toMatchObject({ role: { id: "owner" } });
    } finally {
      if (restore === undefined) delete process.env.ADMIN_EMAILS;
      else process.env.ADMIN_EMAILS = restore;
      resetEnvForTests();
    }
  });
});

describe("an invitation without a mail server", () => {
  it("is saved and its e-mail waits in the outbox with its link (the only copy), and the owner is told so", async () => {
    const email = `outbox.${Date.now()}@example.co.za`;
    const answer = await post(owner.cookie, { intent: "invite", email, roleId: "marketer" });
    expect(await dataOf(answer)).toMatchObject({ ok: true, message: STAFF_MESSAGES.invitedOutbox(email) });
    const kept = await db().selectFrom("mail_outbox").select(sql<string>`text_body`.as("body")).where("to_address", "=", email).executeTakeFirstOrThrow();
    expect(kept.body).toMatch(/\/staff\/invitation\?token=[A-Za-z0-9_-]{43}/);
  });
});

describe("changing a role", () => {
  it("takes effect on the person's very next request: a packer made manager opens products; back to packer, refused again", async () => {
    const person = await staffMember("packer");
    expect((await who(person.cookie))!.permissions).toEqual(PRESET_ROLES.packer.permissions);
    expect(statusOf(await callLoader(productsRoute.loader, "/admin/products", { headers: { cookie: person.cookie } }))).toBe(403);

    const answer = await post(owner.cookie, { intent: "role", id: person.id, roleId: "manager" });
    expect(await dataOf(answer)).toMatchObject({ ok: true, message: STAFF_MESSAGES.roleChanged(person.email, "Manager") });
    expect(await who(person.cookie)).toMatchObject({ role: { id: "manager", name: "Manager" } });
    expect(statusOf(await callLoader(productsRoute.loader, "/admin/products", { headers: { cookie: person.cookie } }))).toBe(200);

    await post(owner.cookie, { intent: "role", id: person.id, roleId: "packer" });
    expect(statusOf(await callLoader(productsRoute.loader, "/admin/products", { headers: { cookie: person.cookie } }))).toBe(403);

    // each change is one entry, with the role before and after, by the owner
    const entries = await activity(person.id);
    expect(entries.map((e) => e.kind)).toEqual(["user.role", "user.role"]);
    expect(entries[0]).toMatchObject({ actor_id: owner.id, actor_email: owner.email, record_type: "user" });
    expect(json(entries[0]!.before)).toEqual({ staff_role_id: "packer" });
    expect(json(entries[0]!.after)).toEqual({ staff_role_id: "manager" });
  });

  it("refuses changing yourself, an unknown role, someone not on the staff, and an ADMIN_EMAILS owner", async () => {
    const customer = await createUser(db());
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ intent: "role", id: owner.id, roleId: "packer" }, 409, STAFF_MESSAGES.self],
      [{ intent: "remove", id: owner.id }, 409, STAFF_MESSAGES.self],
      [{ intent: "role", id: customer.id, roleId: "packer" }, 409, STAFF_MESSAGES.notStaff],
      [{ intent: "role", id: owner.id, roleId: "no-such-role" }, 404, STAFF_MESSAGES.noRole],
    ];
    for (const [form, status, error] of cases) {
      const answer = await post(owner.cookie, form);
      expect(statusOf(answer), JSON.stringify(form)).toBe(status);
      expect((await dataOf(answer)).error).toBe(error);
    }
    const listed = await staffMember("owner", `listed.${Date.now()}@scentara.test`);
    const second = await staffMember("owner");
    const restore = process.env.ADMIN_EMAILS;
    process.env.ADMIN_EMAILS = listed.email;
    const { resetEnvForTests } = await import("~/utils/env.server");
    resetEnvForTests();
    try {
      const answer = await post(second.cookie, { intent: "role", id: listed.id, roleId: "manager" });
      expect(statusOf(answer)).toBe(409);
      expect((await dataOf(answer)).error).toBe(STAFF_MESSAGES.listedOwner);
      expect((await dataOf(await post(second.cookie, { intent: "remove", id: listed.id }))).error).toBe(STAFF_MESSAGES.listedOwner);
    } finally {
      if (restore === undefined) delete process.env.ADMIN_EMAILS;
      else process.env.ADMIN_EMAILS = restore;
      resetEnvForTests();
    }
    expect(await userRow(listed.id)).toMatchObject({ is_admin: true, staff_role_id: "owner" });
    expect(await activity(owner.id)).toEqual([]);
  });
});

describe("two-step sign-in for all staff", () => {
  it("the owner's switch sends a member of staff without a second factor to set one up at their next admin page", async () => {
    const person = await staffMember("packer");
    expect(statusOf(await callLoader(staffRoute.loader, "/admin/staff", { headers: { cookie: owner.cookie } }))).toBe(200);
    const on = await post(owner.cookie, { intent: "security", requireTwoStep: "on" });
    expect(await dataOf(on)).toMatchObject({ ok: true, message: STAFF_MESSAGES.securityOn });
    expect(await staffSecurity(db())).toEqual({ requireTwoStep: true });
    const next = (await callLoader(productsRoute.loader, "/admin/products", { headers: { cookie: person.cookie } })) as Response;
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toBe(TWO_STEP_SETUP_PATH);
    // the owner switches it off again (the owner has no second factor in this test: their page asks them too)
    await db().updateTable("users").set({ two_factor_enabled: true }).where("id", "=", owner.id).execute();
    const { forgetUserSessions } = await import("~/modules/accounts/session-cache.server");
    forgetUserSessions(owner.id);
    expect(await dataOf(await post(owner.cookie, { intent: "security" }))).toMatchObject({ ok: true, message: STAFF_MESSAGES.securityOff });
    expect(await staffSecurity(db())).toEqual({ requireTwoStep: false });
    const [entry] = await db().selectFrom("activity_log").select(["kind", "record_id"]).where("kind", "=", "settings.security").execute();
    expect(entry).toEqual({ kind: "settings.security", record_id: STAFF_SECURITY_KEY });
  });
});

describe("a sensitive action", () => {
  it("asks for the password again when the sign-in is over 10 minutes old: refused with where to confirm, nothing changed", async () => {
    const person = await staffMember("packer");
    const old = await staffMember("owner");
    await db().updateTable("sessions").set({ created_at: new Date(Date.now() - 11 * 60_000).toISOString() }).where("user_id", "=", old.id).execute();
    const { forgetUserSessions } = await import("~/modules/accounts/session-cache.server");
    forgetUserSessions(old.id);
    const answer = await post(old.cookie, { intent: "role", id: person.id, roleId: "owner" });
    expect(statusOf(answer)).toBe(403);
    expect((await dataOf(answer)).confirm).toMatch(/^\/auth\/confirm\?redirect=/);
    expect(await userRow(person.id)).toMatchObject({ staff_role_id: "packer" });
    expect(await activity(person.id)).toEqual([]);
  });
});

describe("removing from the staff", () => {
  it("leaves a customer account: no admin, no role, signed in still, and the next admin page is refused", async () => {
    const person = await staffMember("bookkeeper");
    const answer = await post(owner.cookie, { intent: "remove", id: person.id });
    expect(await dataOf(answer)).toMatchObject({ ok: true, message: STAFF_MESSAGES.removed(person.email) });
    expect(await userRow(person.id)).toMatchObject({ is_admin: false, staff_role_id: null });
    expect(await who(person.cookie)).toMatchObject({ id: person.id, isAdmin: false, role: null, permissions: [] });
    const page = await callLoader(staffRoute.loader, "/admin/staff", { headers: { cookie: person.cookie } });
    expect(statusOf(page)).toBe(403);
    const [entry] = await activity(person.id);
    expect(entry).toMatchObject({ kind: "user.remove", actor_id: owner.id });
    expect(json(entry!.before)).toMatchObject({ staff_role_id: "bookkeeper" });
    expect(json(entry!.after)).toMatchObject({ is_admin: false, staff_role_id: null });
  });
});

describe("there is always an owner", () => {
  it("the last owner can't be demoted or removed, even by a role of the owner's own with every permission", async () => {
    const coOwner = await staffMember(null);
    const [role] = await makeRole(owner.cookie, "Co-owner", ALL_PERMISSIONS);
    await changeStaffRole(db(), owner, { id: coOwner.id, roleId: role!.id });
    const cookie = await sessionCookieFor(db(), coOwner.id);
    for (const form of [{ intent: "role", id: owner.id, roleId: "manager" }, { intent: "remove", id: owner.id }] as Array<Record<string, string>>) {
      const answer = await post(cookie, form);
      expect(statusOf(answer)).toBe(409);
      expect((await dataOf(answer)).error).toBe(STAFF_MESSAGES.lastOwner);
    }
    expect(await userRow(owner.id)).toMatchObject({ is_admin: true, staff_role_id: "owner" });
    // with a second owner, the first may go
    await changeStaffRole(db(), owner, { id: coOwner.id, roleId: "owner" });
    const other = await staffMember("owner");
    expect(await dataOf(await post(other.cookie, { intent: "role", id: owner.id, roleId: "manager" }))).toMatchObject({ ok: true });
  });

  it("the Users page's admin switch follows the same rule: on makes an owner, off removes from the staff, never the last owner", async () => {
    const customer = await createUser(db());
    const usersPost = (cookie: string, form: Record<string, string>) => callAction(usersRoute.action, "/admin/users", form, { headers: { cookie } });
    expect(await dataOf(await usersPost(owner.cookie, { intent: "update", id: customer.id, isAdmin: "on", emailNotifications: "on" }))).toMatchObject({ ok: true });
    expect(await userRow(customer.id)).toMatchObject({ is_admin: true, staff_role_id: "owner" });
    expect(await dataOf(await usersPost(owner.cookie, { intent: "update", id: customer.id, emailNotifications: "on" }))).toMatchObject({ ok: true });
    expect(await userRow(customer.id)).toMatchObject({ is_admin: false, staff_role_id: null });
    const switched = (await activity(customer.id)).filter((e) => e.kind === "user.update").map((e) => [json(e.before), json(e.after)]);
    expect(switched).toEqual([
      [expect.objectContaining({ staff_role_id: null }), expect.objectContaining({ staff_role_id: "owner" })],
      [expect.objectContaining({ staff_role_id: "owner" }), expect.objectContaining({ staff_role_id: null })],
    ]);
    // a manager looks after customers, not the staff: making an owner is refused, and changes nothing
    const manager = await staffMember("manager");
    const refused = await usersPost(manager.cookie, { intent: "update", id: customer.id, isAdmin: "on", emailNotifications: "on" });
    expect(statusOf(refused)).toBe(403);
    expect(await userRow(customer.id)).toMatchObject({ is_admin: false, staff_role_id: null });
    // the module refuses it too, whatever the page asked first
    await expect(updateUserByAdmin(db(), manager.id, { id: owner.id, isAdmin: false, emailNotifications: true, emailMarketing: false })).rejects.toThrow(PERMISSION_DENIED_MESSAGE);
    expect(USER_ADMIN_MESSAGES.lastAdmin).toBe(STAFF_MESSAGES.lastOwner);
  });

  it("two owners demoting each other at the same moment leave one owner (20 rounds, through the page)", async () => {
    for (let round = 0; round < 20; round++) {
      await db().updateTable("users").set({ is_admin: false, staff_role_id: null }).where("id", "<>", owner.id).execute();
      await db().updateTable("users").set({ is_admin: true, staff_role_id: "owner" }).where("id", "=", owner.id).execute();
      const other = await staffMember("owner");
      const [a, b] = await Promise.all([
        post(owner.cookie, { intent: "role", id: other.id, roleId: "packer" }),
        post(other.cookie, { intent: "role", id: owner.id, roleId: "packer" }),
      ]);
      const statuses = [statusOf(a), statusOf(b)].sort();
      // one wins; the other is refused by its actor's role read again under the lock (403) or the last-owner rule (409)
      expect(statuses[0], `round ${round}`).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const owners = (await listStaff(db())).filter((s) => s.owner);
      expect(owners, `round ${round}`).toHaveLength(1);
      // owner's cookie may now be a packer's: make a fresh one for the next round
      owner = { ...owner, cookie: await sessionCookieFor(db(), owner.id) };
    }
  });

  it("and so do the module's calls themselves, racing without the page", async () => {
    const other = await staffMember("owner");
    const results = await Promise.allSettled([
      removeFromStaff(db(), owner, { id: other.id }),
      removeFromStaff(db(), other, { id: owner.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await listStaff(db())).filter((s) => s.owner)).toHaveLength(1);
  });
});

/** Makes a role through the page; answers the roles with that name. */
async function makeRole(cookie: string, name: string, permissions: readonly Permission[], id = "") {
  const answer = await post(cookie, { intent: "saveRole", id, name, permissions: [...permissions] });
  expect(await dataOf(answer), name).toMatchObject({ ok: true });
  return (await listRoles(db())).filter((r) => r.name === name);
}

describe("roles of the owner's own", () => {
  it("made by ticking permissions, edited (its people's next request reads the change), deleted only when nobody has it", async () => {
    const [role] = await makeRole(owner.cookie, "Weekend packer", ["orders.view", "orders.fulfil", "reviews"]);
    expect(role).toMatchObject({ preset: false, permissions: ["orders.view", "orders.fulfil", "reviews"], members: 0 });
    const person = await staffMember(role!.id);
    expect((await who(person.cookie))!.permissions).toEqual(["orders.view", "orders.fulfil", "reviews"]);

    await makeRole(owner.cookie, "Weekend packer", ["orders.view"], role!.id);
    expect((await who(person.cookie))!.permissions).toEqual(["orders.view"]);

    const inUse = await post(owner.cookie, { intent: "deleteRole", id: role!.id });
    expect(statusOf(inUse)).toBe(409);
    expect((await dataOf(inUse)).error).toBe(STAFF_MESSAGES.roleInUse(1));
    await post(owner.cookie, { intent: "role", id: person.id, roleId: "packer" });
    expect(await dataOf(await post(owner.cookie, { intent: "deleteRole", id: role!.id }))).toMatchObject({ ok: true, message: STAFF_MESSAGES.roleDeleted("Weekend packer") });
    expect((await listRoles(db())).map((r) => r.id)).not.toContain(role!.id);

    const entries = await activity(role!.id);
    expect(entries.map((e) => e.kind)).toEqual(["staff-role.saveRole", "staff-role.saveRole", "staff-role.deleteRole"]);
    // the edit's entry: what it took away
    expect(JSON.stringify(entries[1]!.before)).toContain("orders.fulfil");
    expect(JSON.stringify(entries[1]!.after)).not.toContain("orders.fulfil");
  });

  it("refuses changing a preset, a taken name (any case, presets too), no permission, and giving more than your own role", async () => {
    const cases: Array<[Record<string, string | string[]>, number, string]> = [
      [{ intent: "saveRole", id: "packer", name: "Packer", permissions: ["orders.view"] }, 409, STAFF_MESSAGES.presetReadOnly],
      [{ intent: "deleteRole", id: "manager" }, 409, STAFF_MESSAGES.presetReadOnly],
      [{ intent: "saveRole", name: "  BOOKKEEPER ", permissions: ["reports"] }, 409, STAFF_MESSAGES.roleNameTaken],
      [{ intent: "saveRole", name: "Nothing at all", permissions: [] }, 400, STAFF_MESSAGES.roleNeedsPermission],
      [{ intent: "saveRole", name: "Odd", permissions: ["orders.view", "launch-rockets"] }, 400, ""],
    ];
    for (const [form, status, error] of cases) {
      const answer = await post(owner.cookie, form);
      expect(statusOf(answer), JSON.stringify(form)).toBe(status);
      if (error) expect((await dataOf(answer)).error).toBe(error);
    }
    // a staff manager without "data" can't make (or give) a role that downloads backups
    const [hr] = await makeRole(owner.cookie, "Team lead", ["staff", "orders.view", "orders.fulfil"]);
    const lead = await staffMember(hr!.id);
    const beyond = await post(lead.cookie, { intent: "saveRole", name: "Backups", permissions: ["data"] });
    expect(statusOf(beyond)).toBe(403);
    expect((await dataOf(beyond)).error).toBe(STAFF_MESSAGES.beyondOwnRole);
    const packer = await staffMember("packer");
    expect(statusOf(await post(lead.cookie, { intent: "role", id: packer.id, roleId: "owner" }))).toBe(403);
    expect(statusOf(await post(lead.cookie, { intent: "remove", id: owner.id }))).toBe(403);
    expect(await dataOf(await post(lead.cookie, { intent: "role", id: packer.id, roleId: hr!.id }))).toMatchObject({ ok: true });
    expect((await listRoles(db())).map((r) => r.name)).not.toContain("Backups");
  });
});

describe("the activity entry and its change", () => {
  it("are rolled back together: a change whose entry can't be written doesn't happen", async () => {
    const person = await staffMember("packer");
    const postgres = isPostgres(db());
    if (postgres) {
      await sql`create or replace function refuse_staff_role() returns trigger language plpgsql as $$ begin if new.kind = 'user.role' then raise exception 'no entry'; end if; return new; end $$`.execute(db());
      await sql`create trigger refuse_staff_role before insert on activity_log for each row execute function refuse_staff_role()`.execute(db());
    } else {
      await sql`create trigger refuse_staff_role before insert on activity_log when new.kind = 'user.role' begin select raise(abort, 'no entry'); end`.execute(db());
    }
    try {
      const answer = await post(owner.cookie, { intent: "role", id: person.id, roleId: "manager" });
      expect(statusOf(answer)).toBe(500);
      expect((await dataOf(answer)).error).toBe(STAFF_MESSAGES.failedRole);
    } finally {
      await sql`drop trigger refuse_staff_role${postgres ? sql` on activity_log` : sql``}`.execute(db());
    }
    expect(await userRow(person.id)).toMatchObject({ is_admin: true, staff_role_id: "packer" });
    expect(await activity(person.id)).toEqual([]);
    expect((await who(person.cookie))!.role).toEqual({ id: "packer", name: "Packer" });
  });
});

describe("refused without the staff permission", () => {
  it("every intent, as a customer (403 admin access) and as a packer or manager (403 role), changes nothing", async () => {
    const target = await staffMember("packer");
    const customer = await createUser(db());
    const customerCookie = await sessionCookieFor(db(), customer.id);
    const manager = await staffMember("manager");
    const packer = await staffMember("packer");
    const invitation = await db()
      .insertInto("staff_invitations")
      .values({ id: `inv-${Date.now()}`, email: "x@example.test", role_id: "packer", token_hash: `h-${Date.now()}`, expires_at: new Date(Date.now() + 3600_000).toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const forms: Array<Record<string, string | string[]>> = [
      { intent: "invite", email: "someone@example.test", roleId: "packer" },
      { intent: "resend", id: invitation.id },
      { intent: "revoke", id: invitation.id },
      { intent: "role", id: target.id, roleId: "owner" },
      { intent: "remove", id: target.id },
      { intent: "saveRole", name: "Sneaky", permissions: ["staff"] },
      { intent: "deleteRole", id: "packer" },
    ];
    const snapshot = async () => ({
      users: await db().selectFrom("users").select(["id", "is_admin", "staff_role_id"]).orderBy("id").execute(),
      roles: await db().selectFrom("staff_roles").selectAll().orderBy("id").execute(),
      invitations: await db().selectFrom("staff_invitations").selectAll().orderBy("id").execute(),
      activity: await db().selectFrom("activity_log").select("id").execute(),
      mail: await db().selectFrom("mail_outbox").select("id").execute(),
    });
    const before = await snapshot();
    for (const form of forms) {
      const asCustomer = await post(customerCookie, form);
      expect(statusOf(asCustomer), `customer ${form.intent}`).toBe(403);
      for (const cookie of [packer.cookie, manager.cookie]) {
        const asStaff = await post(cookie, form);
        expect(statusOf(asStaff), `staff ${form.intent}`).toBe(403);
        expect((await dataOf(asStaff)).error).toBe(PERMISSION_DENIED_MESSAGE);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});
