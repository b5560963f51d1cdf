/**
 * The shop's sort and its phone layout (issue 13): sort in the URL with and without JavaScript, the 'Filter and sort'
 * fold on a phone with products in the first screen, plain page lines, and a WhatsApp button that never covers a
 * control. The demo catalogue has 41 products (two pages of 24) priced from R299 to R699; other journeys may have added
 * some by the time this runs, so the counts are read from the page.
 */
import { expect, test, type Locator, type Page } from "./helpers/test";

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

function cards(page: Page) {
  return page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("link") }).filter({ hasText: /R\d/ });
}

/** The prices on the cards, in rand, in the order shown. */
async function prices(page: Page): Promise<number[]> {
  const texts = await cards(page).getByText(/^R[\d ]+\.\d{2}$/).allInnerTexts();
  return texts.map((t) => Number(t.replace(/[R ]/g, "")));
}

/** "Showing N of N products" with no filter: the catalogue's size as the page says it (at least two pages). */
async function catalogueSize(page: Page): Promise<number> {
  const line = await page.getByText(/^Showing \d+ of \d+ products$/).innerText();
  const [, shown, total] = /Showing (\d+) of (\d+)/.exec(line)!;
  expect(shown).toBe(total);
  expect(Number(total)).toBeGreaterThan(24);
  return Number(total);
}

const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] <= x);
const descending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] >= x);

/** The page's script has run: the Apply button, there for shoppers without JavaScript, has gone. */
async function hydrated(page: Page) {
  await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
}

/** The fold's toggle (a native <summary>: no ARIA role of its own in Playwright). */
const foldToggle = (page: Page) => page.locator("summary").filter({ hasText: "Filter and sort" });

async function openFold(page: Page): Promise<Locator> {
  const sort = page.getByLabel("Sort by");
  await expect(async () => {
    if (await sort.isHidden()) await foldToggle(page).tap();
    await expect(sort).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return sort;
}

test.describe("on a phone (390 × 844, touch)", () => {
  test.use(phone);

  test("products start in the first screen; the filters fold into 'Filter and sort', and sorting there orders every page", async ({ page }) => {
    for (const [width, height] of [
      [360, 740],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await page.goto("/shop");
      await expect(cards(page).first().getByRole("heading"), `${width} × ${height}`).toBeInViewport({ ratio: 1 });
      await expect(cards(page).first().getByText(/^R\d/), `${width} × ${height}`).toBeInViewport({ ratio: 1 });
      // folded: the toggle shows, the controls wait behind it
      await expect(foldToggle(page)).toBeVisible();
      await expect(page.getByLabel("Search")).toBeHidden();
    }
    // the page line says which page this is and which of the products it holds, apart from the spec's count
    const size = await catalogueSize(page);
    const pages = Math.ceil(size / 24);
    await expect(page.getByText(`Page 1 of ${pages} · products 1–24 on this page`)).toBeVisible();

    const newest = await prices(page);
    await hydrated(page);
    const sort = await openFold(page);
    await expect(sort).toHaveValue("newest");
    await sort.selectOption({ label: "Price: low to high" });
    await expect(page).toHaveURL(/\/shop\?sort=price-asc$/);
    await expect.poll(async () => ascending(await prices(page))).toBe(true);
    const firstPage = await prices(page);
    expect(firstPage).not.toEqual(newest);
    expect(firstPage).toHaveLength(24);

    // a filter keeps the sort, and the fold counts it; the next page keeps both and continues the order
    await page.getByLabel("Category").selectOption({ label: "For Her" });
    await expect(page).toHaveURL(/\/shop\?category=for-her&sort=price-asc$/);
    await expect(foldToggle(page)).toContainText("1 filter active");
    await expect(foldToggle(page)).toContainText("Price: low to high");
    await page.getByLabel("Category").selectOption({ label: "All Categories" });
    await expect(page).toHaveURL(/\/shop\?sort=price-asc$/);
    await page.getByRole("navigation", { name: "Shop pages" }).getByRole("link", { name: "Next" }).tap();
    await expect(page).toHaveURL(/\/shop\?sort=price-asc&page=2$/);
    await expect(page.getByText(`Page 2 of ${pages} · products 25–${Math.min(48, size)} on this page`)).toBeVisible();
    const secondPage = await prices(page);
    expect(ascending(secondPage)).toBe(true);
    expect(secondPage[0]).toBeGreaterThanOrEqual(firstPage.at(-1)!);
  });

  test("without JavaScript: open the fold, pick 'Price: high to low', Apply, and the order changes", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...phone, baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/shop");
    const newest = await prices(page);
    await foldToggle(page).tap();
    await page.getByLabel("Sort by").selectOption({ label: "Price: high to low" });
    await page.getByRole("button", { name: "Apply" }).tap();
    await expect(page).toHaveURL(/[?&]sort=price-desc(&|$)/);
    const sorted = await prices(page);
    expect(sorted).toHaveLength(24);
    expect(descending(sorted)).toBe(true);
    expect(sorted).not.toEqual(newest);
    // the fold is shut again after the page loads, and tells which order is on
    await expect(page.getByLabel("Sort by")).toBeHidden();
    await expect(foldToggle(page)).toContainText("Price: high to low");
    // the pages keep the order
    await page.getByRole("navigation", { name: "Shop pages" }).getByRole("link", { name: "Next" }).tap();
    await expect(page).toHaveURL(/[?&]sort=price-desc&page=2$/);
    expect((await prices(page))[0]).toBeLessThanOrEqual(sorted.at(-1)!);
    await context.close();
  });
});

test("an order picked before the page's script has loaded is the order shown once it has", async ({ page }) => {
  // Hold the JavaScript back, as a slow phone on prepaid data would, while the shopper picks an order.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/assets/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/shop", { waitUntil: "commit" });
  await page.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
  release();
  await expect(page).toHaveURL(/\/shop\?sort=price-asc$/);
  await expect.poll(async () => ascending(await prices(page))).toBe(true);
  await expect(page.getByLabel("Sort by")).toHaveValue("price-asc");
});

test.describe("on a desktop (1280 px)", () => {
  test("the filters stand open with Sort by; a sort applies on change and a search lists name matches first by default", async ({ page }) => {
    await page.goto("/shop?q=rose");
    await hydrated(page);
    await expect(foldToggle(page)).toBeHidden();
    const sort = page.getByLabel("Sort by");
    await expect(sort).toBeVisible();
    // with a search, the default order is the best match: names that hold the word come first
    await expect(sort.locator("option:checked")).toHaveText("Best match");
    const names = await cards(page).getByRole("heading").allInnerTexts();
    expect(names[0]!.toLowerCase()).toContain("rose");
    await sort.selectOption({ label: "Name: A to Z" });
    await expect(page).toHaveURL(/\/shop\?q=rose&sort=name$/);
    await expect.poll(async () => {
      const shown = await cards(page).getByRole("heading").allInnerTexts();
      return shown.join("|") === [...shown].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())).join("|") && shown.join("|") !== names.join("|");
    }).toBe(true);
    // Clear All Filters keeps the order
    await page.getByRole("link", { name: "Clear All Filters" }).click();
    await expect(page).toHaveURL(/\/shop\?sort=name$/);
    // an unknown sort is simply the default order
    await page.goto("/shop?sort=cheapest-first");
    await expect(page.getByLabel("Sort by")).toHaveValue("newest");
    await catalogueSize(page);
  });
});

