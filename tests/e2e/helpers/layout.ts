import { expect, type Page } from "@playwright/test";

/** The mobile menu's toggle: the <summary> of a native disclosure (no ARIA role of its own in Playwright). */
export const mobileMenuToggle = (page: Page) => page.locator("summary[aria-label='Menu']");

/** Opens the mobile menu (a native <details>: it opens before hydration too); never taps an open menu shut. */
export async function openMobileMenu(page: Page) {
  const nav = page.getByRole("navigation", { name: "Mobile" });
  await expect(async () => {
    if (await nav.isHidden()) await mobileMenuToggle(page).click();
    await expect(nav).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return nav;
}
