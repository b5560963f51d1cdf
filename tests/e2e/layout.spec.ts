import { expect, test } from "./helpers/test";
import { newCustomer, signInAsAdmin } from "./helpers/auth";
import { mobileMenuToggle, openMobileMenu } from "./helpers/layout";
import { addFromProductPage } from "./helpers/shop";

/** The frame on every page (SPEC §2): header, mobile menu, footer, WhatsApp button. */

test.describe("header", () => {
  test("is transparent at the top of the home page and solid once scrolled more than 10 px", async ({ page }) => {
    await page.goto("/");
    const header = page.locator("body > div header").first();
    await expect(header).toHaveAttribute("data-solid", "false");
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgba(0, 0, 0, 0)");

    await page.evaluate(() => window.scrollTo({ top: 400, behavior: "instant" }));
    await expect(header).toHaveAttribute("data-solid", "true");
    await expect.poll(() => header.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");

    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await expect(header).toHaveAttribute("data-solid", "false");
  });

  test("Our Story and Contact go to the home page first from elsewhere, then to their section", async ({ page }) => {
    await page.goto("/shop");
    const nav = page.getByRole("navigation", { name: "Main" });

    await nav.getByRole("link", { name: "Our Story" }).click();
    await expect(page).toHaveURL(/\/#our-story$/);
    await expect(page.getByRole("heading", { level: 2, name: "Luxury should never be out of reach." })).toBeInViewport();

    await page.goto("/terms");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.getByRole("heading", { level: 2, name: "We'd love to hear from you." })).toBeInViewport();

    // Home brings the top of the home page back
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(20);
  });

  test("section links work without JavaScript too", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/shop");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Our Story" }).click();
    await expect(page).toHaveURL(/\/#our-story$/);
    await expect(page.getByRole("heading", { level: 2, name: "Luxury should never be out of reach." })).toBeInViewport();
    await context.close();
  });

  test("a visitor sees Sign In and no cart; the Shop link goes to /shop", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(page.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth/login");
    await expect(page.getByRole("link", { name: /^Cart/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
    await nav.getByRole("link", { name: "Shop" }).click();
    await expect(page).toHaveURL(/\/shop$/);
  });

  test("the skip link is the first stop and moves focus to the content", async ({ page }) => {
    await page.goto("/terms");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#main-content$/);
  });
});

test.describe("mobile menu (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("opens with the same entries and closes on navigation", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const toggle = mobileMenuToggle(page);
    await expect(page.locator("details:has(> summary[aria-label='Menu'])")).not.toHaveAttribute("open");
    const menuId = await toggle.getAttribute("aria-controls");
    const menu = page.locator(`[id="${menuId}"]`);
    await expect(menu).toBeHidden();

    await openMobileMenu(page);
    await expect(page.locator("details:has(> summary[aria-label='Menu'])")).toHaveAttribute("open");
    await expect(menu).toBeVisible();
    for (const name of ["Home", "Our Story", "Contact", "Shop", "Sign In"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    // the header turns solid while the menu is open
    await expect(page.locator("header[data-solid]")).toHaveAttribute("data-solid", "true");

    await menu.getByRole("link", { name: "Shop", exact: true }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(menu).toBeHidden();
    await expect(page.locator("details:has(> summary[aria-label='Menu'])")).not.toHaveAttribute("open");
  });

  test("opens without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/terms");
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeHidden();
    await mobileMenuToggle(page).tap();
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Shop", exact: true }).tap();
    await expect(page).toHaveURL(/\/shop$/);
    await context.close();
  });

  test("a section link in the menu scrolls to it and closes the menu", async ({ page }) => {
    await page.goto("/terms");
    await openMobileMenu(page);
    await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
    await expect(page.getByRole("heading", { level: 2, name: "We'd love to hear from you." })).toBeInViewport();
  });

  test("Escape closes the menu, also when pressed the instant it opened", async ({ page }) => {
    await page.goto("/");
    const menu = await openMobileMenu(page);
    const header = page.locator("header[data-solid]");
    // The header turns solid when the page's script hears the menu open: hydrated, so a key is heard. (A key pressed
    // before hydration is lost; the next test covers a menu opened then.)
    await expect(header).toHaveAttribute("data-solid", "true");
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(header).toHaveAttribute("data-solid", "false");

    // Opened and Escape at once, before the browser's `toggle` event has told the header: still closes (it once
    // listened only after hearing that event, and a CI run pressed Escape in between)
    await page.evaluate(() => {
      document.querySelector<HTMLElement>("summary[aria-label='Menu']")!.click();
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    });
    await expect(menu).toBeHidden();
    await expect(header).toHaveAttribute("data-solid", "false");
  });

  test("a menu opened before the scripts arrived still closes on Escape and on navigation", async ({ page }) => {
    const menu = page.getByRole("navigation", { name: "Mobile" });
    // Loads `path` with the scripts held back, opens the menu as a shopper on a slow phone taps first, then lets the
    // scripts in and waits for them.
    async function openBeforeScripts(path: string) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/assets/*.js", async (route) => {
        await gate;
        await route.continue();
      });
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await mobileMenuToggle(page).click();
      await expect(menu).toBeVisible();
      release();
      await page.waitForLoadState("networkidle");
      await page.unrouteAll();
    }

    await openBeforeScripts("/");
    // Escape is heard once the page has hydrated: pressed again until then (before the fix it never closed)
    await expect(async () => {
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden({ timeout: 500 });
    }).toPass({ timeout: 10_000 });

    await openBeforeScripts("/terms");
    await menu.getByRole("link", { name: "Shop", exact: true }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(menu).toBeHidden();
  });
});

test.describe("footer and WhatsApp", () => {
  test("footer has quick links, social links, contacts, copyright and credit; the WhatsApp button opens wa.me", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "Terms & Conditions" })).toHaveAttribute("href", "/terms");
    await expect(footer.getByRole("link", { name: "Shop", exact: true })).toHaveAttribute("href", "/shop");
    for (const network of ["Instagram", "Facebook", "TikTok"]) {
      await expect(footer.getByRole("link", { name: new RegExp(`on ${network}`) })).toHaveAttribute("href", /^https:\/\//);
    }
    await expect(footer.getByRole("link", { name: /WhatsApp: \+27/ })).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+$/);
    await expect(footer.getByRole("link", { name: /E-mail: .+@.+/ })).toHaveAttribute("href", /^mailto:.+@.+/);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Scentara`);
    await expect(footer).toContainText("Website crafted by");

    const chat = page.getByRole("link", { name: /Chat with .* on WhatsApp/ });
    await expect(chat).toBeVisible();
    await expect(chat).toHaveAttribute("href", /^https:\/\/wa\.me\/\d{9,15}$/);
    await expect(chat).toHaveAttribute("target", "_blank");

    await footer.getByRole("link", { name: "Terms & Conditions" }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { level: 1, name: "Terms & Conditions" })).toBeVisible();
  });
});

test.describe("signed in", () => {
  test("a customer sees the cart with its count, Profile Settings and Sign Out, and no Admin link", async ({ page }) => {
    await newCustomer(page);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
    const cart = page.getByRole("link", { name: /^Cart/ }).first();
    await expect(cart).toHaveAttribute("href", "/cart");

    // the badge counts the cart's items. Real products: a signed-in shopper's cart is kept on the server, which drops
    // lines for products it doesn't sell, so made-up lines written to storage vanished when the sign-in sync answered
    // after them (a flaky run)
    await addFromProductPage(page, "white-tea-ritual", 2);
    await addFromProductPage(page, "pink-protea");
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Cart, 3 items" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("3");

    await page.getByText("Account", { exact: true }).click();
    await expect(page.getByRole("link", { name: "Profile Settings" })).toHaveAttribute("href", "/profile");

    // without JavaScript the menu is in the page too (its script is loaded only for signed-in shoppers)
    const plain = await page.context().browser()!.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
    const noJs = await plain.newPage();
    await noJs.goto("/");
    await noJs.getByText("Account", { exact: true }).click();
    await expect(noJs.getByRole("link", { name: "Profile Settings" })).toBeVisible();
    await expect(noJs.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await plain.close();

    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  });

  test("an admin also sees the Admin link, and the header is solid on /admin", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/");
    const admin = page.getByRole("navigation", { name: "Main" }).locator("..").getByRole("link", { name: "Admin", exact: true });
    await expect(admin).toHaveAttribute("href", "/admin");

    // The widest bar there is (Admin, cart and Account beside the entries) keeps every entry on one line and fits: the
    // entries that have no room at a width are in the menu (and footer) instead. Below 1024 px tablets get the menu.
    const bar = page.getByRole("navigation", { name: "Main" });
    const row = bar.locator("..");
    for (const [width, entries] of [
      [1280, ["Home", "Our Story", "Contact", "Shop", "Scent Finder", "Gift Cards"]],
      [1024, ["Home", "Our Story", "Contact", "Shop", "Scent Finder"]],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect(bar.getByRole("link").filter({ visible: true })).toHaveText([...entries]);
      const fit = await row.evaluate((element) => {
        const heights = [...element.querySelectorAll("a.nav-link")].flatMap((link) => (link.getClientRects().length ? [Math.round(link.getBoundingClientRect().height)] : []));
        return { overflow: element.scrollWidth - element.clientWidth, heights: [...new Set(heights)] };
      });
      expect(fit, `${width} px`).toEqual({ overflow: 0, heights: [fit.heights[0]] });
    }
    await page.setViewportSize({ width: 768, height: 1024 });
    await expect(bar).toBeHidden();
    await openMobileMenu(page);
    await expect(page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Admin" })).toBeVisible();
    await page.keyboard.press("Escape");

    await page.setViewportSize({ width: 1280, height: 800 });
    await admin.click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.locator("header[data-solid]")).toHaveAttribute("data-solid", "true");
  });
});