/**
 * Every link, button and field that the WhatsApp link is drawn over, as the page is scrolled from top to bottom in
 * steps of half a screen. The floating button of old covered the right-hand product card on a phone, so this found it.
 */
async function controlsUnderChat(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const chat = document.querySelector<HTMLElement>('a[href^="https://wa.me/"]:not(footer a)');
    if (!chat) return ["no WhatsApp chat link"];
    const found = new Set<string>();
    const step = Math.max(100, Math.floor(window.innerHeight / 2));
    const bottom = document.documentElement.scrollHeight - window.innerHeight;
    for (let y = 0; ; y = Math.min(bottom, y + step)) {
      // An instant scroll moves the page at once: the rectangles and elementFromPoint below read the new position
      // (they lay the page out if they must). Waiting for an animation frame here is not needed, and once, in a CI
      // run under load, the frame never came and the test hung until its timeout.
      window.scrollTo({ top: y, behavior: "instant" });
      const c = chat.getBoundingClientRect();
      for (const el of document.querySelectorAll<HTMLElement>("a, button, input, select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])")) {
        if (el === chat || chat.contains(el) || el.contains(chat) || !el.checkVisibility({ visibilityProperty: true })) continue;
        for (const r of el.getClientRects()) {
          const w = Math.min(r.right, c.right) - Math.max(r.left, c.left);
          const h = Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top);
          if (w <= 0.5 || h <= 0.5) continue;
          // covered means the chat link is drawn on top there (a link scrolling under the fixed header is not covering)
          const x = Math.max(r.left, c.left) + w / 2;
          const yy = Math.max(r.top, c.top) + h / 2;
          const top = document.elementFromPoint(x, yy);
          if (top && (top === chat || chat.contains(top)))
            found.add(`${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}" at scroll ${y}`);
        }
      }
      if (y >= bottom) break;
    }
    return [...found];
  });
}

test.describe("the WhatsApp button never covers a control", () => {
  for (const width of [360, 390, 1280]) {
    test(`at ${width} px, scrolled from top to bottom of the home page and the shop`, async ({ browser, baseURL }) => {
      const small = width < 768;
      const context = await browser.newContext({ baseURL, viewport: { width, height: small ? 740 : 800 }, isMobile: small, hasTouch: small });
      const page = await context.newPage();
      for (const path of ["/", "/shop", "/shop?page=2", "/shop?q=zzzz-nothing", "/terms"]) {
        await page.goto(path);
        const chat = page.getByRole("link", { name: /Chat with .* on WhatsApp/ });
        await expect(chat).toHaveCount(1);
        await expect(chat).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+$/);
        expect(await controlsUnderChat(page), `${path} at ${width} px`).toEqual([]);
      }
      await context.close();
    });
  }
});
