/**
 * The storefront on a phone (issue 13): 360 and 390 px wide, touch, and without JavaScript. The demo catalogue has
 * Amber Lantern (R599.00) and Pink Protea (R399.00, tiers from 3); the E2E server offers card and bank transfer.
 */
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { registerAndSignIn } from "./helpers/auth";
import { addFromProductPage } from "./helpers/shop";

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe("no storefront page is wider than the screen", () => {
  test.use(phone);

  test("every storefront page at 360 and 390 px, signed in with a cart", async ({ page }) => {
    test.slow();
    await registerAndSignIn(page);
    await addFromProductPage(page, "pink-protea", 3);
    await addFromProductPage(page, "amber-lantern");
    mkdirSync("test-results/screenshots", { recursive: true });
    const pages = [
      "/",
      "/shop",
      "/shop?page=2",
      "/shop?q=zzzz-nothing",
      "/products/amber-lantern",
      "/products/pink-protea",
      "/cart",
      "/checkout",
      "/profile",
      "/profile?tab=orders",
      "/profile?tab=preferences",
      "/terms",
      "/order-confirmation?id=test",
      "/payment-status?orderId=test&status=success",
      "/payment-status?orderId=test&status=cancelled",
      "/no-such-page",
    ];
    for (const width of [360, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of pages) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
        // the cart and checkout draw their lines after hydration: measure what the shopper sees then
        if (path === "/cart") await expect(page.getByRole("heading", { name: "Amber Lantern" })).toBeVisible();
        if (path === "/checkout") await expect(page.getByLabel("Full name")).toBeVisible();
        expect(await horizontalOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
    }
  });

  test("the sign-in pages at 360 px, signed out", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    for (const path of ["/auth/login", "/auth/register", "/auth/forgot-password", "/cart"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
    }
  });
});
