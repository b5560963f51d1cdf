/**
 * Correcting a sold gift card's e-mail in Chromium (docs/decisions/053 addendum "Changing and resending a sold card"):
 * a shopper buys two cards for a friend and mistypes her address. The one dated today goes to the wrong address; the
 * owner resends it to the right one, and it arrives there with the same code and the printable card. The one dated
 * next week is corrected and sent now. A real SMTP server receives the e-mails. The card's page is looked at, at 1280
 * and 390 px: nothing wider than the screen.
 */
import { mkdirSync } from "node:fs";
import type { ParsedMail } from "mailparser";
import { expect, test } from "./helpers/test";
import { newCustomer } from "./helpers/auth";
import { startOwnShop, type OwnShop } from "./helpers/shop-server";
import { fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";
import { expectFleeting, holdTime, useTestClock } from "./helpers/clock";
import { startMailServer, type MailServer } from "../factories/mail-server";

const SHOTS = "test-results/screenshots";
const TYPO = "naledi.frend@example.co.za";
const RIGHT = "naledi.friend@example.co.za";
let own: OwnShop;
let mail: MailServer;

test.beforeAll(async ({ browser }) => {
  mail = await startMailServer();
  own = await startOwnShop(browser, { SMTP_URL: mail.url });
});

test.afterAll(async () => {
  await own?.close();
  await mail?.close();
});

const to = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");
const lettersTo = (address: string) => mail.received.filter((m) => to(m) === address && m.subject === "Sipho sent you a Scentara gift card");
const codeIn = (m: ParsedMail) => /Your gift card code: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/.exec(m.text ?? "")![1]!;
/** A South African day `days` from today (UTC+2, no daylight saving). */
const saDayFromNow = (days: number) => new Date(Date.now() + 2 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

test("the owner resends a card to the corrected address, and corrects and sends now one not yet sent: each arrives there", async ({ browser }) => {
  test.slow();
  mkdirSync(SHOTS, { recursive: true });
  const buyerContext = await browser.newContext({ baseURL: own.baseURL, viewport: { width: 1280, height: 900 } });
  const buyer = await buyerContext.newPage();
  await newCustomer(buyer);

  // Two R500 cards for Naledi at a mistyped address: one for today, one for next week.
  for (const day of [null, saDayFromNow(7)]) {
    await buyer.goto("/gift-cards");
    await buyer.locator("label").filter({ hasText: /^R500$/ }).click();
    await buyer.locator("label").filter({ hasText: /^Someone else$/ }).click();
    await buyer.getByLabel("Their name").fill("Naledi");
    await buyer.getByLabel("Their e-mail").fill(TYPO);
    await buyer.getByLabel("From").fill("Sipho");
    if (day) await buyer.getByLabel("Send it on").fill(day);
    await buyer.getByRole("button", { name: "Add to cart · R500.00" }).click();
    await expect(buyer.getByTestId("gift-added")).toBeVisible();
  }
  await buyer.goto("/checkout");
  await fillAddress(buyer);
  await buyer.getByRole("button", { name: "Pay R1 000.00" }).click();
  await expect(buyer).toHaveURL(/\/pay\/simulated\/sim_/);
  await buyer.getByRole("button", { name: "Pay R1 000.00" }).click();
  await expect(buyer.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await buyer.getByRole("link", { name: "View Order Details" }).click();
  await expect(buyer.getByTestId("sold-gift-cards").getByText("E-mailed", { exact: true })).toHaveCount(1);
  await expect.poll(() => lettersTo(TYPO).length, { timeout: 15_000 }).toBe(1);
  const firstCode = codeIn(lettersTo(TYPO)[0]!);

  // The owner finds both cards by the mistyped address.
  const adminContext = await browser.newContext({ baseURL: own.baseURL, storageState: own.adminState, viewport: { width: 1280, height: 900 } });
  const admin = await adminContext.newPage();
  await useTestClock(admin);
  await admin.goto(`/admin/gift-cards?q=${encodeURIComponent(TYPO)}`);
  const cardLinks = admin.getByRole("table", { name: "Gift cards" }).getByRole("link");
  await expect(cardLinks).toHaveCount(2);
  const hrefs = await cardLinks.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).getAttribute("href")!));

  // The card already e-mailed: resent to the right address.
  let sentHref = "";
  for (const href of hrefs) {
    await admin.goto(href);
    if (await admin.getByRole("button", { name: "Resend the e-mail" }).isVisible()) sentHref = href;
  }
  expect(sentHref).not.toBe("");
  await admin.goto(sentHref);
  const email = admin.getByTestId("gift-card-email");
  await expect(email.getByTestId("gift-card-recipient")).toHaveText(`Naledi · ${TYPO}`);
  await email.getByLabel("To").fill(RIGHT);
  await holdTime(admin);
  await email.getByRole("button", { name: "Resend the e-mail" }).click();
  await expectFleeting(admin, admin.getByRole("status").filter({ hasText: `Gift card e-mailed again to ${RIGHT}` }));
  await expect(email.getByTestId("gift-card-recipient")).toHaveText(`Naledi · ${RIGHT}`);
  await expect(email.getByRole("table", { name: "E-mail changes" })).toContainText("E-mailed again");
  await expect(email.getByRole("table", { name: "E-mail changes" })).toContainText(`(was ${TYPO})`);
  await expect.poll(() => lettersTo(RIGHT).length, { timeout: 15_000 }).toBe(1);
  const resent = lettersTo(RIGHT)[0]!;
  expect(codeIn(resent)).toBe(firstCode);
  expect(resent.attachments.map((a) => a.contentType)).toEqual(["application/pdf"]);

  for (const width of [1280, 390]) {
    await admin.setViewportSize({ width, height: width === 1280 ? 900 : 780 });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `sideways at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(admin, { path: `${SHOTS}/admin-gift-card-resent-${width}.png`, fullPage: true });
  }
  expect(await seriousViolations(admin)).toEqual([]);

  // The card for next week: the address corrected and sent now.
  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.goto(hrefs.find((h) => h !== sentHref)!);
  await expect(email.getByLabel("Their name")).toHaveValue("Naledi");
  await email.getByLabel("Their e-mail").fill(RIGHT);
  await admin.setViewportSize({ width: 390, height: 780 });
  expect(await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), "sideways at 390 px").toBeLessThanOrEqual(0);
  await screenshot(admin, { path: `${SHOTS}/admin-gift-card-unsent-390.png`, fullPage: true });
  await holdTime(admin);
  await email.getByRole("button", { name: "Save and send now" }).click();
  await expectFleeting(admin, admin.getByRole("status").filter({ hasText: `Gift card e-mailed to ${RIGHT}` }));
  await expect(email.getByRole("button", { name: "Resend the e-mail" })).toBeVisible();
  await expect.poll(() => lettersTo(RIGHT).length, { timeout: 15_000 }).toBe(2);
  expect(lettersTo(TYPO)).toHaveLength(1);

  // The buyer's order page names the recipient and shows both cards e-mailed.
  await buyer.reload();
  await expect(buyer.getByTestId("sold-gift-cards").getByText("E-mailed", { exact: true })).toHaveCount(2);
});
