/**
 * The owner's data (issue 20) in Chromium against the production build: products out and in as CSV (our export, a
 * WooCommerce export), the accountant's orders export against the dashboard's figure, and the dashboard's charts drawn
 * on the server. These journeys import thousands of products, so they run on a shop of their own (a fresh SQLite
 * database with the demo catalogue, from the same build), not on the shared E2E shop whose catalogue later journeys
 * count on.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { expect, test, type Browser, type BrowserContext, type Download, type Page } from "./helpers/test";
import { startOwnShop, type OwnShop } from "./helpers/shop-server";
import { addFromProductPage, fillAddress } from "./helpers/shop";

const FIXTURE = "tests/fixtures/woocommerce-products.csv";
const BOM = [0xef, 0xbb, 0xbf];
const OUR_HEADER_LINE =
  "SKU,Slug,Name,Category,Size,Size SKU,Price (ZAR),Was price (ZAR),Tier prices (ZAR),Stock,Size (ml),Weight (g),Inspired by (house),Inspired by (fragrance),Description,Images,Meta title,Meta description,Scent family,Top notes,Heart notes,Base notes,Intensity,Worn,Seasons,Made for";

let baseURL = "";
let admin: Awaited<ReturnType<BrowserContext["storageState"]>>;

let own: OwnShop;

test.beforeAll(async ({ browser }) => {
  own = await startOwnShop(browser);
  baseURL = own.baseURL;
  admin = own.adminState;
});

test.afterAll(async () => {
  await own?.close();
});

async function asAdmin(browser: Browser, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({ baseURL, storageState: admin, ...options });
  return { page: await context.newPage(), close: () => context.close() };
}

async function bytesOf(download: Download): Promise<Buffer> {
  return readFileSync((await download.path())!);
}

/** A stat card's figure ("New 4"): its label and value are the list item's text. */
const stat = (page: Page, label: string) => page.getByRole("listitem").filter({ has: page.getByText(label, { exact: true }) });

/** Uploads a file on the import page and waits for its preview. */
async function preview(page: Page, file: string | { name: string; buffer: Buffer }) {
  await page.goto("/admin/products/import");
  await page.locator("#import-file").setInputFiles(typeof file === "string" ? file : { ...file, mimeType: "text/csv" });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page).toHaveURL(/\/admin\/products\/import\?id=/);
}

/** Rand as the shop writes it ("R1 299.00", with ordinary or no-break spaces) → cents. */
const cents = (text: string) => Math.round(Number(text.replace(/[R\s\u00a0]/g, "")) * 100);

/** Today as a South African day (UTC+2, no daylight saving). */
const todayInSouthAfrica = () => new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);

