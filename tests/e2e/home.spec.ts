import { expect, test } from "./helpers/test";

/** Home (SPEC §2): hero, 12 newest products, Our Story, contact form; unknown paths show home with 404. */

test("home: hero with Shop Now, 12 featured products with rand prices, Our Story and the contact form", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page).toHaveTitle(/Scentara/);

  const shopNow = page.getByRole("link", { name: "Shop Now" });
  await expect(shopNow).toHaveAttribute("href", "/shop");

  const featured = page.locator("section#featured");
  const cards = featured.getByRole("listitem");
  await expect(cards).toHaveCount(12);
  for (const card of await cards.all()) {
    await expect(card.getByRole("link")).toHaveAttribute("href", /^\/products\/[a-z0-9-]+$/);
    await expect(card).toContainText(/R\d{1,3}( \d{3})*\.\d{2}/);
  }
  await expect(page.getByRole("heading", { level: 2, name: "Luxury should never be out of reach." })).toBeVisible();
  await expect(page.getByRole("form", { name: "Contact form" })).toBeVisible();

  await shopNow.click();
  await expect(page).toHaveURL(/\/shop$/);
});

test("home: search engines get a canonical URL, Open Graph and JSON-LD with real products", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Scentara/);
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute("content", "en_ZA");
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const parsed = blocks.map((b) => JSON.parse(b));
  expect(parsed.some((d) => d["@type"] === "Organization" && d.name === "Scentara")).toBe(true);
  const list = parsed.find((d) => d["@type"] === "ItemList");
  expect(list.itemListElement.length).toBeGreaterThan(0);
  expect(list.itemListElement.length).toBeLessThanOrEqual(10);
  const first = list.itemListElement[0];
  const firstCard = page.locator("section#featured").getByRole("listitem").first();
  await expect(firstCard).toContainText(first.item.name);
  expect(first.item.offers.priceCurrency).toBe("ZAR");
});

test("an unknown path shows the home page with status 404 and is not indexed", async ({ page }) => {
  const response = await page.goto("/this/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("The scent of luxury");
  await expect(page.getByText("We couldn't find that page")).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator("section#featured").getByRole("listitem")).toHaveCount(12);
});

test.describe("motion", () => {
  // The other tests run with reduced motion (playwright.config.ts); these allow it, as most browsers do.
  test.use({ reducedMotion: "no-preference" });

  test("the hero floats three times and rests, and a card's image eases on hover; asking for reduced motion stills them all", async ({ page }) => {
    await page.goto("/");
    const running = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === "running").map((a) => (a as CSSAnimation).animationName));
    await expect.poll(running).toContain("hero-float");
    // a few floats, then it rests: an endless one kept the browser drawing for as long as the page stayed open
    const float = await page.evaluate(() => {
      const timing = document.getAnimations().find((a) => (a as CSSAnimation).animationName === "hero-float")!.effect!.getComputedTiming();
      return { iterations: timing.iterations, endTime: Number(timing.endTime) };
    });
    expect(float).toEqual({ iterations: 3, endTime: 27_000 });
    const image = page.locator("section#featured").getByRole("listitem").first().locator("img");
    await expect(image).toHaveCSS("transition-property", /transform/);

    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await running()).toEqual([]);
    await expect(image).toHaveCSS("transition-property", "none");
  });
});

test.describe("contact form", () => {
  test("a valid message is sent: success message and the form is cleared", async ({ page }) => {
    await page.goto("/#contact");
    const form = page.getByRole("form", { name: "Contact form" });
    await form.getByLabel("Name").fill("Thandi Mokoena");
    await form.getByLabel("Email").fill("thandi@example.co.za");
    await form.getByLabel("Message").fill("Do you deliver to Polokwane?");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText("Message sent successfully!")).toBeVisible();
    await expect(form.getByText("We'll get back to you within 24 hours.")).toBeVisible();
    await expect(form.getByLabel("Name")).toHaveValue("");
    await expect(form.getByLabel("Email")).toHaveValue("");
    await expect(form.getByLabel("Message")).toHaveValue("");
  });

  test("missing or invalid fields say why and nothing is sent", async ({ page }) => {
    await page.goto("/#contact");
    const form = page.getByRole("form", { name: "Contact form" });
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText("Please enter your name.")).toBeVisible();
    await expect(form.getByText("Please enter your email address.")).toBeVisible();
    await expect(form.getByText("Please enter a message.")).toBeVisible();
    await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText("Message sent successfully!")).toHaveCount(0);

    await form.getByLabel("Name").fill("Sipho");
    await form.getByLabel("Email").fill("sipho@");
    await form.getByLabel("Message").fill("Hello");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText(/Please enter a valid email address/)).toBeVisible();
    await expect(form.getByText("Please enter your name.")).toHaveCount(0);
    // what was typed stays
    await expect(form.getByLabel("Message")).toHaveValue("Hello");
    await expect(form.getByText("Message sent successfully!")).toHaveCount(0);
  });

  test("works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    const form = page.getByRole("form", { name: "Contact form" });
    await form.getByLabel("Name").fill("Lerato");
    await form.getByLabel("Email").fill("lerato@example.co.za");
    await form.getByLabel("Message").fill("Gift wrapping?");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent successfully!")).toBeVisible();
    await context.close();
  });

  test("can be sent from the 404 page too", async ({ page }) => {
    await page.goto("/nowhere");
    const form = page.getByRole("form", { name: "Contact form" });
    await form.getByLabel("Name").fill("Anele");
    await form.getByLabel("Email").fill("anele@example.co.za");
    await form.getByLabel("Message").fill("Hi from a broken link");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText("Message sent successfully!")).toBeVisible();
  });
});

test("terms: effective date, every section and the delivery facts", async ({ page }) => {
  await page.goto("/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms & Conditions" })).toBeVisible();
  await expect(page.getByText("Effective date: 15 May 2025")).toBeVisible();
  for (const title of ["Company information", "Products and pricing", "Orders and payments", "Shipping and delivery", "Returns and exchanges", "Intellectual property", "Privacy", "Contact us"]) {
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(title) })).toBeVisible();
  }
  const main = page.getByRole("main");
  // The terms read the same threshold as the checkout (FREE_DELIVERY_THRESHOLD_CENTS, R599 by default: docs/decisions/017).
  await expect(main).toContainText("Free courier delivery on orders of R599.00 or more (after any discount)");
  await expect(main).toContainText("shown for every zone at checkout before you pay; where no zone applies it is R70.00");
  await expect(main).toContainText("2 to 7 working days");
  await expect(main).toContainText("within 48 hours");
  await expect(main).toContainText("within 7 days");
  await expect(main).toContainText("POPIA");
  await expect(main).toContainText("always sent, regardless of your preferences");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/terms$/);
});

test("sitemap.xml and robots.txt", async ({ request }) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toContain("xml");
  const xml = await sitemap.text();
  expect(xml).toContain("/shop</loc>");
  expect(xml).toContain("/terms</loc>");
  expect(xml.match(/\/products\/[a-z0-9-]+<\/loc><lastmod>/g)?.length).toBeGreaterThanOrEqual(12);
  const robots = await request.get("/robots.txt");
  const text = await robots.text();
  expect(text).toContain("Disallow: /admin");
  expect(text).toMatch(/Sitemap: http.+\/sitemap\.xml/);
});
