import { describe, expect, it } from "vitest";
import { isPostgresUrl, parseEnv } from "./env.server";

describe("configuration", () => {
  it("runs with nothing set: SQLite, port 3000, simulated payments, R599 free delivery", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("data/shop.db");
    expect(env.PAYMENT_PROVIDER).toBe("simulated");
    expect(env.FREE_DELIVERY_THRESHOLD_CENTS).toBe(59900);
    expect(env.ADMIN_EMAILS).toEqual([]);
  });

  it("reads admin e-mails as a trimmed, lower-cased list", () => {
    expect(parseEnv({ ADMIN_EMAILS: " Owner@Shop.co.za, staff@shop.co.za ,," }).ADMIN_EMAILS).toEqual(["owner@shop.co.za", "staff@shop.co.za"]);
  });

  it.each([
    [{ PORT: "70000" }, /PORT/],
    [{ PUBLIC_BASE_URL: "not a url" }, /PUBLIC_BASE_URL/],
    [{ ADMIN_EMAILS: "not-an-email" }, /ADMIN_EMAILS/],
    [{ WHATSAPP_NUMBER: "+27 82 123" }, /WHATSAPP_NUMBER/],
    [{ PAYMENT_PROVIDER: "yoco" }, /YOCO_SECRET_KEY/],
    [{ NODE_ENV: "production" }, /AUTH_SECRET/],
  ])("refuses to start with %j, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });

  it("tells PostgreSQL URLs from SQLite paths", () => {
    expect(isPostgresUrl("postgres://u@h/db")).toBe(true);
    expect(isPostgresUrl("postgresql://u@h/db")).toBe(true);
    expect(isPostgresUrl("data/shop.db")).toBe(false);
  });
});
