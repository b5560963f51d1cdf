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
 *   role change, account deletion;
 * - the other processes (workers, servers) hear of it through the change feed (server/change-feed.ts,
 *   docs/decisions/027): a revocation is told to every listener of onSessionsRevoked (the feed writes it to the
 *   database) and the feed calls sessionsRevokedElsewhere() for the ones other processes wrote. While a feed is
 *   attached, a remembered session is trusted only if the feed was read less than FEED_MAX_SILENCE_MS ago: a process
 *   that can't read the feed (database trouble, a stalled event loop) checks every session with better-auth instead;
 * - a look-up that started before a revocation was heard is not remembered when it ends (it may have read the session
 *   before the revocation committed).
 */
/** Who the session is (the same shape as session.server's SessionUser, declared here so neither imports the other). */
import { afterCommit } from "~/utils/after-commit.server";

export interface RememberedUser {
  id: string;
  email: string;
  isAdmin: boolean;
}

export const SESSION_CACHE_TTL_MS = 10_000;
/** With a change feed attached: remembered sessions are used only while the feed was read within this time. */
export const FEED_MAX_SILENCE_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  user: RememberedUser;
  expires: number;
}

const entries = new Map<string, Entry>();
/** token → when its look-up started (a miss here), until it is remembered. */
const lookups = new Map<string, number>();
/** user id → when their sessions were last forgotten; and when everyone's were. */
const forgottenAt = new Map<string, number>();
let allForgottenAt = Number.NEGATIVE_INFINITY;

type RevocationListener = (userId: string | null) => void;
const revocationListeners = new Set<RevocationListener>();

let feed: { heardAt: number } | undefined;

function bounded<K, V>(map: Map<K, V>) {
  // The oldest goes first (a Map keeps insertion order).
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as K);
}

export function cachedSession(token: string, now = Date.now()): RememberedUser | undefined {
  const entry = entries.get(token);
  const trusted = entry && entry.expires > now && (!feed || now - feed.heardAt <= FEED_MAX_SILENCE_MS);
  if (trusted) return entry.user;
  if (entry && entry.expires <= now) entries.delete(token);
  // The caller now asks better-auth: note when, so a revocation heard meanwhile keeps its answer out of here.
  lookups.delete(token);
  bounded(lookups);
  lookups.set(token, now);
  return undefined;
}

export function rememberSession(token: string, user: RememberedUser, sessionExpiresAt: number, now = Date.now()) {
  const started = lookups.get(token);
  lookups.delete(token);
  if (started !== undefined && (allForgottenAt >= started || (forgottenAt.get(user.id) ?? Number.NEGATIVE_INFINITY) >= started)) {
    return; // revoked while it was being looked up: the answer may predate the revocation
  }
  entries.delete(token);
  bounded(entries);
  entries.set(token, { user, expires: Math.min(now + SESSION_CACHE_TTL_MS, sessionExpiresAt) });
}

function forgetUserLocally(userId: string, now: number) {
  for (const [token, entry] of entries) if (entry.user.id === userId) entries.delete(token);
  forgottenAt.delete(userId);
  bounded(forgottenAt);
  forgottenAt.set(userId, now);
}

function forgetAllLocally(now: number) {
  entries.clear();
  forgottenAt.clear();
  allForgottenAt = now;
}

/** This user's sessions changed (signed out, password, role, deleted): forget every entry of theirs, everywhere. */
export function forgetUserSessions(userId: string, now?: number) {
  // after the commit of the change that asked (utils/after-commit.server.ts): a look-up before it reads the old role
  afterCommit(() => {
    forgetUserLocally(userId, now ?? Date.now());
    for (const listener of revocationListeners) listener(userId);
  });
}

/** A change whose user isn't known here (a password reset by link): forget everything, everywhere. */
export function forgetAllSessions(now?: number) {
  afterCommit(() => {
    forgetAllLocally(now ?? Date.now());
    for (const listener of revocationListeners) listener(null);
  });
}

/** Hears every revocation made in this process (user id, or null: everyone's). The change feed writes them down. */
export function onSessionsRevoked(listener: RevocationListener): () => void {
  revocationListeners.add(listener);
  return () => revocationListeners.delete(listener);
}

/** A revocation another process made (null: everyone's), heard through the change feed: forgotten here only. */
export function sessionsRevokedElsewhere(userId: string | null, now = Date.now()) {
  if (userId === null) forgetAllLocally(now);
  else forgetUserLocally(userId, now);
}

/**
 * The change feed is attached (the server calls this when it starts reading it) and was read, completely, with a
 * read that started at `at`. From the first call on, remembered sessions are trusted only while such reads keep
 * coming (FEED_MAX_SILENCE_MS). detachRevocationFeed() when the feed stops.
 */
export function revocationFeedHeard(at: number) {
  if (!feed) feed = { heardAt: at };
  else feed.heardAt = Math.max(feed.heardAt, at);
}

export function detachRevocationFeed() {
  feed = undefined;
}
