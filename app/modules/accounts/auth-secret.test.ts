import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localSecret, localSecretPath } from "./auth-secret.server";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "scentara-secret-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the local session secret (a shop started with nothing configured)", () => {
  it("is made once, owner-only, and the same on every later start", async () => {
    const path = join(dir, "data", ".auth-secret");
    const first = localSecret(path);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(localSecret(path)).toBe(first);
    expect((await readFile(path, "utf8")).trim()).toBe(first);
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
  }, 30_000);

  it("refuses a file that holds no secret rather than silently replacing it", async () => {
    const path = join(dir, ".auth-secret");
    await writeFile(path, "short\n");
    expect(() => localSecret(path)).toThrow(/holds no secret/);
  });

  it("lives beside the SQLite database, or in data/ for PostgreSQL", () => {
    expect(localSecretPath("/srv/shop/shop.db")).toBe("/srv/shop/.auth-secret");
    expect(localSecretPath("postgres://u@h/db")).toMatch(/\/data\/\.auth-secret$/);
  });
});
