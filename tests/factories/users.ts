/**
 * Users for integration tests: real better-auth accounts (scrypt-hashed password, credential account) in the test's
 * database, and session cookies that getSessionUser accepts.
 *
 *   const admin = await createUser(db, { isAdmin: true });
 *   const cookie = await sessionCookieFor(db, admin.id);
 *   await callLoader(loader, "/admin", { headers: { cookie } });
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { makeSignature } from "better-auth/crypto";
import type { Queryable } from "~/db/db.server";
import { getAuth, authSecret, sessionCookieName } from "~/modules/accounts/auth.server";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  isAdmin: boolean;
}

let counter = 0;

export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.test`;
}

export const DEFAULT_TEST_PASSWORD = "velvet-amber-orchid-42";

/**
 * Hashing a password (scrypt, by design slow) took ~0.25 s in each of ~400 createUser calls per database project on
 * the 2-core reference machine: a quarter of the integration tests' time. So users made here with the same password
 * share one hash, made by the library once per test process (a real scrypt hash, salt and all, that sign-in
 * verifies); sign-up still runs its whole path. Hashing anywhere else — a registration through the form, a password
 * change, a reset — is untouched: the shared hash is used only inside createUser (factoryHashing).
 */
const factoryHashing = new AsyncLocalStorage<boolean>();
const sharedHashes = ((globalThis as { __scentaraFactoryHashes?: Map<string, Promise<string>> }).__scentaraFactoryHashes ??= new Map());
const SHARES_HASHES = Symbol.for("scentara.factoryHashes");

async function shareFactoryHashes() {
  const password = (await getAuth().$context).password as { hash: (plain: string) => Promise<string>; [SHARES_HASHES]?: true };
  if (password[SHARES_HASHES]) return;
  const hash = password.hash;
  password.hash = (plain) => {
    if (!factoryHashing.getStore()) return hash(plain);
    let made = sharedHashes.get(plain);
    if (!made) {
      made = hash(plain);
      sharedHashes.set(plain, made);
      made.catch(() => sharedHashes.delete(plain));
    }
    return made;
  };
  password[SHARES_HASHES] = true;
}

/**
 * A registered user with a password account (is_admin false unless asked). `isAdmin: true` makes an owner (the admin
 * flag without a role); `role: "packer"` (or any role id) makes a member of staff with that role.
 */
export async function createUser(
  db: Queryable,
  options: { email?: string; password?: string; isAdmin?: boolean; role?: string; emailMarketing?: boolean } = {},
): Promise<TestUser> {
  const email = (options.email ?? uniqueEmail(options.role ? options.role : options.isAdmin ? "admin" : "customer")).toLowerCase();
  const password = options.password ?? DEFAULT_TEST_PASSWORD;
  await shareFactoryHashes();
  const result = await factoryHashing.run(true, () => getAuth().api.signUpEmail({ body: { email, password, name: "" } }));
  let id = result.user.id;
  // autoSignIn is off, so a duplicate e-mail gets a synthetic answer: look the real row up.
  const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  id = row.id;
  const isAdmin = options.isAdmin ?? options.role !== undefined;
  if (isAdmin || options.emailMarketing) {
    await db
      .updateTable("users")
      .set({
        is_admin: isAdmin,
        ...(options.role ? { staff_role_id: options.role } : {}),
        ...(options.emailMarketing ? { email_marketing: true, marketing_consent_at: new Date().toISOString() } : {}),
      })
      .where("id", "=", id)
      .execute();
  }
  return { id, email, password, isAdmin };
}

/** A fresh database session for the user, as the Cookie header value a browser would send. */
export async function sessionCookieFor(_db: Queryable, userId: string): Promise<string> {
  const ctx = await getAuth().$context;
  const session = await ctx.internalAdapter.createSession(userId);
  if (!session) throw new Error(`could not create a session for ${userId}`);
  const signature = await makeSignature(session.token, authSecret());
  return `${sessionCookieName()}=${encodeURIComponent(`${session.token}.${signature}`)}`;
}

/** Signs in through better-auth (as the login form does) and returns the Cookie header value. */
export async function signIn(email: string, password: string): Promise<string> {
  const response = await getAuth().api.signInEmail({ body: { email, password }, asResponse: true });
  if (!response.ok) throw new Error(`sign-in failed for ${email}: ${response.status}`);
  return cookieHeaderFrom(response.headers.getSetCookie());
}

/** Set-Cookie headers → the Cookie header a browser would send next (expired cookies dropped). */
export function cookieHeaderFrom(setCookies: string[]): string {
  return setCookies
    .filter((c) => !/max-age=0\b/i.test(c))
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** A customer and an admin with their cookies, for authorization tests. */
export async function createActors(db: Queryable) {
  const customer = await createUser(db);
  const admin = await createUser(db, { isAdmin: true });
  return {
    customer: { ...customer, cookie: await sessionCookieFor(db, customer.id) },
    admin: { ...admin, cookie: await sessionCookieFor(db, admin.id) },
  };
}
