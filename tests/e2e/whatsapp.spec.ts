/**
 * WhatsApp order updates in Chromium at 360 px (issue 34 points 1 and 5; docs/decisions/055): the shopper ticks the
 * opt-in at checkout (never ticked before), pays on the simulated provider's page, and the owner's order row shows
 * "Payment received" as a test message that the shop's test sender reports delivered (its signed webhook, back to
 * this shop). Screenshots of the opt-in and of the admin's view at 1280, 390 and 360 px. Then the reminders' templates
 * in the admin's list, and the shopper's separate opt-in to reminders on WhatsApp in the profile.
 */
import { mkdirSync } from "node:fs";
import { expect, test } from "./helpers/test";
import { newCustomer, signInAsAdmin } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const WIDTHS = [1280, 390, 360] as const;

test("WhatsApp: tick the opt-in at checkout → pay → the admin sees Payment received, a test message, delivered", async ({ page, browser, baseURL }) => {
  test.slow();
  mkdirSync("test-results/screenshots", { recursive: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await newCustomer(page);
  await addFromProductPage(page, "white-tea-ritual", 1);
  await page.goto("/checkout");
  await fillAddress(page, { telephone: "082 555 0147" });

  const optIn = page.getByRole("checkbox", { name: "Order updates on WhatsApp to 082 555 0147" });
  await expect(optIn).not.toBeChecked();
  await expect(page.getByTestId("whatsapp-opt-in")).toContainText("Reply STOP");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.getByTestId("whatsapp-opt-in").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `test-results/screenshots/whatsapp-opt-in-${width}.jpg` });
  }
  await page.setViewportSize({ width: 360, height: 740 });
  await optIn.check();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: /^Pay R/ }).click();

  await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
  const shortId = (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();

  // The owner's order row: the message, marked a test message, delivered once the test sender's webhook arrives.
  const owner = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 } });
  const admin = await owner.newPage();
  await signInAsAdmin(admin);
  await admin.goto(`/admin/orders?status=processing&q=${shortId}`);
  const panel = admin.getByTestId("whatsapp-panel");
  await expect(async () => {
    await admin.reload();
    await expect(panel).toContainText("Delivered", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(panel).toContainText("Payment received");
  await expect(panel.getByText("Test message")).toBeVisible();
  await panel.getByText("Payment received").click();
  await expect(panel).toContainText(`for order ${shortId}`);
  await expect(panel).toContainText("To 082 555 0147");
  expect(await seriousViolations(admin)).toEqual([]);
  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    await panel.scrollIntoViewIfNeeded();
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(admin, { path: `test-results/screenshots/whatsapp-admin-order-${width}.jpg` });
  }
  // the templates to register with Meta, from the same source the sender uses
  await admin.goto("/admin/whatsapp");
  await expect(admin.getByTestId("whatsapp-mode")).toContainText("Test messages");
  await expect(admin.getByText("payment_received", { exact: true })).toBeVisible();
  // the reminders' templates are listed with the others, and each says when a shopper gets it
  await expect(admin.getByText("cart_reminder", { exact: true })).toBeVisible();
  await expect(admin.getByText("unpaid_order_reminder", { exact: true })).toBeVisible();
  await expect(admin.getByTestId("template-when").first()).toContainText("bank transfer");
  await admin.setViewportSize({ width: 390, height: 900 });
  await screenshot(admin, { path: "test-results/screenshots/whatsapp-admin-templates-390.jpg", fullPage: true });
  await owner.close();

  // Reminders on WhatsApp are a consent of their own: offered in the profile, off until pressed, then on
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/profile/preferences");
  const reminders = page.getByTestId("whatsapp-reminders");
  await expect(reminders).toContainText("Reminders on WhatsApp to 082 555 0147");
  await expect(reminders).toContainText("never more than one per cart or order");
  await reminders.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, { path: "test-results/screenshots/whatsapp-reminders-opt-in-360.jpg" });
  await reminders.getByRole("button", { name: "Turn on WhatsApp reminders" }).click();
  await expect(page.getByText(/Reminders on WhatsApp are on: at most one per cart or unpaid order, to 082 555 0147/)).toBeVisible();
  await expect(reminders.getByRole("button", { name: "Stop WhatsApp reminders" })).toBeVisible();
});
