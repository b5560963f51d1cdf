import { expect, test, type Page } from "./helpers/test";

/** The numbers in 'Showing X of Y products'. */
async function counts(page: Page) {
  const text = await page.getByText(/^Showing \d+ of \d+ products/).innerText();
  const m = /Showing (\d+) of (\d+) products/.exec(text)!;
  return { matching: Number(m[1]), total: Number(m[2]) };
}

/** The URL changes a moment before the new list renders: wait for the count line to show `matching`. */
async function expectMatching(page: Page, check: (matching: number) => boolean) {
  await expect.poll(async () => check((await counts(page)).matching)).toBe(true);
}

function cards(page: Page) {
  return page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("link") }).filter({ hasText: /R\d/ });
}

/** Search finds names, descriptions (notes) and inspired-by houses; names that match come first, then the rest. */
function expectNameMatchesFirst(names: string[], word: string) {
  expect(names.length).toBeGreaterThan(0);
  expect(names[0]!.toLowerCase()).toContain(word);
  const firstOther = names.findIndex((n) => !n.toLowerCase().includes(word));
  if (firstOther >= 0) for (const name of names.slice(firstOther)) expect(name.toLowerCase()).not.toContain(word);
}

function rand(text: string) {
  return Number(/R([\d ]+\.\d{2})/.exec(text)![1].replace(/ /g, ""));
}

test("text typed into the search box before the page's script has loaded stays, and filters once it has", async ({ page }) => {
  // A slow phone: the scripts are held back until the shopper has typed.
  let release!: () => void;
  const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });
  await page.goto("/shop", { waitUntil: "commit" });
  const search = page.getByLabel("Search");
  await search.pressSequentially("oud");
  await expect(page).toHaveURL(/\/shop$/);
  release();
  await expect(page).toHaveURL(/\/shop\?q=oud$/);
  await expect(search).toHaveValue("oud");
  expectNameMatchesFirst(await cards(page).getByRole("heading").allInnerTexts(), "oud");
});

test("home → shop → search, category, price, Clear All Filters, back button", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop" }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(page.getByRole("heading", { level: 1, name: "The Shop" })).toBeVisible();
  const all = await counts(page);
  expect(all.total).toBeGreaterThan(0);
  expect(all.matching).toBe(all.total);
  await expect(page.getByRole("link", { name: "Clear All Filters" })).toHaveCount(0);

  // search (debounced, case-insensitive)
  await page.getByLabel("Search").fill("OUD");
  await expect(page).toHaveURL(/\/shop\?q=OUD$/);
  await expect(page.getByRole("link", { name: "Clear All Filters" })).toBeVisible();
  await expectMatching(page, (n) => n < all.total);
  const afterSearch = await counts(page);
  expect(afterSearch.total).toBe(all.total);
  expect(afterSearch.matching).toBeGreaterThan(0);
  expect(afterSearch.matching).toBeLessThan(all.total);
  expectNameMatchesFirst(await cards(page).getByRole("heading").allInnerTexts(), "oud");

  // clearing the search, then a category: URL, breadcrumb with the category parameter, every card in the category
  await page.getByLabel("Search").fill("");
  await expect(page).toHaveURL(/\/shop$/);
  await page.getByLabel("Category").selectOption({ label: "For Her" });
  await expect(page).toHaveURL(/\/shop\?category=for-her$/);
  await expect(page.getByRole("heading", { level: 1, name: "For Her" })).toBeVisible();
  await expectMatching(page, (n) => n < all.total);
  const crumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "For Her" });
  await expect(crumb).toHaveAttribute("href", "/shop?category=for-her");
  await expect(crumb).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Shop" })).toHaveAttribute("href", "/shop");
  const forHer = await counts(page);
  expect(forHer.matching).toBeLessThan(all.total);
  const categoryLabels = await cards(page).locator("p.eyebrow").allInnerTexts();
  expect(categoryLabels.length).toBe(Math.min(forHer.matching, 24));
  for (const label of categoryLabels) expect(label.toUpperCase()).toBe("FOR HER");

  // price: the slider's upper bound, inclusive; label 'Up to R{n}'
  const slider = page.getByRole("slider", { name: "Price" });
  await slider.fill("500");
  await expect(page.getByText("Up to R500")).toBeVisible();
  await expect(page).toHaveURL(/\/shop\?category=for-her&maxPrice=500$/);
  const prices = () => cards(page).getByText(/^R\d/).allInnerTexts();
  await expect.poll(async () => (await prices()).every((p) => rand(p) <= 500)).toBe(true);
  expect((await prices()).length).toBeGreaterThan(0);
  expect((await counts(page)).matching).toBeLessThanOrEqual(forHer.matching);

  // Clear All Filters
  await page.getByRole("link", { name: "Clear All Filters" }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expectMatching(page, (n) => n === all.total);
  await expect(page.getByRole("link", { name: "Clear All Filters" })).toHaveCount(0);
  await expect(page.getByLabel("Category")).toHaveValue("");

  // back: the filters come back with the URL (the slider's drag replaced its own entry)
  await page.goBack();
  await expect(page).toHaveURL(/\/shop\?category=for-her&maxPrice=500$/);
  await expect(page.getByText("Up to R500")).toBeVisible();
  await expect(page.getByLabel("Category")).toHaveValue("for-her");
  await page.goBack();
  await expect(page).toHaveURL(/\/shop\?category=for-her$/);
  await expect(page.getByText("Any price")).toBeVisible();
});

