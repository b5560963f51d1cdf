/**
 * A signed-in shopper's cart kept on the server (issue 34 points 2 and 5), on SQLite and PostgreSQL, through POST
 * /api/cart as the browser calls it: the merge at sign-in keeps every item of both carts (a product in a size in both
 * at the larger quantity), so device B shows device A's items; a browser that saw the latest version replaces (its
 * removals stick); prices sent are never kept; a visitor's cart is not stored.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as route from "~/routes/api.cart";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { insertProduct } from "../../../tests/factories/catalog";

const db = () => getDb();

interface Answer {
  owner: string;
  version: number;
  lines: Array<{ id: string; size?: string; sizeLabel?: string; name: string; price: number; quantity: number }>;
}

async function sync(cookie: string | null, lines: unknown[], state: { owner: string; version: number } | null = null) {
  const result = await callAction(
    route.action,
    "/api/cart",
    { lines: JSON.stringify(lines), baseVersion: state ? String(state.version) : "", owner: state?.owner ?? "" },
    { headers: cookie ? { cookie } : {} },
  );
  return { status: statusOf(result), data: (await dataOf(result)) as Answer };
}

const brief = (a: Answer) => a.lines.map((l) => `${l.name}${l.sizeLabel ? ` (${l.sizeLabel})` : ""} ×${l.quantity}`);

describe("the cart kept on the server", () => {
  it("signing in on a second device merges: every item of both, the larger quantity of the same product and size", async () => {
    const user = await createUser(db());
    const rose = await insertProduct(db(), { name: "Velvet Rose", price_cents: 45000 });
    const amber = await insertProduct(db(), { name: "Amber Lantern", price_cents: 52000 });
    const oud = await insertProduct(db(), { name: "Oud Noir", price_cents: 61000 });
    await db().updateTable("product_sizes").set({ label: "50 ml" }).where("id", "=", rose.id).execute();

    // device A: signed in, its cart saved (its first sync is its sign-in merge, with nothing on the server yet)
    const a = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, sizeId: rose.id, quantity: 1 },
      { productId: amber.id, quantity: 2 },
    ]);
    expect(a.status).toBe(200);
    expect(brief(a.data)).toEqual(["Velvet Rose (50 ml) ×1", "Amber Lantern ×2"]);

    // device B had a visitor's cart; signing in merges it with A's
    const b = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, sizeId: rose.id, quantity: 3 },
      { productId: oud.id, quantity: 1 },
    ]);
    expect(brief(b.data).sort()).toEqual(["Amber Lantern ×2", "Oud Noir ×1", "Velvet Rose (50 ml) ×3"]);
    expect(b.data.version).toBe(a.data.version + 1);

    // B removes Oud Noir, having seen the latest version: the removal sticks
    const cookie = await sessionCookieFor(db(), user.id);
    const removed = await sync(cookie, [{ productId: rose.id, sizeId: rose.id, quantity: 3 }, { productId: amber.id, quantity: 2 }], b.data);
    expect(brief(removed.data)).toEqual(["Velvet Rose (50 ml) ×3", "Amber Lantern ×2"]);

    // A, still on its old version, adds Oud Noir again: merged, nothing of B's lost
    const stale = await sync(cookie, [{ productId: rose.id, sizeId: rose.id, quantity: 1 }, { productId: amber.id, quantity: 2 }, { productId: oud.id, quantity: 1 }], a.data);
    expect(brief(stale.data).sort()).toEqual(["Amber Lantern ×2", "Oud Noir ×1", "Velvet Rose (50 ml) ×3"]);
  });

  it("names and prices come from the database; unknown products and sizes of another product are dropped", async () => {
    const user = await createUser(db());
    const rose = await insertProduct(db(), { name: "Velvet Rose", price_cents: 45000 });
    const other = await insertProduct(db());
    const answer = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, quantity: 1, price: 1, name: "Free perfume" },
      { productId: "no-such-product", quantity: 1 },
      { productId: rose.id, sizeId: other.id, quantity: 1 },
    ]);
    expect(answer.data.lines).toEqual([{ id: rose.id, name: "Velvet Rose", price: 45000, quantity: 1 }]);
    const stored = await db().selectFrom("saved_carts").select("lines").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(stored.lines).toEqual([{ productId: rose.id, quantity: 1 }]);
  });

  it("a visitor's cart stays in their browser (401, nothing stored); bad input changes nothing", async () => {
    const product = await insertProduct(db());
    const before = await db().selectFrom("saved_carts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect((await sync(null, [{ productId: product.id, quantity: 1 }])).status).toBe(401);
    const user = await createUser(db());
    expect((await sync(await sessionCookieFor(db(), user.id), [{ productId: product.id, quantity: 0 }])).status).toBe(400);
    const after = await db().selectFrom("saved_carts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
