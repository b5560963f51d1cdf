import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

/**
 * Three projects: pure unit tests; integration tests (*.int.test.ts) on SQLite; the same integration tests on
 * PostgreSQL when scripts/test.sh found PostgreSQL binaries and started a throwaway server (TEST_PG_URL).
 */
const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };
const integration = ["app/**/*.int.test.{ts,tsx}", "server/**/*.int.test.ts", "tests/integration/**/*.int.test.{ts,tsx}", "tests/authz/**/*.int.test.ts", "tests/fuzz/**/*.int.test.ts"];

export default defineConfig({
  resolve: { alias },
  test: {
    // One test file per core (Vitest's default leaves one core idle): much of an integration test's time is spent
    // waiting on PostgreSQL, another process, so on the 2-core reference machine one worker left a core half idle and
    // the run took 604 s. Timing tests take medians of warm calls, so a neighbour file doesn't decide them.
    maxWorkers: availableParallelism(),
    // In every project test files share their worker's process (`isolate: false`: a process per file spent ~1 s
    // starting and loading the packages again, in each of ~250 file runs); tests/setup/fresh-process.ts, each
    // project's first setup file, gives every file the worker's starting environment and its own fresh evaluation of
    // the app's modules, as its own process did.
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: integration,
          isolate: false,
          setupFiles: ["tests/setup/fresh-process.ts"],
          env: { NODE_ENV: "test" },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "sqlite",
          include: integration,
          isolate: false,
          setupFiles: ["tests/setup/fresh-process.ts", "tests/setup/integration.ts"],
          env: { NODE_ENV: "test", TEST_DB: "sqlite" },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      ...(process.env.TEST_PG_URL
        ? [
            {
              resolve: { alias },
              test: {
                name: "postgres",
                include: integration,
                isolate: false,
                setupFiles: ["tests/setup/fresh-process.ts", "tests/setup/integration.ts"],
                env: { NODE_ENV: "test", TEST_DB: "postgres" },
                testTimeout: 20_000,
                hookTimeout: 30_000,
              },
            },
          ]
        : []),
    ],
  },
});
