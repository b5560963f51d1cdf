import { expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callLoader, dataOf } from "../../tests/setup/route";
import { loader } from "./home";

it("home lists products from the database", async () => {
  await getDb().insertInto("products").values({ id: "p1", name: "Oud Noir", slug: "oud-noir", price_cents: 45000, images: "[]" }).execute();
  const data = await dataOf(await callLoader(loader, "/"));
  expect(data.products.map((p: any) => p.name)).toEqual(["Oud Noir"]);
});
