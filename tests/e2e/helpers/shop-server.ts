/**
 * A shop of its own for a test: `node server.js` from the build on a port, with a fresh SQLite database and media
 * folder, and the environment the test adds. Its output is kept for assertions and failure messages.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "@playwright/test";
import { E2E_ADMIN_EMAIL, E2E_PASSWORD, registerByRequest, signInByRequest } from "./auth";
import { startMailServer, type MailServer } from "../../factories/mail-server";

export function startShop(port: number, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "scentara-server-"));
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: join(dir, "shop.db"),
      MEDIA_DIR: join(dir, "media"),
      SEED_DEMO: "false",
      AUTH_SECRET: "server-test-secret-server-test-secret-0123",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, dir, output: () => output, exited };
}

/** Waits until the shop answers /healthz (or fails with its output when it exits first). */
export async function waitForShop(shop: ReturnType<typeof startShop>, base: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void shop.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the shop exited:\n${shop.output()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the shop did not start in ${timeoutMs} ms:\n${shop.output()}`);
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface OwnShop {
  baseURL: string;
  /** the signed-in admin's cookies, for browser.newContext({ storageState }) */
  adminState: Awaited<ReturnType<BrowserContext["storageState"]>>;
  shop: ReturnType<typeof startShop>;
  /** stops the shop and removes its data */
  close: () => Promise<void>;
}

/**
 * A shop of its own for a spec whose journeys would disturb the worker's shared shop (thousands of imported products,
 * VAT registration): the demo catalogue and the shared shop's settings plus `env`, on a free port, with the admin
 * registered and signed in.
 */
export async function startOwnShop(browser: Browser, env: Record<string, string> = {}): Promise<OwnShop> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const shop = startShop(port, {
    SEED_DEMO: "true",
    PUBLIC_BASE_URL: baseURL,
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123",
    ADMIN_EMAILS: E2E_ADMIN_EMAIL,
    LOG_LEVEL: "warn",
    WEB_CONCURRENCY: "1",
    PAYMENT_METHODS: "card",
    DELIVERY_KINDS: "",
    ...env,
  });
  await waitForShop(shop, baseURL);
  // registered and signed in by request, as the forms post (the sign-in pages have tests of their own)
  const context = await browser.newContext({ baseURL });
  const admin = { email: E2E_ADMIN_EMAIL, password: E2E_PASSWORD };
  await registerByRequest(context, admin);
  await signInByRequest(context, admin);
  const adminState = await context.storageState();
  await context.close();
  return {
    baseURL,
    adminState,
    shop,
    close: async () => {
      shop.child.kill("SIGTERM");
      await shop.exited;
      rmSync(shop.dir, { recursive: true, force: true });
    },
  };
}

/**
 * A shop of its own on a fixed port (a spec's `test.use({ baseURL })` is known before the shop starts), with the demo
 * catalogue, whose mail goes to a real SMTP server started here (read back with mailparser: `smtp.received`). Each
 * spec takes a port offset from E2E_PORT no other spec uses (the worker shops are E2E_PORT, E2E_PORT + 10, …).
 */
export async function startShopWithMail(port: number, env: Record<string, string> = {}) {
  const smtp: MailServer = await startMailServer();
  const baseURL = `http://127.0.0.1:${port}`;
  const shop = startShop(port, { SEED_DEMO: "true", LOG_LEVEL: "warn", WEB_CONCURRENCY: "1", PUBLIC_BASE_URL: baseURL, DELIVERY_KINDS: "", SMTP_URL: smtp.url, ...env });
  await waitForShop(shop, baseURL);
  return {
    shop,
    smtp,
    /** stops the shop, removes its data and stops the mail server */
    close: async () => {
      shop.child.kill("SIGTERM");
      await shop.exited;
      rmSync(shop.dir, { recursive: true, force: true });
      await smtp.close();
    },
  };
}

