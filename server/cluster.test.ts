import { describe, expect, it } from "vitest";
import { CRASH_WINDOW_MS, MAX_RESTART_DELAY_MS, restartDelayMs, webConcurrency, workerEnvironment } from "./cluster";

describe("WEB_CONCURRENCY", () => {
  it("is one worker per core when unset or empty", () => {
    expect(webConcurrency(undefined, 2)).toBe(2);
    expect(webConcurrency("", 8)).toBe(8);
    expect(webConcurrency("  ", 4)).toBe(4);
  });

  it("takes a whole number of workers, 1 included", () => {
    expect(webConcurrency("1", 8)).toBe(1);
    expect(webConcurrency(" 3 ", 2)).toBe(3);
  });

  it.each(["0", "-1", "1.5", "two", "auto", "2x", "5000"])("refuses %j with a message naming the variable", (value) => {
    expect(() => webConcurrency(value, 2)).toThrow(/WEB_CONCURRENCY: the number of worker processes, 1 or more/);
  });
});

describe("replacing a crashed worker", () => {
  const now = 10 * CRASH_WINDOW_MS;
  it("happens at once for a first crash", () => {
    expect(restartDelayMs([now], now)).toBe(0);
    // crashes longer ago than the window don't count
    expect(restartDelayMs([now - CRASH_WINDOW_MS, now - CRASH_WINDOW_MS - 5, now], now)).toBe(0);
  });

  it("backs off, doubling, when workers keep crashing within a minute, up to 30 s", () => {
    const crashes = (n: number) => Array.from({ length: n }, (_, i) => now - (n - 1 - i) * 100);
    expect(restartDelayMs(crashes(2), now)).toBe(1000);
    expect(restartDelayMs(crashes(3), now)).toBe(2000);
    expect(restartDelayMs(crashes(4), now)).toBe(4000);
    expect(restartDelayMs(crashes(6), now)).toBe(16_000);
    expect(restartDelayMs(crashes(7), now)).toBe(MAX_RESTART_DELAY_MS);
    expect(restartDelayMs(crashes(50), now)).toBe(MAX_RESTART_DELAY_MS);
  });
});

describe("a worker's environment", () => {
  it("caps glibc's malloc arenas unless the operator chose a value, and adds what the primary hands on", () => {
    expect(workerEnvironment({}, {})).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(workerEnvironment({ AUTH_SECRET: "s" }, {})).toEqual({ MALLOC_ARENA_MAX: "2", AUTH_SECRET: "s" });
    // the operator's own value reaches the worker from the primary's environment (cluster.fork adds to it): not replaced
    expect(workerEnvironment({}, { MALLOC_ARENA_MAX: "8" })).toEqual({});
  });
});
