/**
 * A shop of its own for a test: `node server.js` from the build on a port, with a fresh SQLite database and media
 * folder, and the environment the test adds. Its output is kept for assertions and failure messages.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
