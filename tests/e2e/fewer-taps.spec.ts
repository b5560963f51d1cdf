/**
 * Fewer taps to pay (issue 13) on a phone: a shopper sent from checkout to register is back at checkout after
 * signing in, without typing the e-mail twice; a customer who ordered before gets their last address offered, so the
 * second checkout needs no typing at all. Demo catalogue: White Tea Ritual R299.00, Pink Protea R399.00.
 */
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "./helpers/test";
import { E2E_PASSWORD, register, uniqueEmail } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Screenshots at 390 and 1280 px of the page as it is, for looking at; the phone width is restored afterwards. */
async function screenshots(page: Page, name: string) {
  mkdirSync("test-results/screenshots", { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await horizontalOverflow(page), `${name} at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `test-results/screenshots/${name}-${width}.jpg`, fullPage: true });
  }
  await page.setViewportSize(phone.viewport);
}

/** Pays the order on the simulated provider's page and waits for the shop's success screen. */
async function payOnSimulatedPage(page: Page) {
  await expect(page.getByRole("heading", { name: "Test payment" })).toBeVisible();
  await page.getByRole("button", { name: /^Pay R/ }).tap();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
}

test.describe("fewer taps to pay, on a phone", () => {
  test.use(phone);

  test("checkout → register → login with the e-mail filled in → back at checkout; the next checkout offers the last address", async ({ page }) => {
    test.slow(); // two orders, with two payments
    const email = uniqueEmail("phone-buyer");

    // A visitor with a cart heads for checkout and is sent to sign in; they have no account yet.
    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/cart");
    await page.getByRole("link", { name: "Proceed to Checkout" }).tap();
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fcheckout$/);
    await page.getByRole("link", { name: "Sign up" }).tap();
    await expect(page).toHaveURL(/\/auth\/register\?redirect=%2Fcheckout$/);
    await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/auth/login?redirect=%2Fcheckout");

    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).tap();

    // The login page knows the e-mail (not from the address bar) and where they were going; the password is next.
    await expect(page).toHaveURL(/\/auth\/login\?registered=1&redirect=%2Fcheckout$/);
    expect(page.url()).not.toContain(email.split("@")[0]);
    await expect(page.getByText("Your account is ready. Please sign in.")).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
    await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
    await screenshots(page, "login-prefilled");
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).tap();
    await expect(page).toHaveURL(/\/checkout$/);

    // A first order: nothing to offer, the address is typed once.
    await expect(page.getByText("Deliver to your last address")).toHaveCount(0);
    await fillAddress(page);
    await page.getByRole("button", { name: /^Pay R/ }).tap();
    await payOnSimulatedPage(page);

    // The next order: the last address is offered, with its province's delivery zone, and paying takes one tap.
    await addFromProductPage(page, "pink-protea");
    await page.goto("/checkout");
    const last = page.getByLabel("Your last address");
    await expect(page.getByText("Deliver to your last address")).toBeVisible();
    await expect(last).toContainText("Thandi Nkosi");
    await expect(last).toContainText("12 Jacaranda Street, Menlo Park, Pretoria 0081, Gauteng");
    await expect(last).toContainText("082 123 4567");
    await expect(page.getByLabel("Full name")).toHaveCount(0);
    await expect(page.getByTestId("checkout-top-total")).toBeVisible();
    await screenshots(page, "checkout-last-address");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: /^Pay R/ }).tap();
    await payOnSimulatedPage(page);
    await page.getByRole("link", { name: "View Order Details" }).tap();
    await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
    await expect(page.getByText("12 Jacaranda Street")).toBeVisible();
    await expect(page.getByText("Pink Protea")).toBeVisible();
  });

  test("the last address can be changed, or replaced by a new one, and taken back", async ({ page }) => {
    const email = uniqueEmail("changer");
    await register(page, { email, password: E2E_PASSWORD });
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).tap();
    await expect(page).not.toHaveURL(/\/auth\/login/);
    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/checkout");
    await fillAddress(page);
    await page.getByRole("button", { name: /^Pay R/ }).tap();
    await payOnSimulatedPage(page);

    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/checkout");
    await expect(page.getByText("Deliver to your last address")).toBeVisible();

    // Change: the fields, filled in with the last address; the first one ready to type in.
    await page.getByRole("button", { name: "Change this address" }).tap();
    await expect(page.getByLabel("Full name")).toHaveValue("Thandi Nkosi");
    await expect(page.getByLabel("Full name")).toBeFocused();
    await expect(page.getByLabel("Telephone")).toHaveValue("082 123 4567");
    await expect(page.getByLabel("Postal code")).toHaveValue("0081");
    await expect(page.getByLabel("Province")).toHaveValue("Gauteng");
    await screenshots(page, "checkout-change-address");

    // Back to the card, then a new address: empty fields.
    await page.getByRole("button", { name: "Use my last address as it was" }).tap();
    await expect(page.getByLabel("Your last address")).toContainText("12 Jacaranda Street");
    await page.getByRole("button", { name: "Use a new address" }).tap();
    await expect(page.getByLabel("Full name")).toHaveValue("");
    await expect(page.getByLabel("Street address")).toHaveValue("");
    await expect(page.getByLabel("Province")).toHaveValue("");

    // A changed telephone number is what the order keeps.
    await page.getByRole("button", { name: "Use my last address as it was" }).tap();
    await page.getByRole("button", { name: "Change this address" }).tap();
    // the form takes the focus to its first field once shown: typing before that (a loaded full run) went into the name
    await expect(page.getByLabel("Full name")).toBeFocused();
    await page.getByLabel("Telephone").fill("083 555 0101");
    await page.getByRole("button", { name: /^Pay R/ }).tap();
    await payOnSimulatedPage(page);
    await page.getByRole("link", { name: "View Order Details" }).tap();
    await expect(page.getByText("+27835550101")).toBeVisible();
    await expect(page.getByText("12 Jacaranda Street")).toBeVisible();
  });
});

test.describe("register → login without JavaScript", () => {
  test.use({ ...phone, javaScriptEnabled: false });

  test("the plain forms keep the e-mail and the way back to checkout", async ({ page }) => {
    const email = uniqueEmail("no-script");
    await page.goto("/auth/register?redirect=%2Fcheckout");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?registered=1&redirect=%2Fcheckout$/);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole("heading", { name: "Checkout", level: 1 })).toBeVisible();
  });
});
