import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_RUN_AFTER_MS, GIFT_CARD_EXPIRY_EVERY_MS, GIFT_CARD_EMAILS_EVERY_MS, REVIEW_REQUESTS_EVERY_MS, REVIEW_REQUESTS_FIRST_AFTER_MS, UNPAID_EXPIRY_EVERY_MS, scheduleRepeating, startJobs } from "./jobs";

const quietLogger = () => ({ error: vi.fn(), info: vi.fn(), warn: vi.fn() });

describe("scheduleRepeating", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs first after its start delay, then every interval; stop() ends it", async () => {
    const run = vi.fn(async () => {});
    const job = scheduleRepeating({ name: "t", everyMs: 1000, firstAfterMs: 50, run, logger: quietLogger() });
    await vi.advanceTimersByTimeAsync(49);
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(5);
    await job.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(5);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("never overlaps itself: a slow run delays the next one, which starts an interval after it ended", async () => {
    let active = 0;
    let maxActive = 0;
    const starts: number[] = [];
    const run = vi.fn(async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 2500));
      active--;
    });
    const t0 = Date.now();
    const job = scheduleRepeating({ name: "slow", everyMs: 1000, firstAfterMs: 0, run, logger: quietLogger() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(maxActive).toBe(1);
    expect(starts.map((s) => s - t0)).toEqual([0, 3500, 7000]);
    await job.stop();
  });

  it("logs a failed run and keeps its schedule", async () => {
    const logger = quietLogger();
    const run = vi.fn().mockRejectedValueOnce(new Error("database went away")).mockResolvedValue(undefined);
    const job = scheduleRepeating({ name: "flaky", everyMs: 100, firstAfterMs: 0, run, logger });
    await vi.advanceTimersByTimeAsync(0);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ job: "flaky", err: expect.any(Error) }), expect.any(String));
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
  });

  it("stop() during a run waits for that run and schedules no other", async () => {
    let finish!: () => void;
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const job = scheduleRepeating({ name: "t", everyMs: 100, firstAfterMs: 0, run, logger: quietLogger() });
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("its timer does not keep the process alive", () => {
    vi.useRealTimers();
    const unref = vi.spyOn(globalThis, "setTimeout");
    const job = scheduleRepeating({ name: "t", everyMs: 60_000, firstAfterMs: 60_000, run: async () => {}, logger: quietLogger() });
    const timer = unref.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    unref.mockRestore();
    return job.stop();
  });
});

/** The jobs every server runs whatever its configuration: the flows' queued reactions (docs/decisions/061). */
const ALWAYS = ["deliver-reactions"];

describe("startJobs", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("starts the unpaid-order expiry with the configured hold, soon after start and every minute", async () => {
    const logger = quietLogger();
    const db = vi.fn(() => {
      throw new Error("no database in this test");
    });
    const started = startJobs({ UNPAID_ORDER_TTL_MINUTES: 60, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0 }, db as never, logger as never);
    expect(started.jobs.map((j) => j.name)).toEqual(["expire-unpaid-orders", ...ALWAYS]);
    expect(logger.info).toHaveBeenCalledWith(expect.objectContaining({ holdMinutes: 60 }), expect.any(String));
    await vi.advanceTimersByTimeAsync(FIRST_RUN_AFTER_MS);
    // each job's run asked the database once (its lease) and failed: logged, not thrown, and tried again a minute later
    expect(db).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls.map(([fields]) => (fields as { job: string }).job)).toEqual(["expire-unpaid-orders", "deliver-reactions"]);
    await vi.advanceTimersByTimeAsync(UNPAID_EXPIRY_EVERY_MS);
    expect(db).toHaveBeenCalledTimes(4);
    await started.stopAll();
    await vi.advanceTimersByTimeAsync(10 * UNPAID_EXPIRY_EVERY_MS);
    expect(db).toHaveBeenCalledTimes(4);
  });

  it("starts no expiry when it is off (UNPAID_ORDER_TTL_MINUTES=0), and says so; the reactions' delivery always runs", async () => {
    const logger = quietLogger();
    const started = startJobs({ UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0 }, (() => null) as never, logger as never);
    expect(started.jobs.map((j) => j.name)).toEqual(ALWAYS);
    expect(logger.warn).toHaveBeenCalled();
    await started.stopAll();
  });

  it("sends review requests every 10 minutes when REVIEW_REQUEST_AFTER_DAYS is above 0, and not at all at 0", async () => {
    const logger = quietLogger();
    const db = vi.fn(() => {
      throw new Error("no database in this test");
    });
    const started = startJobs({ UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 5 }, db as never, logger as never);
    expect(started.jobs.map((j) => j.name)).toEqual([...ALWAYS, "send-review-requests"]);
    const reviewRuns = () => logger.error.mock.calls.filter(([fields]) => (fields as { job: string }).job === "send-review-requests").length;
    await vi.advanceTimersByTimeAsync(REVIEW_REQUESTS_FIRST_AFTER_MS);
    expect(reviewRuns()).toBe(1); // the lease asked the database (and failed: logged, tried again later)
    await vi.advanceTimersByTimeAsync(REVIEW_REQUESTS_EVERY_MS);
    expect(reviewRuns()).toBe(2);
    await started.stopAll();

    const off = startJobs({ UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0 }, db as never, quietLogger() as never);
    expect(off.jobs.map((j) => j.name)).toEqual(ALWAYS);
    await off.stopAll();
  });

  it("looks for expired gift card balances every hour and for dated gift cards to e-mail every 5 minutes (the server's configuration always has the expiry)", async () => {
    const runs: string[] = [];
    const db = vi.fn(() => {
      throw new Error("no database in this test");
    });
    const logger = { ...quietLogger(), error: vi.fn((fields: { job?: string }) => void runs.push(fields.job ?? "")) };
    const started = startJobs({ UNPAID_ORDER_TTL_MINUTES: 0, EFT_HOLD_DAYS: 3, REVIEW_REQUEST_AFTER_DAYS: 0, GIFT_CARD_EXPIRY_MONTHS: 36 }, db as never, logger as never);
    expect(started.jobs.map((j) => j.name)).toEqual([...ALWAYS, "expire-gift-cards", "send-gift-cards"]);
    await vi.advanceTimersByTimeAsync(REVIEW_REQUESTS_FIRST_AFTER_MS);
    expect(runs.filter((j) => j === "expire-gift-cards")).toHaveLength(1);
    expect(runs.filter((j) => j === "send-gift-cards")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(GIFT_CARD_EXPIRY_EVERY_MS);
    expect(runs.filter((j) => j === "expire-gift-cards")).toHaveLength(2);
    expect(runs.filter((j) => j === "send-gift-cards")).toHaveLength(1 + GIFT_CARD_EXPIRY_EVERY_MS / GIFT_CARD_EMAILS_EVERY_MS);
    await started.stopAll();
  });
});
