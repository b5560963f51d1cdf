import { inTransaction } from "~/db/in-transaction.server";
import { forgetAllSessions, forgetUserSessions } from "./session-cache.server";
import { randomBytes } from "node:crypto";
import { APIError } from "better-auth/api";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { getAuth } from "./auth.server";
import { MESSAGES } from "./accounts.schema";
import { limitAttempts, limitSignIn, RATE_RULES, rateKey, refund } from "./rate-limit.server";
import { isListedAdmin } from "./session.server";
import { recordStaffSignIn } from "./sign-in-activity.server";
import { resetSecondFactors } from "./two-factor.server";
import { OWNER_ROLE_ID } from "./permissions";
import { marketingConsentWording } from "~/modules/consent/consent.logic";
import { recordRegistrationConsents, setMarketingConsent } from "~/modules/consent/consent.server";
import { env } from "~/utils/env.server";

/**
 * Account use cases on better-auth's server API. Each takes the database and plain input (the route has already
 * parsed it with zod and checked the origin) and either returns the Set-Cookie headers to forward or throws a
 * DomainError carrying the spec's message. Messages never say whether an e-mail has an account.
 */

export interface RequestMeta {
  ip: string;
  userAgent?: string | null;
  /** The request's Cookie header (the current session, if any). */
  cookie?: string | null;
}

function authHeaders(meta: RequestMeta): Headers {
  const headers = new Headers();
  if (meta.cookie) headers.set("cookie", meta.cookie);
  if (meta.userAgent) headers.set("user-agent", meta.userAgent.slice(0, 300));
  headers.set("x-forwarded-for", meta.ip);
  return headers;
}

function setCookiesOf(response: Response): string[] {
  return response.headers.getSetCookie();
}

/**
 * What a right password leads to: a session; or, for an account with an authenticator app, a second step (better-auth
 * made no session, only its signed two_factor cookie: /auth/two-step asks for a code); or, for an account whose only
 * second factor is a passkey, no session at all: /auth/two-step offers the passkey, which signs in by itself.
 */
export type PasswordSignIn =
  | { step: "done"; userId: string; setCookies: string[] }
  | { step: "code"; userId: null; setCookies: string[] }
  | { step: "passkey"; userId: null; setCookies: string[] };

/** Sign in: a new session (and cookie) on every success; ADMIN_EMAILS users get is_admin on their record. */
export async function signInWithPassword(db: Queryable, input: { email: string; password: string }, meta: RequestMeta): Promise<PasswordSignIn> {
  const keys = await limitSignIn(db, meta.ip, input.email);
  const auth = getAuth();
  let response: Response;
  try {
    response = await auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: authHeaders({ ...meta, cookie: null }),
      asResponse: true,
    });
  } catch (error) {
    if (error instanceof APIError) throw new DomainError(MESSAGES.loginFailed, 401);
    throw error;
  }
  if (!response.ok) throw new DomainError(MESSAGES.loginFailed, 401);
  const answer = (await response.json()) as { twoFactorRedirect?: boolean; token?: string; user?: { id: string; email: string } };
  for (const key of keys) await refund(db, key);
  // The password was right: what's left is the second step (two-factor.server.ts), and the browser's previous session
  // ends only when it's done.
  if (answer.twoFactorRedirect) return { step: "code", userId: null, setCookies: setCookiesOf(response) };
  const body = answer as { token: string; user: { id: string; email: string } };
  if (await hasPasskeyOnly(db, body.user.id)) {
    await (await getAuth().$context).internalAdapter.deleteSession(body.token);
    return { step: "passkey", userId: null, setCookies: [] };
  }
  if (isListedAdmin(body.user.email)) {
    // ADMIN_EMAILS make owners (docs/decisions/058)
    await db.updateTable("users").set({ is_admin: true, staff_role_id: OWNER_ROLE_ID, updated_at: new Date().toISOString() }).where("id", "=", body.user.id).execute();
  }
  // The session the browser had before (if any) ends: one browser, one session.
  if (meta.cookie) await endSessionOf(meta.cookie).catch((error) => logger.warn({ err: error }, "could not end the previous session"));
  await recordStaffSignIn(db, body.user.id, meta.ip, { kind: "sign-in", method: "password" });
  return { step: "done", userId: body.user.id, setCookies: setCookiesOf(response) };
}

