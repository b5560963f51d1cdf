import { expect, test } from "./helpers/test";
import { seriousViolations } from "./helpers/shop";

const pages: Array<[string, string, RegExp | string]> = [
  ["shop", "/shop", "The Shop"],
  ["shop with filters", "/shop?category=for-her&maxPrice=600", "For Her"],
  ["shop, nothing matches", "/shop?q=zzzz-nothing", "The Shop"],
  ["product with tiers and reviews", "/products/amber-lantern", "Amber Lantern"],
  ["unknown product", "/products/no-such-perfume", "Product not found"],
];

for (const [label, path, heading] of pages) {
  test(`${label}: no serious or critical axe violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    if (path.startsWith("/products/amber")) await expect(page.getByText(/^Based on \d+ reviews?$/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("mobile product page: no serious or critical axe violations", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/products/amber-lantern");
  await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);
});
