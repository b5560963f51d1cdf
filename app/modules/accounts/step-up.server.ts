/**
 * Step-up (docs/decisions/059, OWASP ASVS 5.0 V7.5): before a sensitive action the person proves again it's them, with
 * the password or a passkey, when their last proof is older than STEP_UP_WINDOW_MS. The proof is stamped on the
 * session (sessions.confirmed_at); session.server.ts requireRecentConfirmation reads it, /auth/confirm writes it.
 */
import { APIError } from "better-auth/api";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import type { RequestMeta } from "./accounts.server";
import { getAuth } from "./auth.server";
import { confirmWithPasskey } from "./passkeys.server";
import { limitAttempts, RATE_RULES, rateKey, refund } from "./rate-limit.server";
import { forgetUserSessions } from "./session-cache.server";
import { TWO_STEP_MESSAGES } from "./two-step.schema";

/** Stamps the session as confirmed now; the remembered copies of the user's sessions are dropped on every process. */
export async function markSessionConfirmed(db: Queryable, user: { id: string; sessionId: string }, now: Date = new Date()): Promise<void> {
  await db.updateTable("sessions").set({ confirmed_at: now.toISOString() }).where("id", "=", user.sessionId).where("user_id", "=", user.id).execute();
  forgetUserSessions(user.id);
}

/** The password asked again: throttled like a password, the session stamped when it's right. */
export async function confirmWithPassword(db: Queryable, user: { id: string; sessionId: string }, password: string, meta: RequestMeta): Promise<void> {
  const key = rateKey.confirmUser(user.id);
  await limitAttempts(db, [{ key, rule: RATE_RULES.confirmUser }]);
  const headers = new Headers();
  if (meta.cookie) headers.set("cookie", meta.cookie);
  try {
    const result = await getAuth().api.verifyPassword({ body: { password }, headers });
    if (!result?.status) throw new DomainError(TWO_STEP_MESSAGES.confirmFailed, 400, "password");
  } catch (error) {
    if (error instanceof APIError) throw new DomainError(TWO_STEP_MESSAGES.confirmFailed, 400, "password");
    throw error;
  }
  await refund(db, key);
  await markSessionConfirmed(db, user);
}

/** A passkey of the user's answered the confirm page's challenge: the session is stamped. */
export async function confirmByPasskey(db: Queryable, user: { id: string; sessionId: string }, input: { challengeId: string; response: unknown }) {
  await confirmWithPasskey(db, user.id, input);
  await markSessionConfirmed(db, user);
}
