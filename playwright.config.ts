import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${PORT}`;
// Per-port data and output, so parallel runs (E2E_PORT, BUILD_DIR) don't collide.
const dataDir = `/tmp/scentara-e2e-${PORT}`;
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/** End-to-end tests against the production build, on a fresh SQLite database with the demo catalogue. */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: `test-results/${PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: { baseURL, trace: "off", launchOptions: chromium },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium } },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && mkdir -p ${dataDir} && node server.js`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      DATABASE_URL: `${dataDir}/shop.db`,
      MEDIA_DIR: `${dataDir}/media`,
      PUBLIC_BASE_URL: baseURL,
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123",
      ADMIN_EMAILS: "admin@scentara.test",
      LOG_LEVEL: "warn",
      // One process: the journeys read what they just changed, and some check that a second look is a page-cache hit,
      // which is per process. The cluster (one worker per core, the default) has its own tests (scale-out.spec.ts).
      WEB_CONCURRENCY: "1",
      // Card (the simulated provider) and a manual bank transfer, with a demo bank account.
      PAYMENT_METHODS: "card,eft",
      EFT_BANK_NAME: "First National Bank",
      EFT_ACCOUNT_NAME: "Scentara (Pty) Ltd",
      EFT_ACCOUNT_NUMBER: "62812345678",
      EFT_BRANCH_CODE: "250655",
      // The zone-table checkout these journeys were written for; couriers have their own journey with its own shop
      // and fake couriers (tests/e2e/couriers.spec.ts).
      DELIVERY_KINDS: "",
    },
  },
});
