/**
 * Issue 32 in Chromium against the production build: the owner uploads WooCommerce's own sample data set
 * (tests/fixtures/woocommerce/, unchanged), sees the preview say the weights were in pounds and list the images that
 * can't be fetched (their host doesn't resolve here), imports, and a product on sale shows its was price struck
 * through on the shop's card, the product page and in the cart. On a shop of its own: it adds fourteen products.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from "./helpers/test";
import { screenshot } from "./helpers/screenshot";
import { addFromProductPage, seriousViolations } from "./helpers/shop";
import { startOwnShop, type OwnShop } from "./helpers/shop-server";

const SAMPLE = "tests/fixtures/woocommerce/sample_products.csv";
const WIDTHS = [1280, 390, 360] as const;

let own: OwnShop;
let admin: Awaited<ReturnType<BrowserContext["storageState"]>>;

test.beforeAll(async ({ browser }) => {
  own = await startOwnShop(browser);
  admin = own.adminState;
});

test.afterAll(async () => {
  await own?.close();
});

async function contextFor(browser: Browser, signedIn: boolean) {
  const context = await browser.newContext({ baseURL: own.baseURL, ...(signedIn ? { storageState: admin } : {}) });
  return { page: await context.newPage(), close: () => context.close() };
}

/** Nothing wider than the screen. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Is the element drawn struck through? */
const struck = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => getComputedStyle(el).textDecorationLine.includes("line-through"));

test("a WooCommerce sample export previews with its units and failed images, imports, and a sale shows its was price everywhere", async ({ browser }) => {
  test.slow(); // an own shop, an import, screenshots at three widths
  const { page, close } = await contextFor(browser, true);
  await page.goto("/admin/products/import");
  await page.locator("#import-file").setInputFiles(SAMPLE);
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page).toHaveURL(/\/admin\/products\/import\?id=/);

  // the preview: what it makes, the unit note once, every image that can't be fetched with its row and reason
  await expect(page.getByText("sample_products.csv: a WooCommerce product export")).toBeVisible();
  await expect(page.getByText('Weights are in pounds (lbs) in this file ("Weight (lbs)"): converted to grams.')).toHaveCount(1);
  const failures = page.getByRole("region", { name: /Images that can.t be fetched \(14\)/ });
  await expect(failures).toBeVisible();
  await expect(failures.getByRole("listitem").filter({ hasText: "Beanie" }).first()).toContainText("Row 6");
  await expect(failures.getByRole("listitem").filter({ hasText: "beanie-2.jpg" })).toContainText("the host could not be found");
  expect(await seriousViolations(page)).toEqual([]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await overflow(page), `the import preview at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `test-results/screenshots/woo-import-preview-${width}.jpg`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Import 14 products" }).click();
  await expect(page.getByText("Imported: 14 created, 0 updated, 0 unchanged, 11 skipped; 14 images could not be fetched")).toBeVisible();
  await expect(page.getByRole("button", { name: "Fetch the missing images again" })).toBeVisible();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await overflow(page), `the import result at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `test-results/screenshots/woo-import-result-${width}.jpg`, fullPage: true });
  }
  // later: the host still doesn't answer, so the images keep waiting, each with its reason
  await page.getByRole("button", { name: "Fetch the missing images again" }).click();
  await expect(page.getByText("0 images fetched; 14 still can't be fetched (the reasons are below)")).toBeVisible();
  await close();

  // a shopper: the Beanie is on sale (R18.00, was R20.00)
  const shopper = await contextFor(browser, false);
  const visitor = shopper.page;
  await visitor.goto("/shop?q=Beanie");
  const card = visitor.getByRole("article").filter({ has: visitor.getByRole("link", { name: "Beanie", exact: true }) });
  await expect(card.getByTestId("was-price")).toHaveText("Was R20.00");
  await expect(card).toContainText("R18.00");
  expect(await card.getByTestId("was-price").evaluate((el) => el.tagName)).toBe("DEL");
  expect(await card.getByTestId("was-price").evaluate((el) => getComputedStyle(el).textDecorationLine)).toContain("line-through");
  for (const width of WIDTHS) {
    await visitor.setViewportSize({ width, height: 900 });
    expect(await overflow(visitor), `the shop at ${width} px`).toBeLessThanOrEqual(0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(visitor, { path: `test-results/screenshots/woo-card-was-price-${width}.jpg` });
  }
  await visitor.setViewportSize({ width: 1280, height: 900 });
  expect(await seriousViolations(visitor)).toEqual([]);

  await visitor.goto("/products/beanie");
  await expect(visitor.getByRole("heading", { level: 1, name: "Beanie" })).toBeVisible();
  const price = visitor.getByTestId("product-price");
  await expect(price.getByTestId("was-price")).toHaveText("Was R20.00");
  await expect(price).toContainText("R18.00");
  expect(await struck(visitor, "[data-testid=product-price] [data-testid=was-price]")).toBe(true);
  for (const width of WIDTHS) {
    await visitor.setViewportSize({ width, height: 900 });
    expect(await overflow(visitor), `the product page at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(visitor, { path: `test-results/screenshots/woo-product-was-price-${width}.jpg` });
  }
  await visitor.setViewportSize({ width: 1280, height: 900 });

  // a product not on sale shows its price alone
  await visitor.goto("/products/t-shirt");
  await expect(visitor.getByRole("heading", { level: 1, name: "T-Shirt" })).toBeVisible();
  await expect(visitor.getByTestId("product-price").getByTestId("was-price")).toHaveCount(0);

  await addFromProductPage(visitor, "beanie");
  await visitor.goto("/cart");
  const line = visitor.getByRole("listitem").filter({ has: visitor.getByRole("heading", { name: "Beanie" }) });
  await expect(line.getByTestId("was-price")).toHaveText("Was R20.00");
  await expect(line.getByTestId("unit-price")).toContainText("R18.00");
  expect(await struck(visitor, "[data-testid=unit-price] [data-testid=was-price]")).toBe(true);
  for (const width of WIDTHS) {
    await visitor.setViewportSize({ width, height: 900 });
    expect(await overflow(visitor), `the cart at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(visitor, { path: `test-results/screenshots/woo-cart-was-price-${width}.jpg` });
  }
  await shopper.close();
});