test("products out and in: the export opens in a spreadsheet, a WooCommerce export previews and applies, a second import changes nothing", async ({ browser }) => {
  const { page, close } = await asAdmin(browser);

  // Export: UTF-8 with a byte-order mark, our header, every product.
  await page.goto("/admin/products");
  const exported = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await bytesOf(await exported);
  expect([...file.subarray(0, 3)]).toEqual(BOM);
  const text = file.subarray(3).toString("utf8");
  expect(text.split("\r\n")[0]).toBe(OUR_HEADER_LINE);
  expect(text).toContain("amber-lantern");

  // The WooCommerce export as it is: what it makes, what it skips, the columns that mean nothing here.
  await preview(page, FIXTURE);
  await expect(page.getByText("woocommerce-products.csv: a WooCommerce product export")).toBeVisible();
  // the variable Oud Collection's row and its two size variations' rows make one product in two sizes
  await expect(stat(page, "New")).toHaveText(/^New\s*7$/);
  await expect(stat(page, "Skipped")).toHaveText(/^Skipped\s*2$/);
  await expect(stat(page, "Errors")).toHaveText(/^Errors\s*0$/);
  await expect(page.getByText(/ignored columns/)).toBeVisible();
  await expect(page.getByText(/Tax status, Tax class/)).toBeVisible();
  // the file's image host is made up: the preview says so (the products would come in without those images)
  await expect(page.getByRole("region", { name: /Images that can.t be fetched \(2\)/ })).toContainText("the host could not be found");
  const rows = page.getByRole("table", { name: "Rows of the file and what the import does with each" });
  await expect(rows.getByRole("row").filter({ hasText: "Velvet Rose" })).toContainText("New");
  await expect(rows.getByRole("row").filter({ hasText: "Oud Collection - 30ml" })).toContainText("Size 30 ml");
  await expect(rows.getByRole("row").filter({ hasText: "Oud Collection - 30ml" })).toContainText("New");
  await expect(rows.getByRole("row").filter({ hasText: "Oud Collection" }).first()).toContainText("2 sizes: 30 ml, 100 ml");
  await expect(rows.getByRole("row").filter({ hasText: "Amber Nights" })).toContainText("A draft in WooCommerce");

  // Applied — without its image addresses, which this machine can't reach (the fetch has tests of its own).
  const woo = readFileSync(FIXTURE, "utf8").replace(/"https:\/\/shop\.example\.co\.za[^"]*"/, "");
  await preview(page, { name: "woocommerce-no-images.csv", buffer: Buffer.from(woo) });
  await page.getByRole("button", { name: "Import 5 products" }).click();
  await expect(page.getByText("Imported: 7 created, 0 updated, 0 unchanged, 2 skipped")).toBeVisible();

  // In the shop at once, as the file says.
  const shopper = await browser.newContext({ baseURL });
  const visitor = await shopper.newPage();
  await visitor.goto("/products/velvet-rose");
  await expect(visitor.getByRole("heading", { level: 1, name: "Velvet Rose" })).toBeVisible();
  await expect(visitor.getByText("R649.00").first()).toBeVisible();
  await visitor.goto("/products/cedar-smoke");
  await expect(visitor.getByRole("heading", { level: 1, name: "Cedar & Smoke" })).toBeVisible();
  // on sale in the file: the sale price, the regular price struck through as the was price
  await expect(visitor.getByText("R899.00").first()).toBeVisible();
  await expect(visitor.getByTestId("product-price").getByTestId("was-price")).toHaveText("Was R1 299.00");
  await shopper.close();

  // The same file again: every row unchanged, nothing to apply.
  await preview(page, { name: "woocommerce-no-images.csv", buffer: Buffer.from(woo) });
  await expect(stat(page, "Unchanged")).toHaveText(/^Unchanged\s*7$/);
  await expect(stat(page, "New")).toHaveText(/^New\s*0$/);
  await expect(page.getByText("Nothing to import: every row is unchanged or skipped")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Import \d/ })).toHaveCount(0);

  // Edited: a new price is an update; a price that isn't one is an error with its row and column, and blocks the apply.
  const edited = woo.replace(",649,", ",699,").replace('"1 299,00"', '"about R1300"');
  await preview(page, { name: "woocommerce-edited.csv", buffer: Buffer.from(edited) });
  await expect(stat(page, "Updated")).toHaveText(/^Updated\s*1$/);
  await expect(stat(page, "Errors")).toHaveText(/^Errors\s*1$/);
  await expect(rows.getByRole("row").filter({ hasText: "Velvet Rose" })).toContainText("Changes: Regular price");
  const bad = rows.getByRole("row").filter({ hasText: "Cedar & Smoke" });
  await expect(bad).toContainText(/^3/);
  await expect(bad).toContainText('Regular price: "about R1300" isn\'t an amount in rand');
  // beside a good row, the owner may import the good one now and fix the other later
  await expect(page.getByText(/1 row has errors \(below\)\. Fix them in the file and upload it again, or import the 1 good row now/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Import \d/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Import the 1 good row" })).toBeVisible();
  const rowsWithErrors = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the 1 row with errors (CSV)" }).click();
  const fixable = parse((await bytesOf(await rowsWithErrors)).subarray(3).toString("utf8"), { relax_column_count: true }) as string[][];
  expect(fixable.map((r) => r[4])).toEqual(["Name", "Cedar & Smoke"]);
  expect(fixable[1]).toContain("about R1300");
  await close();
});

