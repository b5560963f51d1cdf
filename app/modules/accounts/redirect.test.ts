import { describe, expect, it } from "vitest";
import { loginPath, safeRedirect } from "./redirect";

/** What every answer of safeRedirect must be: one '/', then neither '/' nor '\', and this shop's host. */
function expectPathOfThisShop(result: string) {
  expect(result).toMatch(/^\/(?![/\\])/);
  expect(new URL(result, "http://shop.test").host).toBe("shop.test");
}

describe("safeRedirect", () => {
  it("follows a path on this site, with its query and hash", () => {
    expect(safeRedirect("/checkout")).toBe("/checkout");
    expect(safeRedirect("/order-confirmation?id=abc#top")).toBe("/order-confirmation?id=abc#top");
    expect(safeRedirect("/admin/orders?tab=pending")).toBe("/admin/orders?tab=pending");
    expect(safeRedirect("/")).toBe("/");
  });

  it("resolves harmless dot segments to the page they name", () => {
    expect(safeRedirect("/shop/../checkout")).toBe("/checkout");
    expect(safeRedirect("/./profile")).toBe("/profile");
  });

  it.each([
    // dot segments that only become '//host' once the URL is normalised
    "/.//evil.example/x",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/x\t/..//evil.example",
    "/%0a/%2e%2e//evil.example",
    // backslashes, raw and encoded (browsers read '\' as '/')
    "/\\evil.example",
    "\\\\evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%5C%5Cevil.example",
    // tabs, CR and LF (browsers strip them from URLs), raw and encoded
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "/\r//evil.example",
    "/%0a/evil",
    "/%0D%0A/evil.example",
    // another host or scheme outright
    "//evil.example",
    "//evil.example/path",
    "///evil.example",
    "https://evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    " //evil.example",
    "\t//evil.example",
    "evil.example",
    // not a page to come back to
    "",
    "/auth/logout",
  ])("sends %j home instead", (value) => {
    const result = safeRedirect(value);
    expect(result).toBe("/");
    expectPathOfThisShop(result);
  });

  it("falls back to the given default for missing or outside targets", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/profile")).toBe("/profile");
    expect(safeRedirect("/.//evil.example/x", "/profile")).toBe("/profile");
    expect(safeRedirect("https://evil.example/", "")).toBe("");
  });
});

describe("loginPath", () => {
  it("carries the page to come back to", () => {
    expect(loginPath("/admin/orders?tab=pending")).toBe("/auth/login?redirect=%2Fadmin%2Forders%3Ftab%3Dpending");
    expect(loginPath("/")).toBe("/auth/login");
    expect(loginPath("https://evil.example")).toBe("/auth/login");
    expect(loginPath("//evil.example/profile")).toBe("/auth/login");
    expect(loginPath("/.//evil.example/x")).toBe("/auth/login");
  });
});
