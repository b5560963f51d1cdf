import { expect, test } from "./helpers/test";
import { openMobileMenu } from "./helpers/layout";
import { seriousViolations } from "./helpers/shop";

/** axe-core on home and terms (and the 404 page): no serious or critical violations, on desktop and on a phone. */

for (const viewport of [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
]) {
  test.describe(`${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const path of ["/", "/terms", "/no-such-page"]) {
      test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }

    test("with the mobile menu open / contact errors shown, still no serious violations", async ({ page }) => {
      await page.goto("/");
      const form = page.getByRole("form", { name: "Contact form" });
      await form.getByRole("button", { name: "Send Message" }).click();
      await expect(form.getByText("Please enter your name.")).toBeVisible();
      if (viewport.width < 768) {
        await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
        await openMobileMenu(page);
      }
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
