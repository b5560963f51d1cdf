import { describe, expect, it } from "vitest";
import { loginPath, safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it("follows a path on this site, with its query and hash", () => {
    expect(safeRedirect("/checkout")).toBe("/checkout");
    expect(safeRedirect("/order-confirmation?id=abc#top")).toBe("/order-confirmation?id=abc#top");
  });

  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "http:/evil.example",
    "/%0a/evil",
    "/\t/evil.example",
    "evil.example",
    "",
    "/auth/logout",
    "/.//evil.example/x",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "///evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%5C%5Cevil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "/\r//evil.example",
    "/x\t/..//evil.example",
    "/%0a/%2e%2e//evil.example",
  ])("ignores %j", (value) => {
    const result = safeRedirect(value);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(new URL(result, "http://shop.test").host).toBe("shop.test");
    expect(result).not.toMatch(/evil/);
  });

  it("falls back to home (or the given default) for missing or outside targets", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/profile")).toBe("/profile");
    expect(safeRedirect("https://evil.example/")).toBe("/");
    expect(safeRedirect("//evil.example")).toBe("/");
  });
});

describe("loginPath", () => {
  it("carries the page to come back to", () => {
    expect(loginPath("/admin/orders?tab=pending")).toBe("/auth/login?redirect=%2Fadmin%2Forders%3Ftab%3Dpending");
    expect(loginPath("/")).toBe("/auth/login");
    expect(loginPath("https://evil.example")).toBe("/auth/login");
  });
});
