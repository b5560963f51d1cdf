import { describe, expect, it } from "vitest";
import { expiresAfterDays, signToken, verifyToken } from "./signed-token.server";

const secret = "a-secret-of-the-shop";
const now = new Date("2026-11-28T10:00:00Z");
const options = { secret, maxLength: 400, now };
const token = signToken("test/thing/v1", { u: "user-1" }, { secret, expiresAt: expiresAfterDays(1, now) });

describe("a signed link's token", () => {
  it("verifies for its purpose and secret until it expires, with its claims", () => {
    expect(verifyToken("test/thing/v1", token, options)).toEqual({ ok: true, claims: { u: "user-1", e: Math.floor(now.getTime() / 1000) + 86_400 } });
    const aDayLater = new Date(now.getTime() + 86_400_000);
    expect(verifyToken("test/thing/v1", token, { ...options, now: aDayLater })).toEqual({ ok: false, reason: "expired" });
  });

  it("is invalid tampered, truncated, under another purpose or secret, too long, or not a token", () => {
    const [payload, signature] = token.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ u: "user-2", e: 4_000_000_000 })).toString("base64url");
    const otherSignature = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [`${forged}.${signature}`, `${payload}.${otherSignature}`, payload, `${payload}.`, `.${signature}`, `${payload}.${signature}.x`, "x".repeat(401), "", 42, null]) {
      expect(verifyToken("test/thing/v1", bad, options)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(verifyToken("test/other/v1", token, options)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyToken("test/thing/v1", token, { ...options, secret: "another-secret" })).toEqual({ ok: false, reason: "invalid" });
  });
});