test("a large file's apply shows its progress, then done", async ({ browser }) => {
  test.slow(); // 6 000 products, previewed and applied
  const { page, close } = await asAdmin(browser);
  const notes = "Top notes: bergamot, pink pepper. Heart notes: orris, violet leaf. Base notes: ambrette, sandalwood, musk.";
  const lines = Array.from({ length: 6000 }, (_, i) => `BULK-${i + 1},,Bulk Sample ${i + 1},Samples,${199 + (i % 300)}.00,,${i % 40},30,"${notes}"`);
  const csv = `\uFEFFSKU,Slug,Name,Category,Price (ZAR),Tier prices (ZAR),Stock,Size (ml),Description\r\n${lines.join("\r\n")}\r\n`;
  await preview(page, { name: "bulk.csv", buffer: Buffer.from(csv) });
  await expect(stat(page, "New")).toHaveText(/^New\s*6 000$/);
  // The page is a client-side navigation from here on: note whether a progress bar is ever drawn, however briefly.
  await page.evaluate(() => {
    const seen = document.createElement("meta");
    new MutationObserver(() => {
      if (document.querySelector("[role=progressbar][aria-labelledby=import-progress]")) seen.setAttribute("name", "saw-progress");
    }).observe(document.body, { childList: true, subtree: true });
    document.head.append(seen);
  });
  await page.getByRole("button", { name: "Import 6 000 products" }).click();
  await expect(page.getByText("Imported: 6 000 created, 0 updated, 0 unchanged")).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("meta[name=saw-progress]")).toHaveCount(1);
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await close();
});

test("the accountant's export for a range totals what the dashboard shows for it", async ({ browser }) => {
  const { page, close } = await asAdmin(browser);
  // A paid order today, through checkout and the simulated card provider.
  await addFromProductPage(page, "pink-protea", 1);
  await page.goto("/checkout");
  await fillAddress(page);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page.getByRole("heading", { name: "Test payment" })).toBeVisible();
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();

  const day = todayInSouthAfrica();
  await page.goto(`/admin?from=${day}&to=${day}`);
  const revenue = cents((await stat(page, "Revenue").locator("span").nth(1).textContent())!);
  const paidOrders = Number((await stat(page, "Paid orders").locator("span").nth(1).textContent())!.replace(/\s/g, ""));
  expect(revenue).toBeGreaterThan(0);

  await page.goto("/admin/orders");
  await page.getByText("Export for the accountant").click();
  const form = page.locator("form[action='/admin/orders/export.csv']");
  await form.getByLabel("From").fill(day);
  await form.getByLabel("To").fill(day);
  await form.getByLabel("Orders").selectOption("paid");
  const downloaded = page.waitForEvent("download");
  await form.getByRole("button", { name: "Download CSV" }).click();
  const file = await bytesOf(await downloaded);
  expect([...file.subarray(0, 3)]).toEqual(BOM);
  const records = parse(file.subarray(3).toString("utf8"), { columns: true }) as Array<Record<string, string>>;
  expect(records).toHaveLength(paidOrders);
  expect(records.reduce((sum, r) => sum + cents(r["Total (ZAR)"]!), 0)).toBe(revenue);
  await close();
});

test("without JavaScript the dashboard's charts are SVG, readable at 360 px, and a chart's numbers download", async ({ browser }) => {
  const { page, close } = await asAdmin(browser, { javaScriptEnabled: false });
  await page.goto("/admin");
  for (const name of [/^Revenue per day/, /^Average order value per day/, "Paid orders by payment method", "Paid orders of new and returning customers"]) {
    const chart = page.getByRole("img", { name });
    await expect(chart).toBeVisible();
    expect(await chart.evaluate((el) => el.tagName.toLowerCase())).toBe("svg");
  }
  await expect(page.getByRole("list", { name: "Best sellers by units" })).toBeVisible();

  const downloaded = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV of revenue per day" }).click();
  const csv = await bytesOf(await downloaded);
  expect([...csv.subarray(0, 3)]).toEqual(BOM);
  expect(csv.subarray(3).toString("utf8").split("\r\n")[0]).toBe("period_start,period_end,orders,revenue,average_order,previous_orders,previous_revenue,previous_average_order");

  // At 360 px nothing is wider than the screen, and the revenue chart keeps a readable size.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/admin");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const box = (await page.getByRole("img", { name: /^Revenue per day/ }).boundingBox())!;
  expect(box.width).toBeGreaterThan(200);
  expect(box.height).toBeGreaterThan(150);
  await close();
});
