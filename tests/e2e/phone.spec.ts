/**
 * The storefront on a phone (issue 13): 360 and 390 px wide, touch, and without JavaScript. The demo catalogue has
 * Amber Lantern (R599.00) and Pink Protea (R399.00, tiers from 3); the E2E server offers card and bank transfer.
 */
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "./helpers/test";
import { newCustomer } from "./helpers/auth";
import { addFromProductPage } from "./helpers/shop";
import { animationClock } from "./helpers/clock";

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** Waits for the shop's stylesheet (inlined in the head; a page whose scripts are held has not fired "load"). */
async function stylesLoaded(page: Page) {
  await page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.cssRules.length > 0));
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe("no storefront page is wider than the screen", () => {
  test.use(phone);

  test("every storefront page at 360 and 390 px, signed in with a cart", async ({ page }) => {
    test.slow();
    await newCustomer(page);
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
      "/profile/orders",
      "/profile/preferences",
      "/terms",
      "/order-confirmation?id=test",
      "/payment-status?orderId=test&status=success",
      "/payment-status?orderId=test&status=cancelled",
      "/no-such-page",
    ];
    // each page opened once at 360 px, then resized to 390 px (opening it anew cost a page load apiece)
    for (const path of pages) {
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto(path);
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 800 });
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

test.describe("never stuck without JavaScript", () => {
  test("browse → product → cart at 390 px with touch: the menu opens, Add to Cart and the cart say they need JavaScript", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone, baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await page.locator("summary[aria-label='Menu']").tap();
    await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Shop", exact: true }).tap();
    await expect(page).toHaveURL(/\/shop$/);
    await page.getByRole("link", { name: /Amber Lantern/ }).first().tap();
    await expect(page.getByRole("heading", { level: 1, name: "Amber Lantern" })).toBeVisible();
    const add = page.getByRole("button", { name: "Add to Cart" });
    await expect(add).toBeDisabled();
    await expect(add).toHaveAccessibleDescription(/needs JavaScript/);
    await expect(page.getByText("Add to Cart needs JavaScript")).toBeVisible();

    await page.goto("/cart");
    await expect(page.getByText("This page needs JavaScript")).toBeVisible();
    await expect(page.getByText("Your cart is kept in this browser")).toBeVisible();
    await expect(page.getByText("Loading your cart…")).toBeHidden();
    await expect(page.getByTestId("still-loading")).toBeHidden();
    await context.close();
  });
});

test.describe("never stuck on slow or failed JavaScript", () => {
  test.use(phone);

  test("when the page's script never arrives, the cart and Add to Cart say they are still loading and offer a retry", async ({ page }) => {
    // the line appears by a 4-second CSS animation delay: the test holds the page's animation clock, then runs it
    const animations = await animationClock(page);
    await animations.hold();
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto("/cart", { waitUntil: "commit" });
    await stylesLoaded(page);
    await expect(page.getByText("Loading your cart…")).toBeVisible();
    await expect(page.getByTestId("still-loading")).toBeHidden();
    await expect(page.getByText("This page needs JavaScript")).toBeHidden();
    const still = page.getByTestId("still-loading");
    await animations.fastForward();
    await expect(still).toBeVisible();
    await expect(still.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/cart");

    await animations.hold();
    await page.goto("/products/amber-lantern");
    await expect(page.getByRole("button", { name: "Add to Cart" })).toBeDisabled();
    await expect(page.getByText("Add to Cart works once the page has finished loading.")).toBeHidden();
    await animations.fastForward();
    await expect(page.getByText("Add to Cart works once the page has finished loading.")).toBeVisible();
  });

  test("when the script is slow, the still-loading line goes away once it has run", async ({ page }) => {
    test.slow();
    // Scripts are held until the shopper has seen the still-loading line, then let through.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    // the line appears by a 4-second CSS animation delay: the test holds the page's animation clock, then runs it
    const animations = await animationClock(page);
    await animations.hold();
    await page.goto("/products/amber-lantern", { waitUntil: "commit" });
    await stylesLoaded(page);
    // nothing at first: a script that arrives within a few seconds never shows the line
    await expect(page.getByText("Add to Cart works once the page has finished loading.")).toBeHidden();
    await animations.fastForward();
    await expect(page.getByText("Add to Cart works once the page has finished loading.")).toBeVisible();
    release();
    await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled({ timeout: 25_000 });
    await expect(page.getByText("Add to Cart works once the page has finished loading.")).toBeHidden();
  });
});

test.describe("spec gaps (SPEC §4)", () => {
  test.use(phone);

  test("the test order's confirmation reads as paid", async ({ page }) => {
    await page.goto("/order-confirmation?id=test");
    await expect(page.getByRole("heading", { level: 1, name: "Thank You for Your Order!" })).toBeVisible();
    await expect(page.getByText("Paid", { exact: true })).toBeVisible();
    await expect(page.getByText("#test")).toBeVisible();
  });
});

test.describe("product page on a phone (390 × 844, touch)", () => {
  test.use(phone);

  test("price, size, stock, rating and Add to Cart in the first screen; the delivery window; no chat button over the controls", async ({ page }) => {
    await page.goto("/products/amber-lantern");
    await expect(page.getByRole("heading", { level: 1, name: "Amber Lantern" })).toBeInViewport();
    await expect(page.getByText("R599.00").first()).toBeInViewport();
    // the size shown, and the choice of the scent's other sizes, in the first screen
    await expect(page.getByText("100 ml", { exact: true }).first()).toBeInViewport();
    await expect(page.getByTestId("size-choice")).toBeInViewport();
    await expect(page.getByTestId("stock-status")).toHaveText("In stock");
    await expect(page.getByTestId("stock-status")).toBeInViewport();
    await expect(page.getByTestId("rating-summary")).toContainText(/\d\.\d · \d+ reviews?/);
    const add = page.getByRole("button", { name: "Add to Cart" });
    await expect(add).toBeEnabled();
    await expect(add).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId("delivery-window")).toContainText(/Delivered by (Mon|Tue|Wed|Thu|Fri) \d{1,2} [A-Z][a-z]{2} – (Mon|Tue|Wed|Thu|Fri) \d{1,2} [A-Z][a-z]{2}/);
    await expect(page.getByRole("link", { name: /Chat with .* on WhatsApp/ })).toHaveCount(0);

    await add.tap();
    await expect(page.getByRole("status").filter({ hasText: "to your cart" })).toBeVisible();
    for (const path of ["/cart", "/products/pink-protea"]) {
      await page.goto(path);
      await expect(page.getByRole("link", { name: /Chat with .* on WhatsApp/ })).toHaveCount(0);
    }
    // the footer's WhatsApp link stays; the floating button stays on browsing pages
    await expect(page.getByRole("contentinfo").getByRole("link", { name: /WhatsApp/ })).toHaveCount(1);
    await page.goto("/shop");
    await expect(page.getByRole("link", { name: /Chat with .* on WhatsApp/ })).toBeVisible();
  });
});

test.describe("checkout on a phone (390 × 844, touch)", () => {
  test.use(phone);

  test("the total is in the first screen", async ({ page }) => {
    await newCustomer(page);
    await addFromProductPage(page, "amber-lantern");
    await page.goto("/checkout");
    const top = page.getByTestId("checkout-top-total");
    await expect(top).toContainText("R599.00");
    await expect(top).toContainText("1 item, delivery included");
    await expect(top).toBeInViewport({ ratio: 1 });
  });
});

// Issue 32: on Lighthouse's phone (412 px at 1.75 dppx) the page's largest image paints with the page, not one
// round trip after it. The photo shown is the rendition the phone picks anyway; a sharper screen still gets its own.
test.describe("the largest image comes with the page", () => {
  const shown = (page: Page, selector: string) =>
    page.locator(selector).first().evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { src: img.currentSrc, srcset: img.getAttribute("srcset") ?? "", alt: img.alt };
    });

  test.describe("on Lighthouse's phone", () => {
    // Its user agent too: only with one does Playwright's Chromium send the phone's client hint (Sec-CH-UA-Mobile:
    // ?1), by which the server picks the page with the image inside; isMobile alone still says ?0.
    test.use({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
      userAgent: "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36",
    });

    test("the shop's first card and a product's photo are drawn from the page itself, at the phone's rendition", async ({ page }) => {
      const requested: string[] = [];
      page.on("request", (request) => {
        // with the page it was asked on, so a failure says which page fetched it (it failed once in a full run)
        if (request.resourceType() === "image") requested.push(`${new URL(request.url()).pathname} on ${new URL(request.frame().url()).pathname}`);
      });
      // The server reads each image once and waits 300 ms for it; under a full run's load a first read can take longer,
      // and the page is then sent linking to its image (and built again a second later, page-cache.ts). What this test
      // checks is the page once the image is read: it waits for the phone's copies to carry theirs.
      // The shop searched for Amber Lantern: its card is the first whatever other specs added to the catalogue before
      // this one (as the newest product, an import's product took the first card and Amber Lantern's was fetched).
      const shop = "/shop?q=Amber+Lantern";
      for (const path of [shop, "/products/amber-lantern"]) {
        const phoneCopy = async () => (await (await page.request.get(path, { headers: { "sec-ch-ua-mobile": "?1" } })).text()).includes("data:image/webp;base64,");
        await expect.poll(phoneCopy, { timeout: 15_000 }).toBe(true);
      }
      for (const [path, selector, width] of [
        [shop, "main ul[role=list] img", 400],
        ["/products/amber-lantern", "main img[fetchpriority=high]", 800],
      ] as const) {
        await page.goto(path);
        const image = await shown(page, selector);
        expect(image.src, path).toMatch(/^data:image\/webp;base64,/);
        // it is the very file of that rendition: the srcset's entry for it, and the same bytes as its URL serves
        const entries = image.srcset.split(/,\s+/).map((entry) => entry.split(/\s+/));
        expect(entries.find(([, w]) => w === `${width}w`)?.[0], path).toBe(image.src);
        const linked = entries.find(([url]) => url.startsWith("/media/"))![0].replace(/-\d+\.webp$/, `-${width}.webp`);
        const served = await (await page.request.get(linked)).body();
        expect(image.src, path).toBe(`data:image/webp;base64,${served.toString("base64")}`);
      }
      expect((await shown(page, "main img[fetchpriority=high]")).alt).toBe("Amber Lantern");
      // the browser fetched neither rendition (nor React's head preload of it): they came with the pages
      expect(requested.filter((p) => /amber-lantern-[0-9a-f]+-(400|800)\.webp on /.test(p))).toEqual([]);
    });
  });

  test.describe("on a sharper, wider screen", () => {
    test.use({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });

    test("the product photo is its larger rendition, by URL, and the page doesn't carry the phone's", async ({ page }) => {
      const response = await page.goto("/products/amber-lantern");
      const image = await shown(page, "main img[fetchpriority=high]");
      expect(image.src).toMatch(/\/media\/products\/amber-lantern-[0-9a-f]+-1200\.webp$/);
      expect(image.srcset).not.toContain("data:");
      expect(await response!.text()).not.toContain("data:image/");
      expect(response!.headers().vary).toMatch(/Sec-CH-UA-Mobile/);
    });
  });
});
