/**
 * Authenticator apps (TOTP, RFC 6238) with ten single-use backup codes, and the second step of a password sign-in
 * (docs/decisions/059). Built on better-auth's two-factor plugin (auth.server.ts):
 *
 * - storage: the plugin's `two_factors` row, its secret and backup codes encrypted by better-auth's symmetricEncrypt
 *   with the shop's secret (never stored in the clear), `users.two_factor_enabled`;
 * - sign-in: the plugin intercepts a password sign-in of an account with a confirmed app, deletes the session it made
 *   and sets a signed `two_factor` cookie (10 minutes) instead; verifySecondStep then makes the session through the
 *   plugin's verifyTOTP / verifyBackupCode (which also count attempts per challenge and lock the account after ten);
 * - the shop adds: throttling like passwords (rate-limit.server.ts), a code accepted once (the plugin would take the
 *   same code again within its window: `two_factors.last_totp_step`), the setup page's QR code and secret as text,
 *   and confirming the app without replacing the person's session.
 */
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { APIError } from "better-auth/api";
import { sql } from "kysely";
import { encode as encodeQr, type QrCode } from "./qr.server";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { env } from "~/utils/env.server";
import { COOKIE_PREFIX, getAuth } from "./auth.server";
import type { RequestMeta } from "./accounts.server";
import { limitAttempts, RATE_RULES, rateKey, refund } from "./rate-limit.server";
import { forgetUserSessions } from "./session-cache.server";
import { recordStaffSignIn } from "./sign-in-activity.server";
import { looksLikeBackupCode, TWO_STEP_MESSAGES } from "./two-step.schema";
import { groupedSecret, matchingStep, otpauthUri, randomAlphanumeric } from "./totp.server";

export const BACKUP_CODE_COUNT = 10;

async function secretConfig() {
  return (await getAuth().$context).secretConfig;
}

/** Ten codes shaped as better-auth's plugin makes them (xxxxx-xxxxx), and their stored (encrypted) form. */
async function newBackupCodes(): Promise<{ codes: string[]; stored: string }> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => randomAlphanumeric(10)).map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
  return { codes, stored: await symmetricEncrypt({ key: await secretConfig(), data: JSON.stringify(codes) }) };
}

async function storedBackupCodes(stored: string): Promise<string[]> {
  try {
    const codes = JSON.parse(await symmetricDecrypt({ key: await secretConfig(), data: stored })) as unknown;
    return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
  } catch {
    return [];
  }
}

export interface AuthenticatorState {
  /** none; pending: added, waiting for its first code; enabled: asked at every password sign-in */
  status: "none" | "pending" | "enabled";
  backupCodesLeft: number;
}

export async function authenticatorState(db: Queryable, userId: string): Promise<AuthenticatorState> {
  const row = await db.selectFrom("two_factors").select(["verified", "backup_codes"]).where("user_id", "=", userId).executeTakeFirst();
  if (!row) return { status: "none", backupCodesLeft: 0 };
  if (!row.verified) return { status: "pending", backupCodesLeft: 0 };
  return { status: "enabled", backupCodesLeft: (await storedBackupCodes(row.backup_codes)).length };
}

/**
 * Starts adding an authenticator app: a new secret (better-auth's shape: 32 random letters and digits, used as the
 * HMAC key's bytes), encrypted with the shop's secret. Until a code confirms it, the app isn't asked for at sign-in.
 */
export async function startAuthenticator(db: Queryable, userId: string): Promise<void> {
  const existing = await db.selectFrom("two_factors").select(["id", "verified"]).where("user_id", "=", userId).executeTakeFirst();
  if (existing?.verified) throw new DomainError(TWO_STEP_MESSAGES.authenticatorAlready, 409);
  const secret = await symmetricEncrypt({ key: await secretConfig(), data: randomAlphanumeric(32) });
  const { stored } = await newBackupCodes();
  if (existing) {
    await db.updateTable("two_factors").set({ secret, backup_codes: stored, last_totp_step: null, failed_verification_count: 0 }).where("id", "=", existing.id).execute();
  } else {
    await db.insertInto("two_factors").values({ id: newId(), user_id: userId, secret, backup_codes: stored, verified: false }).execute();
  }
}

export interface AuthenticatorSetup {
  /** the secret in base32, grouped by four, for "enter a setup key" */
  secretText: string;
  /** otpauth:// link (also a link on a phone, where scanning the screen you're holding isn't possible) */
  uri: string;
  /** the QR code, made here (no outside service sees the secret) */
  qr: QrCode;
}

