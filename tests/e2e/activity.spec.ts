/**
 * Who changed what (issue 38 point 3, docs/decisions/060), in Chromium against the production build: the owner changes
 * a product's price and stock; Admin → Activity lists the change with its fields before and after, filtered by the
 * GET form; the product's page shows its own history. Both looked at on a desktop and two phones, never wider than
 * the screen.
 */
import { expect, test, type Page } from "./helpers/test";
import { signInAsAdmin } from "./helpers/auth";
import { screenshot } from "./helpers/screenshot";
import { seriousViolations } from "./helpers/shop";

async function noWiderThanScreen(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

test("a price and stock change is in Activity with its before and after, and in the product's own history", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page);
  await page.goto("/admin/products");
  await page.getByRole("link", { name: /^Edit / }).first().click();
  await expect(page.getByRole("heading", { name: "Edit Product", level: 1 })).toBeVisible();
  const name = (await page.getByRole("main").locator("header p").last().innerText()).trim();
  // the demo's products come in sizes: the last size's price and stock
  const sizes = page.getByRole("region", { name: "Sizes" });
  await sizes.getByLabel(/^Price \(R\) of /).last().fill("512.00");
  await sizes.getByLabel(/^Stock of /).last().fill("9");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Product updated successfully!")).toBeVisible();

  await page.goto("/admin/activity");
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `Product ${name}:` }).first()).toContainText("product.saveSizes");
  // the filter form is a GET form: the URL holds the filters
  await page.getByRole("combobox", { name: "Kind" }).selectOption("product.saveSizes");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/kind=product\.saveSizes/);
  await expect(page.getByRole("row").filter({ hasText: `Product ${name}:` }).first()).toBeVisible();
  // its changes, under it: the size's price and stock before and after
  await page.getByText(/^Changes/).first().click();
  const changes = page.getByRole("table", { name: /^Changes of entry/ }).first();
  await expect(changes.getByRole("row").filter({ hasText: /^price/ }).first()).toContainText("R512.00");
  await expect(changes.getByRole("row").filter({ hasText: /sizes › .* › stock/ }).first()).toContainText("9");
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 800 });
    await noWiderThanScreen(page);
    await screenshot(page, { path: `test-results/admin-activity-${width}.jpg`, fullPage: true, type: "jpeg", quality: 80 });
  }
  expect(await seriousViolations(page)).toEqual([]);

  // the record's link leads to its page, which shows its own history
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("link", { name: /^Product / }).first().click();
  const history = page.getByRole("region", { name: "History" });
  await expect(history).toContainText(`Product ${name}: save sizes`);
  await history.getByText(/fields? changed/).first().click();
  await expect(history.getByRole("table").first()).toContainText("R512.00");
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 800 });
    await noWiderThanScreen(page);
    await history.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `test-results/admin-product-history-${width}.jpg`, type: "jpeg", quality: 80 });
  }
  expect(await seriousViolations(page)).toEqual([]);
});
