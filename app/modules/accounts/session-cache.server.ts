/**
 * A brief, bounded memory of verified sessions (docs/decisions/021). Every signed-in page asked better-auth to check
 * the session cookie: an HMAC verification and a database read, ~15 % of a signed-in page's server CPU. A session a
 * request has just verified is remembered here for a few seconds under its exact cookie value, so the next pages of
 * the same shopper skip both.
 *
 * Safe because:
 * - the key is the whole signed cookie value: only a request that presents that exact token finds the entry;
 * - entries live SESSION_CACHE_TTL_MS at most, and never past the session's own expiry;
 * - this process forgets a user's entries the moment their sessions change here: sign-out, password change or reset,
 *   role change, account deletion. Another process (a second worker or server) still honours them for at most the
 *   TTL, the same few seconds a page already rendered for that user stays on screen.
 */
/** Who the session is (the same shape as session.server's SessionUser, declared here so neither imports the other). */
export interface RememberedUser {
  id: string;
  email: string;
  isAdmin: boolean;
}

export const SESSION_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  user: RememberedUser;
  expires: number;
}

const entries = new Map<string, Entry>();

export function cachedSession(token: string, now = Date.now()): RememberedUser | undefined {
  const entry = entries.get(token);
  if (!entry) return undefined;
  if (entry.expires <= now) {
    entries.delete(token);
    return undefined;
  }
  return entry.user;
}

export function rememberSession(token: string, user: RememberedUser, sessionExpiresAt: number, now = Date.now()) {
  if (entries.size >= MAX_ENTRIES) {
    // The oldest entry goes first (a Map keeps insertion order).
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(token, { user, expires: Math.min(now + SESSION_CACHE_TTL_MS, sessionExpiresAt) });
}

/** This user's sessions changed (signed out, password, role, deleted): forget every entry of theirs. */
export function forgetUserSessions(userId: string) {
  for (const [token, entry] of entries) if (entry.user.id === userId) entries.delete(token);
}

/** A change whose user isn't known here (a password reset by link): forget everything. */
export function forgetAllSessions() {
  entries.clear();
}