/** What the setup page shows while an app is being added; null when none is pending. */
export async function pendingAuthenticatorSetup(db: Queryable, user: { id: string; email: string }): Promise<AuthenticatorSetup | null> {
  const row = await db.selectFrom("two_factors").select(["secret", "verified"]).where("user_id", "=", user.id).executeTakeFirst();
  if (!row || row.verified) return null;
  const secret = await symmetricDecrypt({ key: await secretConfig(), data: row.secret });
  const uri = otpauthUri(secret, env().SHOP_NAME, user.email);
  return { secretText: groupedSecret(secret), uri, qr: encodeQr(uri) };
}

/**
 * Claims the time step of a right code: true once per step and user (a conditional update, atomic on both
 * databases), false when that code or a later one was already used.
 */
async function claimStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable("two_factors")
    .set({ last_totp_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_totp_step", "is", null), eb("last_totp_step", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Checks a 6-digit code against the user's app and claims its step: "ok", "wrong" or "reused". */
async function checkCode(db: Queryable, userId: string, code: string): Promise<"ok" | "wrong" | "reused"> {
  const row = await db.selectFrom("two_factors").select(["secret"]).where("user_id", "=", userId).executeTakeFirst();
  if (!row) return "wrong";
  const secret = await symmetricDecrypt({ key: await secretConfig(), data: row.secret });
  const step = matchingStep(secret, code);
  if (step === null) return "wrong";
  return (await claimStep(db, userId, step)) ? "ok" : "reused";
}

/**
 * Confirms a pending app with a code from it; the app is then asked for at every password sign-in. Returns the ten
 * backup codes, shown once. The person's session stays (better-auth's own confirm would replace it).
 */
export async function confirmAuthenticator(db: Queryable, userId: string, code: string, meta: RequestMeta): Promise<{ backupCodes: string[] }> {
  const key = rateKey.secondFactorUser(userId);
  await limitAttempts(db, [{ key, rule: RATE_RULES.secondFactorUser }]);
  const row = await db.selectFrom("two_factors").select(["id", "verified"]).where("user_id", "=", userId).executeTakeFirst();
  if (!row) throw new DomainError(TWO_STEP_MESSAGES.authenticatorNotStarted, 409);
  if (row.verified) throw new DomainError(TWO_STEP_MESSAGES.authenticatorAlready, 409);
  const outcome = /^\d{6}$/.test(code) ? await checkCode(db, userId, code) : "wrong";
  if (outcome !== "ok") throw new DomainError(outcome === "reused" ? TWO_STEP_MESSAGES.codeReused : TWO_STEP_MESSAGES.codeWrong, 400, "code");
  await refund(db, key);
  const { codes, stored } = await newBackupCodes();
  await db.updateTable("two_factors").set({ verified: true, backup_codes: stored, failed_verification_count: 0, locked_until: null }).where("id", "=", row.id).execute();
  await db.updateTable("users").set({ two_factor_enabled: true, updated_at: new Date().toISOString() }).where("id", "=", userId).execute();
  forgetUserSessions(userId); // the remembered session says "no second factor" until it's looked up again
  void meta;
  return { backupCodes: codes };
}

/** Ten new backup codes (shown once); the old ones stop working. */
export async function regenerateBackupCodes(db: Queryable, userId: string): Promise<string[]> {
  const { codes, stored } = await newBackupCodes();
  const result = await db.updateTable("two_factors").set({ backup_codes: stored }).where("user_id", "=", userId).where("verified", "=", true).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new DomainError(TWO_STEP_MESSAGES.authenticatorNotStarted, 409);
  return codes;
}

/** Removes the app (pending or confirmed) and its backup codes; password sign-ins ask for no code after this. */
export async function removeAuthenticator(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom("two_factors").where("user_id", "=", userId).execute();
  await db.updateTable("users").set({ two_factor_enabled: false, updated_at: new Date().toISOString() }).where("id", "=", userId).execute();
  forgetUserSessions(userId);
}

// --- the second step of a password sign-in ---

const CHALLENGE_COOKIE = new RegExp(`(?:^|;)\\s*(?:__Secure-)?${COOKIE_PREFIX}\\.two_factor=([^;]*)`);

/** The user a pending sign-in (the two_factor cookie) belongs to; null when there is none or it expired. */
export async function pendingSignInUser(cookie: string | null | undefined): Promise<string | null> {
  const raw = cookie?.match(CHALLENGE_COOKIE)?.[1];
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const identifier = value.slice(0, value.lastIndexOf("."));
  if (!identifier.startsWith("2fa-")) return null;
  // The identifier is random (20 characters) and the plugin checks the cookie's signature again when it makes the
  // session; here it only names whose attempts to count.
  const found = await (await getAuth().$context).internalAdapter.findVerificationValue(identifier);
  if (!found || new Date(found.expiresAt).getTime() <= Date.now()) return null;
  return found.value;
}

function authHeaders(meta: RequestMeta): Headers {
  const headers = new Headers();
  if (meta.cookie) headers.set("cookie", meta.cookie);
  if (meta.userAgent) headers.set("user-agent", meta.userAgent.slice(0, 300));
  headers.set("x-forwarded-for", meta.ip);
  return headers;
}

/**
 * The second step: a code from the app (once) or a backup code (each once). Throttled like a password (per address
 * and per account, a success gives its attempts back). Returns the new session's cookies.
 */
export async function verifySecondStep(db: Queryable, code: string, meta: RequestMeta): Promise<{ userId: string; setCookies: string[] }> {
  const userId = await pendingSignInUser(meta.cookie);
  if (!userId) throw new DomainError(TWO_STEP_MESSAGES.challengeExpired, 401);
  const keys = [
    { key: rateKey.secondFactorIp(meta.ip), rule: RATE_RULES.secondFactorIp },
    { key: rateKey.secondFactorUser(userId), rule: RATE_RULES.secondFactorUser },
  ];
  await limitAttempts(db, keys);
  const backup = looksLikeBackupCode(code);
  const method = backup ? "backup code" : "authenticator code";
  const fail = async (message: string, status = 400): Promise<never> => {
    await recordStaffSignIn(db, userId, meta.ip, { kind: "sign-in.second-factor-failed", method });
    throw new DomainError(message, status, "code");
  };
  if (!backup) {
    const outcome = await checkCode(db, userId, code);
    if (outcome !== "ok") return fail(outcome === "reused" ? TWO_STEP_MESSAGES.codeReused : TWO_STEP_MESSAGES.codeWrong);
  }
  const auth = getAuth();
  let response: Response;
  try {
    response = backup
      ? await auth.api.verifyBackupCode({ body: { code }, headers: authHeaders(meta), asResponse: true })
      : await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(meta), asResponse: true });
  } catch (error) {
    if (error instanceof APIError) return fail(messageOf(error), statusOf(error));
    throw error;
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: string };
    return fail(messageForCode(body.code), response.status === 429 ? 429 : 400);
  }
  for (const { key } of keys) await refund(db, key);
  await recordStaffSignIn(db, userId, meta.ip, { kind: "sign-in", method: `password and ${method}` });
  return { userId, setCookies: response.headers.getSetCookie() };
}

