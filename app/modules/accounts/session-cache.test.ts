import { beforeEach, describe, expect, it } from "vitest";
import { cachedSession, forgetAllSessions, forgetUserSessions, rememberSession, SESSION_CACHE_TTL_MS } from "./session-cache.server";

const thandi = { id: "u1", email: "thandi@example.co.za", isAdmin: false };
const sipho = { id: "u2", email: "sipho@example.co.za", isAdmin: true };
const T0 = 1_000_000;
const FAR = T0 + 30 * 24 * 3600_000;

beforeEach(() => forgetAllSessions());

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
});
