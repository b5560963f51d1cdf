/**
 * The privacy notice and seller information (docs/decisions/037) in Chromium against the production build: reached
 * from the footer, every section there, no serious accessibility violation, nothing wider than a 360 px phone; and
 * checkout (ECTA s43(2)) showing the whole order — lines, delivery, VAT, total — before paying, with the way back to
 * change the cart and the legal links beside the pay button.
 */
import { expect, test, type Page } from "./helpers/test";
import { newCustomer, uniqueEmail } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const SHOTS = process.env.LEGAL_SCREENSHOTS; // a folder: save each page at 360 and 1280 px for a look by eye

async function noWiderThanScreen(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

/** The page in screen-high slices (a full page of a phone is too tall to look at in one image). */
async function shoot(page: Page, name: string) {
  const { width, height } = page.viewportSize()!;
  const full = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0, i = 0; y < full && i < 8; y += height * 1.5, i++) {
    await screenshot(page, { path: `${SHOTS}/${name}-${i}.jpg`, fullPage: true, clip: { x: 0, y, width, height: Math.min(height * 1.5, full - y) } });
  }
}

const cents = (rand: string | null) => Math.round(Number(rand!.replace(/[R\s]/g, "").replace("Free", "0")) * 100);

test.describe("legal pages", () => {
  test("footer → privacy notice → seller information, each complete, accessible and phone-sized", async ({ page }) => {
    test.slow(); // axe twice, six pages at two widths
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "Privacy Notice" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1, name: "Privacy notice" })).toBeVisible();
    for (const title of ["Who is responsible", "What we collect and why", "Who else receives it", "Outside South Africa", "Your rights", "The Information Regulator"]) {
      await expect(page.getByRole("heading", { level: 2, name: new RegExp(title) })).toBeVisible();
    }
    const main = page.getByRole("main");
    await expect(main).toContainText("JD House, 27 Stiemens Street");
    await expect(main).toContainText("enquiries@inforegulator.org.za");
    // this E2E shop sets none of the owner's legal facts: the page says so instead of guessing
    await expect(main.getByText("Not provided").first()).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/privacy$/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("contentinfo").getByRole("link", { name: "Seller Information" }).click();
    await expect(page).toHaveURL(/\/seller$/);
    await expect(page.getByRole("heading", { level: 1, name: "Seller information" })).toBeVisible();
    for (const letter of "abcdefghijklmnopqr") await expect(page.getByRole("main")).toContainText(`ECTA s43(1)(${letter})`);
    await expect(page.getByRole("main")).toContainText("within 7 days after the date you receive the goods");
    expect(await seriousViolations(page)).toEqual([]);

    // each page opened once at 360 px, then resized to 1280 px
    for (const path of ["/privacy", "/seller", "/terms"]) {
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto(path);
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await noWiderThanScreen(page);
        if (SHOTS) await shoot(page, `${path.slice(1)}-${width}`);
      }
    }
  });

  test("registration links the privacy notice", async ({ page }) => {
    await page.goto("/auth/register");
    await expect(page.getByRole("main").getByRole("link", { name: "privacy notice", exact: true })).toHaveAttribute("href", "/privacy");
  });
});

test.describe("checkout before paying (ECTA s43(2))", () => {
  test("shows every line, the delivery, the VAT and the total, and lets the shopper change the cart before paying", async ({ page }) => {
    test.slow();
    await newCustomer(page, { email: uniqueEmail("legal") });
    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/checkout");
    await fillAddress(page);

    const summary = page.getByRole("complementary", { name: "Order summary" });
    await expect(summary.getByText("White Tea Ritual")).toBeVisible();
    await expect(summary).toContainText("× 1");
    await expect(summary.getByText("R299.00 each")).toBeVisible();
    await expect(summary.getByTestId("shipping")).toHaveText(/^R\d/); // below free delivery: the zone's fee
    const subtotal = cents(await summary.getByTestId("subtotal").textContent());
    const delivery = cents(await summary.getByTestId("shipping").textContent());
    const total = cents(await summary.getByTestId("total").textContent());
    const vat = cents(await summary.getByTestId("vat").textContent());
    expect(subtotal).toBe(29900);
    expect(delivery).toBeGreaterThan(0);
    expect(total).toBe(subtotal + delivery);
    expect(vat).toBe(Math.round((total * 15) / 115));
    await expect(summary.getByRole("button", { name: `Pay R${(total / 100).toFixed(2)}` })).toBeVisible();
    for (const [name, href] of [
      ["seller information", "/seller"],
      ["terms", "/terms"],
      ["privacy notice", "/privacy"],
    ]) {
      await expect(summary.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    if (SHOTS) await shoot(page, "checkout-1280");

    // Correct it: back to the cart, two bottles, back to checkout — the summary follows, nothing was charged.
    await summary.getByRole("link", { name: "Change cart" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.getByLabel("Quantity for White Tea Ritual").selectOption("2");
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await fillAddress(page);
    await expect(summary).toContainText("× 2");
    await expect(summary.getByTestId("subtotal")).toHaveText("R598.00");

    // Or withdraw: removing the last line leaves nothing to pay for.
    await summary.getByRole("link", { name: "change your cart" }).click();
    await page.getByRole("button", { name: "Remove White Tea Ritual" }).click();
    await page.goto("/checkout");
    await expect(page).toHaveURL(/\/cart$/);
  });
});