test("filters that match nothing: message and Clear Filters", async ({ page }) => {
  await page.goto("/shop?q=zzzz-no-such-scent");
  await expect(page.getByText("No products found matching your criteria.")).toBeVisible();
  await expect(page.getByLabel("Search")).toHaveValue("zzzz-no-such-scent");
  await page.getByRole("link", { name: "Clear Filters", exact: true }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(cards(page).first()).toBeVisible();
});

test("pagination keeps the filters", async ({ page }) => {
  await page.goto("/shop");
  const { total } = await counts(page);
  // the demo catalogue (41 products) spans two pages of 24
  expect(total).toBeGreaterThan(24);
  await expect(cards(page)).toHaveCount(24);
  const pager = page.getByRole("navigation", { name: "Shop pages" });
  await pager.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/shop\?page=2$/);
  await expect(pager.locator('[aria-current="page"]')).toHaveText(/^Page 2$/);
  await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();
  // a filter goes back to page 1
  await page.getByLabel("Category").selectOption({ label: "Unisex" });
  await expect(page).toHaveURL(/\/shop\?category=unisex$/);
});

test("without JavaScript the filter form still works (GET /shop)", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/shop");
  await page.getByLabel("Search").fill("rose");
  await page.getByLabel("Category").selectOption({ label: "For Her" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/shop\?q=rose&category=for-her/);
  await expect(page.getByRole("heading", { level: 1, name: "For Her" })).toBeVisible();
  expectNameMatchesFirst(await cards(page).getByRole("heading").allInnerTexts(), "rose");
  // the untouched slider submits its top value (maxPrice=1000), which is no price bound at all
  await expect(page).toHaveURL(/maxPrice=1000/);
  await expect(page.locator("output").filter({ hasText: "Any price" })).toBeVisible();
  await context.close();
});

