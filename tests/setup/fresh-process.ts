/**
 * Test files share a worker process (vitest.config.ts: `isolate: false`) instead of each starting one: a new process
 * per file cost ~0.2 s to start plus ~0.5–0.9 s loading the dependencies again (better-auth, kysely, zod, pdfkit…),
 * for each of ~250 file runs. This setup file runs first before every test file and gives it what a fresh process
 * would: the environment the worker started with (a file's own settings don't reach the next file), and none of the
 * app's modules evaluated yet (vi.resetModules: the app's module-level state — the database handle, the settings
 * read from the environment, rate limits, caches — starts anew for each file). What stays shared is Node's cache of
 * the packages in node_modules, which the app doesn't change, and Vitest's own runtime.
 */
import { vi } from "vitest";

// A worker serves one project's files only (Vitest reuses a worker within its project), so its starting environment
// includes that project's `env` (TEST_DB…).
const state = globalThis as { __scentaraWorkerEnv?: NodeJS.ProcessEnv };
if (!state.__scentaraWorkerEnv) {
  state.__scentaraWorkerEnv = { ...process.env };
} else {
  const start = state.__scentaraWorkerEnv;
  for (const key of Object.keys(process.env)) if (!(key in start)) delete process.env[key];
  Object.assign(process.env, start);
}
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.resetModules();
