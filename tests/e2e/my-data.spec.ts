/**
 * A person's data (issue 21 points 3–5, docs/decisions/040) in Chromium against the production build: "Download my
 * data" holds the order they paid for; "Delete my account" signs them out for good while the order stays in the admin
 * with its invoice; the new pages at 1280, 390 and 360 px (nothing wider than the screen, no serious axe findings).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { expect, test, type Page } from "./helpers/test";
import { E2E_PASSWORD, newCustomer, signInAsAdmin, signOut } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { unzip } from "../factories/unzip";
import { screenshot } from "./helpers/screenshot";

/** A paid order through the real checkout and the simulated provider; answers its short id. */
async function buyPinkProtea(page: Page): Promise<string> {
  await addFromProductPage(page, "pink-protea", 1);
  await page.goto("/checkout");
  await fillAddress(page);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\//);
  const shortId = (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  return shortId;
}

async function expectFitsAndAccessible(page: Page, name: string) {
  mkdirSync("test-results/screenshots", { recursive: true });
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `test-results/screenshots/my-data-${name}-${width}.jpg`, fullPage: true });
    if (width === 1280) expect(await seriousViolations(page), name).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe("my data", () => {
  test("download my data holds the order; delete my account → can't sign in, the order is still in the admin with its invoice", async ({ page }) => {
    test.slow(); // a checkout, a download, a deletion and the admin, with screenshots at three widths
    const user = await newCustomer(page);
    const shortId = await buyPinkProtea(page);

    // Profile → Account: the two new sections
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "Download my data" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Delete my account" })).toBeVisible();
    await expectFitsAndAccessible(page, "profile");

    // Download my data: one ZIP, saved by the browser, with the order and its invoice inside
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^scentara-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzip(readFileSync((await download.path())!));
    const data = JSON.parse(files.get("my-data.json")!.text());
    expect(data.account.email).toBe(user.email);
    const order = data.orders.find((o: { shortId: string }) => o.shortId === shortId);
    expect(order, `order ${shortId} in the download`).toBeTruthy();
    expect(order.lines).toEqual([{ name: "Pink Protea (100 ml)", quantity: 1, unitPriceCents: 39900, totalPriceCents: 39900 }]);
    expect(order.deliverTo).toMatchObject({ name: "Thandi Nkosi", street: "12 Jacaranda Street", city: "Pretoria" });
    expect(files.get(order.invoice.file)!.data.subarray(0, 5).toString()).toBe("%PDF-");
    expect(files.get("my-data.html")!.text()).toContain(`Order #${shortId}`);
    await expect(page).toHaveURL(/\/profile$/); // the browser saved the file and stayed

    // Delete my account: the page says what is kept, a wrong password changes nothing
    await page.getByRole("link", { name: "Delete my account" }).click();
    await expect(page.getByRole("heading", { name: "Delete my account", level: 1 })).toBeVisible();
    const kept = page.getByRole("region", { name: "What we keep" });
    await expect(kept.getByText(`#${shortId}`)).toBeVisible();
    await expect(kept.getByText(/INV-\d{6}/)).toBeVisible();
    await expectFitsAndAccessible(page, "delete");
    await page.getByLabel("Password", { exact: true }).fill("not my password");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("That password is not right. Your account has not been deleted.").first()).toBeVisible();

    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByRole("heading", { name: "Your account has been deleted" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
    await expectFitsAndAccessible(page, "deleted");

    // They can't sign in any more
    await page.goto("/auth/login");
    await page.getByLabel("Email", { exact: true }).fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText("Failed to sign in. Please check your credentials.")).toBeVisible();

    // The order is still in the admin, no longer linked to an account, with its invoice
    await signInAsAdmin(page);
    await page.goto(`/admin/orders?status=processing&q=${shortId}`);
    const row = page.getByRole("row").filter({ hasText: shortId });
    await expect(row.getByText("Account deleted")).toBeVisible();
    await page.getByText("Details", { exact: true }).first().click();
    const invoiceLink = page.getByRole("link", { name: /^Invoice INV-\d{6}/ });
    const [invoice] = await Promise.all([page.waitForEvent("download"), invoiceLink.click()]);
    const pdf = readFileSync((await invoice.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");

    // Admin → Privacy: the policy, and the two requests on record
    await page.goto("/admin/privacy");
    await expect(page.getByRole("heading", { name: "Retention policy" })).toBeVisible();
    await expect(page.getByRole("cell", { name: "Account deletion" }).first()).toBeVisible();
    await expect(page.getByRole("cell", { name: "Download of their data" }).first()).toBeVisible();
    await expectFitsAndAccessible(page, "admin-privacy");
    await signOut(page);
  });

  test("the download is always the signed-in person's own: a form naming someone else is refused", async ({ page }) => {
    const other = await newCustomer(page);
    await signOut(page);
    await newCustomer(page);
    await page.goto("/profile");
    const response = await page.request.post("/profile/my-data", { headers: { origin: new URL(page.url()).origin }, form: { email: other.email } });
    expect(response.status()).toBe(403);
    expect((await response.json()).error).toBe("You can download only your own data. Signed in, “Download my data” gives you yours.");
  });
});
