import { expect, type Page } from "@playwright/test";

/**
 * Opens the mobile menu. A tap that lands before the page's script has hydrated the header does nothing (as on a
 * slow phone), so tap again until the menu shows; never tap an open menu shut.
 */
export async function openMobileMenu(page: Page) {
  const nav = page.getByRole("navigation", { name: "Mobile" });
  await expect(async () => {
    if (await nav.isHidden()) await page.getByRole("button", { name: "Open menu" }).click();
    await expect(nav).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return nav;
}
