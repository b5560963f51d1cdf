import { ALL_PERMISSIONS } from "~/modules/accounts/permissions";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { createUser, sessionCookieFor, signIn } from "../../../tests/factories/users";
import { getSessionUser } from "./session.server";
import { deleteUserByAdmin } from "~/modules/flows/account-deleted.server";
import { updateUserByAdmin } from "~/modules/accounts/users-admin.server";
import { callAction, statusOf } from "../../../tests/setup/route";

const req = (cookie?: string) => new Request("http://localhost:3000/", { headers: cookie ? { cookie } : {} });

describe("session users (factories + getSessionUser)", () => {
  it("a visitor has no user; a session cookie gives the user and role", async () => {
    const db = getDb();
    expect(await getSessionUser(req())).toBeNull();
    const customer = await createUser(db);
    const admin = await createUser(db, { isAdmin: true });
    expect(await getSessionUser(req(await sessionCookieFor(db, customer.id)))).toMatchObject({ id: customer.id, email: customer.email, isAdmin: false, role: null, permissions: [] });
    // an admin without a role is an owner: every permission
    const owner = await getSessionUser(req(await sessionCookieFor(db, admin.id)));
    expect(owner).toMatchObject({ id: admin.id, email: admin.email, isAdmin: true, role: { id: "owner", name: "Owner" } });
    expect(owner!.permissions).toEqual(ALL_PERMISSIONS);
    expect(await getSessionUser(req(await signIn(customer.email, customer.password)))).toMatchObject({ id: customer.id, isAdmin: false });
  });

  it("a forged or tampered cookie is no one", async () => {
    const db = getDb();
    const user = await createUser(db);
    const cookie = await sessionCookieFor(db, user.id);
    const [name, value] = cookie.split("=");
    const token = decodeURIComponent(value!).split(".")[0];
    expect(await getSessionUser(req(`${name}=${token}.AAAA`))).toBeNull();
    expect(await getSessionUser(req(`${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`))).toBeNull();
  });
});

describe("the remembered session (docs/decisions/021) never outlives a change made here", () => {
  it("signed out: the same cookie is no one on the very next request", async () => {
    const db = getDb();
    const user = await createUser(db);
    const cookie = await signIn(user.email, user.password);
    expect(await getSessionUser(req(cookie))).toMatchObject({ id: user.id }); // now remembered
    const logout = await import("~/routes/auth.logout");
    expect(statusOf(await callAction(logout.action, "/auth/logout", { x: "1" }, { headers: { cookie } }))).toBe(302);
    expect(await getSessionUser(req(cookie))).toBeNull();
  });

  it("demoted or deleted by an admin: the next request has the new role, or no one", async () => {
    const db = getDb();
    const owner = await createUser(db, { isAdmin: true });
    const staff = await createUser(db, { isAdmin: true });
    const cookie = await sessionCookieFor(db, staff.id);
    expect(await getSessionUser(req(cookie))).toMatchObject({ isAdmin: true });
    await updateUserByAdmin(db, owner.id, { id: staff.id, isAdmin: false, emailNotifications: true, emailMarketing: false });
    expect(await getSessionUser(req(cookie))).toMatchObject({ id: staff.id, isAdmin: false });
    await deleteUserByAdmin(db, owner.id, staff.id);
    expect(await getSessionUser(req(cookie))).toBeNull();
  });
});

describe("guards", () => {
  const post = (headers: Record<string, string>) => new Request("http://localhost:3000/admin/orders", { method: "POST", headers });
  async function thrown(fn: () => Promise<unknown> | unknown): Promise<Response> {
    try {
      await fn();
    } catch (e) {
      if (e instanceof Response) return e;
      throw e;
    }
    throw new Error("expected a thrown Response");
  }

  it("requireAdmin: visitor → login with redirect back, customer → 403 Access Denied, admin passes", async () => {
    const db = getDb();
    const { requireAdmin } = await import("./session.server");
    const visitor = await thrown(() => requireAdmin(new Request("http://localhost:3000/admin/users?q=a")));
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/auth/login?redirect=%2Fadmin%2Fusers%3Fq%3Da");
    const customer = await createUser(db);
    const garbage = await thrown(() => requireAdmin(new Request("http://localhost:3000/admin", { headers: { cookie: "scentara.session_token=forged" } })));
    expect(garbage.status).toBe(302);
    const customerCookie = await sessionCookieFor(db, customer.id);
    const forbidden = await thrown(() => requireAdmin(new Request("http://localhost:3000/admin", { headers: { cookie: customerCookie } })));
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: "You need admin privileges to access this page." });
    const admin = await createUser(db, { isAdmin: true });
    expect(await requireAdmin(new Request("http://localhost:3000/admin", { headers: { cookie: await sessionCookieFor(db, admin.id) } }))).toMatchObject({ id: admin.id, isAdmin: true });
  });

  it("requireAdminAction: anyone but an admin gets 403 'Admin access required'; cross-site is refused even for an admin", async () => {
    const db = getDb();
    const { requireAdminAction } = await import("./session.server");
    const customer = await createUser(db);
    const admin = await createUser(db, { isAdmin: true });
    const origin = "http://localhost:3000";
    for (const cookie of [undefined, await sessionCookieFor(db, customer.id)]) {
      const r = await thrown(() => requireAdminAction(post({ origin, ...(cookie ? { cookie } : {}) })));
      expect(r.status).toBe(403);
      expect((await r.json()).error).toBe("Admin access required");
    }
    const adminCookie = await sessionCookieFor(db, admin.id);
    expect(await requireAdminAction(post({ origin, cookie: adminCookie }))).toMatchObject({ isAdmin: true });
    expect((await thrown(() => requireAdminAction(post({ origin: "https://evil.example", cookie: adminCookie })))).status).toBe(403);
  });

  it("assertSameOrigin: Origin must be this shop; without Origin, Referer and Fetch Metadata decide", async () => {
    const { isSameOrigin } = await import("./session.server");
    expect(isSameOrigin(post({ origin: "http://localhost:3000" }))).toBe(true);
    expect(isSameOrigin(post({ origin: "https://evil.example" }))).toBe(false);
    expect(isSameOrigin(post({ origin: "null" }))).toBe(false);
    expect(isSameOrigin(post({ origin: "http://localhost:3000.evil.example" }))).toBe(false);
    expect(isSameOrigin(post({ "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOrigin(post({ referer: "https://evil.example/form" }))).toBe(false);
    expect(isSameOrigin(post({ referer: "http://localhost:3000/profile" }))).toBe(true);
    expect(isSameOrigin(post({}))).toBe(true); // a non-browser client: no ambient cookie to abuse
    expect(isSameOrigin(new Request("http://localhost:3000/x", { headers: { origin: "https://evil.example" } }))).toBe(true); // GET
  });
});
