import { availableParallelism } from "node:os";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const chromium = {
  // scripts/test.sh sets CHROMIUM_PATH (Debian's chromium-headless-shell unless told otherwise).
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/**
 * End-to-end tests against the production build. Each worker (one per core) has a shop of its own on a fresh SQLite
 * database with the demo catalogue (tests/e2e/helpers/test.ts), ports E2E_PORT, E2E_PORT + 10, …; spec files are
 * shared out between the workers, and the tests of one file run in order in one worker.
 *
 * Screenshots taken to look at the pages (test-results/…) are JPEG: a full-page PNG took 2–3 times as long to encode.
 * Accessibility checks go through tests/e2e/helpers/shop.ts `axe` (legacy mode, violations only: a third of the time).
 *
 * The browser asks for reduced motion (the setting a shopper can choose on a phone; the shop honours it): the home
 * page's hero floats for its first 27 seconds otherwise (once it floated without end), and a page drawing frames
 * for it cost Chromium ~0.2 s of CPU every second (measured with the endless float: 38 core-seconds of one end-to-end
 * run, ~30 s of its time). The animations themselves are checked in tests/e2e/home.spec.ts, with motion allowed.
 */
export default defineConfig({
  testDir: "tests/e2e",
  // Per-port output, so parallel runs (E2E_PORT, BUILD_DIR) don't collide.
  outputDir: `test-results/${PORT}`,
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? availableParallelism()),
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: { trace: "off", launchOptions: chromium, reducedMotion: "reduce" },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium } },
  ],
});
