/**
 * Passkeys (WebAuthn), docs/decisions/059: added, named, listed and removed in Profile → Account; a passkey signs in
 * alone (it is something you have, unlocked by something you know or are), and answers the step-up's "confirm it's
 * you". Verified by @simplewebauthn/server (better-auth's own passkey plugin, @better-auth/passkey, can't be installed
 * beside better-auth 1.7.25: its newest release pins older better-auth internals exactly). The table keeps that
 * plugin's columns, so moving to it later is a rename away.
 *
 * Every ceremony has a one-use challenge kept in `verifications` for 5 minutes (identifier passkey:<random>, the
 * value saying what it's for and for whom); the browser gets its id and sends it back with the authenticator's answer.
 */
import type { AuthenticationResponseJSON, AuthenticatorTransportFuture, RegistrationResponseJSON } from "@simplewebauthn/server";
import { randomBytes } from "node:crypto";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { getAuth } from "./auth.server";
import type { RequestMeta } from "./accounts.server";
import { describeUserAgent } from "./devices.logic";
import { limitAttempts, RATE_RULES, rateKey, refund } from "./rate-limit.server";
import { forgetUserSessions } from "./session-cache.server";
import { recordStaffSignIn } from "./sign-in-activity.server";
import { passkeyNameSchema, TWO_STEP_MESSAGES } from "./two-step.schema";

const CHALLENGE_SECONDS = 5 * 60;

/** The WebAuthn library, loaded at the first passkey ceremony rather than at start (~0.2 s of CPU per server process). */
const webAuthn = () => import("@simplewebauthn/server");
type Purpose = "register" | "sign-in" | "confirm";

function relyingParty() {
  const url = new URL(env().PUBLIC_BASE_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: env().SHOP_NAME };
}

async function saveChallenge(db: Queryable, purpose: Purpose, challenge: string, userId: string | null): Promise<string> {
  const id = randomBytes(18).toString("base64url");
  const now = new Date();
  await db
    .insertInto("verifications")
    .values({
      id: newId(),
      identifier: `passkey:${id}`,
      value: JSON.stringify({ purpose, challenge, userId }),
      expires_at: new Date(now.getTime() + CHALLENGE_SECONDS * 1000).toISOString(),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return id;
}

/** Takes a challenge (once: deleted as it's read); null when unknown, used, expired or for something else. */
async function takeChallenge(db: Queryable, id: string, purpose: Purpose, userId: string | null): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{10,40}$/.test(id)) return null;
  const row = await db.deleteFrom("verifications").where("identifier", "=", `passkey:${id}`).returning(["value", "expires_at"]).executeTakeFirst();
  if (!row || new Date(row.expires_at).getTime() <= Date.now()) return null;
  const value = JSON.parse(row.value) as { purpose: Purpose; challenge: string; userId: string | null };
  if (value.purpose !== purpose || value.userId !== userId) return null;
  return value.challenge;
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** synced across the person's devices (iCloud Keychain, Google Password Manager) or kept on one */
  synced: boolean;
}

export async function listPasskeys(db: Queryable, userId: string): Promise<PasskeyView[]> {
  const rows = await db
    .selectFrom("passkeys")
    .select(["id", "name", "created_at", "last_used_at", "backed_up"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at, synced: Boolean(r.backed_up) }));
}

const transportsOf = (value: string | null) => (value ? (value.split(",") as AuthenticatorTransportFuture[]) : undefined);

/** Options for adding a passkey (the browser's navigator.credentials.create), and the challenge's id. */
export async function passkeyRegistrationOptions(db: Queryable, user: { id: string; email: string }) {
  const rp = relyingParty();
  const existing = await db.selectFrom("passkeys").select(["credential_id", "transports"]).where("user_id", "=", user.id).execute();
  const options = await (await webAuthn()).generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    // a discoverable credential: the login page's button finds it without an e-mail typed first
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  return { options, challengeId: await saveChallenge(db, "register", options.challenge, user.id) };
}