test("product: details, add to cart twice adds up, unknown slug is 404", async ({ page }) => {
  await page.goto("/shop");
  const first = cards(page).first();
  const name = (await first.getByRole("heading").innerText()).trim();
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/products\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Customer Reviews" })).toBeVisible();
  // the category crumb links back to the shop filtered by it
  const categoryCrumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").nth(2);
  await expect(categoryCrumb).toHaveAttribute("href", /^\/shop\?category=[a-z0-9-]+$/);

  const quantity = page.getByLabel("Quantity");
  // the quantities on offer, up to what the size has in stock
  const offered = await quantity.locator("option").allInnerTexts();
  expect(offered.length).toBeGreaterThanOrEqual(7);
  expect(offered).toEqual(["1", "2", "3", "4", "5", "6", "10", "20", "50", "100"].slice(0, offered.length));

  await quantity.selectOption("2");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  // the line names the size added when the product has one ("Added 2 × Amber Lantern (100 ml) to your cart."); the
  // first card may be a product another spec made, of one unnamed size ("Added 2 × Fynbos Dawn to your cart.")
  const added = (n: number) => new RegExp(`Added ${n} × ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\([^)]+\\))? to your cart\\.`);
  await expect(page.getByRole("status").filter({ hasText: added(2) })).toBeVisible();
  await quantity.selectOption("3");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: added(3) })).toBeVisible();
  await expect(page.getByRole("link", { name: "View cart" })).toHaveAttribute("href", "/cart");

  // share: the native sheet where there is one, else links to Facebook, X/Twitter and WhatsApp with this page's URL
  const hasNativeShare = await page.evaluate(() => typeof navigator.share === "function");
  if (!hasNativeShare) {
    await page.getByText("Share", { exact: true }).click();
    const url = encodeURIComponent(page.url());
    await expect(page.getByRole("link", { name: /Share on Facebook/ })).toHaveAttribute("href", `https://www.facebook.com/sharer/sharer.php?u=${url}`);
    expect(await page.getByRole("link", { name: /Share on X \(Twitter\)/ }).getAttribute("href")).toContain(`https://twitter.com/intent/tweet?url=${url}`);
    await expect(page.getByRole("link", { name: /Share on WhatsApp/ })).toHaveAttribute("href", /^https:\/\/wa\.me\/\?text=/);
  }

  const cart = await page.evaluate(() => JSON.parse(localStorage.getItem("cart") ?? "[]"));
  expect(cart).toHaveLength(1);
  expect(cart[0]).toMatchObject({ name, quantity: 5 });
  expect(Number.isInteger(cart[0].price)).toBe(true);

  const response = await page.goto("/products/no-such-perfume-anywhere");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Product not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the Shop" }).click();
  await expect(page).toHaveURL(/\/shop$/);
});

test("product with tiers and reviews: table, average, stars, authors, structured data", async ({ page }) => {
  await page.goto("/products/amber-lantern");
  const tiers = page.getByRole("table", { name: /Price per unit by quantity/ });
  await expect(tiers).toBeVisible();
  await expect(tiers.getByRole("row")).not.toHaveCount(1);
  await expect(tiers.getByText(/^\d+\+$/)).toBeVisible();
  const reviews = page.getByRole("region", { name: "Customer Reviews" });
  await expect(reviews.getByText(/^Based on \d+ reviews?$/)).toBeVisible();
  await expect(reviews.getByRole("img", { name: /^Rated [1-5](\.\d)? out of 5$/ }).first()).toBeVisible();
  const authors = await reviews.getByRole("listitem").locator("p.uppercase").allInnerTexts();
  for (const a of authors) expect(a).not.toContain("@");
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
  const product = ld.map((t) => JSON.parse(t)).find((d) => d["@type"] === "Product");
  // one offer per size (issue 33)
  expect(product.offers.length).toBeGreaterThanOrEqual(1);
  for (const offer of product.offers) {
    expect(offer).toMatchObject({ "@type": "Offer", priceCurrency: "ZAR", availability: "https://schema.org/InStock" });
    expect(offer.price).toMatch(/^\d+\.\d{2}$/);
    expect(offer.url).toMatch(/\?size=[a-z0-9]+$/);
  }
  expect(product.aggregateRating.reviewCount).toBeGreaterThan(0);
});

test("a quantity chosen before the page's script has loaded is the quantity added", async ({ page }) => {
  // Hold the JavaScript back, as a slow phone on prepaid data would, while the shopper picks 10.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/assets/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/products/amber-lantern", { waitUntil: "commit" });
  await page.getByLabel("Quantity").selectOption("10");
  release();
  const add = page.getByRole("button", { name: "Add to Cart" });
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByRole("status").filter({ hasText: "Added 10 × Amber Lantern (100 ml) to your cart." })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("cart") ?? "[]"));
  expect(stored).toEqual([expect.objectContaining({ name: "Amber Lantern", quantity: 10 })]);
});
