import { openDatabase } from "../../app/db/db.server";
import { addSize, insertProduct } from "../factories/catalog";
import { signInAsAdmin } from "./helpers/auth";
import { e2eDataDir, expect, test } from "./helpers/test";

/**
 * A link to a size shared before the owner renamed it (docs/decisions/050 addendum), in Chromium against the
 * production build: a shopper opens ?size=50ml (the visitor page cache keeps that copy), the owner renames "50 ml" to
 * "50 ml EDP" at a new price on the product form, and the same link then lands on the renamed size at its new price,
 * the address saying its current code, not on the first size.
 */
const stamp = Date.now().toString(36);
const name = `Renamed Sizes ${stamp}`;
const slug = `renamed-sizes-${stamp}`;
let productId = "";

test.beforeAll(async ({ shopURL }) => {
  const handle = openDatabase(`${e2eDataDir(Number(new URL(shopURL).port))}/shop.db`, 1);
  try {
    // in a demo category (the product form asks for one); 100 ml first, so that a link the shop no longer understood
    // would show the wrong bottle at the wrong price
    const category = await handle.db.selectFrom("categories").select("id").orderBy("name").executeTakeFirstOrThrow();
    const product = await insertProduct(handle.db, { name, slug, price_cents: 75000, size_ml: 100, stock: 4, category_id: category.id });
    productId = product.id;
    await addSize(handle.db, product.id, { label: "50 ml", size_ml: 50, price_cents: 45000, stock: 9, position: 1 });
  } finally {
    await handle.close();
  }
});

test("an old shared link to a renamed size opens that size at its price, under its new code", async ({ page, browser, baseURL }) => {
  const visitor = await browser.newContext({ baseURL });
  const shopper = await visitor.newPage();
  const price = shopper.getByTestId("product-price");
  const sharedLink = `/products/${slug}?size=50ml`;
  await shopper.goto(sharedLink);
  await expect(price).toHaveText("R450.00");

  await signInAsAdmin(page);
  await page.goto(`/admin/products/edit/${productId}`);
  const sizes = page.getByRole("region", { name: "Sizes" });
  await sizes.getByLabel("Price (R) of 50 ml", { exact: true }).fill("460.00");
  await sizes.getByLabel("Size of 50 ml", { exact: true }).fill("50 ml EDP");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Product updated successfully!")).toBeVisible();

  // the same shared link, a moment later: the renamed size, its new price, and the address of its one copy
  await shopper.goto(sharedLink);
  await expect(shopper).toHaveURL(new RegExp(`/products/${slug}\\?size=50mledp$`));
  await expect(price).toHaveText("R460.00");
  await expect(shopper.getByRole("radio", { name: /^50 ml EDP/ })).toBeChecked();

  // Add to Cart buys that bottle
  await shopper.getByRole("button", { name: "Add to Cart" }).click();
  await expect(shopper.getByRole("status").filter({ hasText: `Added 1 × ${name} (50 ml EDP) to your cart.` })).toBeVisible();
  await visitor.close();
});
