/**
 * The end-to-end `test`: Playwright's, with a shop of its own for each worker. Every worker (playwright.config.ts runs
 * one per core) starts `node server.js` from the build on its own port with a fresh SQLite database and the demo
 * catalogue, and `baseURL` points at it, so spec files run side by side without seeing each other's orders, admin
 * changes or page cache. Specs import `test` and `expect` from here instead of from "@playwright/test".
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { test as base } from "@playwright/test";

export * from "@playwright/test";

/** The first worker's port; the next ones are 10 apart (tests/e2e/couriers.spec.ts takes this port + 7 for its shop). */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 3210);

/** The environment every worker's shop runs with. */
export function e2eShopEnv(port: number): Record<string, string> {
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = e2eDataDir(port);
  return {
    NODE_ENV: "production",
    PORT: String(port),
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
  };
}

/** A worker's shop keeps its database and media here (tests/e2e/accounts.spec.ts reads the database). */
export function e2eDataDir(port: number): string {
  return `/tmp/scentara-e2e-${port}`;
}

export const test = base.extend<object, { shopURL: string }>({
  shopURL: [
    async ({}, use, workerInfo) => {
      const port = FIRST_PORT + workerInfo.parallelIndex * 10;
      const url = `http://127.0.0.1:${port}`;
      rmSync(e2eDataDir(port), { recursive: true, force: true });
      mkdirSync(e2eDataDir(port), { recursive: true });
      const child = spawn(process.execPath, ["server.js"], { env: { ...process.env, ...e2eShopEnv(port) }, stdio: ["ignore", "ignore", "pipe"] });
      let errors = "";
      child.stderr!.on("data", (d: Buffer) => {
        errors += d;
        process.stderr.write(d);
      });
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the E2E shop on port ${port} exited (${child.exitCode}):\n${errors}`);
        if ((await fetch(`${url}/healthz`).catch(() => null))?.ok) break;
        if (Date.now() > deadline) throw new Error(`the E2E shop on port ${port} did not answer /healthz in 60 s:\n${errors}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await use(url);
      // a shop that already stopped (it crashed, or something outside killed it) has no exit left to wait for: the
      // worker's teardown then hung for the fixture's 90 s timeout after the failure the dead shop caused
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ shopURL }, use) => use(shopURL),
});
