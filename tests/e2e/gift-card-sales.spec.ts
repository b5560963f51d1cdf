/**
 * Selling gift cards in Chromium on a phone (issue 33 point 3, docs/decisions/053 "Selling gift cards"): a shopper buys
 * a R500 card for a friend, dated today, and pays with the (simulated) card payment; the friend's e-mail, received by a
 * real SMTP server, holds the code and the printable PDF; the code then pays an order of its own. The gift card page is
 * looked at, at 1280, 390 and 360 px. Its own shop (the demo sells gift cards), with delivery free from R300 so a
 * R349 bottle costs exactly R349.
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
import { startMailServer, type MailServer } from "../factories/mail-server";

const SHOTS = "test-results/screenshots";
const FRIEND = "naledi.friend@example.co.za";
let own: OwnShop;
let mail: MailServer;
let slug = "";

test.beforeAll(async ({ browser }) => {
  mail = await startMailServer();
  own = await startOwnShop(browser, { FREE_DELIVERY_THRESHOLD_CENTS: "30000", SMTP_URL: mail.url });
  const db = new DatabaseSync(join(own.shop.dir, "shop.db"));
  try {
    // one product at R349 in every size, so whichever size the page starts with costs R349
    const product = db.prepare("select id, slug from products order by slug limit 1").get() as { id: string; slug: string };
    db.prepare("update product_sizes set price_cents = 34900, was_price_cents = null where product_id = ?").run(product.id);
    db.prepare("update products set price_cents = 34900, max_price_cents = 34900 where id = ?").run(product.id);
    slug = product.slug;
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await own?.close();
  await mail?.close();
});

async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: own.baseURL, viewport: { width: 360, height: 780 } });
  return context.newPage();
}

test("a R500 card for a friend, dated today, paid by card: the friend's e-mail has the code, and the code pays an order", async ({ browser }) => {
  test.slow();
  mkdirSync(SHOTS, { recursive: true });
  const buyer = await phone(browser);
  await newCustomer(buyer);

  // The page, looked at on a desktop and two phones: nothing wider than the screen.
  await buyer.goto("/gift-cards");
  await expect(buyer.getByRole("heading", { name: "Gift cards", level: 1 })).toBeVisible();
  for (const width of [1280, 390, 360]) {
    await buyer.setViewportSize({ width, height: width === 1280 ? 900 : 780 });
    expect(await buyer.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `sideways at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(buyer, { path: `${SHOTS}/gift-card-page-${width}.png`, fullPage: true });
  }
  expect(await seriousViolations(buyer)).toEqual([]);

  // R500, for someone else, today (the date starts at today), with a message.
  await buyer.locator("label").filter({ hasText: /^R500$/ }).click();
  await expect(buyer.getByRole("radio", { name: "R500" })).toBeChecked();
  await expect(buyer.getByTestId("gift-card-amount")).toHaveText("R500");
  await buyer.locator("label").filter({ hasText: /^Someone else$/ }).click();
  await buyer.getByLabel("Their name").fill("Naledi");
  await buyer.getByLabel("Their e-mail").fill(FRIEND);
  await buyer.getByLabel("Message (optional)").fill("Happy birthday, Naledi! Choose something beautiful.");
  await buyer.getByLabel("From").fill("Sipho");
  await expect(buyer.getByTestId("gift-card-face")).toContainText("For Naledi");
  await buyer.getByRole("button", { name: "Add to cart · R500.00" }).click();
  await expect(buyer.getByTestId("gift-added")).toBeVisible();

  // Checkout: nothing to deliver, R500 to pay, and no gift card code field (a card isn't paid with a card).
  await buyer.goto("/checkout");
  await fillAddress(buyer);
  await expect(buyer.getByTestId("gift-only-delivery")).toBeVisible();
  await expect(buyer.getByLabel("Gift card code")).toHaveCount(0);
  await buyer.getByRole("button", { name: "Pay R500.00" }).click();
  await expect(buyer).toHaveURL(/\/pay\/simulated\/sim_/);
  await buyer.getByRole("button", { name: "Pay R500.00" }).click();
  await expect(buyer.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await buyer.getByRole("link", { name: "View Order Details" }).click();
  const sold = buyer.getByTestId("sold-gift-cards");
  await expect(sold).toContainText("R500.00 for Naledi");
  await expect(sold.getByRole("link", { name: /Printable card/ })).toBeVisible();
  // nothing to prepare or deliver, and no VAT on the card when sold (VAT Act s10(18))
  await expect(buyer.getByText("Each gift card is e-mailed with its code")).toBeVisible();
  await expect(buyer.getByText("We are preparing your fragrances")).toHaveCount(0);
  await expect(buyer.getByRole("heading", { name: "Delivering to" })).toHaveCount(0);
  await expect(buyer.getByText("Gift cards carry no VAT when sold")).toBeVisible();
  await screenshot(buyer, { path: `${SHOTS}/gift-card-confirmation-360.png`, fullPage: true });

  // The friend's e-mail, through the real SMTP server: once, with the code and the printable card.
  await expect.poll(() => mail.received.filter((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === FRIEND).length, { timeout: 15_000 }).toBe(1);
  const letter = mail.received.find((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === FRIEND)!;
  expect(letter.subject).toBe("Sipho sent you a Scentara gift card");
  expect(letter.text).toContain("Happy birthday, Naledi!");
  expect(letter.attachments.map((a) => a.contentType)).toEqual(["application/pdf"]);
  const code = /Your gift card code: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/.exec(letter.text ?? "")![1]!;

  // The friend spends it: a R349 bottle, paid wholly by the card.
  const friend = await phone(browser);
  await newCustomer(friend, { email: FRIEND });
  await addFromProductPage(friend, slug);
  await friend.goto("/checkout");
  await fillAddress(friend);
  await friend.getByLabel("Gift card code").fill(code);
  await friend.getByRole("button", { name: "Apply" }).click();
  await expect(friend.getByTestId("applied-gift-card")).toContainText("R349.00 of R500.00 applied");
  await friend.getByRole("button", { name: "Pay with gift card" }).click();
  await expect(friend.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
});
