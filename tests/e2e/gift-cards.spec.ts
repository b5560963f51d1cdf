/**
 * Gift cards in Chromium on a phone (issue 33 point 3, docs/decisions/053): the owner issues a R500 card by hand, a
 * shopper pays a R349.99 order with it (the card keeps R150.01) and sees it as a payment on the confirmation; a second
 * order spends the rest of the card and pays what is left with the (simulated) card payment.
 * Its own shop: one product's price is set to R349.99 in its database, and delivery is free from R300, so the order's
 * total is exactly R349.99.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { newCustomer } from "./helpers/auth";
import { startOwnShop, type OwnShop } from "./helpers/shop-server";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const SHOTS = "test-results/screenshots";
const WIDTHS = [1280, 390, 360] as const;
let own: OwnShop;
let slug = "";

test.beforeAll(async ({ browser }) => {
  own = await startOwnShop(browser, { FREE_DELIVERY_THRESHOLD_CENTS: "30000" });
  const db = new DatabaseSync(join(own.shop.dir, "shop.db"));
  try {
    // a scent sold in one size, priced R349.99 (the card's R500 then leaves R150.01)
    const product = db.prepare("select p.id, p.slug from products p where (select count(*) from product_sizes s where s.product_id = p.id) = 1 order by p.slug limit 1").get() as { id: string; slug: string };
    db.prepare("update product_sizes set price_cents = 34999 where product_id = ?").run(product.id);
    db.prepare("update products set price_cents = 34999, max_price_cents = 34999 where id = ?").run(product.id);
    slug = product.slug;
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await own?.close();
});

async function phone(browser: Browser, admin = false): Promise<Page> {
  const context = await browser.newContext({ baseURL: own.baseURL, viewport: { width: 360, height: 780 }, ...(admin ? { storageState: own.adminState } : {}) });
  return context.newPage();
}

/** PNG at 1280, 390 and 360 px: the whole page, or (with `target`) the window around it. */
async function atWidths(page: Page, name: string, target?: () => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 780 });
    if (target) await target();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/${name}-${width}.png`, fullPage: !target });
  }
  await page.setViewportSize({ width: 360, height: 780 });
}

/** The shopper's checkout at 360 px with the R349.99 product, the card applied (a first order types the address). */
async function checkoutWithCard(page: Page, code: string, first = false) {
  await addFromProductPage(page, slug);
  await page.goto("/checkout");
  if (first) await fillAddress(page);
  else await expect(page.getByText("Deliver to your last address")).toBeVisible();
  await page.getByLabel("Gift card code").fill(code.toLowerCase());
  await page.getByRole("button", { name: "Apply" }).click();
}

test("the owner issues a R500 card; a shopper pays R349.99 with it, then spends the rest plus a card payment", async ({ browser }) => {
  test.slow();
  mkdirSync(SHOTS, { recursive: true });

  // The owner issues the card by hand, a goodwill gesture, and copies the code (shown once).
  const admin = await phone(browser, true);
  await admin.goto("/admin/gift-cards");
  await expect(admin.getByRole("heading", { name: "Gift cards", level: 1 })).toBeVisible();
  await admin.getByRole("link", { name: "Issue gift card" }).click();
  const dialog = admin.getByRole("dialog", { name: "Issue a gift card" });
  await dialog.getByLabel("Amount (R)").fill("500");
  await dialog.getByLabel("Note (optional)").fill("Sorry about the late parcel");
  await dialog.getByRole("button", { name: "Issue gift card" }).click();
  const issued = admin.getByTestId("issued-gift-card");
  await expect(issued).toContainText("issued for R500.00");
  const code = (await issued.textContent())!.match(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/)![0];
  const last4 = code.slice(-4);
  await admin.goto("/admin/gift-cards");
  await expect(admin.getByRole("link", { name: `···· ${last4}` })).toBeVisible();
  await atWidths(admin, "admin-gift-cards");
  expect(await seriousViolations(admin)).toEqual([]);

  // The shopper applies it at checkout: it pays the whole R349.99 and keeps R150.01.
  const shopper = await phone(browser);
  await newCustomer(shopper);
  await checkoutWithCard(shopper, code, true);
  const field = shopper.getByTestId("gift-card-field");
  await expect(field.getByTestId("applied-gift-card")).toContainText(`Gift card ending ${last4}`);
  await expect(field.getByTestId("applied-gift-card")).toContainText("R349.99 of R500.00 applied");
  await expect(field.getByTestId("left-to-pay")).toContainText("R0.00");
  await atWidths(shopper, "checkout-gift-card", () => field.scrollIntoViewIfNeeded());
  expect(await seriousViolations(shopper)).toEqual([]);
  await shopper.getByRole("button", { name: "Pay with gift card" }).click();

  // Paid at once, no payment page: the confirmation lists the card as a payment below the total.
  await expect(shopper.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await shopper.getByRole("link", { name: "View Order Details" }).click();
  await expect(shopper.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  await expect(shopper.getByTestId("gift-card-payment")).toContainText(`Paid by gift card ending ${last4}`);
  await expect(shopper.getByTestId("gift-card-payment")).toContainText("-R349.99");
  await expect(shopper.getByRole("link", { name: /^Download invoice INV-\d{6} as a PDF$/ })).toBeVisible();
  await screenshot(shopper, { path: `${SHOTS}/confirmation-gift-card-360.png`, fullPage: true });

  // The owner's ledger: issued, then the order, R150.01 left.
  await admin.getByRole("link", { name: `···· ${last4}` }).click();
  await expect(admin.getByRole("heading", { name: `Gift card ···· ${last4}` })).toBeVisible();
  await expect(admin.getByText("R150.01").first()).toBeVisible();
  await expect(admin.getByRole("cell", { name: /Paid an order/ })).toBeVisible();
  await screenshot(admin, { path: `${SHOTS}/admin-gift-card-ledger-360.png`, fullPage: true });

  // A second order: the card's R150.01, and R199.98 by (simulated) card.
  await checkoutWithCard(shopper, code);
  await expect(field.getByTestId("applied-gift-card")).toContainText("R150.01 of R150.01 applied");
  await expect(field.getByTestId("left-to-pay")).toContainText("R199.98");
  await shopper.getByRole("button", { name: "Pay R199.98" }).click();
  await expect(shopper).toHaveURL(/\/pay\/simulated\/sim_/);
  await expect(shopper.getByText("R199.98", { exact: true })).toBeVisible();
  await shopper.getByRole("button", { name: "Pay R199.98" }).click();
  await expect(shopper.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await shopper.getByRole("link", { name: "View Order Details" }).click();
  await expect(shopper.getByTestId("gift-card-payment")).toContainText("-R150.01");
  await expect(shopper.getByText("Rest of the payment")).toBeVisible();

  // Spent: the card can't pay a third order.
  await admin.reload();
  await expect(admin.getByText("Spent", { exact: true })).toBeVisible();
  await checkoutWithCard(shopper, code);
  await expect(field.getByRole("alert")).toHaveText("That gift card has nothing left on it.");
});
