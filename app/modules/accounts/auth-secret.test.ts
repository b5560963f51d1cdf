import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { localSecret, localSecretPath } from "./auth-secret.server";

let dir: string;
const savedEnv = { ...process.env };
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "scentara-secret-"));
});
afterEach(async () => {
  process.env = { ...savedEnv };
  vi.resetModules();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh process's view: the configuration and the secret module loaded anew with these variables only. */
async function startWith(vars: Record<string, string>) {
  vi.resetModules();
  process.env = { PATH: savedEnv.PATH, LOG_LEVEL: "silent", ...vars };
  const secrets = await import("./auth-secret.server");
  const simulated = await import("~/modules/payments/simulated.server");
  return { secret: secrets.authSecret(), webhookSecret: simulated.simulatedWebhookSecret() };
}

describe("the local session secret (a shop started with nothing configured)", () => {
  it("is made once, owner-only, and the same on every later start", async () => {
    const path = join(dir, "data", ".auth-secret");
    const first = localSecret(path);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(localSecret(path)).toBe(first);
    expect((await readFile(path, "utf8")).trim()).toBe(first);
    expect(await readdir(join(dir, "data"))).toEqual([".auth-secret"]);
  });

  it("six processes starting at once end with one secret", async () => {
    const path = join(dir, ".auth-secret");
    const script = `import { localSecret } from "./app/modules/accounts/auth-secret.server.ts"; process.stdout.write(localSecret(${JSON.stringify(path)}));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        execFile("node_modules/.bin/tsx", ["--eval", script], { env: { ...process.env, LOG_LEVEL: "silent" } }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
      });
    const secrets = await Promise.all(Array.from({ length: 6 }, run));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toBe((await readFile(path, "utf8")).trim());
    expect(await readdir(dir)).toEqual([".auth-secret"]);
  }, 30_000);

  it("refuses a file that holds no secret rather than silently replacing it", async () => {
    const path = join(dir, ".auth-secret");
    await writeFile(path, "short\n");
    expect(() => localSecret(path)).toThrow(/holds no secret/);
  });

  it("lives beside the SQLite database, or in data/ for PostgreSQL and in-memory databases", () => {
    expect(localSecretPath("/srv/shop/shop.db")).toBe("/srv/shop/.auth-secret");
    expect(localSecretPath("file:/srv/shop/shop.db")).toBe("/srv/shop/.auth-secret");
    expect(localSecretPath("file:///srv/shop/shop.db")).toBe("/srv/shop/.auth-secret");
    expect(localSecretPath("file:shop/shop.db")).toBe(join(process.cwd(), "shop", ".auth-secret"));
    expect(localSecretPath("postgres://u@h/db")).toBe(join(process.cwd(), "data", ".auth-secret"));
    expect(localSecretPath(":memory:")).toBe(join(process.cwd(), "data", ".auth-secret"));
  });
});

describe("authSecret(): one secret for sessions and the simulated provider", () => {
  it("a local start (production build, http address) makes the file beside the database; the next start reuses it", async () => {
    const db = join(dir, "data", "shop.db");
    const first = await startWith({ NODE_ENV: "production", DATABASE_URL: db });
    const kept = (await readFile(join(dir, "data", ".auth-secret"), "utf8")).trim();
    expect(first.secret).toBe(kept);
    expect((await stat(join(dir, "data", ".auth-secret"))).mode & 0o777).toBe(0o600);
    const again = await startWith({ NODE_ENV: "production", DATABASE_URL: db });
    expect(again).toEqual(first);
    // the simulated provider's webhook key derives from the same resolved secret, so it too survives restarts
    expect(first.webhookSecret).toBe(`whsec_${createHmac("sha256", kept).update("scentara:simulated-payment-webhooks").digest("base64")}`);
  });

  it("an https deployment uses its AUTH_SECRET and writes no file", async () => {
    const given = "d".repeat(43);
    const started = await startWith({ NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: given, ALLOW_TEST_PAYMENTS: "true", ALLOW_TEST_DELIVERIES: "true", DATABASE_URL: join(dir, "shop.db") });
    expect(started.secret).toBe(given);
    expect(await readdir(dir)).toEqual([]);
  });

  it("an https deployment without AUTH_SECRET refuses to start and writes no file", async () => {
    await expect(startWith({ NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example.co.za", ALLOW_TEST_PAYMENTS: "true", DATABASE_URL: join(dir, "shop.db") })).rejects.toThrow(/AUTH_SECRET is required/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("tests get a fixed secret and write nothing", async () => {
    const a = await startWith({ NODE_ENV: "test", DATABASE_URL: join(dir, "shop.db") });
    const b = await startWith({ NODE_ENV: "test", DATABASE_URL: ":memory:" });
    expect(a).toEqual(b);
    expect(await readdir(dir)).toEqual([]);
  });
});