/** A passkey but no authenticator app: a password alone doesn't sign in (the passkey is asked for as the second step). */
async function hasPasskeyOnly(db: Queryable, userId: string): Promise<boolean> {
  const user = await db.selectFrom("users").select("two_factor_enabled").where("id", "=", userId).executeTakeFirst();
  if (!user || user.two_factor_enabled) return false;
  return !!(await db.selectFrom("passkeys").select("id").where("user_id", "=", userId).limit(1).executeTakeFirst());
}

async function endSessionOf(cookie: string) {
  const previous = await getAuth().api.getSession({ headers: new Headers({ cookie }), query: { disableRefresh: true } });
  if (!previous) return;
  const ctx = await getAuth().$context;
  await ctx.internalAdapter.deleteSession(previous.session.token);
}

/**
 * Register: answers the same whether or not the e-mail already has an account (its owner gets an e-mail). A new
 * account's consents are logged (the terms and privacy notice shown, the marketing box if ticked); a sign-up for an
 * existing address records nothing: whoever typed it cannot give or change that person's consent.
 */
export async function registerAccount(db: Queryable, input: { email: string; password: string; marketing?: boolean }, meta: RequestMeta) {
  await limitAttempts(db, [
    { key: rateKey.registerIp(meta.ip), rule: RATE_RULES.registerIp },
    { key: rateKey.registerEmail(input.email), rule: RATE_RULES.registerEmail },
  ]);
  let userId: string;
  try {
    const result = await getAuth().api.signUpEmail({
      body: { email: input.email, password: input.password, name: "" },
      headers: authHeaders({ ...meta, cookie: null }),
    });
    userId = result.user.id;
  } catch (error) {
    logger.warn({ err: error instanceof APIError ? error.message : error }, "registration failed");
    throw new DomainError(MESSAGES.registerFailed, 400);
  }
  // An existing address gets a made-up user back (nothing is stored under its id): only a real new row is logged.
  const created = await db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  if (created) await recordRegistrationConsents(db, created, { marketing: input.marketing === true, shopName: env().SHOP_NAME });
}

/** Forgot password: a reset link by e-mail when the account exists; the same answer either way. */
export async function requestPasswordReset(db: Queryable, input: { email: string }, meta: RequestMeta) {
  await limitAttempts(db, [
    { key: rateKey.resetIp(meta.ip), rule: RATE_RULES.resetIp },
    { key: rateKey.resetEmail(input.email), rule: RATE_RULES.resetEmail },
  ]);
  try {
    await getAuth().api.requestPasswordReset({ body: { email: input.email }, headers: authHeaders({ ...meta, cookie: null }) });
  } catch (error) {
    logger.error({ err: error }, "password reset request failed");
    throw new DomainError(MESSAGES.resetFailed, 500);
  }
}

/** Sets a new password from a reset link (valid one hour, once); every session of the user ends. */
export async function resetPasswordWithToken(input: { token: string; password: string }) {
  try {
    await getAuth().api.resetPassword({ body: { token: input.token, newPassword: input.password } });
    // Every session of that user ended (revokeSessionsOnPasswordReset); who it was isn't known here.
    forgetAllSessions();
  } catch (error) {
    if (error instanceof APIError) throw new DomainError(MESSAGES.resetLinkInvalid, 400);
    throw error;
  }
}

/** Is this reset token still usable? (For the reset page, so an old link says so before the form is filled.) */
export async function isResetTokenUsable(db: Queryable, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db
    .selectFrom("verifications")
    .select("expires_at")
    .where("identifier", "=", `reset-password:${token}`)
    .executeTakeFirst();
  return !!row && new Date(row.expires_at).getTime() > Date.now();
}

