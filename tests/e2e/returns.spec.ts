/**
 * Returns in Chromium against the production build (issue 21 point 8, docs/decisions/041): a shopper buys, the owner
 * delivers, the shopper asks to return a bottle from the order history, the owner approves, receives and refunds it,
 * and both download the credit note — a PDF whose text a reader extracts as words. On a shop of its own, VAT-registered
 * (so the credit note shows VAT at 15 %), from the same build, so the shared E2E shop's settings stay as they are.
 * Screenshots of the new pages at 1280, 390 and 360 px go to test-results/<port>/returns/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { expect, test, type Browser, type BrowserContext, type Page } from "./helpers/test";
import { newCustomer } from "./helpers/auth";
import { startOwnShop, type OwnShop } from "./helpers/shop-server";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { pdfReaderLines } from "../factories/pdf-text";
import { screenshot } from "./helpers/screenshot";

let baseURL = "";
let adminState: Awaited<ReturnType<BrowserContext["storageState"]>>;
const SHOTS = `test-results/${process.env.E2E_PORT ?? 3210}/returns`;

let own: OwnShop;

test.beforeAll(async ({ browser }) => {
  own = await startOwnShop(browser, {
    // a VAT-registered shop: tax invoices, and credit notes with the VAT they adjust
    SHOP_VAT_NUMBER: "4123456789",
    SHOP_ADDRESS: "Unit 4, The Old Biscuit Mill | 373 Albert Road, Woodstock | Cape Town 7925",
    SHOP_LEGAL_NAME: "Scentara Fragrances (Pty) Ltd",
  });
  baseURL = own.baseURL;
  adminState = own.adminState;
});

test.afterAll(async () => {
  await own?.close();
});

async function newPage(browser: Browser, storageState?: typeof adminState) {
  const context = await browser.newContext({ baseURL, ...(storageState ? { storageState } : {}) });
  return { page: await context.newPage(), close: () => context.close() };
}

/** The page at three widths: a screenshot of each, and nothing wider than the screen. */
async function look(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${width}px is wider than the screen`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/${name}-${width}.jpg`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a full return: order history → request → approve → receive → refund → credit note", async ({ browser }) => {
  test.setTimeout(240_000); // a whole purchase and return, with accessibility checks and screenshots of six pages at three widths
  // The shopper buys two bottles of Pink Protea (R399.00 each, free delivery from R599).
  const shopper = await newPage(browser);
  const page = shopper.page;
  await newCustomer(page);
  await addFromProductPage(page, "pink-protea", 2);
  await page.goto("/checkout");
  await fillAddress(page);
  await page.getByRole("button", { name: "Pay R798.00" }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
  const shortId = (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
  await page.getByRole("button", { name: "Pay R798.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();

  // Not delivered yet: the order history offers no return.
  await page.goto("/profile/orders");
  await expect(page.getByRole("link", { name: `Return items from order ${shortId}` })).toHaveCount(0);

  // The owner delivers it.
  const owner = await newPage(browser, adminState);
  const admin = owner.page;
  await admin.goto(`/admin/orders?status=processing&q=${shortId}`);
  await admin.getByLabel(`Status of order ${shortId}`).selectOption("delivered");
  await expect(admin.getByRole("row").filter({ hasText: `#${shortId}` })).toHaveCount(0);

  // From the order history, the shopper asks to return one bottle.
  await page.goto("/profile/orders");
  await page.getByRole("link", { name: `Return items from order ${shortId}` }).click();
  await expect(page.getByRole("heading", { name: "Return items", level: 1 })).toBeVisible();
  await expect(page.getByText(/You may cancel without reason within 7 days after delivery: for this order, until \d+ \w+ \d{4} \(ECTA s44\)/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await look(page, "shopper-return-form");
  await page.getByLabel("How many of Pink Protea (100 ml) to return").selectOption("1");
  await page.getByRole("radio", { name: /The scent isn't for me/ }).check();
  await page.getByLabel(/Anything we should know/).fill("Lovely, but too floral for me.");
  await page.getByRole("button", { name: "Request return" }).click();
  await expect(page.getByText("Your return request has been sent. We'll e-mail you our answer.")).toBeVisible();
  await expect(page.getByText("This order already has a return in progress: we'll e-mail you as it moves on.")).toBeVisible();
  const history = page.getByRole("region", { name: "Your returns for this order" });
  await expect(history.getByText("Requested", { exact: true })).toBeVisible();
  await expect(history.getByText("1 × Pink Protea")).toBeVisible();

  // The owner sees it in Admin → Returns, due in 30 days, and opens it.
  await admin.goto("/admin/returns");
  await expect(admin.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Returns" })).toHaveAttribute("aria-current", "page");
  const row = admin.getByRole("row").filter({ hasText: `#${shortId}` });
  await expect(row).toContainText("in 30 days");
  expect(await seriousViolations(admin)).toEqual([]);
  await look(admin, "admin-returns-list");
  await row.getByRole("link", { name: `Open the return for order ${shortId}` }).click();
  await expect(admin.getByRole("heading", { name: `Return for order #${shortId}` })).toBeVisible();
  await expect(admin.getByText("Lovely, but too floral for me.")).toBeVisible();
  expect(await seriousViolations(admin)).toEqual([]);
  await look(admin, "admin-return-requested");

  // Approve with a message; the parcel arrives; refund through the (test) card provider.
  await admin.getByLabel("Message to the customer").fill("Thank you. Please post it to our studio in Woodstock.");
  await admin.getByRole("button", { name: "Approve return" }).click();
  await expect(admin.getByRole("heading", { name: "When the parcel arrives" })).toBeVisible();
  await admin.getByRole("button", { name: "Mark received" }).click();
  await expect(admin.getByRole("heading", { name: "Refund", exact: true })).toBeVisible();
  await expect(admin.getByLabel("Amount to refund")).toHaveValue("399.00");
  expect(await seriousViolations(admin)).toEqual([]);
  await look(admin, "admin-return-refund-form");
  await admin.getByRole("button", { name: "Refund and issue credit note" }).click();
  await expect(admin.getByRole("heading", { name: "Refunded R399.00" })).toBeVisible();
  const creditLink = admin.getByRole("link", { name: /^Credit note CN-\d{6}/ });
  await expect(creditLink).toBeVisible();
  await look(admin, "admin-return-refunded");

  // The shopper's page shows the refund; their credit note downloads and reads as words.
  await page.reload();
  await expect(history.getByText("Refunded", { exact: true })).toBeVisible();
  const download = await Promise.all([page.waitForEvent("download"), history.getByRole("link", { name: /^Credit note CN-\d{6} as a PDF/ }).click()]).then(([d]) => d);
  expect(download.suggestedFilename()).toMatch(/^Scentara-CN-\d{6}\.pdf$/);
  const text = (await pdfReaderLines(new Uint8Array(readFileSync((await download.path())!)))).join("\n");
  expect(text).toContain("CREDIT NOTE");
  expect(text).toMatch(/CORRECTS TAX INVOICE INV-\d{6}/);
  expect(text).toContain("Pink Protea (100 ml) 1 R399.00 R399.00");
  // R399.00 × 15 / 115 = R52.04
  expect(text).toContain("Total credited (including VAT) R399.00");
  expect(text).toContain("VAT at 15% credited R52.04");
  expect(text).not.toMatch(/\b[A-Z] [A-Z] [A-Z]\b/);
  expect(await seriousViolations(page)).toEqual([]);
  await look(page, "shopper-return-refunded");

  // The other bottle can still be returned; every step was e-mailed (the shop has no SMTP: the outbox has them).
  await expect(page.getByLabel("How many of Pink Protea (100 ml) to return")).toBeVisible();
  await admin.goto("/admin/inbox?box=sent");
  for (const subject of ["we have your return request", "is approved", "we have received your return", "your refund for order"]) {
    await expect(admin.getByText(new RegExp(`${subject}.*${shortId}|${shortId}.*${subject}`)).first()).toBeVisible();
  }
  await shopper.close();
  await owner.close();
});
