/**
 * The whole money path in Chromium against the production build (simulated payments, demo catalogue:
 * Pink Protea R399.00, White Tea Ritual R299.00, coupon WELCOME10 = 10% off, free delivery from R599 after discount).
 */
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "./helpers/test";
import { E2E_PASSWORD, register, signOut, uniqueEmail } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";

async function signInHere(page: Page, email: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** axe-core: no serious or critical violations on the page as it is now. */
async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

const storedCart = (page: Page) => page.evaluate(() => [localStorage.getItem("cart"), localStorage.getItem("appliedCoupon")]);

test.describe("checkout and payment", () => {
  test("cart → coupon → sign in → checkout → simulated payment → status → confirmation → profile → review", async ({ page }) => {
    test.slow(); // the whole journey, with accessibility checks on four pages
    // A visitor fills the cart and applies a coupon.
    await addFromProductPage(page, "pink-protea", 2);
    await page.goto("/cart");
    await page.getByLabel("Coupon code").fill("welcome10");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Coupon applied! You saved R79.80")).toBeVisible();

    // They have an account; checkout sends them to sign in and back.
    const email = uniqueEmail("buyer");
    await register(page, { email, password: E2E_PASSWORD });
    await page.goto("/cart");
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fcheckout/);
    await signInHere(page, email);
    await expect(page).toHaveURL(/\/checkout$/);

    // Checkout: the server's total (R798.00 − R79.80, free delivery from R599).
    await fillAddress(page);
    await page.getByRole("button", { name: "Pay R718.20" }).click();

    // The simulated provider's page: clearly a test, with the order and the amount.
    await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
    await expect(page.getByRole("heading", { name: "Test payment" })).toBeVisible();
    await expect(page.getByRole("note")).toContainText("No card is needed and no money is charged.");
    await expect(page.getByText("R718.20", { exact: true })).toBeVisible();
    const shortId = (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Pay R718.20" }).click();

    // Back in the shop: the verified state, and the cart (with its coupon) is emptied.
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await expect(page.getByText("Thank you for your purchase. Your order is now being processed.")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/payment-status\\?orderId=${shortId}[0-9a-f-]+&status=success`));
    await expect.poll(() => storedCart(page)).toEqual([null, null]);
    await expectAccessible(page);

    // The confirmation shows what the server stored.
    await page.getByRole("link", { name: "View Order Details" }).click();
    await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
    await expect(page.getByText(`#${shortId}`)).toBeVisible();
    await expect(page.getByText("Pink Protea")).toBeVisible();
    await expect(page.getByText("2 x R399.00")).toBeVisible();
    await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
    await expect(page.getByText("-R79.80")).toBeVisible();
    await expect(page.getByText("R718.20")).toBeVisible();
    await expect(page.getByRole("heading", { name: "What's Next?" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute("href", "/shop");
    const confirmationUrl = page.url();
    await expectAccessible(page);

    // A paid order has its invoice (docs/decisions/019): a PDF download named after its number.
    const invoiceLink = page.getByRole("link", { name: /^Download invoice INV-\d{6} as a PDF$/ });
    const [download] = await Promise.all([page.waitForEvent("download"), invoiceLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^Scentara-INV-\d{6}\.pdf$/);
    expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe("%PDF-");

    // The order is in the profile, being processed.
    await page.getByRole("link", { name: "View Order Status" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.goto("/profile/orders");
    await expect(page.getByRole("link", { name: new RegExp(`^Order ${shortId}, .*, Processing, R718\\.20$`) })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(`^Invoice INV-\\d{6} for order ${shortId}, as a PDF$`) })).toHaveAttribute("href", /\/orders\/[0-9a-f-]+\/invoice\.pdf$/);

    // Having bought it, they review it.
    await page.goto("/products/pink-protea");
    await expect(page.getByRole("heading", { name: "Write a review" })).toBeVisible();
    await page.getByLabel("Your review").fill("Bright and green, exactly as described.");
    await page.getByRole("button", { name: "Submit review" }).click();
    await expect(page.getByText("Thank you — your review has been saved.")).toBeVisible();

    // Signed out, the confirmation asks for sign-in and comes back to it.
    await signOut(page);
    await page.goto(confirmationUrl);
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Forder-confirmation%3Fid%3D/);
    await signInHere(page, email);
    await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  });

  test("cancel path: the order is cancelled, the cart is kept, and a later 'success' visit marks nothing paid", async ({ page }) => {
    test.slow();
    const email = uniqueEmail("canceller");
    await register(page, { email, password: E2E_PASSWORD });
    await signInHere(page, email);
    await expect(page).not.toHaveURL(/\/auth\/login/);

    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/checkout");
    await fillAddress(page);
    await page.getByRole("button", { name: /^Pay R/ }).click();
    await expect(page.getByRole("heading", { name: "Test payment" })).toBeVisible();
    const shortId = (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
    await page.getByRole("button", { name: "Cancel" }).click();

    await expect(page.getByRole("heading", { name: "Payment Failed" })).toBeVisible();
    await expect(page.getByText("Your payment was not completed. Please try again.")).toBeVisible();
    const successUrl = page.url().replace("status=cancelled", "status=success");
    await expectAccessible(page);
    expect((await storedCart(page))[0]).toContain("White Tea Ritual");

    // Try Again goes back to the cart, which still holds the fragrance.
    await page.getByRole("link", { name: "Try Again" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole("heading", { name: "White Tea Ritual" })).toBeVisible();

    // Visiting the success URL by hand shows the verified state: still failed.
    await page.goto(successUrl);
    await expect(page.getByRole("heading", { name: "Payment Failed" })).toBeVisible();

    // The profile lists it apart from real orders: a folded list of payment attempts that didn't go through.
    await page.goto("/profile/orders");
    await expect(page.getByText("No orders found")).toBeVisible();
    await page.getByText("Payment attempts that didn't go through (1)").click();
    await expect(page.getByRole("link", { name: new RegExp(`^Payment attempt ${shortId}, .*, Not paid, `) })).toBeVisible();
    await expectAccessible(page);
  });

  test("back from the provider before its webhook: the page waits, then shows the verified payment", async ({ page }) => {
    test.slow();
    const email = uniqueEmail("early");
    await register(page, { email, password: E2E_PASSWORD });
    await signInHere(page, email);
    await expect(page).not.toHaveURL(/\/auth\/login/);
    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/checkout");
    await fillAddress(page);
    await page.getByRole("button", { name: /^Pay R/ }).click();
    await expect(page.getByRole("heading", { name: "Test payment" })).toBeVisible();
    const payUrl = page.url();
    const origin = new URL(payUrl).origin;
    // Cancel only redirects (the return page does the cancelling), so its Location tells us the order's return URL.
    const probe = await page.request.post(payUrl, { form: { intent: "cancel" }, headers: { origin }, maxRedirects: 0 });
    const successUrl = probe.headers()["location"].replace("status=cancelled", "status=success");

    // The buyer lands on the success URL first: nothing is verified yet, so nothing is shown as paid.
    await page.goto(successUrl);
    await expect(page.getByRole("heading", { name: "Confirming your payment…" })).toBeVisible();
    // Now the provider's signed webhook arrives (the test page's Pay, sent from outside this tab).
    const paid = await page.request.post(payUrl, { form: { intent: "pay" }, headers: { origin }, maxRedirects: 0 });
    expect(paid.status()).toBe(302);
    // The page re-checks by itself and shows the verified success.
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await expect.poll(() => storedCart(page)).toEqual([null, null]);
  });

  test("orderId=test shows the success screen; an unknown status says so", async ({ page }) => {
    await page.goto("/payment-status?orderId=test&status=success");
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await page.goto("/payment-status?orderId=test&status=maybe");
    await expect(page.getByText("Unknown payment status: maybe")).toBeVisible();
  });
});
