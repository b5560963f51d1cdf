import { sql } from "kysely";
import { expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callLoader, statusOf } from "../../tests/setup/route";
import { insertProduct } from "../../tests/factories/catalog";
import { loader } from "./shop";

// Each integration file has its own database, so breaking tables here touches nothing else.

async function messageOf(result: unknown) {
  const thrown = result as { type?: string; data?: { message?: string }; init?: { status?: number } };
  return thrown.data?.message;
}

it("a failing products query: 500 with 'Failed to load products: …' (no database detail)", async () => {
  await insertProduct(getDb());
  await sql`alter table products rename column price_cents to price_gone`.execute(getDb());
  const result = await callLoader(loader, "/shop").catch((e) => e);
  expect(statusOf(result)).toBe(500);
  const message = await messageOf(result);
  expect(message).toMatch(/^Failed to load products: /);
  expect(message).not.toMatch(/price|column|sql/i);
  await sql`alter table products rename column price_gone to price_cents`.execute(getDb());
});

it("a failing categories query: 500 with 'Failed to load categories: …'", async () => {
  await sql`alter table categories rename column name to name_gone`.execute(getDb());
  const result = await callLoader(loader, "/shop").catch((e) => e);
  expect(statusOf(result)).toBe(500);
  expect(await messageOf(result)).toMatch(/^Failed to load categories: /);
});
