/**
 * Sizes as the owner manages them (issue 33, docs/decisions/051), in Chromium against the production build: a
 * one-size product gains a 100 ml size through "Add another size", the admin list and the shop's card then price it
 * "from" its cheapest size; without JavaScript the sizes table still reorders with its ↑/↓ buttons. The form is looked
 * at on a desktop and a phone, never wider than the screen.
 */
import { expect, test, type Page } from "./helpers/test";
import { signInAsAdmin } from "./helpers/auth";
import { screenshot } from "./helpers/screenshot";
import { seriousViolations } from "./helpers/shop";

const stamp = Date.now().toString(36);

async function noWiderThanScreen(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

test("the owner adds a 100 ml size to a one-size product; the admin list and the shop's card say 'from' its cheapest size", async ({ page, browser, baseURL }) => {
  test.slow();
  const name = `Amber Sizes ${stamp}`;
  await signInAsAdmin(page);
  await page.goto("/admin/products/add");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Price (rand, VAT included)").fill("450.00");
  await page.getByLabel("Category", { exact: true }).selectOption({ label: "Unisex" });
  await page.getByLabel("Bottle size (ml)").fill("50");
  await page.getByLabel("Stock (bottles)").fill("6");
  await page.getByLabel("SKU (optional)").fill(`AMB-${stamp}-50`);
  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page.getByText("Product created successfully!")).toBeVisible();

  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  // The one-size form's price, stock and SKU become the table's first row, and a new row follows, its label focused.
  await page.getByRole("link", { name: "+ Add another size" }).click();
  const sizes = page.getByRole("region", { name: "Sizes" });
  await expect(sizes.getByLabel("Size of 50 ml", { exact: true })).toHaveValue("50 ml");
  await expect(sizes.getByLabel("Price (R) of 50 ml", { exact: true })).toHaveValue("450.00");
  await expect(sizes.getByLabel("SKU of 50 ml", { exact: true })).toHaveValue(`AMB-${stamp}-50`);
  await expect(sizes.getByLabel("Size of the new size", { exact: true })).toBeFocused();
  await page.keyboard.type("100 ml");
  await sizes.getByLabel("Price (R) of 100 ml", { exact: true }).fill("720.00");
  await sizes.getByLabel("Was price (R) of 100 ml", { exact: true }).fill("800.00");
  await sizes.getByLabel("SKU of 100 ml", { exact: true }).fill(`AMB-${stamp}-100`);
  await sizes.getByLabel("Stock of 100 ml", { exact: true }).fill("4");
  await page.setViewportSize({ width: 1280, height: 900 });
  await noWiderThanScreen(page);
  await screenshot(page, { path: "test-results/admin-sizes-1280.jpg", fullPage: true, type: "jpeg", quality: 80 });
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Product updated successfully!")).toBeVisible();

  // The owner's list prices it from the cheapest size and says it has two.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("from R450.00");
  await expect(row).toContainText("2 sizes");

  // On a phone the table is a card per size, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("region", { name: "Sizes" }).getByLabel("Price (R) of 100 ml", { exact: true })).toHaveValue("720.00");
  await noWiderThanScreen(page);
  await screenshot(page, { path: "test-results/admin-sizes-390.jpg", fullPage: true, type: "jpeg", quality: 80 });
  expect(await seriousViolations(page)).toEqual([]);

  // A visitor's card (the page cache dropped its copies when the product was saved).
  const visitor = await browser.newContext({ baseURL });
  const shopper = await visitor.newPage();
  await shopper.goto(`/shop?q=${encodeURIComponent(name)}`);
  const card = shopper.getByRole("main").getByRole("listitem").filter({ hasText: name });
  await expect(card).toContainText(/from\s*R450\.00/i);
  await visitor.close();
});

test("without JavaScript the sizes table reorders with its ↑/↓ buttons (each a save)", async ({ browser, baseURL, page }) => {
  const admin = await signInAsAdmin(page);
  expect(admin.email).toBeTruthy();
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies(await page.context().cookies());
  const plain = await context.newPage();
  // A demo product with sizes: Rose Parlour (100 ml, 50 ml, 30 ml).
  await plain.goto("/admin/products?q=Rose+Parlour");
  await plain.getByRole("link", { name: "Edit Rose Parlour" }).click();
  const sizes = plain.getByRole("region", { name: "Sizes" });
  const labels = () => sizes.getByLabel(/^Size of /).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  // the form's page, once the link's navigation has arrived (evaluateAll doesn't wait for it)
  await expect(sizes.getByLabel(/^Size of /)).toHaveCount(3);
  expect(await labels()).toEqual(["100 ml", "50 ml", "30 ml"]);
  await sizes.getByRole("button", { name: "Move 30 ml up" }).click();
  await expect(plain.getByText("Product updated successfully!")).toBeVisible();
  // polled: each save is a new document, and the message of the one before is on screen while it arrives
  await expect.poll(labels).toEqual(["100 ml", "30 ml", "50 ml"]);
  await plain.getByRole("region", { name: "Sizes" }).getByRole("button", { name: "Move 30 ml down" }).click();
  await expect.poll(labels).toEqual(["100 ml", "50 ml", "30 ml"]);
  await expect(plain.getByText("Product updated successfully!")).toBeVisible();
  await context.close();
});
