import type { Page, PageScreenshotOptions } from "@playwright/test";

/**
 * A screenshot for a person to look at (under test-results/): the pages at each width, as the developers' guide asks.
 * CI keeps none of them, so `.ci/run` sets E2E_SCREENSHOTS=0 and they are not taken (116 shots, most full-page: about
 * 20-35 s of the end-to-end run on the 2-core reference machine). Every check beside them still runs.
 */
export async function screenshot(page: Page, options: PageScreenshotOptions): Promise<void> {
  if (process.env.E2E_SCREENSHOTS === "0") return;
  await page.screenshot(options);
}
