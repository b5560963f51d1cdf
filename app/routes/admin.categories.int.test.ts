import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { CATEGORY_MESSAGES } from "~/modules/catalog/catalog-admin.schema";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertCategory, insertProduct } from "../../tests/factories/catalog";
import * as route from "./admin.categories";

const db = () => getDb();
let cookie = "";
const changes: string[] = [];

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
  onStorefrontChange((reason) => changes.push(reason));
});

const post = (form: Record<string, string>) => callAction(route.action, "/admin/categories", form, { headers: { cookie } });

describe("admin categories", () => {
  it("adds a category with the spec's slug (lower case, spaces to '-') and tells the storefront", async () => {
    const before = changes.length;
    const result = await post({ intent: "add", name: "  Summer  Evenings " });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: 'Category "Summer Evenings" added' });
    const row = await db().selectFrom("categories").selectAll().where("name", "=", "Summer Evenings").executeTakeFirstOrThrow();
    expect(row.slug).toBe("summer-evenings");
    expect(changes.length).toBe(before + 1);
    const page = await dataOf(await callLoader(route.loader, "/admin/categories", { headers: { cookie } }));
    expect(page.categories.map((c: { name: string }) => c.name)).toContain("Summer Evenings");
  });

  it.each([
    [{ name: "" }, CATEGORY_MESSAGES.nameRequired],
    [{ name: "   " }, CATEGORY_MESSAGES.nameRequired],
    [{}, CATEGORY_MESSAGES.nameRequired],
  ])("refuses %j with %j and adds nothing", async (fields, message) => {
    const count = async () => (await db().selectFrom("categories").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;
    const before = Number(await count());
    const result = await post({ intent: "add", ...fields } as Record<string, string>);
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(message);
    expect(Number(await count())).toBe(before);
  });

  it("refuses a duplicate name, whatever its case", async () => {
    await insertCategory(db(), { name: "For Her", slug: "for-her" });
    const result = await post({ intent: "add", name: "for her" });
    expect(statusOf(result)).toBe(409);
    expect((await dataOf(result)).error).toBe(CATEGORY_MESSAGES.duplicate);
  });

  it("deletes a category; its products stay in the shop, uncategorised, and the answer says how many", async () => {
    const category = await insertCategory(db(), { name: "Retired" });
    const kept = await insertProduct(db(), { category_id: category.id });
    await insertProduct(db(), { category_id: category.id });
    const result = await post({ intent: "delete", id: category.id });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: 'Category "Retired" deleted; 2 products are now uncategorised' });
    expect(await db().selectFrom("categories").select("id").where("id", "=", category.id).executeTakeFirst()).toBeUndefined();
    const product = await db().selectFrom("products").select(["id", "category_id"]).where("id", "=", kept.id).executeTakeFirstOrThrow();
    expect(product.category_id).toBeNull();
  });

  it("answers a category that no longer exists with 404 and changes nothing", async () => {
    const result = await post({ intent: "delete", id: "no-such-category" });
    expect(statusOf(result)).toBe(404);
  });
});
