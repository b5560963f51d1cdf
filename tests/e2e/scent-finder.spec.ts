/**
 * The scent finder (issue 22) on a 360 px phone with touch, with and without JavaScript: home → finder → five
 * answers → three picks → Add to Cart, in at most six taps inside the finder, every question within one screen; the
 * shared result link opened in a fresh browser shows the same picks; bad input in the URL is named, never an error.
 * Also the product page's pyramid and similar scents, and the shop's family filter without JavaScript. Screenshots
 * go to test-results/screenshots/scent-*.png (look at them: they are the review of the look).
 */
import { mkdirSync } from "node:fs";
import { expect, test, type Locator, type Page } from "./helpers/test";
import { seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const phone360 = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;
/** the fixed header's height: a question must fit in the screen below it */
const HEADER_PX = 72;
const SHOTS = "test-results/screenshots";

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The tile (label) of an answer, tapped as a thumb would: anywhere on it, not on the small mark. */
function answer(page: Page, role: "radio" | "checkbox", name: RegExp): Locator {
  return page.locator("label").filter({ has: page.getByRole(role, { name }) });
}

/** The five answers and the button: six taps. Returns how many taps it took. */
async function answerFive(page: Page): Promise<number> {
  let taps = 0;
  const tap = async (target: Locator) => {
    await target.tap();
    taps++;
  };
  await tap(answer(page, "radio", /^For men/));
  await tap(answer(page, "radio", /^Evening/));
  await tap(answer(page, "checkbox", /^Woody/));
  await tap(answer(page, "radio", /^Strong/));
  await tap(answer(page, "radio", /^Up to R800/));
  await tap(page.getByRole("button", { name: "Show my three scents" }));
  return taps;
}

const ANSWERED = /\/scent-finder\?for=men&when=evening&family=woody&love=&strength=strong&budget=800&go=1$/;

test.describe("the scent finder on a 360 px phone", () => {
  test("home → finder → five answers → three picks → Add to Cart, six taps, every question within the screen", async ({ browser, baseURL }) => {
    mkdirSync(SHOTS, { recursive: true });
    const context = await browser.newContext({ ...phone360, baseURL });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("link", { name: "Find Your Scent" }).tap();
    await expect(page).toHaveURL(/\/scent-finder$/);
    await expect(page.getByRole("heading", { level: 1, name: "Scent Finder" })).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // each question fits in the screen under the header
    const questions = page.locator("fieldset[data-question]");
    await expect(questions).toHaveCount(5);
    for (let i = 0; i < 5; i++) {
      const box = (await questions.nth(i).boundingBox())!;
      expect(box.height, `question ${i + 1}`).toBeLessThanOrEqual(740 - HEADER_PX);
      expect(box.width, `question ${i + 1}`).toBeLessThanOrEqual(360);
    }
    await screenshot(page, { path: `${SHOTS}/scent-finder-questions-360.jpg`, fullPage: true });

    expect(await answerFive(page)).toBeLessThanOrEqual(6);
    await expect(page).toHaveURL(ANSWERED);
    await expect(page.getByRole("heading", { level: 1, name: "Your three scents" })).toBeVisible();
    const picks = page.getByTestId("finder-pick");
    await expect(picks).toHaveCount(3);
    for (let i = 0; i < 3; i++) await expect(picks.nth(i).getByTestId("pick-reason")).toHaveText(/R\d+\.\d\d/);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/scent-finder-result-360.jpg`, fullPage: true });

    // WhatsApp carries the result's own link
    const share = page.getByRole("link", { name: "Share on WhatsApp" });
    await expect(share).toHaveAttribute("href", /^https:\/\/wa\.me\/\?text=.*scent-finder%3Ffor%3Dmen/);

    const first = picks.first();
    await first.getByRole("button", { name: "Add to Cart" }).tap();
    await expect(first.getByRole("status").filter({ hasText: "to your cart" })).toBeVisible();
    await context.close();
  });

  test("the same without JavaScript: a plain GET form, three picks, Add to Cart says it needs JavaScript", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("link", { name: "Find Your Scent" }).tap();
    await expect(page).toHaveURL(/\/scent-finder$/);
    expect(await answerFive(page)).toBeLessThanOrEqual(6);
    await expect(page).toHaveURL(ANSWERED);
    await expect(page.getByTestId("finder-pick")).toHaveCount(3);
    const add = page.getByTestId("finder-pick").first().getByRole("button", { name: "Add to Cart" });
    await expect(add).toBeDisabled();
    await expect(add).toHaveAccessibleDescription(/needs JavaScript/);
    await context.close();
  });

  test("a shared result link opened in a fresh browser shows the same picks", async ({ browser, baseURL }) => {
    const url = "/scent-finder?for=women&when=day&family=floral&love=Chanel&strength=light&budget=600";
    const names = async () => {
      const context = await browser.newContext({ ...phone360, baseURL });
      const page = await context.newPage();
      await page.goto(url);
      const list = await page.getByTestId("finder-pick").getByRole("heading", { level: 3 }).allTextContents();
      await context.close();
      return list;
    };
    const first = await names();
    expect(first).toHaveLength(3);
    expect(await names()).toEqual(first);
  });

  test("bad input in the URL: the page says what it ignored, never an error", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const response = await page.goto(`/scent-finder?family=stinky&budget=-5&for=aliens&love=${"x".repeat(10_000)}`);
    expect(response?.status()).toBe(200);
    const notes = page.getByTestId("finder-notes");
    await expect(notes).toContainText("We ignored the kind of scent “stinky”");
    await expect(notes).toContainText("We ignored the budget “-5”");
    await expect(notes).toContainText("first 100 characters");
    await expect(page.getByTestId("finder-pick")).toHaveCount(3);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect((await page.goto("/scent-finder?budget=1000000000"))?.status()).toBe(200);
    await expect(page.getByTestId("finder-notes")).toContainText("We ignored the budget “1000000000”");
  });

  test("the menu and the shop lead to the finder", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone360, baseURL });
    const page = await context.newPage();
    await page.goto("/shop");
    await expect(page.getByRole("link", { name: "Scent Finder" }).first()).toHaveAttribute("href", "/scent-finder");
    await page.locator("summary[aria-label='Menu']").tap();
    await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Scent Finder" }).tap();
    await expect(page).toHaveURL(/\/scent-finder$/);
    await context.close();
  });
});

test.describe("profiles in the shop", () => {
  test("the product page shows the pyramid and three similar scents; a note leads to the shop's note filter", async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    // one page load, resized to each width
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/products/midnight-cartographer");
    for (const width of [360, 390, 1280]) {
      await page.setViewportSize({ width, height: width < 800 ? 740 : 900 });
      const pyramid = page.getByTestId("scent-pyramid");
      await expect(pyramid.getByRole("list", { name: /Notes/ }).getByRole("listitem")).toHaveCount(3);
      await expect(pyramid).toContainText("Calabrian bergamot");
      const similar = page.getByTestId("similar-scents");
      await expect(similar.getByRole("listitem")).toHaveCount(3);
      await expect(similar.getByRole("heading", { level: 3 }).first()).toHaveText("Blue Meridian");
      expect(await horizontalOverflow(page), `product at ${width}`).toBeLessThanOrEqual(0);
      await pyramid.scrollIntoViewIfNeeded();
      await screenshot(page, { path: `${SHOTS}/scent-pyramid-${width}.jpg` });
      await similar.scrollIntoViewIfNeeded();
      await screenshot(page, { path: `${SHOTS}/scent-similar-${width}.jpg` });
    }
    await page.getByTestId("scent-pyramid").getByRole("link", { name: "lavender absolute" }).click();
    await expect(page).toHaveURL(/\/shop\?note=lavender$/);
    await expect(page.getByRole("link", { name: /Midnight Cartographer/ })).toBeVisible();
  });

  test("the finder's questions and result at 390 and 1280 px", async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    // each page loaded once, resized to each width
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/scent-finder");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, { path: `${SHOTS}/scent-finder-questions-${width}.jpg`, fullPage: true });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/scent-finder?for=men&when=evening&family=woody&love=Tom+Ford&strength=strong&budget=800");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
      await expect(page.getByTestId("finder-pick")).toHaveCount(3);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, { path: `${SHOTS}/scent-finder-result-${width}.jpg`, fullPage: true });
    }
  });

  test("accessibility: the questions, a result and a product page's pyramid have no serious axe violations", async ({ page }) => {
    for (const path of ["/scent-finder", "/scent-finder?for=women&family=floral&love=Chanel&budget=600", "/products/midnight-cartographer"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });

  test("the shop's family filter without JavaScript: in the URL, applied on the server", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/shop");
    await page.getByLabel("Family").selectOption("woody");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/family=woody/);
    await expect(page.getByText("Showing 7 of")).toBeVisible();
    await context.close();
  });
});
