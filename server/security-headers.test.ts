import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./security-headers";

describe("Content-Security-Policy", () => {
  const csp = contentSecurityPolicy("abc123", { https: false });
  const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `));

  it("runs scripts only from this origin or with this response's nonce, never inline or eval", () => {
    expect(directive("script-src")).toBe("script-src 'self' 'nonce-abc123'");
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(csp).not.toContain("unsafe-eval");
  });

  it("forbids framing, plugins and foreign form targets", () => {
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("form-action")).toBe("form-action 'self'");
  });

  it("lets forms redirect to the payment provider when one is configured", () => {
    const yoco = contentSecurityPolicy("n", { https: true, formActionOrigins: ["https://*.yoco.com"] });
    expect(yoco).toContain("form-action 'self' https://*.yoco.com");
    expect(yoco).toContain("upgrade-insecure-requests");
  });
});