function messageForCode(code: string | undefined): string {
  switch (code) {
    case "INVALID_TWO_FACTOR_COOKIE":
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      return TWO_STEP_MESSAGES.challengeExpired;
    case "ACCOUNT_TEMPORARILY_LOCKED":
      return TWO_STEP_MESSAGES.locked;
    default:
      return TWO_STEP_MESSAGES.codeWrong;
  }
}

function messageOf(error: APIError): string {
  return messageForCode((error.body as { code?: string } | undefined)?.code);
}

function statusOf(error: APIError): number {
  return error.statusCode === 429 ? 429 : 400;
}

/** How many of the ten backup codes are left (the profile shows it; a test reads it too). */
export async function backupCodesLeft(db: Queryable, userId: string): Promise<number> {
  const row = await db.selectFrom("two_factors").select("backup_codes").where("user_id", "=", userId).executeTakeFirst();
  return row ? (await storedBackupCodes(row.backup_codes)).length : 0;
}

/** Removes every second factor of a user (scripts/create-admin.ts: an owner who lost them all). */
export async function resetSecondFactors(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom("passkeys").where("user_id", "=", userId).execute();
  await removeAuthenticator(db, userId);
}

/** Has the user a second factor: a confirmed authenticator app, or at least one passkey. */
export async function hasSecondFactorOf(db: Queryable, userId: string, twoFactorEnabled?: boolean): Promise<boolean> {
  if (twoFactorEnabled) return true;
  const row = await db.selectFrom("passkeys").select(sql<number>`1`.as("one")).where("user_id", "=", userId).limit(1).executeTakeFirst();
  return !!row;
}
