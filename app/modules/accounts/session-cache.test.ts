import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  cachedSession,
  detachRevocationFeed,
  FEED_MAX_SILENCE_MS,
  forgetAllSessions,
  forgetUserSessions,
  onSessionsRevoked,
  rememberSession,
  revocationFeedHeard,
  SESSION_CACHE_TTL_MS,
  sessionsRevokedElsewhere,
} from "./session-cache.server";

const thandi = { id: "u1", email: "thandi@example.co.za", isAdmin: false };
const sipho = { id: "u2", email: "sipho@example.co.za", isAdmin: true };
const T0 = 1_000_000;
const FAR = T0 + 30 * 24 * 3600_000;

beforeEach(() => forgetAllSessions(0));
afterEach(() => detachRevocationFeed());

describe("the session memory", () => {
  it("answers only for the exact token, and only within the TTL", () => {
    rememberSession("tok-a.sig", thandi, FAR, T0);
    expect(cachedSession("tok-a.sig", T0 + 1)).toEqual(thandi);
    expect(cachedSession("tok-a.sig2", T0 + 1)).toBeUndefined();
    expect(cachedSession("tok-a", T0 + 1)).toBeUndefined();
    expect(cachedSession("tok-a.sig", T0 + SESSION_CACHE_TTL_MS - 1)).toEqual(thandi);
    expect(cachedSession("tok-a.sig", T0 + SESSION_CACHE_TTL_MS)).toBeUndefined();
  });

  it("never outlives the session's own expiry", () => {
    rememberSession("tok-b.sig", thandi, T0 + 500, T0);
    expect(cachedSession("tok-b.sig", T0 + 499)).toEqual(thandi);
    expect(cachedSession("tok-b.sig", T0 + 500)).toBeUndefined();
  });

  it("forgets every entry of one user (sign-out, password, role, deletion) and keeps the others", () => {
    rememberSession("a.1", thandi, FAR, T0);
    rememberSession("a.2", thandi, FAR, T0);
    rememberSession("b.1", sipho, FAR, T0);
    forgetUserSessions("u1");
    expect(cachedSession("a.1", T0 + 1)).toBeUndefined();
    expect(cachedSession("a.2", T0 + 1)).toBeUndefined();
    expect(cachedSession("b.1", T0 + 1)).toEqual(sipho);
  });

  it("is bounded: the oldest entries go first", () => {
    for (let i = 0; i < 10_001; i++) rememberSession(`t${i}.s`, thandi, FAR, T0);
    expect(cachedSession("t0.s", T0 + 1)).toBeUndefined();
    expect(cachedSession("t1.s", T0 + 1)).toEqual(thandi);
    expect(cachedSession("t10000.s", T0 + 1)).toEqual(thandi);
  });

  it("does not remember a look-up that started before the user's sessions were revoked (it may have read them before)", () => {
    expect(cachedSession("a.1", T0)).toBeUndefined(); // a miss: the request asks better-auth now
    forgetUserSessions("u1", T0 + 5); // meanwhile the user signs out
    rememberSession("a.1", thandi, FAR, T0 + 10); // the look-up answers with what it read
    expect(cachedSession("a.1", T0 + 11)).toBeUndefined();
    // another user's look-up in the same moment is remembered
    expect(cachedSession("b.1", T0)).toBeUndefined();
    rememberSession("b.1", sipho, FAR, T0 + 10);
    expect(cachedSession("b.1", T0 + 11)).toEqual(sipho);
    // and a look-up that starts after the revocation is remembered as usual
    expect(cachedSession("a.2", T0 + 20)).toBeUndefined();
    rememberSession("a.2", thandi, FAR, T0 + 25);
    expect(cachedSession("a.2", T0 + 26)).toEqual(thandi);
  });

  it("the same holds when the revocation is heard from another process, or everyone's sessions end", () => {
    expect(cachedSession("a.1", T0)).toBeUndefined();
    sessionsRevokedElsewhere("u1", T0 + 1);
    rememberSession("a.1", thandi, FAR, T0 + 2);
    expect(cachedSession("a.1", T0 + 3)).toBeUndefined();
    expect(cachedSession("b.1", T0 + 3)).toBeUndefined();
    sessionsRevokedElsewhere(null, T0 + 4);
    rememberSession("b.1", sipho, FAR, T0 + 5);
    expect(cachedSession("b.1", T0 + 6)).toBeUndefined();
  });
});

describe("revocations across processes", () => {
  it("tells its listeners (the change feed) about this process's revocations, not about the ones heard from elsewhere", () => {
    const told: Array<string | null> = [];
    const stop = onSessionsRevoked((userId) => told.push(userId));
    forgetUserSessions("u1", T0);
    forgetAllSessions(T0);
    sessionsRevokedElsewhere("u2", T0);
    sessionsRevokedElsewhere(null, T0);
    stop();
    forgetUserSessions("u3", T0);
    expect(told).toEqual(["u1", null]);
  });

  it("forgets a user's entries when another process revoked them, keeping the others", () => {
    rememberSession("a.1", thandi, FAR, T0);
    rememberSession("b.1", sipho, FAR, T0);
    sessionsRevokedElsewhere("u1", T0 + 1);
    expect(cachedSession("a.1", T0 + 2)).toBeUndefined();
    expect(cachedSession("b.1", T0 + 2)).toEqual(sipho);
    sessionsRevokedElsewhere(null, T0 + 3);
    expect(cachedSession("b.1", T0 + 4)).toBeUndefined();
  });

  it("with a change feed attached, trusts a remembered session only while the feed is being read", () => {
    revocationFeedHeard(T0);
    rememberSession("a.1", thandi, FAR, T0);
    expect(cachedSession("a.1", T0 + FEED_MAX_SILENCE_MS)).toEqual(thandi);
    // the feed went quiet (the database is unreachable, the process stalled): every request asks better-auth again
    expect(cachedSession("a.1", T0 + FEED_MAX_SILENCE_MS + 1)).toBeUndefined();
    // once it is read again, the entry (still within its TTL, and not revoked) is trusted again
    revocationFeedHeard(T0 + 2000);
    expect(cachedSession("a.1", T0 + 2001)).toEqual(thandi);
  });
});
