/**
 * The owner fulfils an order in Chromium (issue 10): a customer's unpaid order waits under Pending with the EFT hint;
 * the owner marks the payment Completed (→ Processing), adds a tracking number, marks it Shipped, and the customer's
 * e-mail with the tracking number is in the shop's outbox. A coupon dated from tomorrow shows as Scheduled.
 */
import { expect, test, type Page } from "./helpers/test";
import { newCustomer, signInAsAdmin } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { expectFleeting, holdTime, useTestClock } from "./helpers/clock";

/** A customer checks out and leaves the (simulated) payment page without paying: an unpaid order. */
async function unpaidOrder(page: Page): Promise<string> {
  await newCustomer(page);
  await addFromProductPage(page, "white-tea-ritual", 1);
  await page.goto("/checkout");
  await fillAddress(page);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
  return (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
}

test.describe("admin orders", () => {
  test("unpaid under Pending with the EFT hint → payment Completed → Processing → tracking number → Shipped → the customer's e-mail", async ({ page, browser, baseURL }) => {
    test.slow();
    const customer = await browser.newContext({ baseURL });
    const shortId = await unpaidOrder(await customer.newPage());
    await customer.close();

    await useTestClock(page);
    await signInAsAdmin(page);
    await page.goto(`/admin/orders?q=${shortId}`);
    await expect(page.locator(`nav[aria-label="Order status"] a[aria-current="page"]`)).toContainText("Pending");
    // the order's own row (the detail row under it names the order too, in its history)
    const row = page.getByRole("row").filter({ hasText: `#${shortId}` }).first();
    await expect(row).toBeVisible();
    await expect(page.getByText("For EFT payments, manually set payment to Completed once payment is received.")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The detail opens under the row.
    await page.getByText("Details", { exact: true }).first().click();
    await expect(page.getByText("White Tea Ritual").first()).toBeVisible();
    await expect(page.getByText("12 Jacaranda Street, Menlo Park")).toBeVisible();

    // Payment received (an EFT): Completed moves it to Processing; the Pending tab reloads without it.
    await holdTime(page);
    await page.getByLabel(`Payment of order ${shortId}`).selectOption("completed");
    await expect(row).toHaveCount(0);
    await expect(page.getByText("No pending orders found")).toBeVisible();
    // …and the message clears after 3 s (SPEC §9).
    await expectFleeting(page, page.getByText("Payment status updated to completed"));

    await page.getByRole("link", { name: /^Processing/ }).click();
    await expect(row).toBeVisible();

    // The tracking number, in the inline editor; the total stays the server's.
    await page.getByRole("link", { name: `Edit order ${shortId}` }).click();
    const editor = page.getByRole("form", { name: `Edit order ${shortId}` });
    await editor.getByLabel("Tracking number").fill("TCG8841ZA");
    await holdTime(page);
    await editor.getByRole("button", { name: "Save" }).click();
    await expect(editor).toBeHidden();
    await expectFleeting(page, page.getByText("Order updated successfully"));

    await holdTime(page);
    await page.getByLabel(`Status of order ${shortId}`).selectOption("shipped");
    await expectFleeting(page, page.getByText("Order status updated to shipped"));
    await expect(row).toHaveCount(0);

    await page.getByRole("link", { name: /^Shipped/ }).click();
    await expect(row).toBeVisible();
    await expect(page.getByText(`tracking TCG8841ZA`)).toBeVisible();

    // The customer was told, with the tracking number (the E2E shop has no SMTP: the message is in the outbox).
    await page.goto("/admin/inbox?box=sent");
    await expect(page.getByText(`your order ${shortId} is on its way`)).toBeVisible();
  });

  test("a coupon that starts tomorrow shows as Scheduled", async ({ page }) => {
    const code = `SOON${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const tomorrow = new Date(Date.now() + 36 * 3600_000).toLocaleDateString("en-CA", { timeZone: "Africa/Johannesburg" });
    await signInAsAdmin(page);
    await page.goto("/admin/coupons");
    await page.getByRole("link", { name: "New Coupon" }).click();
    const dialog = page.getByRole("dialog", { name: "New coupon" });
    await dialog.getByLabel("Code").fill(code);
    await dialog.getByLabel("Value").fill("10");
    await dialog.getByLabel("Start date").fill(tomorrow);
    await dialog.getByRole("button", { name: "Create Coupon" }).click();
    await expect(page.getByText("Coupon created successfully!")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: code }).getByText("Scheduled")).toBeVisible();
  });
});