/** Change password (profile): checks the current one; other sessions end, this browser gets a fresh session. */
export async function changePassword(
  db: Queryable,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
) {
  const key = rateKey.passwordChangeUser(userId);
  await limitAttempts(db, [{ key, rule: RATE_RULES.passwordChangeUser }]);
  let response: Response;
  try {
    response = await getAuth().api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: authHeaders(meta),
      asResponse: true,
    });
  } catch (error) {
    if (error instanceof APIError) throw new DomainError(MESSAGES.passwordUpdateFailed, 400);
    throw error;
  }
  if (!response.ok) throw new DomainError(MESSAGES.passwordUpdateFailed, 400);
  forgetUserSessions(userId); // the other sessions were revoked: no remembered copy may outlive them here
  await refund(db, key);
  return { setCookies: setCookiesOf(response) };
}

/** Sign out: the session ends on the server and the cookie is cleared. */
export async function signOut(meta: RequestMeta): Promise<{ setCookies: string[] }> {
  const response = await getAuth().api.signOut({ headers: authHeaders(meta), asResponse: true });
  return { setCookies: setCookiesOf(response) };
}

// --- profile ---

export interface EmailPreferences {
  emailNotifications: boolean;
  emailMarketing: boolean;
  marketingConsentAt: string | null;
}

export async function getEmailPreferences(db: Queryable, userId: string): Promise<EmailPreferences> {
  const row = await db
    .selectFrom("users")
    .select(["email_notifications", "email_marketing", "marketing_consent_at"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    emailNotifications: Boolean(row.email_notifications),
    emailMarketing: Boolean(row.email_marketing),
    marketingConsentAt: row.marketing_consent_at,
  };
}

/**
 * Marketing is opt-in (POPIA s69): opting in records when consent was given (kept while it stays on); opting out
 * clears it. A change of the marketing switch is a row of the consent log (source profile, with the switch's wording),
 * written in the same transaction; saving without changing it records nothing.
 */
export async function updateEmailPreferences(
  db: Queryable,
  userId: string,
  input: { emailNotifications: boolean; emailMarketing: boolean },
  now = new Date(),
): Promise<EmailPreferences> {
  const run = async (trx: Queryable) => {
    await trx.updateTable("users").set({ email_notifications: input.emailNotifications, updated_at: now.toISOString() }).where("id", "=", userId).execute();
    await setMarketingConsent(trx, { userId, granted: input.emailMarketing, source: "profile", wording: marketingConsentWording(env().SHOP_NAME), now });
    return getEmailPreferences(trx, userId);
  };
  return inTransaction(db, run);
}

// --- administration (scripts/create-admin.ts) ---

export function generateOneTimePassword(): string {
  return randomBytes(15).toString("base64url");
}

/**
 * Makes `email` an admin with a freshly generated password (printed once by the script). An existing account is
 * promoted, its password replaced, its sessions ended and its second factors removed (authenticator app, backup
 * codes, passkeys: the way back in for an owner who lost them all).
 */
export async function createOrResetAdmin(db: Queryable, email: string): Promise<{ password: string; created: boolean; userId: string }> {
  const normalized = email.trim().toLowerCase();
  const password = generateOneTimePassword();
  const auth = getAuth();
  const ctx = await auth.$context;
  const existing = await db.selectFrom("users").select("id").where("email", "=", normalized).executeTakeFirst();
  let userId: string;
  let created = false;
  if (!existing) {
    const result = await auth.api.signUpEmail({ body: { email: normalized, password, name: "" } });
    userId = result.user.id;
    created = true;
  } else {
    userId = existing.id;
    const hash = await ctx.password.hash(password);
    const account = await ctx.internalAdapter.findCredentialAccount(userId);
    if (account) await ctx.internalAdapter.updateAccount(account.id, { password: hash });
    else await ctx.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
    await ctx.internalAdapter.deleteUserSessions(userId);
    // An owner who lost every second factor gets in again with the new password alone, and adds new ones.
    await resetSecondFactors(db, userId);
  }
  // create-admin makes an owner (docs/decisions/058), whatever role the account had
  await db.updateTable("users").set({ is_admin: true, staff_role_id: OWNER_ROLE_ID, updated_at: new Date().toISOString() }).where("id", "=", userId).execute();
  // In the server's own process the ended sessions are forgotten at once; run as a command, scripts/create-admin.ts
  // writes this revocation to the change feed for the running servers (server/change-feed.ts publishRevocationsOf).
  forgetUserSessions(userId);
  return { password, created, userId };
}
