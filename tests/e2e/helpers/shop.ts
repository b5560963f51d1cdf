import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Adds a product to the cart the way a shopper does: product page, quantity, Add to Cart, confirmation. */
export async function addFromProductPage(page: Page, slug: string, quantity = 1) {
  await page.goto(`/products/${slug}`);
  const add = page.getByRole("button", { name: "Add to Cart" });
  await expect(add).toBeEnabled();
  await page.getByLabel("Quantity").selectOption(String(quantity));
  await add.click();
  await expect(page.getByRole("status").filter({ hasText: "to your cart" })).toBeVisible();
}

const PRETORIA = { name: "Thandi Nkosi", telephone: "082 123 4567", street: "12 Jacaranda Street", suburb: "Menlo Park", city: "Pretoria", postalCode: "0081", province: "Gauteng" };

/** Fills the checkout's shipping address with a valid South African address (Pretoria, Gauteng, unless `where` says otherwise). */
export async function fillAddress(page: Page, where: Partial<typeof PRETORIA> = {}) {
  const a = { ...PRETORIA, ...where };
  await page.getByLabel("Full name").fill(a.name);
  await page.getByLabel("Telephone").fill(a.telephone);
  await page.getByLabel("Street address").fill(a.street);
  await page.getByLabel("Suburb").fill(a.suburb);
  await page.getByLabel("City").fill(a.city);
  await page.getByLabel("Postal code").fill(a.postalCode);
  await page.getByLabel("Province").selectOption(a.province);
}

/**
 * axe-core on a page, the cheap way (3–4 s a page became 1–1.3 s on the busy 2-core machine; the rules run and the
 * violations found are the same, checked on a page with six planted ones):
 * - legacy mode runs axe once in the page itself; the default opens a second, blank page in the context to gather
 *   each frame's results, which costs a page load and a second copy of axe every time. The shop has no iframes, so
 *   the one thing legacy mode gives up (cross-origin frames) is nothing here;
 * - resultTypes ["violations"] reports the violations in full and only one example of each passing, incomplete or
 *   inapplicable rule.
 * Keep `.options` before `.withTags`/`.withRules` (they add to the options it sets).
 */
export function axe(page: Page) {
  return new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode(true);
}

/** axe-core (WCAG 2.1 A/AA and best practices) on the page as it is now: its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(", ")}`);
}
