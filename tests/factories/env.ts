import { resetEnvForTests } from "~/utils/env.server";

/**
 * Sets environment variables for a test file (undefined removes one) and re-reads the app's settings; returns what
 * puts back the values those variables had before, for the file's afterAll.
 */
export function setTestEnv(values: Record<string, string | undefined>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  applyEnv(values);
  return () => applyEnv(before);
}

function applyEnv(values: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTests();
}
