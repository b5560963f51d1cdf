/**
 * Samples and the discovery set (issue 33 point 2) in the browser: the owner turns samples on in Admin → Samples; on a
 * 360 px phone a shopper builds a set of five in at most eight taps (with JavaScript: five scents and Add set to cart;
 * without: five scents and Check my set, the page answering with the set), the finder's three open it preselected, the
 * product page offers "Try a 2 ml sample", and the cart shows both lines at the server's prices. Screenshots of
 * /discovery-set and the product page's offer at 1280, 390 and 360 px go to test-results/screenshots/samples-*.jpg.
 */
import { mkdirSync } from "node:fs";
import type { Browser } from "@playwright/test";
import { expect, test, type Locator, type Page } from "./helpers/test";
import { signInAsAdmin } from "./helpers/auth";
import { screenshot } from "./helpers/screenshot";

const phone360 = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;
const phone390 = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
const SHOTS = "test-results/screenshots";
const PRODUCT = "/products/midnight-cartographer";

/** The owner turns samples on for the whole catalogue: R35 a sample, five for R150, 60 days of credit. */
async function turnSamplesOn(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAsAdmin(page);
  await page.goto("/admin/samples");
  const form = page.getByRole("form", { name: "Sample settings" });
  await form.getByRole("checkbox").check();
  await form.getByLabel("Sample price (R)").fill("35");
  await form.getByLabel("Samples in a set").fill("5");
  await form.getByLabel("Set price (R)").fill("150");
  await form.getByLabel("Credit window (days)").fill("60");
  await form.getByRole("button", { name: "Save sample settings" }).click();
  await expect(page.getByText("Sample settings saved")).toBeVisible();
  await context.close();
}

function scentCards(page: Page): Locator {
  return page.getByTestId("set-scent");
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe("the discovery set", () => {
  test.beforeAll(async ({ browser, baseURL }) => {
    mkdirSync(SHOTS, { recursive: true });
    await turnSamplesOn(browser, baseURL);
  });

  test("on a 360 px phone with JavaScript: five scents and Add set to cart, six taps; the cart prices the set", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL });
    const page = await context.newPage();
    await page.goto("/discovery-set");
    await expect(page.getByRole("heading", { level: 1, name: "Build your discovery set" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add set to cart" })).toBeDisabled();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/samples-discovery-set-360.jpg`, fullPage: false });

    let taps = 0;
    for (let i = 0; i < 5; i++) {
      await scentCards(page).nth(i).tap();
      taps++;
    }
    await expect(page.getByTestId("set-count")).toHaveText("5 of 5");
    // the set is full: the other scents rest until one is let go
    await expect(scentCards(page).nth(5).getByRole("checkbox")).toBeDisabled();
    await screenshot(page, { path: `${SHOTS}/samples-discovery-set-360-chosen.jpg`, fullPage: false });
    await page.getByRole("button", { name: "Add set to cart" }).tap();
    taps++;
    await expect(page.getByText("Your discovery set is in your cart.")).toBeVisible();
    expect(taps).toBeLessThanOrEqual(8);

    await page.getByRole("link", { name: "View cart" }).tap();
    await expect(page).toHaveURL(/\/cart$/);
    const line = page.getByText(/^Discovery set: /).first();
    await expect(line).toBeVisible();
    // the server's price of the set, whatever the browser stored
    await expect(page.getByTestId("subtotal")).toHaveText("R150.00");
    await context.close();
  });

  test("samples on: the menu at 360 px, the header's bar at 1280 px and the footer link to the discovery set", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Discovery Set" })).toHaveAttribute("href", "/discovery-set");
    await page.getByLabel("Menu").tap();
    await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Discovery Set" }).tap();
    await expect(page).toHaveURL(/\/discovery-set$/);
    await expect(page.getByRole("heading", { level: 1, name: "Build your discovery set" })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Discovery Set" })).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/samples-header-link-1280.jpg`, fullPage: false });
    await context.close();
  });

  test("without JavaScript: five scents and Check my set, the page answers with the set", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/discovery-set");
    let taps = 0;
    for (let i = 0; i < 5; i++) {
      await scentCards(page).nth(i).tap();
      taps++;
    }
    await page.getByRole("button", { name: "Check my set" }).tap();
    taps++;
    expect(taps).toBeLessThanOrEqual(8);
    await expect(page).toHaveURL(/\/discovery-set\?(pick=[^&]+&?){5}$/);
    await expect(page.getByTestId("set-ready")).toContainText("Your set is ready: R150.00");
    await expect(page.getByTestId("set-count")).toHaveText("5 of 5");
    await expect(page.getByRole("link", { name: "order it on WhatsApp" })).toHaveAttribute("href", /^https:\/\/wa\.me\//);
    await screenshot(page, { path: `${SHOTS}/samples-discovery-set-360-nojs.jpg`, fullPage: true });
    await context.close();
  });

  test("the finder's three open the set preselected: two more scents and Add set to cart", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL });
    const page = await context.newPage();
    await page.goto("/scent-finder?for=men&when=evening&family=woody&love=&strength=strong&budget=800&go=1");
    await page.getByTestId("try-as-samples").tap();
    await expect(page).toHaveURL(/\/discovery-set\?pick=/);
    await expect(page.getByTestId("set-count")).toHaveText("3 of 5");
    let taps = 0;
    const free = page.locator("[data-testid=set-scent]:not(:has(input:checked))");
    for (let i = 0; i < 2; i++) {
      await free.first().tap();
      taps++;
    }
    await page.getByRole("button", { name: "Add set to cart" }).tap();
    taps++;
    await expect(page.getByText("Your discovery set is in your cart.")).toBeVisible();
    expect(taps).toBe(3);
    await context.close();
  });

  test("the product page offers a 2 ml sample beside Add to Cart; the cart prices it at R35", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL });
    const page = await context.newPage();
    await page.goto(PRODUCT);
    const offer = page.getByTestId("sample-offer");
    await expect(offer).toBeVisible();
    await offer.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/samples-product-360.jpg`, fullPage: false });
    await offer.getByRole("button", { name: "Try a 2 ml sample — R35.00" }).tap();
    await expect(offer.getByText(/Added a 2 ml sample of Midnight Cartographer/)).toBeVisible();
    await page.goto("/cart");
    await expect(page.getByRole("heading", { level: 2, name: "Midnight Cartographer" })).toBeVisible();
    await expect(page.getByTestId("line-size")).toHaveText("2 ml sample");
    await expect(page.getByTestId("subtotal")).toHaveText("R35.00");
    await context.close();
  });

  test("screenshots at 1280 and 390 px", async ({ browser, baseURL }) => {
    for (const [name, options] of [
      ["1280", { viewport: { width: 1280, height: 900 } }],
      ["390", phone390],
    ] as const) {
      const context = await browser.newContext({ ...options, baseURL });
      const page = await context.newPage();
      await page.goto("/discovery-set?pick=midnight-cartographer&pick=karoo-dusk");
      await expect(page.getByTestId("set-count")).toHaveText("2 of 5");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, { path: `${SHOTS}/samples-discovery-set-${name}.jpg`, fullPage: false });
      await page.goto(PRODUCT);
      const offer = page.getByTestId("sample-offer");
      await offer.scrollIntoViewIfNeeded();
      await screenshot(page, { path: `${SHOTS}/samples-product-${name}.jpg`, fullPage: false });
      await context.close();
    }
  });
});
