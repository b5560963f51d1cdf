import { openDatabase } from "../../app/db/db.server";
import { imagesOf } from "../../app/modules/catalog/catalog.server";
import { addSize, insertProduct, insertTier } from "../factories/catalog";
import { screenshot } from "./helpers/screenshot";
import { seriousViolations } from "./helpers/shop";
import { e2eDataDir, expect, test, type Page } from "./helpers/test";

/**
 * Sizes as the shopper sees them (issue 33): a scent in 50 ml and 100 ml, chosen on its page with JavaScript (the
 * price follows at once and the URL keeps the size) and without it (the size choice is a GET form), into the cart.
 * The product is this spec's own, written into the worker shop's database as the admin form would leave it, so the
 * demo catalogue can change without changing what is tested here.
 */
const stamp = Date.now().toString(36);
const name = `Velvet Sizes ${stamp}`;
const slug = `velvet-sizes-${stamp}`;

test.beforeAll(async ({ shopURL }) => {
  const handle = openDatabase(`${e2eDataDir(Number(new URL(shopURL).port))}/shop.db`, 1);
  try {
    const db = handle.db;
    // dressed like a demo scent (its photographs and category), so the screenshots show the real page
    const demo = (await db.selectFrom("products").select(["images", "category_id"]).orderBy("created_at").execute())
      .map((p) => ({ ...p, images: imagesOf(p.images) }))
      .find((p) => p.images.length > 0)!;
    const product = await insertProduct(db, {
      name,
      slug,
      description: "Damask rose folded into warm amber and a trace of smoked vanilla.\n\nTop notes: pink pepper, bergamot\nHeart notes: damask rose\nBase notes: amber, vanilla",
      price_cents: 45000,
      size_ml: 50,
      stock: 12,
      images: demo.images,
      category_id: demo.category_id,
    });
    // 100 ml on sale (was R850) with 2 left; a bulk price for 6 or more of the 50 ml only
    await addSize(db, product.id, { label: "100 ml", size_ml: 100, price_cents: 75000, was_price_cents: 85000, stock: 2, position: 1 });
    await insertTier(db, product.id, { min_quantity: 6, price_cents: 40000 });
  } finally {
    await handle.close();
  }
});

const price = (page: Page) => page.getByTestId("product-price");
const pill = (page: Page, label: string) => page.getByRole("radio", { name: new RegExp(`^${label}`) });
/** Taps a size's pill (its radio is visually hidden inside it) */
const tapSize = (page: Page, label: string) => page.getByTestId("size-choice").getByText(label, { exact: true }).click();

async function noWiderThanTheScreen(page: Page) {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

for (const width of [360, 390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 640 ? 780 : 800 } });

    test("choosing 100 ml changes the price and the URL, the cart gets 100 ml at its price, and the shared link opens it", async ({ page }) => {
      await page.goto(`/products/${slug}`);
      await expect(price(page)).toHaveText("R450.00");
      await expect(pill(page, "50 ml")).toBeChecked();
      await expect(page.getByRole("heading", { name: "Bulk pricing" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled(); // the page's script is running
      await expect(page.getByRole("button", { name: "Show this size" })).toBeHidden();

      await tapSize(page, "100 ml");
      await expect(price(page)).toHaveText("Was R850.00 now R750.00");
      await expect(page).toHaveURL(new RegExp(`/products/${slug}\\?size=100ml$`));
      await expect(page.getByRole("heading", { name: "Bulk pricing" })).toHaveCount(0); // the 50 ml's tier only
      await expect(pill(page, "100 ml")).toBeChecked();
      await expect(page.getByTestId("stock-status")).toHaveText("Only 2 left");
      // only the bottles this size has
      await expect(page.getByLabel("Quantity").locator("option")).toHaveText(["1", "2"]);
      await noWiderThanTheScreen(page);
      await screenshot(page, { path: `test-results/sizes-product-${width}.jpg`, animations: "disabled" });
      await screenshot(page, { path: `test-results/sizes-product-${width}-full.jpg`, fullPage: true, animations: "disabled" });

      await page.getByRole("button", { name: "Add to Cart" }).click();
      await expect(page.getByRole("status").filter({ hasText: `Added 1 × ${name} (100 ml) to your cart.` })).toBeVisible();

      await page.goto("/cart");
      const line = page.getByRole("listitem").filter({ hasText: name });
      await expect(line.getByTestId("line-size")).toHaveText("100 ml");
      await expect(line.getByTestId("unit-price")).toHaveText("Was R850.00 now R750.00 each");

      // the link the shopper shares opens in 100 ml, rendered so by the server
      await page.goto(`/products/${slug}?size=100ml`);
      await expect(price(page)).toHaveText("Was R850.00 now R750.00");
      await expect(pill(page, "100 ml")).toBeChecked();
      await page.reload();
      await expect(price(page)).toHaveText("Was R850.00 now R750.00");
    });
  });
}

test("the size choice is reached and changed with the keyboard, with a visible focus ring", async ({ page }) => {
  await page.goto(`/products/${slug}`);
  await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled();
  await pill(page, "50 ml").focus();
  await page.keyboard.press("ArrowRight");
  await expect(pill(page, "100 ml")).toBeChecked();
  await expect(pill(page, "100 ml")).toBeFocused();
  await expect(price(page)).toHaveText("Was R850.00 now R750.00");
  await expect(page).toHaveURL(/\?size=100ml$/);
  // the ring is drawn on the pill beside the (visually hidden) radio
  const ring = await pill(page, "100 ml").evaluate((radio) => getComputedStyle(radio.nextElementSibling!).outlineStyle);
  expect(ring).toBe("solid");
  expect(await seriousViolations(page)).toEqual([]);
});

test("without JavaScript the size is chosen through the form", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/products/${slug}`);
  await expect(price(page)).toHaveText("R450.00");
  await tapSize(page, "100 ml");
  await page.getByRole("button", { name: "Show this size" }).click();
  await expect(page).toHaveURL(new RegExp(`/products/${slug}\\?size=100ml$`));
  await expect(price(page)).toHaveText("Was R850.00 now R750.00");
  await expect(pill(page, "100 ml")).toBeChecked();
  await expect(page.getByTestId("stock-status")).toHaveText("Only 2 left");
  await noWiderThanTheScreen(page);
  await screenshot(page, { path: "test-results/sizes-product-390-no-js.jpg", fullPage: false });
  await context.close();
});

test("the shop's card says 'from' the cheapest size", async ({ page }) => {
  await page.goto(`/shop?q=${encodeURIComponent(name)}`);
  const card = page.getByRole("main").getByRole("listitem").filter({ hasText: name });
  await expect(card).toContainText("from R450.00");
});