/** Verifies the browser's new credential and keeps it under a name (the person's, or "<browser> on <system>"). */
export async function addPasskey(
  db: Queryable,
  user: { id: string },
  input: { challengeId: string; response: unknown; name?: string },
  meta: RequestMeta,
): Promise<PasskeyView> {
  const challenge = await takeChallenge(db, input.challengeId, "register", user.id);
  if (!challenge) throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  const rp = relyingParty();
  let verification;
  try {
    verification = await (await webAuthn()).verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.message : error }, "passkey registration refused");
    throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  }
  if (!verification.verified) throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  const info = verification.registrationInfo;
  const named = passkeyNameSchema.safeParse(input.name ?? "");
  const name = named.success ? named.data : `Passkey on ${describeUserAgent(meta.userAgent).label}`.slice(0, 60);
  const id = newId();
  const createdAt = new Date().toISOString();
  await db
    .insertInto("passkeys")
    .values({
      id,
      user_id: user.id,
      name,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString("base64url"),
      counter: info.credential.counter,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp,
      transports: info.credential.transports?.join(",") ?? null,
      aaguid: info.aaguid,
      created_at: createdAt,
    })
    .execute();
  forgetUserSessions(user.id); // the remembered session's "second factor" changed
  return { id, name, createdAt, lastUsedAt: null, synced: info.credentialBackedUp };
}

export async function renamePasskey(db: Queryable, userId: string, id: string, name: string): Promise<void> {
  const result = await db.updateTable("passkeys").set({ name }).where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new DomainError("That passkey wasn't found.", 404);
}

export async function removePasskey(db: Queryable, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom("passkeys").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError("That passkey wasn't found.", 404);
  forgetUserSessions(userId);
}

/** Options for signing in (any passkey of this shop: the browser offers the ones it has), or confirming (the user's). */
export async function passkeyAuthenticationOptions(db: Queryable, userId: string | null) {
  const rp = relyingParty();
  const allow = userId
    ? (await db.selectFrom("passkeys").select(["credential_id", "transports"]).where("user_id", "=", userId).execute()).map((p) => ({
        id: p.credential_id,
        transports: transportsOf(p.transports),
      }))
    : undefined;
  const options = await (await webAuthn()).generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials: allow, userVerification: "preferred" });
  return { options, challengeId: await saveChallenge(db, userId ? "confirm" : "sign-in", options.challenge, userId) };
}

/** Checks an authenticator's answer: the passkey's user, after its counter is moved on (a cloned key is refused). */
async function verifyAssertion(db: Queryable, purpose: "sign-in" | "confirm", userId: string | null, input: { challengeId: string; response: unknown }) {
  const challenge = await takeChallenge(db, input.challengeId, purpose, userId);
  if (!challenge) throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  const response = input.response as AuthenticationResponseJSON;
  const credentialId = typeof response?.id === "string" ? response.id : "";
  const passkey = await db.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst();
  if (!passkey || (userId && passkey.user_id !== userId)) throw new DomainError(TWO_STEP_MESSAGES.passkeyUnknown, 400);
  const rp = relyingParty();
  let verification;
  try {
    verification = await (await webAuthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
        counter: Number(passkey.counter),
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: false,
    });
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.message : error }, "passkey assertion refused");
    throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  }
  if (!verification.verified) throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  const newCounter = verification.authenticationInfo.newCounter;
  // Counters that move (security keys) must only go up; synced passkeys keep 0. The update is conditional, so two
  // answers racing with the same counter can't both pass.
  const moved = await db
    .updateTable("passkeys")
    .set({ counter: newCounter, last_used_at: new Date().toISOString() })
    .where("id", "=", passkey.id)
    .where((eb) => (newCounter === 0 ? eb("counter", "=", 0) : eb("counter", "<", newCounter)))
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  return passkey.user_id;
}

/** Signs in with a passkey alone: a new session and its cookies. Failed answers are throttled per address. */
export async function signInWithPasskey(db: Queryable, input: { challengeId: string; response: unknown }, meta: RequestMeta) {
  const key = rateKey.secondFactorIp(meta.ip);
  await limitAttempts(db, [{ key, rule: RATE_RULES.secondFactorIp }]);
  const userId = await verifyAssertion(db, "sign-in", null, input);
  await refund(db, key);
  const headers = new Headers({ "x-forwarded-for": meta.ip });
  if (meta.userAgent) headers.set("user-agent", meta.userAgent.slice(0, 300));
  const response = await getAuth().api.signInVerifiedUser({ body: { userId }, headers, asResponse: true });
  if (!response.ok) throw new DomainError(TWO_STEP_MESSAGES.passkeyFailed, 400);
  await recordStaffSignIn(db, userId, meta.ip, { kind: "sign-in", method: "passkey" });
  return { userId, setCookies: response.headers.getSetCookie() };
}

/** The step-up's passkey: the signed-in user's own passkey answered a fresh challenge. */
export async function confirmWithPasskey(db: Queryable, userId: string, input: { challengeId: string; response: unknown }): Promise<void> {
  const key = rateKey.confirmUser(userId);
  await limitAttempts(db, [{ key, rule: RATE_RULES.confirmUser }]);
  await verifyAssertion(db, "confirm", userId, input);
  await refund(db, key);
}
