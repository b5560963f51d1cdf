import { describe, expect, it } from "vitest";
import { connectionBudget } from "./connection-budget.server";
import { poolSizes } from "./db.server";

describe("PostgreSQL connections per app process (DATABASE_POOL_SIZE)", () => {
  it("splits a process's connections between the shop's queries and sign-in, at least one each", () => {
    expect(poolSizes(14)).toEqual({ shop: 10, auth: 4 });
    expect(poolSizes(2)).toEqual({ shop: 1, auth: 1 });
    expect(poolSizes(5)).toEqual({ shop: 3, auth: 2 });
    for (let n = 2; n <= 200; n++) {
      const { shop, auth } = poolSizes(n);
      expect(shop + auth).toBe(n);
      expect(Math.min(shop, auth)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe("the connection budget said at start", () => {
  it("is information when two servers like this one would still fit (2 cores × 14 of 100)", () => {
    const budget = connectionBudget(2, 14, 100);
    expect(budget.level).toBe("info");
    expect(budget.message).toContain("may open 28 connections (2 processes × DATABASE_POOL_SIZE 14) of max_connections 100");
  });

  it("warns when a second server like this one would not fit (4 cores × 14 of 100)", () => {
    const budget = connectionBudget(4, 14, 100);
    expect(budget.level).toBe("warn");
    expect(budget.message).toContain("a second server like this one");
  });

  it("is an error when this server alone can pass the limit, superuser reserve included (8 cores × 14 of 100)", () => {
    expect(connectionBudget(8, 14, 100).level).toBe("error");
    expect(connectionBudget(1, 97, 100).level).toBe("warn"); // 97 usable: fits, alone
    expect(connectionBudget(1, 98, 100).level).toBe("error");
    expect(connectionBudget(8, 14, 100).message).toContain("Lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise max_connections");
  });
});
