import { describe, expect, it } from "vitest";
import { getDb, isPostgres } from "./db.server";
import { maxConnections } from "./connection-budget.server";

describe(`the database's connection limit (${isPostgres(getDb()) ? "PostgreSQL" : "SQLite"} here)`, () => {
  it("is read from PostgreSQL at start; SQLite has none", async () => {
    const max = await maxConnections(getDb());
    if (isPostgres(getDb())) {
      expect(max).toBeGreaterThan(0);
      expect(Number.isInteger(max)).toBe(true);
    } else expect(max).toBeNull();
  });
});
