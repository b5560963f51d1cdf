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

/**
 * The clock of the page's CSS animations, which page.clock doesn't reach: the "still loading" line appears by a CSS
 * animation delay (4 s), as it must show when no script runs at all. Through the DevTools protocol the page's
 * animation timeline is held (nothing animated moves on, across navigations too) and then run fast (1000×: the 4 s
 * pass in 4 ms), so a test sees the line absent while no time passes and present once it has, without waiting.
 */
export async function animationClock(page: Page) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Animation.enable");
  const rate = (playbackRate: number) => devtools.send("Animation.setPlaybackRate", { playbackRate });
  return { hold: () => rate(0), fastForward: () => rate(1000) };
}
