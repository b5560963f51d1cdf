/**
 * Paying by bank transfer in Chromium (issue 11): the shopper chooses EFT at checkout, sees the shop's bank details
 * and their reference, the owner marks the payment Completed, the shopper's page says the money arrived, and they
 * download the invoice.
 */
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { expect, test } from "./helpers/test";
import { newCustomer, signInAsAdmin } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

test("EFT: choose bank transfer → bank details and reference → the owner marks it paid → payment received", async ({ page, browser, baseURL }) => {
  test.slow();
  mkdirSync("test-results/screenshots", { recursive: true });
  await newCustomer(page);
  await addFromProductPage(page, "white-tea-ritual", 2);
  await page.goto("/checkout");
  await fillAddress(page);
  const methods = page.getByRole("group", { name: "How would you like to pay?" });
  await expect(methods.getByRole("radio", { name: /^Card/ })).toBeChecked();
  await methods.getByRole("radio", { name: /Bank transfer \(EFT\)/ }).check();
  await page.setViewportSize({ width: 390, height: 844 });
  await methods.scrollIntoViewIfNeeded();
  await screenshot(page, { path: "test-results/screenshots/checkout-methods-390.jpg" });
  const place = page.getByRole("button", { name: /^Place order · R/ });
  const total = (await place.textContent())!.replace("Place order · ", "");
  await place.click();

  await expect(page).toHaveURL(/\/payment\/eft\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Pay by bank transfer" })).toBeVisible();
  const reference = page.url().split("/").pop()!.slice(0, 8).toUpperCase();
  await expect(page.getByText(reference, { exact: true })).toBeVisible();
  await expect(page.getByText("62812345678")).toBeVisible();
  await expect(page.getByText("250655")).toBeVisible();
  await expect(page.getByText(total, { exact: true })).toBeVisible();
  await expect(page.getByText(/We hold your order until/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, { path: "test-results/screenshots/eft-page-390.jpg", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  const eftUrl = page.url();

  // The owner sees it under Pending with the EFT hint and marks the payment Completed.
  const owner = await browser.newContext({ baseURL });
  const admin = await owner.newPage();
  await signInAsAdmin(admin);
  await admin.goto(`/admin/orders?q=${reference.toLowerCase()}`);
  await expect(admin.getByText("For EFT payments, manually set payment to Completed once payment is received.")).toBeVisible();
  await admin.getByLabel(`Payment of order ${reference.toLowerCase()}`).selectOption("completed");
  // (the 3-second success message is checked in admin-orders.spec.ts; here, what lasts: it left the Pending tab)
  await expect(admin.getByText("No pending orders found")).toBeVisible();
  await owner.close();

  await page.goto(eftUrl);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await page.getByRole("link", { name: "View Order Details" }).click();
  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();

  // Paid by transfer, invoiced like any paid order: the shopper downloads it.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Download invoice INV-\d{6} as a PDF$/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^Scentara-INV-\d{6}\.pdf$/);
  expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe("%PDF-");
});
