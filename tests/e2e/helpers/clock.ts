import { expect, type Locator, type Page } from "@playwright/test";

/**
 * A success message lasts 3 seconds (SPEC §9), then goes. A test that looks for one must not race that timer: on a
 * loaded machine the message can come and go between two of Playwright's looks (it did, in full runs). So the test
 * owns the page's clock: `useTestClock` before the page loads (time still flows), `holdTime` before the action that
 * brings the message (the page's timers stop), then `expectFleeting`: the message is there, stays while time stands
 * still, and is gone once 3 seconds have been run on the clock; then time flows again.
 */
export async function useTestClock(page: Page) {
  await page.clock.install();
}

/**
 * Stops the page's clock a moment ahead of the page's now (firing nothing that matters). The page's time runs on
 * while we ask for it; on a loaded machine it can pass the moment chosen, and Playwright refuses to go back: then we
 * read it again and choose anew.
 */
export async function holdTime(page: Page) {
  for (let attempt = 0; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 250);
      return;
    } catch (error) {
      if (attempt >= 5 || !/to the past/.test(String(error))) throw error;
    }
  }
}

/** The message shows, and is gone after the 3 seconds SPEC §9 gives it; the clock runs freely again afterwards. */
export async function expectFleeting(page: Page, message: Locator, lastsMs = 3000) {
  await expect(message).toBeVisible();
  await page.clock.runFor(lastsMs - 1);
  await expect(message).toBeVisible();
  await page.clock.runFor(1);
  await expect(message).toBeHidden();
  await page.clock.resume();
}
